// Content negotiation as kube-apiserver does it: which serializer decodes a request body (Content-Type)
// and which encodes the answer (Accept, with q-values and the `as=Table;v=v1;g=meta.k8s.io` conversion).
// The served media types are the apiserver's codec factory's, in its order: JSON, YAML, protobuf. JSON and
// protobuf can also stream a watch (`application/vnd.kubernetes.protobuf;stream=watch`); YAML cannot.
// Models k8s.io/apiserver/pkg/endpoints/handlers/negotiation/negotiate.go (NegotiateMediaTypeOptions,
// NegotiateInputSerializerForMediaType, acceptMediaTypeOptions), github.com/munnerz/goautoneg (ParseAccept)
// and k8s.io/apiserver/pkg/endpoints/handlers/rest.go (RequestScope.AllowsConversion).

import { newNotAcceptable, newUnsupportedMediaType } from '../api/errors.ts';
import type { HttpRequest, HttpResponse } from '../wire/http.ts';
import { hasProtobufKind } from '../api/protobuf/index.ts';
import { remembered } from '../api/remembered.ts';

/** How many distinct Accept headers the parse and the negotiation remember. */
const acceptsKept = 256;

export const jsonMediaType = 'application/json';
export const yamlMediaType = 'application/yaml';
export const protobufMediaType = 'application/vnd.kubernetes.protobuf';

export type MediaType = typeof jsonMediaType | typeof yamlMediaType | typeof protobufMediaType;

/** The serializers a resource endpoint offers, in the codec factory's order (the first is the default). */
export const servedMediaTypes: readonly MediaType[] = [jsonMediaType, yamlMediaType, protobufMediaType];
/** Those with a stream serializer (watch). */
export const streamMediaTypes: readonly MediaType[] = [jsonMediaType, protobufMediaType];

/** One clause of an Accept header. */
export interface AcceptClause {
  readonly type: string;
  readonly subType: string;
  readonly q: number;
  readonly params: ReadonlyMap<string, string>;
}

/**
 * Parses an Accept header as goautoneg does: clauses split on `,`, parameters on `;`, `q` read as a
 * float (unparseable is 0), a bare `*` is `*\/*`, clauses without a `/` are dropped; then sorted by q
 * (higher first) and, at equal q, concrete types before wildcards (a stable sort, as Go's insertion sort
 * is for short lists). Clauses with q=0 are kept: the apiserver does not drop them.
 */
// Models github.com/munnerz/goautoneg/autoneg.go (ParseAccept, acceptSlice.Less).
// Remembered for the Accept headers seen last: clients send a handful of distinct ones, each on every request.
export const parseAccept: (header: string) => readonly AcceptClause[] = remembered(parseAcceptClauses, acceptsKept);

function parseAcceptClauses(header: string): AcceptClause[] {
  const clauses: AcceptClause[] = [];
  for (const rawPart of header.split(',')) {
    const part = rawPart.replace(/^ +| +$/g, '');
    const pieces = part.split(';');
    const range = pieces[0]!.split('/');
    const type = range[0]!.replace(/^ +| +$/g, '');
    let subType: string;
    if (range.length === 1 && type === '*') subType = '*';
    else if (range.length === 2) subType = range[1]!.replace(/^ +| +$/g, '');
    else continue;
    let q = 1;
    const params = new Map<string, string>();
    for (const param of pieces.slice(1)) {
      const eq = param.indexOf('=');
      if (eq < 0) continue;
      const token = param.slice(0, eq).replace(/^ +| +$/g, '');
      const value = param.slice(eq + 1);
      if (token === 'q') {
        const parsed = Number(value);
        q = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(value) && Number.isFinite(parsed) ? parsed : 0;
      } else {
        params.set(token, value.replace(/^ +| +$/g, ''));
      }
    }
    clauses.push({ type, subType, q, params });
  }
  const less = (a: AcceptClause, b: AcceptClause): boolean =>
    a.q > b.q || (a.type !== '*' && b.type === '*') || (a.subType !== '*' && b.subType === '*');
  // Insertion sort: stable, and exactly what Go's sort.Sort does for fewer than 12 elements.
  for (let i = 1; i < clauses.length; i++) {
    for (let j = i; j > 0 && less(clauses[j]!, clauses[j - 1]!); j--) {
      [clauses[j - 1], clauses[j]] = [clauses[j]!, clauses[j - 1]!];
    }
  }
  return clauses;
}

/** A conversion asked for with `as=…;g=…;v=…`: a Table (kubectl get) or PartialObjectMetadata. */
export interface Conversion {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

export interface NegotiatedMediaType {
  readonly mediaType: MediaType;
  readonly convert: Conversion | null;
  /** `pretty=1` in the clause. */
  readonly pretty: boolean;
}

export interface EndpointRestrictions {
  /** Resource endpoints allow Table (JSON or YAML only) and PartialObjectMetadata(List) in meta.k8s.io v1/v1beta1. */
  readonly allowsConversion: (convert: Conversion, mediaType: MediaType) => boolean;
}

/** What a resource endpoint (RequestScope) allows. */
// Models k8s.io/apiserver/pkg/endpoints/handlers/rest.go (RequestScope.AllowsConversion).
export const resourceEndpoint: EndpointRestrictions = {
  allowsConversion: (c, mediaType) => {
    if (c.group !== 'meta.k8s.io' || (c.version !== 'v1' && c.version !== 'v1beta1')) return false;
    if (c.kind === 'Table') return mediaType === jsonMediaType || mediaType === yamlMediaType;
    return c.kind === 'PartialObjectMetadata' || c.kind === 'PartialObjectMetadataList';
  },
};

/** Endpoints that convert nothing (DefaultEndpointRestrictions). */
export const plainEndpoint: EndpointRestrictions = { allowsConversion: () => false };

/**
 * The media type of the answer: the first clause (in Accept order after sorting) that names a served type
 * or a wildcard and whose parameters the endpoint allows; with no Accept, or when nothing matches, the
 * default (JSON) — kube-apiserver answers JSON rather than 406 for an Accept it cannot meet.
 */
// Models negotiation.NegotiateMediaTypeOptions and acceptMediaTypeOptions.
export function negotiateMediaType(accept: string | undefined, endpoint: EndpointRestrictions = resourceEndpoint, served: readonly MediaType[] = servedMediaTypes): NegotiatedMediaType {
  if (accept === undefined || accept === '') return { mediaType: served[0]!, convert: null, pretty: false };
  if (endpoint !== resourceEndpoint || served !== servedMediaTypes) return negotiate(accept, endpoint, served);
  // A resource endpoint's answer depends on the Accept header alone (the result is never mutated).
  return negotiateForResource(accept);
}

const negotiateForResource = remembered((accept: string) => negotiate(accept, resourceEndpoint, servedMediaTypes), acceptsKept);

function negotiate(accept: string, endpoint: EndpointRestrictions, served: readonly MediaType[]): NegotiatedMediaType {
  const fallback: NegotiatedMediaType = { mediaType: served[0]!, convert: null, pretty: false };
  for (const clause of parseAccept(accept)) {
    for (const mediaType of served) {
      const [type, subType] = mediaType.split('/') as [string, string];
      const matches = (clause.type === type && (clause.subType === subType || clause.subType === '*')) || (clause.type === '*' && clause.subType === '*');
      if (!matches) continue;
      const options = acceptOptions(clause, mediaType, endpoint, streamMediaTypes.includes(mediaType));
      if (options) return options;
    }
  }
  return fallback;
}

function acceptOptions(clause: AcceptClause, mediaType: MediaType, endpoint: EndpointRestrictions, streams: boolean): NegotiatedMediaType | null {
  let convert: { group: string; version: string; kind: string } | null = null;
  let pretty = false;
  for (const [k, v] of clause.params) {
    switch (k) {
      case 'as': (convert ??= { group: '', version: '', kind: '' }).kind = v; break;
      case 'g': (convert ??= { group: '', version: '', kind: '' }).group = v; break;
      case 'v': (convert ??= { group: '', version: '', kind: '' }).version = v; break;
      case 'stream': if (v !== '' && (!streams || v !== 'watch')) return null; break;
      case 'sv': if (v !== '') return null; break;
      case 'pretty': pretty = v === '1'; break;
      default: break;
    }
  }
  if (convert && !endpoint.allowsConversion(convert, mediaType)) return null;
  return { mediaType, convert, pretty };
}

/**
 * The media type a watch streams in: negotiated as for any answer, then refused with 406 (listing the
 * stream types) when that serializer cannot stream (YAML).
 */
// Models negotiation.NegotiateOutputMediaTypeStream.
export function negotiateWatchMediaType(accept: string | undefined): NegotiatedMediaType {
  const n = negotiateMediaType(accept);
  if (!streamMediaTypes.includes(n.mediaType)) throw newNotAcceptable(streamMediaTypes.map((t) => `${t};stream=watch`));
  return n;
}

/** The Content-Type of a watch response: JSON as is, any other type with `;stream=watch`. */
// Models k8s.io/apiserver/pkg/endpoints/handlers/watch.go (serveWatchHandler's mediaType).
export function watchContentType(mediaType: MediaType): string {
  return mediaType === jsonMediaType ? jsonMediaType : `${mediaType};stream=watch`;
}

/**
 * The serializer for a request body by its Content-Type: missing means the default (JSON); parameters
 * (`; charset=utf-8`) are ignored; anything else unparseable or unserved is the 415
 * `the body of the request was in an unknown format - accepted media types include: …`.
 */
// Models negotiation.NegotiateInputSerializerForMediaType (mime.ParseMediaType lower-cases the type).
export function negotiateInputMediaType(contentType: string | undefined): MediaType {
  if (contentType === undefined || contentType === '') return servedMediaTypes[0]!;
  const parsed = parseMediaType(contentType);
  const served = servedMediaTypes.find((t) => t === parsed);
  if (served === undefined) throw newUnsupportedMediaType(servedMediaTypes);
  return served;
}

/** The bare media type of a Content-Type header, lower-cased, or null when it is not `type/subtype`. */
export function parseMediaType(contentType: string): string | null {
  const base = contentType.split(';')[0]!.trim().toLowerCase();
  return /^[!#$%&'*+\-.^_`|~0-9a-z]+\/[!#$%&'*+\-.^_`|~0-9a-z]+$/.test(base) ? base : null;
}

/**
 * A resource request's answer in the negotiated serializer: an object body the handlers built as JSON
 * (an object, a List, a Table, a Status error) gets the Content-Type the Accept header negotiates, and the
 * Node server encodes it accordingly. Text bodies, streams and non-JSON answers are left as they are.
 */
// Models responsewriters.WriteObjectNegotiated and ErrorNegotiated (both negotiate the same way).
export function withNegotiatedContentType(request: Pick<HttpRequest, 'headers'>, response: HttpResponse): HttpResponse {
  if (response.stream || typeof response.body !== 'object' || response.body === null) return response;
  if (response.headers['content-type'] !== jsonMediaType) return response;
  const { mediaType } = negotiateMediaType(request.headers.accept);
  if (mediaType === jsonMediaType) return response;
  // Deviation: a kind the protobuf codec cannot write (none of the served kinds) stays JSON rather than a 500.
  if (mediaType === protobufMediaType && !hasProtobufKind((response.body as { kind?: string }).kind ?? '')) return response;
  return { ...response, headers: { ...response.headers, 'content-type': mediaType } };
}

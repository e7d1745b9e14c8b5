// Decoding what a client sent: JSON, YAML or Kubernetes protobuf (by Content-Type) into an object of
// the kind the URL expects. Errors are the 4xx kube-apiserver answers for bodies it cannot use: 415 for a
// media type it has no serializer for, 400 for bodies that do not decode, and under
// fieldValidation=Strict for unknown and duplicate fields (warnings under Warn).
// Models k8s.io/apiserver/pkg/endpoints/handlers (create.go, update.go: decoding, transformDecodeError,
// summarizeData, the group-version and namespace checks), negotiation.NegotiateInputSerializer and
// apimachinery's json serializer errors. The texts for a wrong kind and for malformed JSON follow
// upstream's shape, but the Go decoder's inner error (which names Go types and byte offsets) is replaced
// by the JavaScript parser's message.

import { parse as parseYaml, parseDocument } from 'yaml';
import { decodeErrorStatus, decodeForRequest, decodeStruct, type FieldValidation } from '../api/decode.ts';
import { newBadRequest } from '../api/errors.ts';
import { apiVersionOf, type ResourceInfo } from '../api/resources.ts';
import type { KubeObject } from '../api/types/meta.ts';
import type { HttpRequest } from '../wire/http.ts';
import { copyJson } from '../api/json-copy.ts';
import { utf8Decode, utf8Encode } from '../etcd/bytes.ts';
import { goQuote } from '../go/strconv.ts';
import { jsonMediaType, negotiateInputMediaType, protobufMediaType, yamlMediaType, type MediaType } from './negotiation.ts';
import { orderedStrictErrors, scanKeys } from './strict-json.ts';
import { decodeProtobufBody } from './wire-encoding.ts';

/** A request body as the apiserver read it: the decoded value, its media type and, for JSON, its text. */
export interface ReadBody {
  readonly value: Record<string, unknown>;
  readonly mediaType: MediaType;
  /** The JSON text (for the strict duplicate-field check). */
  readonly text?: string;
  /** For YAML: the strict YAML decoder's error for repeated keys, if any. */
  readonly yamlDuplicates?: string;
}

/**
 * What yaml.v2's strict unmarshal (sigs.k8s.io/yaml.YAMLToJSONStrict) says of repeated map keys:
 * `yaml: unmarshal errors:\n  line 7: key "a" already set in map`, one line per repeat; null if none.
 */
// Models gopkg.in/yaml.v2 decode.go (d.terrors for a key already set in map, TypeError.Error).
export function yamlDuplicateKeys(text: string): string | null {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  const lines: string[] = [];
  for (const e of doc.errors) {
    if (e.code !== 'DUPLICATE_KEY') continue;
    const source = text.slice(e.pos[0], e.pos[1]);
    let key: unknown;
    try {
      key = parseYaml(source);
    } catch {
      key = source;
    }
    const line = text.slice(0, e.pos[0]).split('\n').length;
    lines.push(`  line ${line}: key ${typeof key === 'string' ? goQuote(key) : String(key)} already set in map`);
  }
  return lines.length === 0 ? null : `yaml: unmarshal errors:\n${lines.join('\n')}`;
}

/**
 * The body's bytes as text (JSON, YAML): a string is the text already; bytes are UTF-8. A protobuf body
 * is a byte string (one char per byte, as the Node server hands it over) or a Uint8Array.
 */
function bodyText(body: string | Uint8Array): string {
  return typeof body === 'string' ? body : utf8Decode(body);
}

function bodyBytes(body: string | Uint8Array): Uint8Array {
  if (typeof body !== 'string') return body;
  const out = new Uint8Array(body.length);
  for (let i = 0; i < body.length; i++) out[i] = body.charCodeAt(i) & 0xff;
  return out;
}

/** The first bytes of a body for an error message, as summarizeData does: text if it starts with `{`, else hex. */
// Models k8s.io/apiserver/pkg/endpoints/handlers/rest.go (summarizeData).
export function summarizeData(bytes: Uint8Array, maxLength = 30): string {
  if (bytes.length === 0) return '<empty>';
  const shown = bytes.subarray(0, Math.min(bytes.length, maxLength));
  const more = bytes.length > maxLength ? ' ...' : '';
  if (bytes[0] === 0x7b) return utf8Decode(shown) + more;
  let hex = '';
  for (const b of shown) hex += b.toString(16).padStart(2, '0');
  return hex + more;
}

/** summarizeData of a text body (its UTF-8 bytes; 64 characters are always more than the 30 bytes shown). */
function summarizeText(text: string): string {
  return summarizeData(utf8Encode(text.slice(0, 64)));
}

/**
 * Reads the body with the serializer its Content-Type names (415 for none), or throws the 400 a real
 * apiserver gives. A body sent as an object (an in-process client's) is copied, so that the caller may
 * change what it gets; `copyObject` false gives the client's object itself, for a caller that only reads it.
 */
export function readBody(request: HttpRequest, expectedKind: string, defaultApiVersion?: string, copyObject = true): ReadBody {
  const body = request.body;
  if (body === undefined || body === '') throw newBadRequest('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
  if (typeof body === 'object' && !(body instanceof Uint8Array)) return { value: (copyObject ? copyJson(body) : body) as Record<string, unknown>, mediaType: jsonMediaType };
  const mediaType = negotiateInputMediaType(request.headers['content-type']);
  if (mediaType === protobufMediaType) {
    const bytes = bodyBytes(body);
    // The URL's kind fills what the envelope leaves out (copyKindDefaults with the scope's default GVK).
    const decoded = decodeProtobufBody(bytes, defaultApiVersion !== undefined ? { apiVersion: defaultApiVersion, kind: expectedKind } : undefined);
    if (!decoded.ok) throw newBadRequest(`the object provided is unrecognized (must be of type ${expectedKind}): ${decoded.error} (${summarizeData(bytes)})`);
    return { value: decoded.object as unknown as Record<string, unknown>, mediaType };
  }
  const text = bodyText(body);
  let decoded: unknown;
  try {
    decoded = mediaType === yamlMediaType ? parseYaml(text, { uniqueKeys: false }) : JSON.parse(text);
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw newBadRequest(`the object provided is unrecognized (must be of type ${expectedKind}): couldn't get version/kind; json parse error: ${detail} (${summarizeText(text)})`);
  }
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded)) {
    throw newBadRequest(`the object provided is unrecognized (must be of type ${expectedKind}): couldn't get version/kind; json parse error: json: cannot unmarshal ${Array.isArray(decoded) ? 'array' : typeof decoded} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" } (${summarizeText(text)})`);
  }
  const yamlDuplicates = mediaType === yamlMediaType ? yamlDuplicateKeys(text) : null;
  return { value: decoded as Record<string, unknown>, mediaType, ...(mediaType === jsonMediaType ? { text } : {}), ...(yamlDuplicates !== null ? { yamlDuplicates } : {}) };
}

/** Decodes the body into a plain object, or throws the 415 or 400 a real apiserver gives. */
export function decodeBody(request: HttpRequest, expectedKind: string, defaultApiVersion?: string): Record<string, unknown> {
  return readBody(request, expectedKind, defaultApiVersion).value;
}

/**
 * Checks that a decoded object is the kind the URL serves, as the create/update handlers do, and fills
 * in a missing apiVersion/kind. Returns it typed as an object with metadata.
 */
export function asObjectOfResource(decoded: Record<string, unknown>, r: ResourceInfo, kind = r.kind, apiVersion = apiVersionOf(r)): KubeObject {
  const gotVersion = decoded.apiVersion;
  const gotKind = decoded.kind;
  if (gotKind !== undefined && gotKind !== '' && gotKind !== kind) {
    throw newBadRequest(`${String(gotKind)} in version "${String(gotVersion ?? '')}" cannot be handled as a ${kind}: no kind "${String(gotKind)}" is registered for version "${String(gotVersion ?? '')}""`);
  }
  if (gotVersion !== undefined && gotVersion !== '' && gotVersion !== apiVersion) {
    throw newBadRequest(`the API version in the data (${String(gotVersion)}) does not match the expected API version (${apiVersion})`);
  }
  const metadata = decoded.metadata;
  if (metadata !== undefined && (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))) {
    throw newBadRequest(`${kind} in version "${apiVersion}" cannot be handled as a ${kind}: json: cannot unmarshal ${Array.isArray(metadata) ? 'array' : typeof metadata} into Go struct field ${kind}.metadata of type v1.ObjectMeta`);
  }
  return { ...decoded, apiVersion, kind, metadata: (metadata ?? {}) as KubeObject['metadata'] } as KubeObject;
}

export interface DecodedObject {
  readonly object: KubeObject;
  /** `unknown field "spec.foo"` warnings (fieldValidation=Warn), sent as Warning headers. */
  readonly warnings: readonly string[];
}

/** `?fieldValidation=`: Strict, Warn (the default when absent) or Ignore; anything else is a 400. */
export function fieldValidationOf(query: Map<string, string>): FieldValidation {
  const v = query.get('fieldValidation') ?? '';
  if (v === '') return 'Warn';
  if (v === 'Strict' || v === 'Warn' || v === 'Ignore') return v;
  throw newBadRequest(`fieldValidation parameter unsupported: ${v}`);
}

/**
 * Decodes a request body as an object of the resource's kind, the Go decoder's way. For JSON the strict
 * errors are unknown fields and duplicate fields, in document order: a 400 under Strict, warnings under
 * Warn. (Protobuf carries no unknown or duplicate fields by construction.)
 */
export function decodeObject(request: HttpRequest, r: ResourceInfo, fieldValidation: FieldValidation, kind = r.kind, apiVersion = apiVersionOf(r)): DecodedObject {
  // Decoding builds a new object (sharing only Raw values such as fieldsV1, which nothing changes in
  // place) and asObjectOfResource copies the top level, so the client's object is read, not copied.
  const body = readBody(request, kind, apiVersion, false);
  const typed = asObjectOfResource(body.value, r, kind, apiVersion);
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const version = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
  const gvk = { group, version, kind };
  if (body.text !== undefined && fieldValidation !== 'Ignore') {
    const scan = scanKeys(body.text);
    if (scan.duplicates.length > 0) {
      const decoded = decodeStruct(kind, typed);
      if (!decoded.ok) throw decodeErrorStatus(gvk, decoded.error);
      const errors = orderedStrictErrors(scan, decoded.value.unknownFields);
      if (fieldValidation === 'Strict' && errors.length > 0) throw decodeErrorStatus(gvk, `strict decoding error: ${errors.join(', ')}`);
      return { object: decoded.value.object as unknown as KubeObject, warnings: errors };
    }
  }
  if (body.yamlDuplicates !== undefined && fieldValidation !== 'Ignore') {
    // The strict YAML decoder's error comes first, then the JSON decoder's unknown fields.
    const decoded = decodeStruct(kind, typed);
    if (!decoded.ok) throw decodeErrorStatus(gvk, decoded.error);
    const errors = [body.yamlDuplicates, ...decoded.value.unknownFields.map((f) => `unknown field ${goQuote(f)}`)];
    if (fieldValidation === 'Strict') throw decodeErrorStatus(gvk, `strict decoding error: ${errors.join(', ')}`);
    return { object: decoded.value.object as unknown as KubeObject, warnings: errors };
  }
  const decoded = decodeForRequest(gvk, typed, body.mediaType === protobufMediaType ? 'Ignore' : fieldValidation);
  if (!decoded.ok) throw decoded.error;
  return { object: decoded.object, warnings: decoded.warnings };
}

/** The Warning header value for warnings (RFC 7234 code 299, as kube-apiserver writes them). */
export function warningHeader(warnings: readonly string[]): Record<string, string> {
  return warnings.length === 0 ? {} : { warning: warnings.map((w) => `299 - ${JSON.stringify(w)}`).join(', ') };
}

// Decoding what a client sent: JSON (or YAML, for clients that send it) into an object of the kind the
// URL expects. Errors are the 400s kube-apiserver answers for bodies it cannot use.
// Models k8s.io/apiserver/pkg/endpoints/handlers (create.go, update.go: decoding and the
// group-version and namespace checks) and apimachinery's json serializer errors. The texts for a
// wrong kind and for malformed JSON follow upstream's shape, but the Go decoder's inner error (which
// names Go types and byte offsets) is replaced by the JavaScript parser's message.

import { parse as parseYaml } from 'yaml';
import { decodeForRequest, type FieldValidation } from '../api/decode.ts';
import { newBadRequest, newUnsupportedMediaType } from '../api/errors.ts';
import { apiVersionOf, type ResourceInfo } from '../api/resources.ts';
import type { KubeObject } from '../api/types/meta.ts';
import type { HttpRequest } from './http.ts';
import { copyJson } from '../api/json-copy.ts';

/** Decodes the body into a plain object, or throws the 400 a real apiserver gives. */
export function decodeBody(request: HttpRequest, expectedKind: string): Record<string, unknown> {
  const body = request.body;
  if (body === undefined || body === '') throw newBadRequest('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
  // Bytes come from the HTTP front for protobuf bodies; until protobuf is decoded they are refused as before.
  if (body instanceof Uint8Array) throw newUnsupportedMediaType(['application/json', 'application/yaml']);
  if (typeof body === 'object') return structuredCloneJson(body) as Record<string, unknown>;
  const contentType = (request.headers['content-type'] ?? 'application/json').split(';')[0]!.trim();
  // Deviation: Podflow's apiserver decodes JSON and YAML only; a protobuf body (kubectl's `create
  // configmap` and other generators send one) is refused as a media type it does not accept.
  if (contentType === 'application/vnd.kubernetes.protobuf') throw newUnsupportedMediaType(['application/json', 'application/yaml']);
  let decoded: unknown;
  try {
    decoded = contentType === 'application/yaml' ? parseYaml(body) : JSON.parse(body);
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw newBadRequest(`the object provided is unrecognized (must be of type ${expectedKind}): couldn't get version/kind; json parse error: ${detail}`);
  }
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded)) {
    throw newBadRequest(`the object provided is unrecognized (must be of type ${expectedKind}): couldn't get version/kind; json parse error: json: cannot unmarshal ${Array.isArray(decoded) ? 'array' : typeof decoded} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  }
  return decoded as Record<string, unknown>;
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

/** Decodes a request body as an object of the resource's kind, the Go decoder's way. */
export function decodeObject(request: HttpRequest, r: ResourceInfo, fieldValidation: FieldValidation, kind = r.kind, apiVersion = apiVersionOf(r)): DecodedObject {
  const typed = asObjectOfResource(decodeBody(request, kind), r, kind, apiVersion);
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const version = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
  const decoded = decodeForRequest({ group, version, kind }, typed, fieldValidation);
  if (!decoded.ok) throw decoded.error;
  return { object: decoded.object, warnings: decoded.warnings };
}

/** The Warning header value for warnings (RFC 7234 code 299, as kube-apiserver writes them). */
export function warningHeader(warnings: readonly string[]): Record<string, string> {
  return warnings.length === 0 ? {} : { warning: warnings.map((w) => `299 - ${JSON.stringify(w)}`).join(', ') };
}

function structuredCloneJson<T>(value: T): T {
  return copyJson(value);
}

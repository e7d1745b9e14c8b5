// What a REST request addresses: `/api/v1/namespaces/default/pods/x/status` → verb, group, version,
// namespace, resource, name, subresource; then whether a served route exists for it. Unknown paths
// get the 404 a real apiserver gives: plain text `404 page not found` outside any served
// group-version, a NotFound Status inside one, and MethodNotAllowed for a known path with a wrong
// method.
// Models k8s.io/apiserver/pkg/endpoints/request/requestinfo.go (RequestInfoFactory.NewRequestInfo),
// pkg/server/handler.go (director, go-restful service errors) and pkg/endpoints/installer.go (routes).

import { newGenericServerResponse } from './errors.ts';
import { parseFieldSelector, requiresExactFieldMatch } from './fields.ts';
import { lookupResource, servedGroups, type ResourceInfo, type SubresourceInfo } from './resources.ts';
import type { Status } from './types/meta.ts';
import { validatePathSegmentName } from './validation/names.ts';

export type HTTPMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | string;

/** The decoded query parameters (a URLSearchParams fits). */
export interface QueryParams {
  get(name: string): string | null;
}

/** request.RequestInfo. For non-resource requests only `path` and `verb` (the lower-cased method) are set. */
export interface RequestInfo {
  readonly isResourceRequest: boolean;
  readonly path: string;
  /** get, list, watch, create, update, patch, delete, deletecollection, proxy; or the lower-cased method. */
  readonly verb: string;
  readonly apiPrefix: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  readonly parts: readonly string[];
}

const namespaceSubresources = new Set(['status', 'finalize']);

/** The verb of a request with no `watch`/`proxy` prefix, by HTTP method (any other method: ''). */
const verbOfMethod = new Map<string, string>([['POST', 'create'], ['GET', 'get'], ['HEAD', 'get'], ['PUT', 'update'], ['PATCH', 'patch'], ['DELETE', 'delete']]);

/**
 * Parses a request as the apiserver's RequestInfoFactory does (prefixes `api` and `apis`). A GET
 * without a name is a list, or a watch with `watch=true`; a DELETE without a name is a
 * deletecollection; `fieldSelector=metadata.name=x` on a list supplies the name.
 */
export function parseRequestInfo(method: HTTPMethod, path: string, query: QueryParams): RequestInfo | { readonly error: string } {
  const base = { isResourceRequest: false, path, verb: method.toLowerCase(), apiPrefix: '', apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '', parts: [] };
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  let parts = trimmed === '' ? [] : trimmed.split('/');
  if (parts.length < 3 || (parts[0] !== 'api' && parts[0] !== 'apis')) return base;
  const apiPrefix = parts[0]!;
  parts = parts.slice(1);
  let apiGroup = '';
  if (apiPrefix === 'apis') {
    if (parts.length < 3) return base;
    apiGroup = parts[0]!;
    parts = parts.slice(1);
  }
  const apiVersion = parts[0]!;
  parts = parts.slice(1);

  let verb: string;
  if (parts[0] === 'watch' || parts[0] === 'proxy') {
    if (parts.length < 2) return { error: `unable to determine kind and namespace from url, ${path}` };
    verb = parts[0];
    parts = parts.slice(1);
  } else {
    verb = verbOfMethod.get(method) ?? '';
  }

  let namespace = '';
  if (parts[0] === 'namespaces') {
    if (parts.length > 1) {
      namespace = parts[1]!;
      if (parts.length > 2 && !namespaceSubresources.has(parts[2]!)) parts = parts.slice(2);
    }
  }

  let resource = '';
  let name = '';
  let subresource = '';
  if (parts.length >= 3 && verb !== 'proxy') subresource = parts[2]!;
  if (parts.length >= 2) name = parts[1]!;
  if (parts.length >= 1) resource = parts[0]!;

  if (name === '' && verb === 'get') {
    const watch = query.get('watch');
    verb = watch !== null && watch !== '' && watch.toLowerCase() !== 'false' && watch !== '0' ? 'watch' : 'list';
    const fieldSelector = query.get('fieldSelector');
    if (fieldSelector !== null) {
      const parsed = parseFieldSelector(fieldSelector);
      const selected = parsed.ok ? requiresExactFieldMatch(parsed.value, 'metadata.name') : undefined;
      if (selected !== undefined && validatePathSegmentName(selected, false).length === 0) name = selected;
    }
  }
  if (name === '' && verb === 'delete') verb = 'deletecollection';

  return { isResourceRequest: true, path, verb, apiPrefix, apiGroup, apiVersion, namespace, resource, subresource, name, parts };
}

/** A request that reached a served resource route. */
export interface ResolvedRoute {
  readonly info: RequestInfo;
  readonly resource: ResourceInfo;
  readonly subresource?: SubresourceInfo;
}

/** The answer for a request no route serves. */
export type RouteFailure =
  /** Outside every served group-version: Go's http.NotFound. */
  | { readonly kind: 'text'; readonly code: 404; readonly contentType: 'text/plain; charset=utf-8'; readonly body: '404 page not found\n' }
  /** Inside a served group-version: go-restful's 404/405 turned into a Status. */
  | { readonly kind: 'status'; readonly status: Status };

const pageNotFound: RouteFailure = { kind: 'text', code: 404, contentType: 'text/plain; charset=utf-8', body: '404 page not found\n' };

function genericStatus(code: 404 | 405): RouteFailure {
  return { kind: 'status', status: newGenericServerResponse(code, '').status };
}

/**
 * Matches a resource request against the served routes. Resource paths that are only ever served
 * per namespace (`/api/v1/namespaces/ns/pods`) or cluster-wide (`/api/v1/pods` for list and watch
 * across namespaces) are checked, as are the verbs and subresources each resource offers.
 */
export function resolveRoute(method: HTTPMethod, info: RequestInfo): ResolvedRoute | RouteFailure {
  if (!info.isResourceRequest) return pageNotFound;
  if (!servedGroups.some((g) => g.group === info.apiGroup && g.versions.includes(info.apiVersion))) return pageNotFound;
  // Legacy `/api` serves only the core group; `/apis/<group>` never does.
  if ((info.apiPrefix === 'api') !== (info.apiGroup === '')) return pageNotFound;
  const r = lookupResource(info.apiGroup, info.resource);
  if (r === undefined || r.version !== info.apiVersion) return genericStatus(404);

  const p = info.parts;
  // Shapes: [resource], [resource, name], [resource, name, subresource]; cluster-scoped resources
  // cannot appear under /namespaces/<ns>/, and namespaced names only under it.
  const underNamespace = info.namespace !== '' && r.resource !== 'namespaces';
  if (p.length > 3) return genericStatus(404);
  if (!r.namespaced && underNamespace) return genericStatus(404);
  if (r.namespaced && p.length >= 2 && !underNamespace) return genericStatus(404);

  let subresource: SubresourceInfo | undefined;
  if (info.subresource !== '') {
    subresource = r.subresources.find((s) => s.name === info.subresource);
    if (subresource === undefined) return genericStatus(404);
  }
  // The path exists; what remains is whether this method is served on it.
  const crossNamespace = r.namespaced && !underNamespace;
  const pathVerbs = p.length === 1 ? (crossNamespace ? collectionReadVerbs : collectionVerbs) : p.length === 2 ? itemVerbs : subresourceVerbs;
  const verbs: readonly string[] = subresource?.verbs ?? r.verbs;
  if (!pathVerbs.includes(info.verb) || !verbs.includes(info.verb)) return genericStatus(405);
  return subresource === undefined ? { info, resource: r } : { info, resource: r, subresource };
}

const collectionVerbs: readonly string[] = ['list', 'watch', 'create', 'deletecollection'];
/** Across namespaces (`/api/v1/pods`) a namespaced collection is only read. */
const collectionReadVerbs: readonly string[] = ['list', 'watch'];
const itemVerbs: readonly string[] = ['get', 'watch', 'update', 'patch', 'delete'];
const subresourceVerbs: readonly string[] = ['get', 'update', 'patch', 'create'];

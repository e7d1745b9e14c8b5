// Requests outside /api/<v>/… and /apis/<g>/<v>/… resources: discovery documents, /version, the
// health endpoints and the OpenAPI v3 documents (openapi.ts). Discovery answers aggregated (v2 or
// v2beta1) when the client's Accept offers it, with the exact content type kubectl looks for, and the
// legacy documents otherwise.
// Models k8s.io/apiserver/pkg/endpoints/discovery (legacy and aggregated handlers, content negotiation),
// pkg/server/routes/version.go and healthz.
//
// /version reports major "1", minor "32": kubectl on the development machines is a dispatcher that picks
// the kubectl binary by the server's minor version, and Podflow's HTTP front is tested with kubectl 1.32
// (reference/kubectl-wire.md §0). The behaviour modelled is kube-apiserver 1.28's.

import {
  aggregatedDiscovery, aggregatedDiscoveryContentType, apiGroupList, apiResourceList, legacyAPIVersions, type AggregatedDiscoveryVersion,
} from '../api/discovery.ts';
import type { HttpRequest, HttpResponse } from './http.ts';
import { serveOpenAPI } from './openapi.ts';

export const serverVersion = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2023-08-15T00:00:00Z',
  goVersion: 'go1.20.7',
  compiler: 'gc',
  platform: 'linux/amd64',
} as const;

const json = { 'content-type': 'application/json' };
const notFound: HttpResponse = { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: '404 page not found\n' };

/** The answer for a non-resource GET, or null when the path is not one of these (the caller answers 404). */
export function serveNonResource(request: HttpRequest, serverAddress: string): HttpResponse | null {
  const path = request.path.replace(/\/+$/, '') || '/';
  if (request.method !== 'GET') return null;
  switch (path) {
    case '/version': return { status: 200, headers: json, body: serverVersion };
    case '/healthz':
    case '/livez':
    case '/readyz': return { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'ok' };
    case '/api':
    case '/apis': {
      const legacy = path === '/api';
      const aggregated = aggregatedVersionAccepted(request.headers.accept ?? '');
      if (aggregated) return { status: 200, headers: { 'content-type': aggregatedDiscoveryContentType(aggregated) }, body: aggregatedDiscovery(legacy, aggregated) };
      return { status: 200, headers: json, body: legacy ? legacyAPIVersions(serverAddress) : apiGroupList() };
    }
  }
  if (path === '/openapi/v2' || path === '/openapi/v3' || path.startsWith('/openapi/v3/')) {
    const doc = serveOpenAPI(path, request.headers.accept ?? '');
    return doc ? { status: doc.status, headers: typeof doc.body === 'string' ? { 'content-type': 'text/plain; charset=utf-8' } : json, body: doc.body } : notFound;
  }
  const groupVersion = /^\/api\/([^/]+)$/.exec(path) ?? /^\/apis\/([^/]+)\/([^/]+)$/.exec(path);
  if (groupVersion) {
    const [group, version] = groupVersion.length === 2 ? ['', groupVersion[1]!] : [groupVersion[1]!, groupVersion[2]!];
    const list = apiResourceList(group, version);
    return list ? { status: 200, headers: json, body: list } : notFound;
  }
  return null;
}

/** The aggregated discovery version the Accept header asks for first (v2 or v2beta1), if any. */
function aggregatedVersionAccepted(accept: string): AggregatedDiscoveryVersion | null {
  for (const part of accept.split(',')) {
    const params = new Map(part.split(';').slice(1).map((p) => {
      const [k, v] = p.trim().split('=');
      return [k ?? '', v ?? ''] as const;
    }));
    if (params.get('g') === 'apidiscovery.k8s.io' && params.get('as') === 'APIGroupDiscoveryList') {
      const v = params.get('v');
      if (v === 'v2' || v === 'v2beta1') return v;
    }
  }
  return null;
}

// Requests outside /api/<v>/… and /apis/<g>/<v>/… resources: discovery documents, /version, the
// health endpoints (/healthz, /livez, /readyz with `?verbose`, `?exclude=` and one check by path, as
// kube-apiserver 1.28 lists its checks), /metrics (filters/metrics.ts) and the OpenAPI v3 documents (openapi.ts). Discovery answers aggregated (v2 or
// v2beta1) when the client's Accept offers it, with the exact content type kubectl looks for, and the
// legacy documents otherwise.
// Models k8s.io/apiserver/pkg/endpoints/discovery (legacy and aggregated handlers, content negotiation),
// pkg/server/routes/version.go, pkg/server/healthz/healthz.go (handleRootHealth, adaptCheckToHandler) and
// pkg/server/routes/metrics.go.
//
// /version reports major "1", minor "32": kubectl on the development machines is a dispatcher that picks
// the kubectl binary by the server's minor version, and Podflow's HTTP front is tested with kubectl 1.32
// (reference/kubectl-wire.md §0). The behaviour modelled is kube-apiserver 1.28's.

import {
  aggregatedDiscovery, aggregatedDiscoveryContentType, apiGroupList, apiResourceList, legacyAPIVersions, type AggregatedDiscoveryVersion,
} from '../api/discovery.ts';
import type { HttpRequest, HttpResponse } from '../wire/http.ts';
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

/** What the health checks and /metrics read from the running apiserver. */
export interface NonResourceState {
  /** The bootstrap policy and system namespaces are stored (poststarthook/rbac/bootstrap-roles). */
  readonly bootstrapped: boolean;
  /** The /metrics text. */
  readonly metrics: () => string;
}

const defaultState: NonResourceState = { bootstrapped: true, metrics: () => '' };

/** The answer for a non-resource GET, or null when the path is not one of these (the caller answers 404). */
export function serveNonResource(request: HttpRequest, serverAddress: string, state: NonResourceState = defaultState): HttpResponse | null {
  const path = request.path.replace(/\/+$/, '') || '/';
  if (request.method !== 'GET') return null;
  const health = /^\/(healthz|livez|readyz)(?:\/(.+))?$/.exec(path);
  if (health) return serveHealth(health[1] as HealthEndpoint, health[2], request.query, state);
  switch (path) {
    case '/version': return { status: 200, headers: json, body: serverVersion };
    case '/metrics': return { status: 200, headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }, body: state.metrics() };
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

type HealthEndpoint = 'healthz' | 'livez' | 'readyz';

/** kube-apiserver 1.28's checks, in the order it installs them; `ready` says which are up. */
const postStartHooks = [
  'start-kube-apiserver-admission-initializer', 'generic-apiserver-start-informers', 'priority-and-fairness-config-consumer',
  'priority-and-fairness-filter', 'storage-object-count-tracker-hook', 'start-apiextensions-informers', 'start-apiextensions-controllers',
  'crd-informer-synced', 'start-service-ip-repair-controllers', 'rbac/bootstrap-roles', 'scheduling/bootstrap-system-priority-classes',
  'priority-and-fairness-config-producer', 'start-system-namespaces-controller', 'bootstrap-controller',
  'start-cluster-authentication-info-controller', 'start-kube-apiserver-identity-lease-controller',
  'start-deprecated-kube-apiserver-identity-lease-garbage-collector', 'start-kube-apiserver-identity-lease-garbage-collector',
  'start-legacy-token-tracking-controller', 'aggregator-reload-proxy-client-cert', 'start-kube-aggregator-informers',
  'apiservice-registration-controller', 'apiservice-status-available-controller', 'kube-apiserver-autoregistration',
];
const lateHooks = ['apiservice-openapi-controller', 'apiservice-openapiv3-controller', 'apiservice-discovery-controller'];

function healthChecks(endpoint: HealthEndpoint, state: NonResourceState): Array<{ readonly name: string; readonly ok: boolean }> {
  const hook = (name: string) => ({ name: `poststarthook/${name}`, ok: name !== 'rbac/bootstrap-roles' || state.bootstrapped });
  return [
    { name: 'ping', ok: true },
    { name: 'log', ok: true },
    { name: 'etcd', ok: true },
    ...(endpoint === 'readyz' ? [{ name: 'etcd-readiness', ok: true }, { name: 'informer-sync', ok: true }] : []),
    ...postStartHooks.map(hook),
    { name: 'autoregister-completion', ok: true },
    ...lateHooks.map(hook),
    ...(endpoint === 'readyz' ? [{ name: 'shutdown', ok: true }] : []),
  ];
}

const plain = { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' };

function serveHealth(endpoint: HealthEndpoint, checkName: string | undefined, query: string, state: NonResourceState): HttpResponse | null {
  const checks = healthChecks(endpoint, state);
  if (checkName !== undefined) {
    // One check by path: `ok`, or Go's http.Error with the reason.
    const check = checks.find((c) => c.name === checkName);
    if (!check) return null;
    return check.ok ? { status: 200, headers: plain, body: 'ok' } : { status: 500, headers: plain, body: `internal server error: ${check.name} not finished\n` };
  }
  const params = query.split('&').filter((p) => p !== '').map((p) => {
    const eq = p.indexOf('=');
    const decode = (s: string): string => {
      try {
        return decodeURIComponent(s.replace(/\+/g, ' '));
      } catch {
        return s;
      }
    };
    return [decode(eq < 0 ? p : p.slice(0, eq)), decode(eq < 0 ? '' : p.slice(eq + 1))] as const;
  });
  const verbose = params.some(([k]) => k === 'verbose');
  const excluded = new Set(params.filter(([k]) => k === 'exclude').flatMap(([, v]) => v.split(',')).map((v) => v.trim()).filter((v) => v !== ''));
  let lines = '';
  let failed = false;
  for (const check of checks) {
    if (excluded.delete(check.name)) {
      lines += `[+]${check.name} excluded: ok\n`;
    } else if (check.ok) {
      lines += `[+]${check.name} ok\n`;
    } else {
      lines += `[-]${check.name} failed: reason withheld\n`;
      failed = true;
    }
  }
  if (excluded.size > 0) lines += `warn: some health checks cannot be excluded: no matches for ${[...excluded].sort().map((e) => `"${e}"`).join(',')}\n`;
  // Always verbose on failure (http.Error adds the newline).
  if (failed) return { status: 500, headers: plain, body: `${lines}${endpoint} check failed\n` };
  return { status: 200, headers: plain, body: verbose ? `${lines}${endpoint} check passed\n` : 'ok' };
}

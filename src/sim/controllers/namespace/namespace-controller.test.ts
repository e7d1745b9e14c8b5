import { describe, expect, it } from 'vitest';
import type { Namespace, Pod } from '../../api/types/core.ts';
import type { List, Status } from '../../api/types/meta.ts';
import { builtinTokens } from '../../wire/credentials.ts';
import { httpKinds, type HttpMethod, type HttpRequest, type HttpResponse } from '../../wire/http.ts';
import { createCluster, type Cluster } from '../../cluster.ts';
import { runTwiceWithPerturbedHost } from '../../testing/determinism.ts';

function call(cluster: Cluster, method: HttpMethod, path: string, body?: unknown): HttpResponse {
  const [p, q] = path.split('?') as [string, string | undefined];
  const request = cluster.user.request('kube-apiserver', httpKinds.request, {
    method, path: p, query: q ?? '',
    headers: { authorization: `Bearer ${builtinTokens.admin}`, accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  // Only until the answer: the controllers' own timers (the namespace controller's requeues) keep running later.
  for (;;) {
    const reply = cluster.user.received().find((r) => r.requestId === request.id);
    if (reply) return reply.message.payload as HttpResponse;
    if (!cluster.engine.stepOnce()) throw new Error(`no response to ${method} ${path}`);
  }
}

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } });
const deployment = (replicas: number) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
  spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } } },
});

function withNamespace(seed: string, name: string, configMaps: number, replicas: number): Cluster {
  const cluster = createCluster({ seed });
  cluster.boot();
  expect(call(cluster, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }).status).toBe(201);
  for (let i = 0; i < configMaps; i++) expect(call(cluster, 'POST', `/api/v1/namespaces/${name}/configmaps`, configMap(`cm-${i}`)).status).toBe(201);
  if (replicas > 0) expect(call(cluster, 'POST', `/apis/apps/v1/namespaces/${name}/deployments`, deployment(replicas)).status).toBe(201);
  cluster.engine.runFor(30_000);
  return cluster;
}

const count = (cluster: Cluster, path: string) => (call(cluster, 'GET', path).body as List).items.length;

/** The requests kube-controller-manager sent, as `METHOD path[/sub]`, in order, without watches. */
function kcmRequests(cluster: Cluster, fromStep: number): string[] {
  return cluster.engine.trace.since(fromStep)
    .filter((m) => m.from === 'kube-controller-manager' && m.kind === httpKinds.request)
    .map((m) => m.payload as HttpRequest)
    // Not its watches, nor its leader-election renewals (every 2 s).
    .filter((r) => !r.query.includes('watch=true') && !r.path.endsWith('/leases/kube-controller-manager'))
    .map((r) => `${r.method} ${r.path}`);
}

describe('namespace lifecycle', () => {
  it('DELETE marks the namespace Terminating; creates are refused; the controller empties it, then it goes', () => {
    const cluster = withNamespace('ns-lifecycle', 'shop', 3, 2);
    expect(count(cluster, '/api/v1/namespaces/shop/pods')).toBe(2);
    const before = cluster.engine.step;
    const deleted = call(cluster, 'DELETE', '/api/v1/namespaces/shop');
    expect(deleted.status).toBe(200);
    const marked = deleted.body as Namespace;
    expect(marked).toMatchObject({ kind: 'Namespace', spec: { finalizers: ['kubernetes'] }, status: { phase: 'Terminating' } });
    expect(marked.metadata.deletionTimestamp).toBeDefined();
    expect(marked.metadata.deletionGracePeriodSeconds).toBeUndefined();

    const refused = call(cluster, 'POST', '/api/v1/namespaces/shop/configmaps', configMap('late'));
    expect(refused.status).toBe(403);
    expect(refused.body as Status).toMatchObject({
      reason: 'Forbidden',
      message: 'configmaps "late" is forbidden: unable to create new content in namespace shop because it is being terminated',
      details: { name: 'late', kind: 'configmaps', causes: [{ reason: 'NamespaceTerminating', message: 'namespace shop is being terminated', field: 'metadata.namespace' }] },
    });
    // A second DELETE answers with the namespace as it is.
    const again = call(cluster, 'DELETE', '/api/v1/namespaces/shop');
    expect(again.status).toBe(200);
    expect((again.body as Namespace).metadata.resourceVersion).toBe(marked.metadata.resourceVersion);

    // The controller waits the 5 s deletion grace period, then deletes the content; the pods terminate
    // on their kubelets (30 s grace), so the namespace stays Terminating with the content conditions.
    cluster.engine.runFor(8_000);
    expect(count(cluster, '/api/v1/namespaces/shop/configmaps')).toBe(0);
    expect(count(cluster, '/apis/apps/v1/namespaces/shop/deployments')).toBe(0);
    const terminating = call(cluster, 'GET', '/api/v1/namespaces/shop').body as Namespace;
    expect(terminating.status?.phase).toBe('Terminating');
    const conditions = Object.fromEntries((terminating.status?.conditions ?? []).map((c) => [c.type, c]));
    expect(Object.keys(conditions)).toEqual([
      'NamespaceDeletionDiscoveryFailure', 'NamespaceDeletionGroupVersionParsingFailure', 'NamespaceDeletionContentFailure',
      'NamespaceContentRemaining', 'NamespaceFinalizersRemaining',
    ]);
    expect(conditions.NamespaceDeletionDiscoveryFailure).toMatchObject({ status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' });
    expect(conditions.NamespaceDeletionContentFailure).toMatchObject({ status: 'False', reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' });
    expect(conditions.NamespaceContentRemaining).toMatchObject({ status: 'True', reason: 'SomeResourcesRemain', message: 'Some resources are remaining: pods. has 2 resource instances' });
    expect(conditions.NamespaceFinalizersRemaining).toMatchObject({ status: 'False', reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' });
    const pods = (call(cluster, 'GET', '/api/v1/namespaces/shop/pods').body as List<Pod>).items;
    expect(pods.every((p) => p.metadata.deletionTimestamp !== undefined)).toBe(true);

    cluster.engine.runFor(60_000);
    expect(call(cluster, 'GET', '/api/v1/namespaces/shop').status).toBe(404);
    expect(count(cluster, '/api/v1/namespaces/shop/pods')).toBe(0);

    // The controller's requests: discovery, DeleteCollection per resource, the conditions, /finalize last.
    const requests = kcmRequests(cluster, before);
    expect(requests).toContain('GET /apis');
    expect(requests).toContain('DELETE /api/v1/namespaces/shop/configmaps');
    expect(requests).toContain('DELETE /apis/apps/v1/namespaces/shop/deployments');
    expect(requests).toContain('PUT /api/v1/namespaces/shop/status');
    // The last pass: the conditions turn to "all removed" (a status write with the namespace read at the
    // start of the pass), so the /finalize PUT of that same stale object conflicts, and
    // retryOnConflictError reads the namespace again and finalizes it.
    expect(requests.slice(-4)).toEqual([
      'PUT /api/v1/namespaces/shop/status', 'PUT /api/v1/namespaces/shop/finalize', 'GET /api/v1/namespaces/shop', 'PUT /api/v1/namespaces/shop/finalize',
    ]);
    const finalizes = cluster.engine.trace.since(before).filter((m) => m.kind === httpKinds.response && (m.payload as HttpResponse).status === 409);
    expect(finalizes.length).toBeGreaterThan(0);
    expect(requests.indexOf('DELETE /api/v1/namespaces/shop/configmaps')).toBeLessThan(requests.indexOf('PUT /api/v1/namespaces/shop/finalize'));
  });

  it('the system namespaces cannot be deleted', () => {
    const cluster = createCluster({ seed: 'ns-immortal' });
    cluster.boot();
    for (const name of ['default', 'kube-system', 'kube-public']) {
      const r = call(cluster, 'DELETE', `/api/v1/namespaces/${name}`);
      expect(r.status).toBe(403);
      expect(r.body as Status).toMatchObject({ reason: 'Forbidden', message: `namespaces "${name}" is forbidden: this namespace may not be deleted` });
      expect((call(cluster, 'GET', `/api/v1/namespaces/${name}`).body as Namespace).status?.phase).toBe('Active');
    }
  });

  it('a namespace with 1,000 objects (ConfigMaps and a Deployment\'s pods) is deleted to nothing, Terminating on the way', () => {
    const cluster = withNamespace('ns-thousand', 'big', 800, 200);
    // The 800 ConfigMaps and the root-CA publisher's kube-root-ca.crt.
    expect(count(cluster, '/api/v1/namespaces/big/configmaps')).toBe(801);
    expect(count(cluster, '/api/v1/namespaces/big/pods')).toBe(200);
    const samples: { phase: string; configMaps: number; pods: number }[] = [];
    const before = cluster.engine.step;
    expect(call(cluster, 'DELETE', '/api/v1/namespaces/big').status).toBe(200);
    for (let t = 0; t < 120 && samples.at(-1)?.phase !== 'Gone'; t++) {
      cluster.engine.runFor(1_000);
      const ns = call(cluster, 'GET', '/api/v1/namespaces/big');
      samples.push({
        phase: ns.status === 404 ? 'Gone' : (ns.body as Namespace).status?.phase ?? '',
        configMaps: count(cluster, '/api/v1/namespaces/big/configmaps'),
        pods: count(cluster, '/api/v1/namespaces/big/pods'),
      });
    }
    const phases = samples.map((s) => s.phase);
    expect(phases[0]).toBe('Terminating');
    expect(phases.at(-1)).toBe('Gone');
    expect(new Set(phases)).toEqual(new Set(['Terminating', 'Gone']));
    // In order: the ConfigMaps go in the first pass (while the pods still terminate), the pod count only
    // falls, and the namespace goes last, once nothing is left.
    const firstEmpty = samples.findIndex((s) => s.configMaps === 0);
    expect(firstEmpty).toBeGreaterThanOrEqual(0);
    expect(samples[firstEmpty]!.pods).toBeGreaterThan(0);
    for (let i = 1; i < samples.length; i++) expect(samples[i]!.pods).toBeLessThanOrEqual(samples[i - 1]!.pods);
    expect(samples.at(-2)).toMatchObject({ phase: 'Terminating' });
    const requests = kcmRequests(cluster, before);
    expect(requests.slice(0, 3)).toEqual(['GET /api/v1/namespaces/big', 'GET /api', 'GET /apis']);
    expect(requests.at(-1)).toBe('PUT /api/v1/namespaces/big/finalize');
    for (const path of ['/api/v1/namespaces/big/configmaps', '/api/v1/namespaces/big/pods', '/apis/apps/v1/namespaces/big/replicasets', '/apis/apps/v1/namespaces/big/deployments']) {
      expect(count(cluster, path), path).toBe(0);
    }
  });

  it('is deterministic', () => {
    const [a, b] = runTwiceWithPerturbedHost(() => {
      const cluster = createCluster({ seed: 'ns-determinism' });
      cluster.boot();
      call(cluster, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'tmp' } });
      call(cluster, 'POST', '/api/v1/namespaces/tmp/configmaps', configMap('a'));
      call(cluster, 'DELETE', '/api/v1/namespaces/tmp');
      cluster.engine.runFor(20_000);
      return cluster.engine;
    });
    expect(b).toEqual(a);
  });
});

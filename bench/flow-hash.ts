// A behaviour check for performance work, not a benchmark: runs one fixed, seeded flow through the whole
// control plane and prints a hash of the complete trace (every record: id, kind, from, to, times, cause,
// payload), one of the etcd keyspace (every key with its revisions and value) and one of kube-scheduler's
// attempt records (every filter and score of every node). An optimisation must
// leave both hashes unchanged. Run with `npx tsx bench/flow-hash.ts` (`PODFLOW_HASH_REPLICAS` picks the
// size, default 300).
//
// The flow: bare pods, two of which a bare ReplicaSet `solo` adopts; one of those relabelled (released)
// and `solo` scaled from 5 to 2; a bare pod labelled like the Deployment's pods, a 300-replica
// Deployment `web` and a 20-replica Deployment `other` in the same namespace, a rolling update of `web`,
// a scale down to a third, then `web` deleted (background cascade), each phase run until idle and then
// 10 s more of background work.

import { createHash } from 'node:crypto';
import { builtinTokens } from '../src/sim/wire/credentials.ts';
import { httpKinds, type HttpMethod, type HttpRequest } from '../src/sim/wire/http.ts';
import { createCluster } from '../src/sim/cluster.ts';

const replicas = Number(process.env.PODFLOW_HASH_REPLICAS ?? 300);
const started = performance.now();
const cluster = createCluster({ seed: 'x', nodes: 10 });
cluster.boot();

function request(method: HttpMethod, path: string, body?: unknown, contentType = 'application/json'): void {
  cluster.user.request('kube-apiserver', httpKinds.request, {
    method, path, query: '',
    headers: { authorization: `Bearer ${builtinTokens.admin}`, 'content-type': contentType },
    body: body === undefined ? '' : JSON.stringify(body),
  });
}

function settle(): void {
  cluster.engine.runUntilIdle();
  cluster.engine.runFor(10_000);
}

const deployment = (name: string, n: number, image: string) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
  spec: { replicas: n, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image }] } } },
});

const pod = (name: string, app: string) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app } }, spec: { containers: [{ name: app, image: 'nginx:1.14.2' }] },
});

settle();
request('POST', '/api/v1/namespaces/default/pods', pod('orphan', 'web'));
request('POST', '/api/v1/namespaces/default/pods', pod('solo-a', 'solo'));
request('POST', '/api/v1/namespaces/default/pods', pod('solo-b', 'solo'));
settle();
request('POST', '/apis/apps/v1/namespaces/default/replicasets', {
  apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'solo' },
  spec: { replicas: 5, selector: { matchLabels: { app: 'solo' } }, template: { metadata: { labels: { app: 'solo' } }, spec: { containers: [{ name: 'solo', image: 'nginx:1.14.2' }] } } },
});
settle();
request('PATCH', '/api/v1/namespaces/default/pods/solo-a', { metadata: { labels: { app: 'gone' } } }, 'application/merge-patch+json');
settle();
request('PATCH', '/apis/apps/v1/namespaces/default/replicasets/solo', { spec: { replicas: 2 } }, 'application/merge-patch+json');
settle();
request('POST', '/apis/apps/v1/namespaces/default/deployments', deployment('web', replicas, 'nginx:1.14.2'));
request('POST', '/apis/apps/v1/namespaces/default/deployments', deployment('other', 20, 'nginx:1.14.2'));
settle();
request('PATCH', '/apis/apps/v1/namespaces/default/deployments/web', { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.16.1' }] } } } }, 'application/strategic-merge-patch+json');
settle();
request('PATCH', '/apis/apps/v1/namespaces/default/deployments/web', { spec: { replicas: Math.ceil(replicas / 3) } }, 'application/merge-patch+json');
settle();
request('DELETE', '/apis/apps/v1/namespaces/default/deployments/web', { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' });
settle();

const kcm = new Map<string, number>();
for (const m of cluster.engine.trace.all()) {
  if (m.from !== 'kube-controller-manager' || m.kind !== httpKinds.request) continue;
  const r = m.payload as HttpRequest;
  const what = `${r.method} ${r.path.replace(/\/namespaces\/default\/([a-z]+)\/[^/]+/, '/namespaces/default/$1/…')}`;
  kcm.set(what, (kcm.get(what) ?? 0) + 1);
}
console.log('kube-controller-manager requests:', Object.fromEntries([...kcm].sort()));
const trace = createHash('sha256');
for (const record of cluster.engine.trace.all()) trace.update(JSON.stringify(record)).update('\n');
const etcd = createHash('sha256');
const kvs = cluster.etcd.kv.range({ key: '\0', rangeEnd: '\0' }).kvs;
for (const kv of kvs) etcd.update(JSON.stringify(kv)).update('\n');
const pods = kvs.filter((kv) => kv.key.startsWith('/registry/pods/')).length;
console.log(`steps ${cluster.engine.step}, virtual ${cluster.engine.now} ms, ${kvs.length} keys (${pods} pods), ${((performance.now() - started) / 1000).toFixed(1)} s wall`);
const attempts = createHash('sha256').update(JSON.stringify(cluster.scheduler?.attempts ?? [])).digest('hex');
console.log(`trace ${trace.digest('hex')}`);
console.log(`kube-scheduler attempts ${attempts}`);
console.log(`etcd  ${etcd.digest('hex')}`);

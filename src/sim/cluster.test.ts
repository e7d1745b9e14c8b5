import { describe, expect, it } from 'vitest';
import { createCluster } from './cluster.ts';
import type { EtcdReply, PutResponse, RangeResponse } from './etcd/index.ts';
import { runTwiceWithPerturbedHost } from './testing/determinism.ts';

describe('Cluster', () => {
  it('raises the apiserver\'s in-flight limits beyond 100 nodes: 300 kubelets register at boot without a 429 (at 400 / 200 they meet them)', () => {
    const refusals = (cluster: ReturnType<typeof createCluster>) => {
      cluster.boot();
      return cluster.engine.trace.all().filter((m) => m.kind === 'http.response' && (m.payload as { status: number }).status === 429).length;
    };
    const components = { controllerManager: false, scheduler: false };
    expect(refusals(createCluster({ seed: 'large', nodes: 300, components }))).toBe(0);
    expect(refusals(createCluster({ seed: 'large', nodes: 300, components, apiserver: { maxInFlight: { readOnly: 400, mutating: 200 } } }))).toBeGreaterThan(0);
  });

  it('lists the whole topology and links only what is modelled', () => {
    const cluster = createCluster({ seed: 'topology', nodes: 3 });
    expect(cluster.topology.components.map((c) => c.name)).toEqual([
      'user', 'kube-apiserver', 'etcd', 'kube-controller-manager', 'kube-scheduler', 'kubelet/node-1', 'kubelet/node-2', 'kubelet/node-3',
    ]);
    const modelled = cluster.topology.components.filter((c) => c.modelled).map((c) => c.name);
    for (const name of modelled) expect(cluster.engine.component(name)).toBeDefined();
    expect(cluster.engine.linked('user', 'etcd')).toBe(true);
  });

  it('carries a user etcdctl put to etcd and its reply back, each one step with its cause', () => {
    const cluster = createCluster({ seed: 'put' });
    cluster.engine.runUntilIdle();
    const bootRevision = cluster.etcd.kv.range({ key: 'x' }).header.revision;
    const before = cluster.engine.step;
    const put = cluster.user.request('etcd', 'etcd.Put', { key: '/demo', value: 'hello' });
    cluster.engine.runUntilIdle();
    const [request, reply] = cluster.engine.trace.since(before);
    expect(cluster.engine.step - before).toBe(2);
    expect(request).toBe(put);
    expect(reply?.cause).toBe(put.id);
    expect(reply?.replyTo).toBe(put.id);
    const payload = reply?.payload as EtcdReply<PutResponse>;
    expect(payload.ok && payload.response.header.revision).toBe(bootRevision + 1);
    const get = cluster.user.request('etcd', 'etcd.Range', { key: '/demo' });
    cluster.engine.runUntilIdle();
    const got = cluster.user.received().find((r) => r.requestId === get.id)?.message.payload as EtcdReply<RangeResponse>;
    expect(got.ok && got.response.kvs[0]?.value).toBe('hello');
  });

  it('replays user traffic (etcd Txns, apiserver creates with uids and generated names) to a byte-identical trace', () => {
    const scenario = () => {
      const cluster = createCluster({ seed: 'replay' });
      cluster.engine.runUntilIdle();
      for (let i = 0; i < 50; i++) {
        cluster.user.request('etcd', 'etcd.Txn', {
          compare: [{ target: 'MOD', key: `/registry/k${i % 7}`, modRevision: 0 }],
          success: [{ requestPut: { key: `/registry/k${i % 7}`, value: `v${i}` } }],
          failure: [{ requestRange: { key: `/registry/k${i % 7}` } }],
        });
        cluster.engine.runFor(3);
      }
      for (let i = 0; i < 5; i++) {
        cluster.user.request('kube-apiserver', 'http.request', {
          method: 'POST', path: '/api/v1/namespaces/default/pods', query: '',
          headers: { authorization: 'Bearer podflow-admin-token', 'content-type': 'application/json' },
          body: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { generateName: 'web-' }, spec: { containers: [{ name: 'web', image: 'nginx' }] } }),
        });
      }
      cluster.engine.runUntilIdle();
      return cluster.engine;
    };
    const [a, b] = runTwiceWithPerturbedHost(scenario);
    expect(a.steps).toBeGreaterThan(100);
    expect(b.hash).toBe(a.hash);
  });
});

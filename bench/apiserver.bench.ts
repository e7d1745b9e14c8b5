// The seeds' point about label selectors, made measurable: a list of pods with a selector that matches
// 10 of 10,000 makes kube-apiserver read and decode every pod from etcd when the request has no
// resourceVersion (a quorum read), while `resourceVersion=0` is served from the watch cache.

import { builtinTokens } from '../src/sim/wire/credentials.ts';
import { httpKinds, type HttpResponse } from '../src/sim/wire/http.ts';
import { createCluster, type Cluster } from '../src/sim/cluster.ts';
import type { EtcdReply, RangeResponse } from '../src/sim/etcd/index.ts';
import type { Benchmark } from './harness.ts';

const pods = 10_000;
const matching = 10;

function clusterWithPods(): Cluster {
  const cluster = createCluster({ seed: 'bench-list' });
  // Stored before boot, so the pods watch cache lists them when it starts, as after a restart.
  for (let i = 0; i < pods; i++) {
    const name = `web-${String(i).padStart(5, '0')}`;
    const pod = {
      kind: 'Pod', apiVersion: 'v1',
      metadata: { name, namespace: 'default', uid: `uid-${i}`, labels: { app: i % (pods / matching) === 0 ? 'needle' : 'hay' }, creationTimestamp: '2023-08-15T00:00:00Z' },
      spec: { containers: [{ name: 'web', image: 'nginx:1.14.2', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent' }], restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler' },
      status: { phase: 'Pending', qosClass: 'BestEffort' },
    };
    cluster.etcd.kv.put({ key: `/registry/pods/default/${name}`, value: JSON.stringify(pod) });
  }
  cluster.engine.runUntilIdle();
  return cluster;
}

function list(cluster: Cluster, query: string): { ms: number; items: number; etcdBytes: number; etcdKvs: number } {
  const before = cluster.engine.step;
  const request = cluster.user.request('kube-apiserver', httpKinds.request, {
    method: 'GET', path: '/api/v1/namespaces/default/pods', query, headers: { authorization: `Bearer ${builtinTokens.admin}`, accept: 'application/json' },
  });
  const start = performance.now();
  cluster.engine.runUntilIdle();
  const ms = performance.now() - start;
  const response = cluster.user.received().find((r) => r.requestId === request.id)!.message.payload as HttpResponse;
  let etcdBytes = 0;
  let etcdKvs = 0;
  for (const m of cluster.engine.trace.since(before)) {
    if (m.kind !== 'etcd.RangeResponse') continue;
    const reply = m.payload as EtcdReply<RangeResponse>;
    etcdBytes += reply.stats?.responseSize ?? 0;
    if (reply.ok) etcdKvs += reply.response.kvs.length;
  }
  return { ms, items: (response.body as { items: unknown[] }).items.length, etcdBytes, etcdKvs };
}

export const benchmarks: Benchmark[] = [
  {
    group: 'apiserver',
    name: 'list with a label selector: etcd vs watch cache',
    run() {
      const cluster = clusterWithPods();
      const runs = 5;
      const best = (query: string) => {
        let bestRun = list(cluster, query);
        for (let i = 1; i < runs; i++) {
          const r = list(cluster, query);
          if (r.ms < bestRun.ms) bestRun = r;
        }
        return bestRun;
      };
      const fromEtcd = best('labelSelector=app%3Dneedle');
      const fromCache = best('labelSelector=app%3Dneedle&resourceVersion=0');
      const note = (r: typeof fromEtcd) => `${r.items} of ${pods} pods returned; etcd read ${r.etcdKvs} KVs, ${(r.etcdBytes / 1024).toFixed(0)} KiB; best of ${runs}`;
      return [
        { name: 'list 10k pods, selector matching 10, RV unset (etcd quorum read)', value: fromEtcd.ms, unit: 'ms', note: note(fromEtcd) },
        { name: 'same list, etcd bytes read (RV unset)', value: fromEtcd.etcdBytes / 1024, unit: 'KiB' },
        { name: 'list 10k pods, selector matching 10, RV "0" (watch cache)', value: fromCache.ms, unit: 'ms', note: note(fromCache) },
        { name: 'same list, etcd bytes read (RV "0")', value: fromCache.etcdBytes / 1024, unit: 'KiB' },
      ];
    },
  },
];

// Issue 20's memory-stability check: 10 rounds of creating a Deployment of 1,000 replicas (on 50 nodes,
// the flow bench's cluster) until it is Available, then deleting it (background cascade) until every one
// of its pods is gone from etcd. The heap is measured after a forced GC before the first round, after
// each round, and after a final 5 virtual minutes (the apiserver's compaction interval) that let etcd's
// history be compacted. The trace is bounded (100,000 records) and fills during the first round, so the
// figure that shows a leak is the heap after round 10 against round 1's; both are reported.
// `npm run bench -- stability` (`PODFLOW_STABILITY_ROUNDS`, `PODFLOW_STABILITY_REPLICAS` change the size).

import { builtinTokens } from '../src/sim/wire/credentials.ts';
import { httpKinds } from '../src/sim/wire/http.ts';
import { minute } from '../src/sim/engine/index.ts';
import { availableReplicas, createBenchCluster, forcedGc, postDeployment } from './flow-setup.ts';
import type { Benchmark, BenchFigure } from './harness.ts';

const rounds = Number(process.env.PODFLOW_STABILITY_ROUNDS ?? 10);
const replicas = Number(process.env.PODFLOW_STABILITY_REPLICAS ?? 1000);

function stability(): BenchFigure[] {
  const gc = forcedGc();
  const heap = (): number => {
    gc();
    return process.memoryUsage().heapUsed;
  };
  const cluster = createBenchCluster();
  cluster.boot();
  const podCount = (): number => cluster.etcd.kv.range({ key: '/registry/pods/default/', rangeEnd: '/registry/pods/default0', countOnly: true }).count;
  const start = heap();
  const after: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    const name = `web-${round}`;
    postDeployment(cluster, replicas, name);
    while (availableReplicas(cluster, name) < replicas) cluster.engine.runFor(1000, 200_000);
    cluster.user.request('kube-apiserver', httpKinds.request, {
      method: 'DELETE', path: `/apis/apps/v1/namespaces/default/deployments/${name}`, query: '',
      headers: { authorization: `Bearer ${builtinTokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' }),
    });
    while (podCount() > 0) cluster.engine.runFor(1000, 200_000);
    cluster.engine.runUntilIdle();
    after.push(heap());
    process.stderr.write(`round ${round}: heap ${(after.at(-1)! / 1024 / 1024).toFixed(1)} MiB, step ${cluster.engine.step}\n`);
  }
  cluster.engine.runFor(5 * minute);
  const end = heap();
  const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  const first = after[0]!;
  return [
    { name: `heap after ${rounds} rounds of create/delete of ${replicas} pods against after round 1`, value: 100 * (end - first) / first, unit: '%',
      goal: { value: 10, better: 'lower' }, note: `round 1 ${mib(first)}, round ${rounds} ${mib(after.at(-1)!)}, 5 virtual min later ${mib(end)}; ${cluster.engine.step} steps` },
    { name: `heap after ${rounds} rounds of create/delete of ${replicas} pods against the booted cluster`, value: 100 * (end - start) / start, unit: '%',
      note: `booted ${mib(start)} (trace nearly empty) → ${mib(end)} (trace holding its 100,000 records); after each round: ${after.map((a) => (a / 1024 / 1024).toFixed(0)).join(', ')} MiB` },
  ];
}

export const benchmarks: Benchmark[] = [
  { group: 'stability', name: `memory after ${rounds} rounds of create/delete of ${replicas} pods`, run: stability },
];

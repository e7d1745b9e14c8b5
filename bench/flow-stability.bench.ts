// Issue 20's memory-stability check: 10 rounds of creating a Deployment of 1,000 replicas (on 50 nodes,
// the flow bench's cluster) until it is Available, then deleting it (background cascade) until every one
// of its pods is gone from etcd. The heap is measured after a forced GC before the first round, after
// each round, and after a final 5 virtual minutes (the apiserver's compaction interval) that let etcd's
// history be compacted. Each round ends with `PODFLOW_STABILITY_SETTLE` virtual minutes of quiet
// (default 5: one compaction of etcd's history, and the watch caches' 75 s windows move past the round),
// so what stays is what the cluster keeps, not history it would let go of with time. The bounded holders
// (the trace's 100,000 records, whole payloads for its newest 10,000; the audit log; Events' one-hour
// TTL) fill over the first rounds, so a leak shows as growth per deleted pod over the last half of the
// rounds; it is reported with the heap after round 10 against round 1's and against the booted cluster.
// The end is measured after `PODFLOW_STABILITY_QUIET` virtual minutes more (default 75: the Events'
// hour-long leases expire, then two of the apiserver's 5-minute compactions drop their history).
// `npm run bench -- stability` (`PODFLOW_STABILITY_ROUNDS`, `PODFLOW_STABILITY_REPLICAS` change the size;
// `PODFLOW_STABILITY_SNAPSHOT=<prefix>` writes V8 heap snapshots `<prefix>-round1.heapsnapshot` and
// `<prefix>-end.heapsnapshot` for `bench/flow-heap.ts` to attribute what round 1 and the end hold).

import { writeHeapSnapshot } from 'node:v8';
import { builtinTokens } from '../src/sim/wire/credentials.ts';
import { httpKinds } from '../src/sim/wire/http.ts';
import { minute } from '../src/sim/engine/index.ts';
import { availableReplicas, createBenchCluster, forcedGc, postDeployment } from './flow-setup.ts';
import type { Benchmark, BenchFigure } from './harness.ts';

const rounds = Number(process.env.PODFLOW_STABILITY_ROUNDS ?? 10);
const replicas = Number(process.env.PODFLOW_STABILITY_REPLICAS ?? 1000);
const settle = Number(process.env.PODFLOW_STABILITY_SETTLE ?? 5) * minute;
const quiet = Number(process.env.PODFLOW_STABILITY_QUIET ?? 75) * minute;
const snapshot = process.env.PODFLOW_STABILITY_SNAPSHOT;

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
    cluster.engine.runFor(settle);
    after.push(heap());
    process.stderr.write(`round ${round}: heap ${(after.at(-1)! / 1024 / 1024).toFixed(1)} MiB, step ${cluster.engine.step}\n`);
    if (snapshot && round === 1) writeHeapSnapshot(`${snapshot}-round1.heapsnapshot`);
  }
  cluster.engine.runFor(quiet);
  const end = heap();
  if (snapshot) writeHeapSnapshot(`${snapshot}-end.heapsnapshot`);
  const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  const first = after[0]!;
  const half = Math.floor(rounds / 2);
  const perPod = (after.at(-1)! - after[half - 1]!) / ((rounds - half) * replicas);
  return [
    { name: `heap after ${rounds} rounds of create/delete of ${replicas} pods against after round 1`, value: 100 * (end - first) / first, unit: '%',
      goal: { value: 10, better: 'lower' }, note: `round 1 ${mib(first)}, round ${rounds} ${mib(after.at(-1)!)}, ${quiet / minute} virtual min later ${mib(end)}; ${cluster.engine.step} steps` },
    { name: `heap after ${rounds} rounds of create/delete of ${replicas} pods against the booted cluster`, value: 100 * (end - start) / start, unit: '%',
      note: `booted ${mib(start)} (trace nearly empty) → ${mib(end)} (trace holding ${cluster.engine.trace.all().length.toLocaleString('en-US')} records); after each round: ${after.map((a) => (a / 1024 / 1024).toFixed(0)).join(', ')} MiB` },
    { name: `heap growth per deleted pod over rounds ${half + 1}–${rounds}`, value: perPod / 1024, unit: 'KiB',
      note: `round ${half} ${mib(after[half - 1]!)} → round ${rounds} ${mib(after.at(-1)!)}; ${settle / minute} virtual min of quiet after each round` },
  ];
}

export const benchmarks: Benchmark[] = [
  { group: 'stability', name: `memory after ${rounds} rounds of create/delete of ${replicas} pods`, run: stability },
];

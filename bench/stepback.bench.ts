// Going back in the worker (`npm run bench -- stepback`): the worker's host (src/worker/host.ts, on a
// manual clock) runs a Deployment of `PODFLOW_BENCH_REPLICAS` replicas (1,000 by default) on
// `PODFLOW_BENCH_NODES` nodes (50) with one etcd member until idle, then times what the page's commands
// cost the worker, events included (the keyspace and pods they imply): Step back by one step from the head
// and below it, seeks k steps back, seeks to steps drawn at random over the whole run, and (after etcd is
// compacted) a seek to a step whose revision is compacted. Medians of wall time per command, and of the
// process's CPU time beside it (on a shared machine the wall time mostly measures the wait for a core).

import { webDeployment } from '../src/sim/scenarios/scale-build.ts';
import { manualHost } from '../src/worker/testing.ts';
import type { Command, WorkerEvent } from '../src/protocol/index.ts';
import type { Benchmark, BenchFigure } from './harness.ts';

const replicas = Number(process.env.PODFLOW_BENCH_REPLICAS ?? 1000);
const nodes = Number(process.env.PODFLOW_BENCH_NODES ?? 50);

interface Timing {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly pods: number;
  readonly keys: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** A seeded sequence in [0, 1) (the bench's picks are the same every run). */
function picks(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

function measure(): BenchFigure[] {
  const harness = manualHost({ initial: { seed: 'bench-stepback', nodes, etcdMembers: 1 } });
  const { host, events, send } = harness;
  const built = performance.now();
  send({ type: 'applyManifest', yaml: webDeployment(replicas).yaml });
  send({ type: 'runUntilIdle' });
  const runMs = performance.now() - built;
  const head = host.timeline.head;
  const time = (command: Command): Timing => {
    events.length = 0;
    const cpu = process.cpuUsage();
    const start = performance.now();
    host.handle(command);
    const wallMs = performance.now() - start;
    const used = process.cpuUsage(cpu);
    const pods = events.reduce((n, e: WorkerEvent) => n + (e.type === 'pods' ? e.upserted.length + e.removed.length : 0), 0);
    const keys = events.reduce((n, e: WorkerEvent) => n + (e.type === 'keyspaceDiff' ? e.changes.length : e.type === 'keyspaceSnapshot' ? e.entries.count : 0), 0);
    return { wallMs, cpuMs: (used.user + used.system) / 1000, pods, keys };
  };
  const figures: BenchFigure[] = [];
  const row = (name: string, timings: readonly Timing[], note = '') => {
    figures.push({
      name: `${name}, median`, value: median(timings.map((t) => t.wallMs)), unit: 'ms', goal: { value: 100, better: 'lower' },
      note: `CPU ${median(timings.map((t) => t.cpuMs)).toFixed(2)} ms; pods shipped ${median(timings.map((t) => t.pods))}, keys ${median(timings.map((t) => t.keys))}${note ? `; ${note}` : ''}`,
    });
  };
  const random = picks(20);
  row('Step back from the head', Array.from({ length: 15 }, () => {
    send({ type: 'seek', step: head });
    return time({ type: 'stepBack', count: 1 });
  }));
  send({ type: 'seek', step: Math.floor(head * 0.7) });
  row('Step back below the head (70 % of the run)', Array.from({ length: 30 }, () => time({ type: 'stepBack', count: 1 })));
  for (const k of [10, 100, 1_000]) {
    row(`Seek ${k.toLocaleString('en-US')} steps back`, Array.from({ length: 10 }, () => {
      const from = Math.floor(head * (0.3 + 0.7 * random()));
      send({ type: 'seek', step: from });
      return time({ type: 'seek', step: Math.max(0, from - k) });
    }));
  }
  row('Seek to a random step', Array.from({ length: 15 }, () => time({ type: 'seek', step: Math.floor(random() * head) })));
  // Last, as it changes the cluster: etcd compacted at the revision of 70 % of the run (as kube-apiserver's
  // compactor does every 5 minutes; the run is shorter), then seeks from the head to 50 %.
  send({ type: 'seek', step: head });
  const compactRevision = host.timeline.revisionAt(Math.floor(head * 0.7));
  send({ type: 'userRequest', to: 'etcd', kind: 'etcd.Compact', payload: { revision: compactRevision } });
  send({ type: 'runUntilIdle' });
  const compacted = Math.floor(head * 0.5);
  row('Seek to a compacted step (pods from the kept versions)', Array.from({ length: 5 }, () => {
    send({ type: 'seek', step: host.timeline.head });
    return time({ type: 'seek', step: compacted });
  }), `step ${compacted}, revision ${host.timeline.revisionAt(compacted)} < compacted ${compactRevision}`);
  figures.push({ name: 'the run to Available (host, manual clock)', value: runMs / 1000, unit: 's', note: `${head.toLocaleString('en-US')} steps, ${replicas} replicas on ${nodes} nodes` });
  return figures;
}

export const benchmarks: Benchmark[] = [
  { group: 'stepback', name: `step back and seek in the worker, ${replicas} replicas on ${nodes} nodes`, run: measure },
];

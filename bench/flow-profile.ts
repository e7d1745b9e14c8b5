// Where the flow bench's memory goes (issue 20): runs the bench's rollout (one Deployment of
// `PODFLOW_BENCH_REPLICAS` replicas on `PODFLOW_BENCH_NODES` nodes, the bench's cluster options) to all
// Available, then measures the heap after a forced GC and, with `PODFLOW_PROFILE_SNAPSHOT=<file>`,
// writes a V8 heap snapshot for `bench/flow-heap.ts` to attribute. Not a benchmark: a tool for
// docs/performance.md. Run with `node --expose-gc --import tsx bench/flow-profile.ts`; with
// `PODFLOW_PROFILE_CPU=<dir>` it writes a CPU profile of the rollout alone (from the Deployment's POST to
// all Available, not the boot or the trace measurements after it) to `<dir>/rollout.cpuprofile`, for
// `bench/flow-cpu.ts` to summarise; with `PODFLOW_PROFILE_ALLOC=<dir>` it writes a sampling heap profile of the
// rollout that counts every allocation, the ones collected since included (what the allocation rate is
// made of), to `<dir>/rollout.heapprofile`, for `bench/flow-alloc.ts` to summarise; with
// `PODFLOW_PROFILE_ALLOC_PROMOTED=1` only the allocations a scavenge did not collect (what reached the old
// generation: what stays, and the garbage only a mark-compact frees).

import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { createBenchCluster, postDeployment, availableReplicas, benchNodes, benchReplicas } from './flow-setup.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const heap = (): number => {
  gc();
  return process.memoryUsage().heapUsed;
};

const cluster = createBenchCluster();
const empty = heap();
cluster.boot();
const booted = heap();
const profileDir = process.env.PODFLOW_PROFILE_CPU;
const allocDir = process.env.PODFLOW_PROFILE_ALLOC;
const profiler = profileDir === undefined && allocDir === undefined ? undefined : new Session();
if (profiler !== undefined) profiler.connect();
if (profiler !== undefined && profileDir !== undefined) {
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
if (profiler !== undefined && allocDir !== undefined) {
  await profiler.post('HeapProfiler.enable');
  await profiler.post('HeapProfiler.startSampling', { samplingInterval: 64 * 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: process.env.PODFLOW_PROFILE_ALLOC_PROMOTED !== '1' });
}
postDeployment(cluster);
const cpu = process.cpuUsage();
const stepsBefore = cluster.engine.step;
while (availableReplicas(cluster) < benchReplicas) cluster.engine.runFor(1000, 200_000);
const used = process.cpuUsage(cpu);
if (profiler !== undefined && profileDir !== undefined) {
  const { profile } = await profiler.post('Profiler.stop');
  mkdirSync(profileDir, { recursive: true });
  writeFileSync(join(profileDir, 'rollout.cpuprofile'), JSON.stringify(profile));
  console.log(`CPU profile of the rollout written to ${join(profileDir, 'rollout.cpuprofile')}`);
}
if (profiler !== undefined && allocDir !== undefined) {
  const { profile } = await profiler.post('HeapProfiler.stopSampling');
  mkdirSync(allocDir, { recursive: true });
  writeFileSync(join(allocDir, 'rollout.heapprofile'), JSON.stringify(profile));
  console.log(`allocation profile of the rollout written to ${join(allocDir, 'rollout.heapprofile')}`);
}
profiler?.disconnect();
const after = heap();
const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MiB`;
console.log(`${benchReplicas} replicas on ${benchNodes} nodes: ${cluster.engine.step - stepsBefore} steps, ${((used.user + used.system) / 1e6).toFixed(1)} s CPU`);
console.log(`heap after GC: empty cluster ${mib(empty)}, booted ${mib(booted)}, all Available ${mib(after)}`);
console.log(`growth over the rollout ${mib(after - booted)}: ${((after - booted) / benchReplicas / 1024).toFixed(1)} KiB per Pod`);
// The retained trace by message kind: records and their JSON size (what the trace hash serializes).
const kinds = new Map<string, { count: number; chars: number }>();
for (const record of cluster.engine.trace.all()) {
  const entry = kinds.get(record.kind) ?? { count: 0, chars: 0 };
  entry.count++;
  entry.chars += JSON.stringify(record).length;
  kinds.set(record.kind, entry);
}
console.log(`trace: ${cluster.engine.trace.all().length} records retained of ${cluster.engine.step}`);
lightRecords(cluster);
for (const [kind, e] of [...kinds].sort((a, b) => b[1].chars - a[1].chars).slice(0, 12)) {
  console.log(`  ${kind.padEnd(28)} ${String(e.count).padStart(7)} records  ${mib(e.chars)} of JSON, ${Math.round(e.chars / e.count)} chars each`);
}
const snapshot = process.env.PODFLOW_PROFILE_SNAPSHOT;
if (snapshot) console.log(`heap snapshot written to ${writeHeapSnapshot(snapshot)}`);

/**
 * The summarized steps by what inspecting them gives (rebuilt from etcd's history, kept whole, or the
 * summary), by kind, and a rebuild's cost.
 */
function lightRecords(c: typeof cluster): void {
  const { trace } = c.engine;
  const rebuilt: number[] = [];
  const byKind = new Map<string, { rebuilt: number; whole: number; summary: number }>();
  let summaries = 0;
  for (let step = trace.firstStep; step < trace.payloadsFrom; step++) {
    const { kept } = trace.payloadAt(step)!;
    if (kept === 'rebuilt') rebuilt.push(step);
    else if (kept === 'summary') summaries++;
    const kind = trace.at(step)!.kind;
    const entry = byKind.get(kind) ?? { rebuilt: 0, whole: 0, summary: 0 };
    entry[kept]++;
    byKind.set(kind, entry);
  }
  /** Milliseconds spent rebuilding, by kind. */
  const spent = new Map<string, number>();
  let total = 0;
  for (const step of rebuilt) {
    const started = performance.now();
    trace.payloadAt(step);
    const ms = performance.now() - started;
    const kind = trace.at(step)!.kind;
    spent.set(kind, (spent.get(kind) ?? 0) + ms);
    total += ms;
  }
  const us = (ms: number, n: number): string => `${((1000 * ms) / Math.max(1, n)).toFixed(1)} µs`;
  console.log(`summarized steps: ${rebuilt.length} rebuilt from etcd's history (${us(total, rebuilt.length)} each), ${summaries} summaries only`);
  for (const [kind, e] of [...byKind].sort((a, b) => b[1].rebuilt + b[1].summary - a[1].rebuilt - a[1].summary).slice(0, 16)) {
    const each = e.rebuilt > 0 ? ` (${us(spent.get(kind)!, e.rebuilt)} each)` : '';
    console.log(`  ${kind.padEnd(32)} rebuilt ${String(e.rebuilt).padStart(6)}${each}  kept whole ${String(e.whole).padStart(4)}  summary ${String(e.summary).padStart(6)}`);
  }
}

// What a long seek costs the page's worker: a SimHost (the worker's host, the product's bounds) runs a
// Deployment of N replicas on M nodes to idle, then seeks to 90, 50, 70, 30 and 95 % of the head twice,
// reporting each seek's time, the GC time over each round (PerformanceObserver) and the size of what each
// round posts to the page (v8.serialize, by event type). Not a benchmark (the page's figure is
// bench/ui-tab-scale.ts): a tool for issue 20's seeks at scale. Run it under the heap pressure of the tab's
// worker, whose heap is near its limit at 30,000 Pods:
//   node --max-old-space-size=1400 --import tsx bench/host-seek.ts [replicas=3000] [nodes=150]
// with 1 etcd member (PODFLOW_BENCH_ETCD_MEMBERS=3 for the page's 3). PODFLOW_PROFILE_CPU=<dir> writes a CPU
// profile of the two rounds (seeks.cpuprofile) for bench/flow-cpu.ts.

import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { serialize } from 'node:v8';
import type { WorkerEvent } from '../src/protocol/index.ts';
import { SimHost, type HostClock } from '../src/worker/host.ts';
import { productBounds } from '../src/worker/host/bounds.ts';
import { webDeploymentYaml } from './manifests.ts';

const replicas = Number(process.argv[2] ?? 3000);
const nodes = Number(process.argv[3] ?? 150);
const members = Number(process.env.PODFLOW_BENCH_ETCD_MEMBERS ?? 1) === 3 ? { etcdMembers: 3 as const } : {};
const stillClock: HostClock = { now: () => 0, setTimeout: () => 0, clearTimeout: () => undefined };

let sizes: Map<string, number> | null = null;
const post = (event: WorkerEvent) => {
  if (sizes) sizes.set(event.type, (sizes.get(event.type) ?? 0) + serialize(event).length);
};
const host = new SimHost({ post, clock: stillClock, bounds: productBounds, initial: { seed: 'bench-host', nodes, ...members } });
host.handle({ type: 'applyManifest', yaml: webDeploymentYaml(replicas) });
while (!host.engine.idle) host.handle({ type: 'runUntilIdle' });
const head = host.timeline.head;
console.log(`${replicas} replicas on ${nodes} nodes idle at step ${head}`);

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });
const fractions = [0.9, 0.5, 0.7, 0.3, 0.95];
const profileDir = process.env.PODFLOW_PROFILE_CPU;
const profiler = profileDir ? new Session() : null;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
for (let round = 1; round <= 2; round++) {
  const gcBefore = gcMs;
  const each = fractions.map((f) => {
    const started = performance.now();
    host.handle({ type: 'seek', step: Math.round(head * f) });
    return performance.now() - started;
  });
  // GC entries are delivered asynchronously.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const total = each.reduce((a, b) => a + b, 0);
  console.log(`round ${round}: seeks ${each.map((ms) => ms.toFixed(0)).join(' / ')} ms, total ${total.toFixed(0)} ms, GC ${(gcMs - gcBefore).toFixed(0)} ms`);
}
if (profiler && profileDir) {
  const { profile } = await profiler.post('Profiler.stop');
  writeFileSync(join(profileDir, 'seeks.cpuprofile'), JSON.stringify(profile));
}
sizes = new Map();
for (const f of fractions) host.handle({ type: 'seek', step: Math.round(head * f) });
console.log(`posted over a round: ${[...sizes].sort((a, b) => b[1] - a[1]).map(([type, bytes]) => `${type} ${(bytes / 2 ** 20).toFixed(2)} MiB`).join(', ')}`);

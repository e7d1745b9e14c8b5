// The whole flow at scale: one Deployment of N replicas on M nodes, fast-forwarded until every pod is
// Running and the Deployment Available. Issue 5's goal is 10,000 replicas on 500 nodes at ≥ 2,000
// pods/s wall; issue 20's, at the same size, ≥ 1,000 pods per CPU second and peak heap growth ≤ 30 KB
// per Pod (300 MiB at 10,000); flow-setup.ts reads the size (`PODFLOW_BENCH_REPLICAS`, `PODFLOW_BENCH_NODES`, default 1,000 on 50),
// the storage media type (`PODFLOW_BENCH_STORAGE`) and etcd's members (`PODFLOW_BENCH_ETCD_MEMBERS`).
// The 2-core machine is shared, so besides wall time the figures are given per second of this
// process's CPU time (user + system), which a loaded machine disturbs far less.

import { GCProfiler } from 'node:v8';
import { createBenchCluster, forcedGc, postDeployment, availableReplicas, benchReplicas as replicas, benchNodes as nodes, benchEtcdMembers } from './flow-setup.ts';
import { StoryClassifier } from '../src/worker/story/classifier.ts';
import { StoryRecord } from '../src/worker/story/record.ts';
import type { Benchmark, BenchFigure } from './harness.ts';

/** Wall-time cap of the rollout, in seconds (`PODFLOW_BENCH_MAX_SECONDS`); the figures then count the pods Available by then. */
/** `PODFLOW_BENCH_PROGRESS=1` prints progress to stderr after every virtual second. */
const progress = process.env.PODFLOW_BENCH_PROGRESS === '1';
const maxSeconds = Number(process.env.PODFLOW_BENCH_MAX_SECONDS ?? 600);

/**
 * The rollout, timed. With `story` the worker's story classifier (src/worker/story/) is attached to the
 * engine's deliveries as the host attaches it (boot included, quietly), so the two variants' CPU figures
 * show what classifying every delivery costs (issue 14: at most 10 %).
 */
function rollout(story: boolean): () => BenchFigure[] {
  return () => {
      const cluster = createBenchCluster();
      // The classifier as StoryTap attaches it, with the time spent in it summed (performance.now() costs
      // ~0.1 µs a call, well under 1 % of a delivery).
      const record = story ? new StoryRecord() : null;
      const classifier = story ? new StoryClassifier(cluster.etcd) : null;
      let classifyMs = 0;
      if (record && classifier) {
        cluster.engine.onDelivery((message) => {
          const t = performance.now();
          const step = cluster.engine.step;
          record.record(step, classifier.classify(step, message));
          classifyMs += performance.now() - t;
        });
      }
      const bootStart = performance.now();
      if (classifier) classifier.quiet = true;
      cluster.boot();
      if (classifier) classifier.quiet = false;
      classifyMs = 0;
      const bootMs = performance.now() - bootStart;
      const gc = forcedGc();
      gc();
      const heapBefore = process.memoryUsage().heapUsed;
      // Every GC of the rollout, to read the heap each mark-compact leaves: the live heap (and what the
      // concurrent marking let float), without the garbage that heapUsed between collections counts. Read
      // and started again every minute: a profile of hours is too much to hand back at once (node's
      // GCProfiler.stop failed at the end of a 150,000-Pod run of 6,600 s, after all were Available).
      const compactions = { count: 0, liveAfter: heapBefore, peakBefore: heapBefore };
      let gcProfiler = new GCProfiler();
      gcProfiler.start();
      let profiledAt = performance.now();
      const readGcs = () => {
        for (const s of gcProfiler.stop().statistics) {
          if (s.gcType !== 'MarkSweepCompact') continue;
          compactions.count++;
          compactions.liveAfter = Math.max(compactions.liveAfter, s.afterGC.heapStatistics.usedHeapSize);
          compactions.peakBefore = Math.max(compactions.peakBefore, s.beforeGC.heapStatistics.usedHeapSize);
        }
      };
      postDeployment(cluster);
      const start = performance.now();
      const cpuStart = process.cpuUsage();
      const stepsBefore = cluster.engine.step;
      let peakHeap = heapBefore;
      let peakRss = process.memoryUsage().rss;
      let available = 0;
      while (available < replicas) {
        cluster.engine.runFor(1000, 200_000);
        const memory = process.memoryUsage();
        peakHeap = Math.max(peakHeap, memory.heapUsed);
        peakRss = Math.max(peakRss, memory.rss);
        available = availableReplicas(cluster);
        if (performance.now() - profiledAt > 60_000) {
          readGcs();
          gcProfiler = new GCProfiler();
          gcProfiler.start();
          profiledAt = performance.now();
        }
        if (progress) process.stderr.write(`${((performance.now() - start) / 1000).toFixed(0)} s: ${available} available, ${cluster.engine.step - stepsBefore} steps, virtual ${(cluster.engine.now / 1000).toFixed(0)} s\n`);
        if (performance.now() - start > maxSeconds * 1000) break;
      }
      const ms = performance.now() - start;
      const cpu = process.cpuUsage(cpuStart);
      readGcs();
      const liveAfterCompaction = compactions.liveAfter;
      const peakBeforeCompaction = compactions.peakBefore;
      gc();
      const retained = process.memoryUsage().heapUsed - heapBefore;
      // The live heap is only known where a mark-compact ran; the forced one at the end is the last such point.
      const peakLive = Math.max(liveAfterCompaction - heapBefore, retained);
      const cpuSeconds = (cpu.user + cpu.system) / 1e6;
      const steps = cluster.engine.step - stepsBefore;
      const size = `${replicas} replicas, ${nodes} nodes${benchEtcdMembers > 1 ? `, ${benchEtcdMembers} etcd members` : ''}${story ? ', story classifier attached' : ''}`;
      const classified = record ? `; ${record.milestones.length.toLocaleString('en-US')} milestones classified` : '';
      return [
        { name: `pods/s to Running (${size}, fast-forward, wall time)`, value: available / (ms / 1000), unit: 'pods/s', goal: { value: 2000, better: 'higher' },
          note: `${available} available in ${(ms / 1000).toFixed(1)} s wall, ${steps} steps, virtual ${(cluster.engine.now / 1000).toFixed(0)} s; boot ${bootMs.toFixed(0)} ms` },
        { name: `pods/s to Running (${size}, per CPU second)`, value: available / cpuSeconds, unit: 'pods/s', goal: { value: 1000, better: 'higher' },
          note: `${cpuSeconds.toFixed(1)} s CPU; ${Math.round(steps / cpuSeconds).toLocaleString('en-US')} steps per CPU second${classified}` },
        { name: `peak heap growth during the rollout (${size})`, value: (peakHeap - heapBefore) / (1024 * 1024), unit: 'MiB', goal: { value: replicas * 30_000 / (1024 * 1024), better: 'lower' },
          note: `heapUsed sampled after each virtual second, garbage not yet collected included; the largest heap a mark-compact started from: +${((peakBeforeCompaction - heapBefore) / 1048576).toFixed(0)} MiB` },
        { name: `peak live heap growth during the rollout (${size})`, value: peakLive / (1024 * 1024), unit: 'MiB', goal: { value: replicas * 30_000 / (1024 * 1024), better: 'lower' },
          note: `the largest heap a mark-compact left: +${((liveAfterCompaction - heapBefore) / 1048576).toFixed(0)} MiB by the ${compactions.count} in the rollout, +${(retained / 1048576).toFixed(0)} MiB by the full GC at its end` },
        { name: `heap retained per Pod after a full GC (${size})`, value: retained / available / 1024, unit: 'KiB', goal: { value: 30, better: 'lower' },
          note: `${(retained / 1024 / 1024).toFixed(0)} MiB more than the booted cluster; the trace keeps at most 100,000 records` },
        { name: `peak RSS (${size})`, value: peakRss / (1024 * 1024), unit: 'MiB' },
        ...(record ? [{
          // Both wall times: on a loaded machine a wall-time span also counts the time the process waited for
          // a core, so the classifier's span is set against the rollout's wall time, not its CPU time.
          name: `story classification's share of the rollout's wall time (${size})`, value: 100 * classifyMs / ms, unit: '%',
          goal: { value: 10, better: 'lower' as const }, note: `${(classifyMs / 1000).toFixed(2)} s in the classifier of ${(ms / 1000).toFixed(1)} s wall` }] : []),
      ];
  };
}

/** `PODFLOW_BENCH_STORY`: `both` (default) runs the rollout without and with the classifier, `off` or `only` one of them. */
const storyVariants = process.env.PODFLOW_BENCH_STORY ?? 'both';

export const benchmarks: Benchmark[] = [
  ...(storyVariants !== 'only' ? [{ group: 'flow', name: `deployment of ${replicas} replicas on ${nodes} nodes to all Running`, run: rollout(false) }] : []),
  ...(storyVariants !== 'off' ? [{ group: 'flow', name: `deployment of ${replicas} replicas on ${nodes} nodes to all Running, story classifier attached`, run: rollout(true) }] : []),
];

// What an open state tab costs the page's worker at scale: the objects and scheduler tabs ask the worker
// again each time the step moves (at most four times a second), so each answer's worker time and the size
// of what crosses to the page (structured clone, measured with v8.serialize) are what stepping with the tab
// open costs: each question is asked after a step back. A SimHost with the product's bounds runs `PODFLOW_BENCH_INSPECT_REPLICAS` replicas on
// `PODFLOW_BENCH_INSPECT_NODES` nodes (default 3,000 on 150) to idle, then each question is asked 20 times.

import { serialize } from 'node:v8';
import type { InspectQuery, InspectTopic, WorkerEvent } from '../src/protocol/index.ts';
import { SimHost, type HostClock } from '../src/worker/host.ts';
import type { Benchmark, BenchFigure } from './harness.ts';
import { webDeploymentYaml } from './manifests.ts';

const replicas = Number(process.env.PODFLOW_BENCH_INSPECT_REPLICAS ?? 3000);
const nodes = Number(process.env.PODFLOW_BENCH_INSPECT_NODES ?? 150);
const stillClock: HostClock = { now: () => 0, setTimeout: () => 0, clearTimeout: () => undefined };

/** The tabs' questions, as their panels ask them; `middleEvent` is the key of an Event halfway down its list. */
const questionsFor = (middleEvent: string): readonly { readonly name: string; readonly topic: InspectTopic; readonly query: InspectQuery }[] => [
  { name: 'objects tab: pods, the window at the top', topic: 'objects', query: { objects: { resource: 'pods', offset: 0, limit: 150 } } },
  { name: 'objects tab: events, the window around the selected one halfway down', topic: 'objects', query: { objects: { resource: 'events', offset: 1_000, limit: 150, key: middleEvent } } },
  { name: 'scheduler tab: the newest attempts, the newest in full', topic: 'scheduler', query: { scheduler: {} } },
  { name: 'scheduler tab: filtered by a pod name', topic: 'scheduler', query: { scheduler: { pod: 'web-' } } },
];

export const benchmarks: Benchmark[] = [
  {
    group: 'inspect',
    name: `state tabs' answers after ${replicas} replicas on ${nodes} nodes`,
    run() {
      let answer: WorkerEvent | null = null;
      const host = new SimHost({ post: (event) => { if (event.type === 'inspection') answer = event; }, clock: stillClock, initial: { seed: 'bench-inspect', nodes } });
      host.handle({ type: 'applyManifest', yaml: webDeploymentYaml(replicas) });
      while (!host.engine.idle) host.handle({ type: 'runUntilIdle' });
      const events = host.hostedCluster.etcd!.kv.range({ key: '/registry/events/', rangeEnd: '/registry/events0', keysOnly: true }).kvs;
      const figures: BenchFigure[] = [];
      // Each question asked after a step back of 7 deliveries: the worker's answer follows the step shown.
      for (const { name, topic, query } of questionsFor(events[events.length >> 1]!.key)) {
        const times: number[] = [];
        let bytes = 0;
        for (let i = 0; i < 20; i++) {
          host.handle({ type: 'stepBack', count: 7 });
          const start = performance.now();
          host.handle({ type: 'inspect', topics: [topic], ...query });
          times.push(performance.now() - start);
          bytes = serialize(answer).length;
        }
        times.sort((a, b) => a - b);
        figures.push(
          // Four answers a second while stepping with the tab open: 250 ms would leave the worker nothing else.
          { name: `${name}: worker time (median of 20)`, value: times[10]!, unit: 'ms', goal: { value: 50, better: 'lower' }, note: `p95 ${times[18]!.toFixed(1)} ms` },
          { name: `${name}: answer size`, value: bytes / 1024, unit: 'KiB' },
        );
      }
      return figures;
    },
  },
];

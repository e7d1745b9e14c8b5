import { syntheticLoad } from '../src/sim/engine/synthetic-load.ts';
import type { Benchmark } from './harness.ts';

export const benchmarks: Benchmark[] = [
  {
    group: 'engine',
    name: 'fast-forward deliveries',
    run() {
      const messages = 100_000;
      let best = Number.POSITIVE_INFINITY;
      let delivered = 0;
      for (let i = 0; i < 7; i++) {
        const engine = syntheticLoad({ seed: `bench-${i}`, messages });
        const start = performance.now();
        const result = engine.runUntilIdle();
        const ms = performance.now() - start;
        delivered = result.steps;
        best = Math.min(best, ms);
      }
      return [{
        name: 'engine deliveries/s (fast-forward, synthetic 100k messages)',
        value: delivered / (best / 1000),
        unit: 'deliveries/s',
        goal: { value: 1_000_000, better: 'higher' },
        note: `${delivered} deliveries, best of 7, full trace kept`,
      }];
    },
  },
];

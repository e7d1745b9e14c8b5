// Determinism check shared by every layer's tests: run the same scenario twice, the second time with the
// host's nondeterminism perturbed (the global random source returns a constant, the wall clock jumps years ahead), and
// compare trace hashes. If anything in src/sim reads wall time or unseeded randomness, the traces differ.

import { vi } from 'vitest';
import { traceHash, type Engine } from '../engine/index.ts';

export interface DeterminismRun {
  readonly hash: string;
  readonly steps: number;
}

export function runScenario(scenario: () => Engine): DeterminismRun {
  const engine = scenario();
  return { hash: traceHash(engine.trace.all()), steps: engine.step };
}

/** Runs `scenario` once normally and once with a perturbed host; returns both runs. */
export function runTwiceWithPerturbedHost(scenario: () => Engine): [DeterminismRun, DeterminismRun] {
  const first = runScenario(scenario);
  vi.useFakeTimers({ now: 1_925_000_000_000, toFake: ['Date', 'performance'] });
  const random = vi.spyOn(Math, 'random').mockReturnValue(0.5);
  try {
    return [first, runScenario(scenario)];
  } finally {
    random.mockRestore();
    vi.useRealTimers();
  }
}

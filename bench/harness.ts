// The benchmark harness: every bench/*.bench.ts module exports `benchmarks`; `npm run bench` runs them
// in one process, prints a table and writes bench/results/latest.json. Benchmarks measure, they never
// assert: goals are printed beside the figures so a reader sees how far off each one is.

export interface BenchFigure {
  /** What was measured, e.g. "engine deliveries/s (fast-forward, 100k messages)". */
  readonly name: string;
  readonly value: number;
  /** Unit of `value`, e.g. "deliveries/s", "ms", "KiB". */
  readonly unit: string;
  /** The goal, when the issue sets one; `better` says which direction meets it. */
  readonly goal?: { readonly value: number; readonly better: 'higher' | 'lower' };
  /** Free-form context: sizes, repetitions, the real system's figure beside ours. */
  readonly note?: string;
}

export interface Benchmark {
  /** Group shown in the table and usable as a filter: `npm run bench -- etcd`. */
  readonly group: string;
  readonly name: string;
  run(): Promise<BenchFigure[]> | BenchFigure[];
}

/** Runs `fn` repeatedly for at least `minMs` (host time) and returns the best run's duration in ms. */
export function bestOf(fn: () => void, runs = 5): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

export function meetsGoal(figure: BenchFigure): boolean | undefined {
  if (!figure.goal) return undefined;
  // Within floating-point noise of the goal counts as meeting it (16.700000000000273 ms is a 16.7 ms frame).
  const slack = Math.abs(figure.goal.value) * 1e-9;
  return figure.goal.better === 'higher' ? figure.value >= figure.goal.value - slack : figure.value <= figure.goal.value + slack;
}

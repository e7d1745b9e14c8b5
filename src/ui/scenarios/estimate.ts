// What a scenario at scale will cost this tab, estimated before it starts from four measured runs of the
// model (`npm run bench -- flow`, one Deployment run to all Available; README's performance table and
// docs/performance.md):
//   1,000 Pods on    50 nodes  51.6 Pods per CPU second, 93.7 KiB retained per Pod  (session 12, quiet machine)
//   2,000 Pods on   500 nodes  ~38 Pods per CPU second,   45 KiB (44.2–45.7)        (session 12, load 11–12)
//  10,000 Pods on   500 nodes  38.1 Pods per CPU second,  40.8 KiB, peak heap +1,387 MiB, peak RSS 1.7 GiB
//                                                                                    (session 11, load 12–15)
//  30,000 Pods on 1,000 nodes  27.4 Pods per CPU second,  27.9 KiB, peak heap +2,095 MiB, peak RSS 2.6 GiB
//                                                                                    (session 13, load 6–30)
// with the booted cluster's heap after a forced GC, 26.1 MiB at 50 nodes, 91.7 MiB at 500 and 146.1 MiB at
// 1,000 (`bench/flow-profile.ts`, session 13). The "per Pod" figures are measured over the booted cluster,
// whose trace of the boot the rollout's records then push out (the trace is bounded by records), so they
// fall as the cluster grows; the heap each run keeps in all is what the model fits.
//
// CPU: kube-scheduler and the nodes' own traffic make a Pod dearer on more nodes, so the CPU seconds per
// Pod are a constant plus a part per node, fitted (least squares) to the runs. Memory kept once every Pod
// is Running: a fixed part + a part per Pod + a part per node, least squares over the runs. The peak heap
// while the Pods are created was 2.3–3.2 times what is kept in each run (garbage between full GCs): the
// peak is that ratio, averaged. Past 30,000 Pods and 1,000 nodes both are extrapolations.

interface MeasuredRun {
  readonly pods: number;
  readonly nodes: number;
  readonly podsPerCpuSecond: number;
  /** Heap after a forced GC once every Pod is Available, the booted cluster included. */
  readonly keptBytes: number;
  /** The highest heap seen during the run. */
  readonly peakBytes: number;
}

const KiB = 1024;
const MiB = 1024 ** 2;

const bootedBytes = { 50: 26.1 * MiB, 500: 91.7 * MiB, 1000: 146.1 * MiB } as const;

/** The runs the estimate is fitted to (see the head of this file). */
export const measuredRuns: readonly MeasuredRun[] = [
  { pods: 1_000, nodes: 50, podsPerCpuSecond: 51.6, keptBytes: bootedBytes[50] + 1_000 * 93.7 * KiB, peakBytes: bootedBytes[50] + 333 * MiB },
  { pods: 2_000, nodes: 500, podsPerCpuSecond: 38, keptBytes: bootedBytes[500] + 2_000 * 44.95 * KiB, peakBytes: bootedBytes[500] + 473 * MiB },
  { pods: 10_000, nodes: 500, podsPerCpuSecond: 38.1, keptBytes: bootedBytes[500] + 10_000 * 40.8 * KiB, peakBytes: bootedBytes[500] + 1_387 * MiB },
  { pods: 30_000, nodes: 1000, podsPerCpuSecond: 27.4, keptBytes: bootedBytes[1000] + 819 * MiB, peakBytes: bootedBytes[1000] + 2_095 * MiB },
];

/** CPU seconds per Pod = `fixed` + `perNode` × nodes, least squares over the runs. */
function fitCpu(runs: readonly MeasuredRun[]): { readonly fixed: number; readonly perNode: number } {
  const xs = runs.map((r) => r.nodes);
  const ys = runs.map((r) => 1 / r.podsPerCpuSecond);
  const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const mx = mean(xs);
  const my = mean(ys);
  const perNode = xs.reduce((s, x, i) => s + (x - mx) * (ys[i]! - my), 0) / xs.reduce((s, x) => s + (x - mx) ** 2, 0);
  return { fixed: my - perNode * mx, perNode };
}

/** Kept bytes = `fixed` + `perPod` × pods + `perNode` × nodes, least squares over the runs (normal equations, Cramer's rule). */
function fitMemory(runs: readonly MeasuredRun[]): { readonly fixed: number; readonly perPod: number; readonly perNode: number } {
  type Row = readonly [number, number, number];
  const xs = runs.map((r): Row => [1, r.pods, r.nodes]);
  const normal = [0, 1, 2].map((i): Row => [0, 1, 2].map((j) => xs.reduce((s, x) => s + x[i]! * x[j]!, 0)) as unknown as Row);
  const rhs = [0, 1, 2].map((i) => xs.reduce((s, x, k) => s + x[i]! * runs[k]!.keptBytes, 0));
  const det = (m: readonly Row[]) =>
    m[0]![0] * (m[1]![1] * m[2]![2] - m[1]![2] * m[2]![1]) - m[0]![1] * (m[1]![0] * m[2]![2] - m[1]![2] * m[2]![0]) + m[0]![2] * (m[1]![0] * m[2]![1] - m[1]![1] * m[2]![0]);
  const column = (c: number) => normal.map((row, i) => row.map((v, j) => (j === c ? rhs[i]! : v)) as unknown as Row);
  const d = det(normal);
  return { fixed: det(column(0)) / d, perPod: det(column(1)) / d, perNode: det(column(2)) / d };
}

const cpu = fitCpu(measuredRuns);
/** The memory fit: bytes kept by the model's fixed part, by each Pod and by each node. */
export const memoryFit = fitMemory(measuredRuns);
/** Peak heap over kept heap, averaged over the runs. */
export const peakRatio = measuredRuns.reduce((sum, r) => sum + r.peakBytes / r.keptBytes, 0) / measuredRuns.length;
/** About what one tab's JavaScript heap may grow to before Chromium ends it (64-bit: 4 GiB). */
export const tabHeapBytes = 4 * 1024 ** 3;
/** A peak above this share of the tab's heap is said to be close to it. */
const nearShare = 0.75;
/** Scenarios of more Pods than this ask before they start. */
const confirmAbovePods = 5_000;

export interface ScaleEstimate {
  /** CPU seconds to bring every Pod Running. */
  readonly seconds: number;
  /** The model's speed at this size, Pods per CPU second. */
  readonly podsPerCpuSecond: number;
  /** Heap the tab keeps once every Pod is Running. */
  readonly bytes: number;
  /** The heap's likely peak on the way. */
  readonly peakBytes: number;
  /** Whether that peak stays within a tab's heap. */
  readonly fits: boolean;
  /** Whether it fits but comes close (over three quarters of the tab's heap). */
  readonly nearLimit: boolean;
}

export function scaleEstimate(pods: number, nodes: number): ScaleEstimate {
  const perPod = cpu.fixed + nodes * cpu.perNode;
  const bytes = memoryFit.fixed + pods * memoryFit.perPod + nodes * memoryFit.perNode;
  const peakBytes = bytes * peakRatio;
  const fits = peakBytes < tabHeapBytes;
  return { seconds: pods * perPod, podsPerCpuSecond: 1 / perPod, bytes, peakBytes, fits, nearLimit: fits && peakBytes > nearShare * tabHeapBytes };
}

/** Whether starting a scenario of `pods` Pods asks first. */
export function asksBeforeStart(pods: number | undefined): pods is number {
  return pods !== undefined && pods > confirmAbovePods;
}

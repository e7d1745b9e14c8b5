// What a scenario at scale will cost this tab, estimated before it starts from measured runs of the model
// (`npm run bench -- flow`, one Deployment run to all Available; README's performance table and
// docs/performance.md).
//
// CPU, from runs on a quiet machine (this 2-core machine's CPU time per step triples beside other busy
// processes, so the runs taken beside the helpers in sessions 11–13, 27–52 Pods per CPU second, are left out):
//   1,000 Pods on    50 nodes  120 Pods per CPU second  (session 14, nothing else running)
//  10,000 Pods on   500 nodes  160 Pods per CPU second  (session 14, merged main, load 3; 165 before the merges)
// 150,000 Pods on 5,000 nodes   49.9 Pods per CPU second (session 15, run to the end: 3,006 s CPU; beside two
//                                                         helpers and two CI runs, load 3–16, so if anything
//                                                         slower than a quiet machine)
// Memory kept once every Pod is Running (heap after a forced GC; load does not change it):
//   1,000 Pods on    50 nodes  94.0 KiB retained per Pod, peak heap +291 MiB (session 14)
//   2,000 Pods on   500 nodes  45 KiB (44.2–45.7), peak +473 MiB              (session 12)
//  10,000 Pods on   500 nodes  27.1 KiB, peak heap +1,214 MiB                 (session 14, superseded etcd
//                                                                             values kept as deltas)
//  30,000 Pods on 1,000 nodes  27.9 KiB, peak heap +2,095 MiB                 (session 13, before the deltas)
// (The run of 150,000 on 5,000 kept 2,386 MiB over its booted cluster's 366 MiB, 16.3 KiB per Pod, with a sampled
// peak of +8,885 MiB under a 16 GiB heap limit: a plane through the runs above cannot take it in, since what a
// Pod keeps falls as the bounded trace and watch-cache windows spread over more Pods; fitted alone to the runs
// above, the estimate overstates what 150,000 keep, 4.4 GiB against 2.7.)
// with the booted cluster's heap after a forced GC, 26.1 MiB at 50 nodes, 91.7 MiB at 500 and 146.1 MiB at
// 1,000 (`bench/flow-profile.ts`, session 13). The "per Pod" figures are measured over the booted cluster,
// whose trace of the boot the rollout's records then push out (the trace is bounded by records), so they
// fall as the cluster grows; the heap each run keeps in all is what the model fits.
//
// What the tab keeps is more than the bare cluster: the page's simulation worker also holds its bounded trace
// (200,000 deliveries, 50,000 with whole payloads), the pod history, the story, the keyspace mirror, and
// each further etcd member its own store and raft traffic. Measured with the worker's host driven to idle
// (`node --expose-gc --import tsx bench/host-heap.ts 30000 1000`, session 21, after raft snapshots bound each
// member's raft log, the page's kube-scheduler attempt records were bounded to 10,000, the pod history kept
// its aged versions as shapes and let go of the values of the versions in place when the retained steps
// begin), over the fit below at the size of the smaller scenario at scale:
//  30,000 Pods on 1,000 nodes, 1 etcd member      815 MiB kept (183 booted + 632)    0.852 × the fit's 957 MiB
//  30,000 Pods on 1,000 nodes, 3 etcd members   1,170 MiB kept (223 booted + 947)    1.223 × the fit's 957 MiB
// and 5 members extrapolated by the same step per member (1.594 ×). (Before the snapshots, 3 members kept
// 1,829 MiB there: every raft entry ever written stayed in each member's log; before the attempts' bound,
// 1,007 and 1,352 MiB; session 19, 905 and 1,251 MiB; session 20, 883 and 1,233 MiB: the bare model's runs
// keep 1,000 attempts, so with one member the host now keeps less than the fit.) What the host adds is mostly
// bounded, so its share falls with size: at 10,000 on 500 it kept 1.384 × the fit with 1 member (531 MiB) and
// 1.55 × with 3 (595 MiB); the factors above are for the scenarios at scale, 30,000 Pods and more. The CPU
// time grows with the steps: 3 members deliver 1.81 times the steps of one (2,985,651 against 1,646,553 at
// 10,000 on 500; 1.84 at 30,000 on 1,000), 5 extrapolated. The limit is the worker's, not the tab's 4 GiB: the 150,000-Pod run in a tab (session 16)
// ended when the worker's isolate ran out of memory with 1,945.8 MB live (its heap fragmented to 3 GB
// beside the page's, in the renderer's shared 4 GiB cage). A process of its own (`?process=own`) has a cage of
// its own: there 150,000 Pods on 5,000 nodes with one etcd member ran until every Pod was Running (session 25,
// `bench/ui-tab-scale.ts`; the worker's heap peaked at 2,568 MiB, sampled). No run there has run out yet, so
// where it would is not known: in that mode the estimate says whether a cluster keeps no more than that run
// (in the estimate's own terms, since the fit overstates 150,000) and, past it, that nothing so large was
// measured to run to the end (`ownProcessRun`).
//
// CPU: kube-scheduler and the nodes' own traffic (5,000 nodes renew a Lease every 10 s) make a Pod dearer on
// more nodes, so the CPU seconds per Pod are a constant plus a part per node, fitted (least squares) to the
// runs. Memory kept once every Pod is Running: a fixed part + a part per Pod + a part per node, least squares
// over the runs. The peak heap while the Pods are created was 2.3–3.7 times what is kept in each run (garbage
// between full GCs): the peak is that ratio, averaged. Past the runs both are extrapolations.

interface CpuRun {
  readonly pods: number;
  readonly nodes: number;
  readonly podsPerCpuSecond: number;
}

interface MemoryRun {
  readonly pods: number;
  readonly nodes: number;
  /** Heap after a forced GC once every Pod is Available, the booted cluster included. */
  readonly keptBytes: number;
  /** The highest heap seen during the run. */
  readonly peakBytes: number;
}

const KiB = 1024;
const MiB = 1024 ** 2;

const bootedBytes = { 50: 26.1 * MiB, 500: 91.7 * MiB, 1000: 146.1 * MiB } as const;

/** The runs the CPU estimate is fitted to (see the head of this file). */
export const cpuRuns: readonly CpuRun[] = [
  { pods: 1_000, nodes: 50, podsPerCpuSecond: 120 },
  { pods: 10_000, nodes: 500, podsPerCpuSecond: 160 },
  { pods: 150_000, nodes: 5000, podsPerCpuSecond: 49.9 },
];

/** The runs the memory estimate is fitted to (see the head of this file). */
export const memoryRuns: readonly MemoryRun[] = [
  { pods: 1_000, nodes: 50, keptBytes: bootedBytes[50] + 1_000 * 94.0 * KiB, peakBytes: bootedBytes[50] + 291 * MiB },
  { pods: 2_000, nodes: 500, keptBytes: bootedBytes[500] + 2_000 * 44.95 * KiB, peakBytes: bootedBytes[500] + 473 * MiB },
  { pods: 10_000, nodes: 500, keptBytes: bootedBytes[500] + 265 * MiB, peakBytes: bootedBytes[500] + 1_214 * MiB },
  { pods: 30_000, nodes: 1000, keptBytes: bootedBytes[1000] + 819 * MiB, peakBytes: bootedBytes[1000] + 2_095 * MiB },
];

type Row = readonly [number, number, number];

/** The three coefficients c of y ≈ c · x, least squares over the rows (normal equations, Cramer's rule). */
function leastSquares(xs: readonly Row[], ys: readonly number[]): Row {
  const normal = [0, 1, 2].map((i): Row => [0, 1, 2].map((j) => xs.reduce((s, x) => s + x[i]! * x[j]!, 0)) as unknown as Row);
  const rhs = [0, 1, 2].map((i) => xs.reduce((s, x, k) => s + x[i]! * ys[k]!, 0));
  const det = (m: readonly Row[]) =>
    m[0]![0] * (m[1]![1] * m[2]![2] - m[1]![2] * m[2]![1]) - m[0]![1] * (m[1]![0] * m[2]![2] - m[1]![2] * m[2]![0]) + m[0]![2] * (m[1]![0] * m[2]![1] - m[1]![1] * m[2]![0]);
  const column = (c: number) => normal.map((row, i) => row.map((v, j) => (j === c ? rhs[i]! : v)) as unknown as Row);
  const d = det(normal);
  return [det(column(0)) / d, det(column(1)) / d, det(column(2)) / d];
}

/**
 * CPU seconds of a run = `warmUp` + pods × (`perPod` + `perPodNode` × nodes): the first seconds of a run
 * (the JIT, the boot's trace) cost the same at any size, and the nodes' own traffic adds to each Pod's
 * share in proportion to the nodes (the rollout lasts about as many virtual seconds per Pod at any size).
 */
function fitCpu(runs: readonly CpuRun[]): { readonly warmUp: number; readonly perPod: number; readonly perPodNode: number } {
  const [warmUp, perPod, perPodNode] = leastSquares(runs.map((r): Row => [1, r.pods, r.pods * r.nodes]), runs.map((r) => r.pods / r.podsPerCpuSecond));
  return { warmUp, perPod, perPodNode };
}

/** Kept bytes = `fixed` + `perPod` × pods + `perNode` × nodes, least squares over the runs. */
function fitMemory(runs: readonly MemoryRun[]): { readonly fixed: number; readonly perPod: number; readonly perNode: number } {
  const [fixed, perPod, perNode] = leastSquares(runs.map((r): Row => [1, r.pods, r.nodes]), runs.map((r) => r.keptBytes));
  return { fixed, perPod, perNode };
}

/** The CPU fit: seconds of warm-up, per Pod, and per Pod per node. */
export const cpuFit = fitCpu(cpuRuns);
/** The memory fit: bytes kept by the model's fixed part, by each Pod and by each node. */
export const memoryFit = fitMemory(memoryRuns);
/** Peak heap over kept heap, averaged over the Node runs (under large heap limits); a tab's worker collects as its heap fills, so the estimate compares what is kept. */
export const peakRatio = memoryRuns.reduce((sum, r) => sum + r.peakBytes / r.keptBytes, 0) / memoryRuns.length;
/** The live heap the page's simulation worker died at (session 16's 150,000-Pod tab run). */
export const workerHeapBytes = 1_945.8e6;
/**
 * The largest cluster measured to run until every Pod was Running in a process of its own (session 25): the
 * bound of what the estimate says fits in that mode.
 */
export const ownProcessRun = { pods: 150_000, nodes: 5_000, etcdMembers: 1, peakHeapBytes: 2_568 * MiB } as const;
/** Kept heap above this share of the worker's is said to be close to it; above `fitShare`, past it. */
const nearShare = 0.6;
const fitShare = 0.9;

/** A factor measured with 1 and 3 etcd members, the same step for each further member. */
function byMembers(one: number, three: number, etcdMembers: number): number {
  return one + ((three - one) / 2) * (Math.max(1, etcdMembers) - 1);
}

/** What the page's worker keeps over the bare cluster's fit, by etcd members (see the head of this file). */
export function workerFactor(etcdMembers: number): number {
  return byMembers(0.852, 1.223, etcdMembers);
}

/** The steps (and so the CPU time) of a run with `etcdMembers` members over one with a single member. */
export function stepsFactor(etcdMembers: number): number {
  return byMembers(1, 1.81, etcdMembers);
}
/** Scenarios of more Pods than this ask before they start. */
const confirmAbovePods = 5_000;

export interface ScaleEstimate {
  /** CPU seconds to bring every Pod Running. */
  readonly seconds: number;
  /** The model's speed at this size, Pods per CPU second. */
  readonly podsPerCpuSecond: number;
  /** Heap the tab's simulation worker keeps once every Pod is Running. */
  readonly bytes: number;
  /** The etcd members it was estimated with. */
  readonly etcdMembers: number;
  /** In the page's tab, or in a process of its own (`?process=own`). */
  readonly ownProcess: boolean;
  /**
   * In the tab: whether what is kept stays within what the worker's heap held (`fitShare` of it). In a
   * process of its own: whether it keeps no more than `ownProcessRun`, measured to run to the end there.
   */
  readonly fits: boolean;
  /** In the tab, whether it fits but comes close (over `nearShare` of the worker's heap); in a process of its own, never said. */
  readonly nearLimit: boolean;
}

/** Heap the model alone (one etcd member, no page) keeps with every Pod Running: the fit to the runs. */
export function keptByModel(pods: number, nodes: number): number {
  return memoryFit.fixed + pods * memoryFit.perPod + nodes * memoryFit.perNode;
}

/** Heap the page's simulation worker keeps with every Pod Running, estimated. */
function keptByWorker(pods: number, nodes: number, etcdMembers: number): number {
  return keptByModel(pods, nodes) * workerFactor(etcdMembers);
}

/** The cost of `pods` Pods on `nodes` nodes with `etcdMembers` etcd members, in this tab or in a process of its own. */
export function scaleEstimate(pods: number, nodes: number, etcdMembers = 1, ownProcess = false): ScaleEstimate {
  const seconds = (cpuFit.warmUp + pods * (cpuFit.perPod + nodes * cpuFit.perPodNode)) * stepsFactor(etcdMembers);
  const bytes = keptByWorker(pods, nodes, etcdMembers);
  if (ownProcess) {
    const fits = bytes <= keptByWorker(ownProcessRun.pods, ownProcessRun.nodes, ownProcessRun.etcdMembers);
    return { seconds, podsPerCpuSecond: pods / seconds, bytes, etcdMembers, ownProcess, fits, nearLimit: false };
  }
  const fits = bytes < fitShare * workerHeapBytes;
  return { seconds, podsPerCpuSecond: pods / seconds, bytes, etcdMembers, ownProcess, fits, nearLimit: fits && bytes > nearShare * workerHeapBytes };
}

/** Whether starting a scenario of `pods` Pods asks first. */
export function asksBeforeStart(pods: number | undefined): pods is number {
  return pods !== undefined && pods > confirmAbovePods;
}

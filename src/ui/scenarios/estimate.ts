// What a scenario at scale will cost this tab, estimated before it starts from the model's speed and memory
// per Pod as `npm run bench -- flow` measures them on main of session 9: 37 Pods per CPU second at 50 nodes
// (1,000 replicas, quiet machine), 22.8 at 500 nodes and 12.6 at 1,000 (the first 2,916 of 10,000 and
// 1,351 of 30,000 replicas, loaded machine); 107 KiB of heap retained per Pod. kube-scheduler filters and
// scores every node for each Pod, so the CPU time per Pod is fitted as a constant plus a part per node;
// memory per Pod grows too, so both figures are lower bounds and the panel says so.

/** CPU seconds per Pod on a cluster of no nodes, and what each node adds to it. */
const cpuSecondsPerPod = 0.0243;
const cpuSecondsPerPodPerNode = 5.5e-5;
/** Heap retained per Running Pod, bytes. */
export const bytesPerPod = 107 * 1024;
/** About what one tab's JavaScript heap may grow to before Chromium ends it (64-bit: 4 GiB). */
export const tabHeapBytes = 4 * 1024 ** 3;
/** Scenarios of more Pods than this ask before they start. */
const confirmAbovePods = 5_000;

export interface ScaleEstimate {
  /** CPU seconds to bring every Pod Running (at least). */
  readonly seconds: number;
  /** The model's speed at this size, Pods per CPU second. */
  readonly podsPerCpuSecond: number;
  /** Heap the Pods keep (at least). */
  readonly bytes: number;
  /** Whether that heap stays within a tab's. */
  readonly fits: boolean;
}

export function scaleEstimate(pods: number, nodes: number): ScaleEstimate {
  const perPod = cpuSecondsPerPod + nodes * cpuSecondsPerPodPerNode;
  const bytes = pods * bytesPerPod;
  return { seconds: pods * perPod, podsPerCpuSecond: 1 / perPod, bytes, fits: bytes < tabHeapBytes };
}

/** Whether starting a scenario of `pods` Pods asks first. */
export function asksBeforeStart(pods: number | undefined): pods is number {
  return pods !== undefined && pods > confirmAbovePods;
}

// What a scenario at scale will cost this tab, estimated before it starts from the model's speed and memory
// per Pod as `npm run bench -- flow` measures them (quiet machine, main of session 9, 1,000 replicas on
// 50 nodes: 37.2 Pods per CPU second, 107 KiB of heap retained per Pod). Per Pod both grow with the
// cluster (the scheduler scores every node), so the estimate is a lower bound; the panel says so.

/** Pods per CPU second of the model, fast-forwarding. */
export const podsPerCpuSecond = 37;
/** Heap retained per Running Pod, bytes. */
export const bytesPerPod = 107 * 1024;
/** About what one tab's JavaScript heap may grow to before Chromium ends it (64-bit: 4 GiB). */
export const tabHeapBytes = 4 * 1024 ** 3;
/** Scenarios of more Pods than this ask before they start. */
export const confirmAbovePods = 5_000;

export interface ScaleEstimate {
  /** CPU seconds to bring every Pod Running (at least). */
  readonly seconds: number;
  /** Heap the Pods keep (at least). */
  readonly bytes: number;
  /** Whether that heap stays within a tab's. */
  readonly fits: boolean;
}

export function scaleEstimate(pods: number): ScaleEstimate {
  const bytes = pods * bytesPerPod;
  return { seconds: pods / podsPerCpuSecond, bytes, fits: bytes < tabHeapBytes };
}

/** Whether starting a scenario of `pods` Pods asks first. */
export function asksBeforeStart(pods: number | undefined): pods is number {
  return pods !== undefined && pods > confirmAbovePods;
}

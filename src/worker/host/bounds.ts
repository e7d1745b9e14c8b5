// How much of a long run the worker keeps: the deliveries its trace retains (and of those, the newest with
// whole payloads), and the pod versions older than those it keeps as shapes (pod-history.ts: past the limit a
// prune, run every so many versions, forgets the oldest half, and a seek before what is kept shows no pods
// and says why). The product's bounds keep a long run's memory flat; the small ones, asked for by a page
// opened with `?bounds=small` (src/ui/sim-worker.ts hands it to the worker in the worker's name), make a
// test reach every bound in seconds (e2e/pods-no-longer-kept.spec.ts). Nothing else differs: the model
// and what it delivers are the same, only how far back the page can look.

import { smallBoundsMark } from '../../protocol/index.ts';
import { agedVersionLimit, podPruneEvery } from '../pod-history.ts';

export interface HostBounds {
  /** Deliveries the engine keeps for the timeline (its trace retention). */
  readonly traceRetention: number;
  /** The newest deliveries whose trace records keep their whole payloads; older ones a summary. */
  readonly tracePayloadRetention: number;
  /** Pod versions older than the retained steps kept at most (PodHistory's limit). */
  readonly agedPodVersions: number;
  /** Pod versions noted between prunes of the pod history. */
  readonly podPruneEvery: number;
  /**
   * kube-scheduler's attempt records kept (the scheduler tab's; older ones dropped a quarter at a time). One
   * attempt keeps every examined node's verdict and scores: ~6 KiB at 500 nodes, ~14 KiB at 5,000, so an
   * unbounded log would keep ~2 GiB at 150,000 Pods.
   */
  readonly schedulerAttempts: number;
}

export const productBounds: HostBounds = {
  // Older steps can still be seeked to (their status and keyspace are recorded), but their deliveries are not shown.
  traceRetention: 200_000,
  // 50,000 covers a boot and several flows; it bounds a long run's trace.
  tracePayloadRetention: 50_000,
  agedPodVersions: agedVersionLimit,
  podPruneEvery,
  // A 10,000-replica rollout's every attempt; ~60 MiB at 500 nodes, ~140 MiB at 5,000.
  schedulerAttempts: 10_000,
};

/** Bounds a test reaches with a few small Deployments: 3,000 steps of trace, 40 aged pod versions, a prune every 64, 40 attempts. */
export const smallBounds: HostBounds = { traceRetention: 3_000, tracePayloadRetention: 3_000, agedPodVersions: 40, podPruneEvery: 64, schedulerAttempts: 40 };

/** The bounds a worker named `name` keeps: the small ones when the name carries their mark. */
export function boundsOfWorker(name: string): HostBounds {
  return name.split(' ').includes(smallBoundsMark) ? smallBounds : productBounds;
}

// What the component graph draws beyond the topology, as the worker ships it: the pods placed on each
// node (read from the same keyspace changes and snapshots the keyspace panel gets, so a past step shows
// its past pods), and the messages near the playhead, delivered or still queued (so a message in flight
// at the current step is drawn even though it has not been delivered yet). Both arrive as diffs.

import type { TraceRecord } from './trace.ts';

/** One pod as the graph draws it: a chip on its node (or near the scheduler while unbound). */
export interface PodChip {
  /** Its etcd key, e.g. `/registry/pods/default/nginx-deployment-66b6c48dd5-4jw2p`. */
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  /** spec.nodeName; null while the pod is not bound. */
  readonly node: string | null;
  /** status.phase (`Pending`, `Running`, `Succeeded`, `Failed`, `Unknown`). */
  readonly phase: string;
  /** The STATUS column kubectl prints for it (e.g. `ContainerCreating`, `Terminating`). */
  readonly status: string;
  /** The Ready condition is True. */
  readonly ready: boolean;
  /** metadata.deletionTimestamp is set. */
  readonly deleting: boolean;
  /** The key's create_revision: chips are ordered by it (oldest first), so they never reorder. */
  readonly createRevision: number;
}

/**
 * Pods changed. `replace` (a new cluster, a seek, a restore) drops the pods held first. Follows the
 * `keyspaceDiff` or current `keyspaceSnapshot` it was derived from.
 */
export interface PodsEvent {
  readonly type: 'pods';
  readonly replace: boolean;
  /** Pods created or changed, the newest state of each. */
  readonly upserted: readonly PodChip[];
  /** Keys of pods deleted. */
  readonly removed: readonly string[];
  /**
   * On a replacement: the pods of the revision shown are no longer known (etcd has compacted it, and the
   * worker keeps pod versions only back to this revision: a bound, so a long run's memory stays flat), so
   * none are shown. Absent when they are.
   */
  readonly keptFrom?: number;
}

/**
 * A message over a link drawn as a token: delivered near the playhead (`step` delivered it), or sent and
 * not yet delivered at the step shown (`step` null).
 */
export type Flight = Omit<TraceRecord, 'step'> & {
  readonly step: number | null;
  /**
   * Set on flights shipped while playing: `payload` holds only the fields the token's label reads (its
   * whole payload, often a whole object, is left out, as hundreds of tokens a tick would otherwise cost
   * the page more to receive than to draw). The whole payload comes with the delivery's `traceBatch`
   * record, and the flight is shipped again with it when playback pauses. Set too on flights already
   * delivered at a past step shown (a seek): the page asks for those when it shows one (TraceRecord's
   * `payloadOmitted`).
   */
  readonly payloadOmitted?: true;
};

/**
 * The messages over links around the playhead changed: those sent by the step shown and delivered at or
 * after `now − window` (the playhead trails the engine while playing), at most `flightLimit` of them, the
 * soonest delivered first. `replace` drops the flights held first (a new cluster or a seek).
 */
export interface FlightsEvent {
  readonly type: 'flights';
  readonly replace: boolean;
  /** New flights, or held ones shipped again (now with their payload): replace what is held by id. */
  readonly added: readonly Flight[];
  /** Ids of flights no longer near the playhead. */
  readonly removed: readonly number[];
  /** Flights held whose delivery changed at the step shown: [id, the step that delivered it or null]. */
  readonly stepped: ReadonlyArray<readonly [number, number | null]>;
}

/** At most this many flights are held (and drawn) at once. */
export const flightLimit = 320;

/**
 * Real ms of playback a playing page's playhead may trail the engine by (beyond the longest flight)
 * before it skips ahead (src/ui/playback/playhead.ts): a host whose reports reach the page late or in
 * bursts holds the flights that long, so that the playhead still finds them.
 */
export const playheadMaxBehindMs = 500;

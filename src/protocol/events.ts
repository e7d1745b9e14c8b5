// Events the simulation worker posts to the UI. Deliveries are batched: the worker posts at most one
// `traceBatch` per command, play tick or run-until-idle chunk, carrying a bounded tail of the deliveries
// it made (the newest `traceTailLimit`) and the number it left out, so a fast-forward over 100k messages
// costs the UI one small message per chunk. Each batch is followed by a `status`.

import type { CommandType } from './commands.ts';
import type { ConsoleOutputEvent, LogLinesEvent } from './console.ts';
import type { FlightsEvent, PodsEvent } from './graph.ts';
import type { CauseChainEvent, InspectionEvent } from './inspect.ts';
import type { InsidesEvent } from './insides.ts';
import type { KeyspaceDiffEvent, KeyspaceMoveEvent, KeyspaceSnapshotEvent, ValueDescriptionEvent } from './keyspace.ts';
import type { ScenarioCatalogEvent } from './scenarios.ts';
import type { ScaleLessonEvent } from './scale-lesson.ts';
import type { ClusterExportEvent, ClustersEvent, PersistenceEvent } from './saved-clusters.ts';
import type { StepLevel, StoryEvent } from './story.ts';
import type { ProgressEvent, TimelineEvent } from './timeline.ts';
import type { TourStopsEvent } from './tours.ts';
import type { Topology, TopologyEvent, VirtualTime } from './topology.ts';
import type { TraceRecord } from './trace.ts';
import type { TraceRangeEvent } from './trace-range.ts';

/** A (new) cluster exists. Everything the UI holds about the previous cluster is void. */
export interface ReadyEvent {
  readonly type: 'ready';
  readonly seed: string | number;
  readonly nodes: number;
  readonly topology: Topology;
  /** Steps the cluster took to boot (system namespaces, RBAC policy) before the user could act. */
  readonly bootSteps: number;
  /** How kube-apiserver stores objects in etcd (`--storage-media-type`); absent means protobuf. */
  readonly storageMediaType?: 'protobuf' | 'json';
  /** etcd members (as the topology's etcd components); absent means 1. */
  readonly etcdMembers?: 3 | 5;
  /**
   * Why this run cannot be replayed from its seed and commands (a server storing in a real etcd), for
   * the page to say; absent for a deterministic run.
   */
  readonly nondeterministic?: string;
}

export interface TraceBatchEvent {
  readonly type: 'traceBatch';
  /** The newest deliveries of this batch, oldest first, step numbers increasing. */
  readonly records: readonly TraceRecord[];
  /** Deliveries made in this batch that `records` leaves out (the oldest ones). */
  readonly omitted: number;
  /**
   * True after a seek, fork or restore: the UI drops the deliveries it holds first, since `records` are
   * the newest up to the new position (`omitted` then counts the older steps of the timeline).
   */
  readonly replace?: boolean;
}

export type PlaybackMode = 'paused' | 'playing' | 'runningUntilIdle';

export interface SimStatus {
  /** Deliveries so far (the number of the last step); at a past position, that position (see `timeline`). */
  readonly step: number;
  /** The engine's virtual clock. */
  readonly now: VirtualTime;
  /** Messages queued for delivery. */
  readonly pending: number;
  /** True when nothing but background work is queued. */
  readonly idle: boolean;
  readonly mode: PlaybackMode;
  /** Virtual ms per real ms while playing. */
  readonly speed: number;
  /**
   * The last "next at a level" from the head found no step at that level: what it delivered looking for
   * one (only background work: heartbeats, lease renewals, Raft). Present only while the head is where
   * that search ended.
   */
  readonly nothingAhead?: NothingAhead;
}

export interface NothingAhead {
  readonly level: Exclude<StepLevel, 'internal'>;
  /** Steps delivered while looking. */
  readonly steps: number;
  /** Virtual ms they covered. */
  readonly virtualMs: number;
}

export interface StatusEvent {
  readonly type: 'status';
  readonly status: SimStatus;
}

export interface SimErrorEvent {
  readonly type: 'error';
  /** The command that failed; null when the failure happened while playing or running. */
  readonly command: CommandType | null;
  readonly message: string;
}

export type WorkerEvent =
  | ReadyEvent
  | TraceBatchEvent
  | StatusEvent
  | SimErrorEvent
  | KeyspaceDiffEvent
  | KeyspaceSnapshotEvent
  | KeyspaceMoveEvent
  | ValueDescriptionEvent
  | TimelineEvent
  | ProgressEvent
  | ClustersEvent
  | PersistenceEvent
  | ClusterExportEvent
  | InspectionEvent
  | CauseChainEvent
  | ConsoleOutputEvent
  | LogLinesEvent
  | PodsEvent
  | FlightsEvent
  | ScenarioCatalogEvent
  | StoryEvent
  | InsidesEvent
  | TourStopsEvent
  | TraceRangeEvent
  | TopologyEvent
  | ScaleLessonEvent;

/**
 * What one message from the worker carries: an event, or the events of one turn (a command, a play tick,
 * a chunk) in the order they were made, which the page applies together.
 */
export type WorkerMessage = WorkerEvent | readonly WorkerEvent[];

/** At most this many records travel in one `traceBatch`. */
export const traceTailLimit = 256;
/** While playing (a batch every frame), at most this many: the page keeps up with large clusters. */
export const playingTraceTailLimit = 64;

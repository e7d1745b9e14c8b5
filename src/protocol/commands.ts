// Commands the UI posts to the simulation worker. Every command is answered by at least one `status`
// event (or an `error` event when it cannot be carried out); commands are handled in the order posted.

import type { ConsoleInterruptCommand, ConsoleRunCommand, FaultCommand, LogsShownCommand } from './console.ts';
import type { CauseChainCommand, InspectCommand } from './inspect.ts';
import type { AdvanceCommand, RunUntilCommandDoneCommand } from './scenarios.ts';
import type { StepLevel, StepLevelCommand } from './story.ts';
import type { TourLocateCommand } from './tours.ts';
import type { TraceRangeCommand } from './trace-range.ts';
import type { DescribeValueCommand } from './keyspace.ts';
import type { MeasureScaleLessonCommand } from './scale-lesson.ts';

/**
 * Pauses playback, then delivers up to `count` (≥ 1) messages, one step each. At a past position it first
 * re-serves recorded steps (see timeline.ts), then runs the simulation once the head is reached.
 */
export interface StepCommand {
  readonly type: 'step';
  readonly count: number;
}

/**
 * Plays in real time: each tick advances virtual time by elapsed real time × speed, delivering every
 * message due by then in the same steps as step mode. Playing goes on while nothing is pending.
 */
export interface PlayCommand {
  readonly type: 'play';
  /**
   * Play at a level of detail (story.ts). 'internal' (the default) plays in real time as above; at
   * 'request' or 'milestone' play advances one unit of that level per paced tick (as `stepLevel`
   * forward: recorded steps first when in the past) and stops when no further step at the level comes.
   */
  readonly level?: StepLevel;
}

/** Stops playing or running until idle; virtual time stays where it is. */
export interface PauseCommand {
  readonly type: 'pause';
}

/** Virtual milliseconds per real millisecond while playing (finite, > 0). */
export interface SetSpeedCommand {
  readonly type: 'setSpeed';
  readonly speed: number;
}

/** Pauses playback, then delivers messages until only background work is queued (in chunks). */
export interface RunUntilIdleCommand {
  readonly type: 'runUntilIdle';
}

/**
 * Discards the open cluster's timeline and builds a new one with this seed and node count (the saved
 * cluster, if any, is overwritten); answered by `ready`.
 */
export interface ResetCommand {
  readonly type: 'reset';
  readonly seed: string | number;
  /** Worker nodes, node-1 … node-N (1 ≤ N ≤ maxNodes). */
  readonly nodes: number;
  /** kube-apiserver's `--storage-media-type` (default protobuf, as a real cluster's). */
  readonly storageMediaType?: 'protobuf' | 'json';  /** etcd members (1, 3 or 5; absent means 1). */
  readonly etcdMembers?: EtcdMemberCount;
}

/**
 * `kubectl apply -f` of YAML text (one or more documents). The worker parses it; until kube-apiserver is
 * modelled it answers with an `error` event naming the objects it parsed, or the YAML error.
 */
export interface ApplyManifestCommand {
  readonly type: 'applyManifest';
  readonly yaml: string;
}

/**
 * A request sent by the user component (the root of a cause chain), e.g. etcdctl's
 * `{to: 'etcd', kind: 'etcd.Put', payload: {key, value}}`. `to` must be a modelled component.
 */
export interface UserRequestCommand {
  readonly type: 'userRequest';
  readonly to: string;
  readonly kind: string;
  readonly payload: unknown;
}

/** Asks for the keyspace as it was at `revision` (answered by a `keyspaceSnapshot`). */
export interface KeyspaceAtCommand {
  readonly type: 'keyspaceAt';
  readonly revision: number;
}

// ── Timeline (see timeline.ts) ─────────────────────────────────────────────────────────────────────

/** Pauses, then moves the position `count` (≥ 1) steps back (not below step 0). Answered as `seek`. */
export interface StepBackCommand {
  readonly type: 'stepBack';
  readonly count: number;
}

/**
 * Pauses, then shows the cluster as it was after `step` (an integer, 0 ≤ step ≤ head; seeking to the head
 * returns to live). Answered by a replacing `traceBatch`, the keyspace moved to the step's revision (a
 * `keyspaceDiff` or `keyspaceMove` of the keys written between, or a current `keyspaceSnapshot` when either
 * revision is compacted) with its `pods`, `timeline` and `status`.
 */
export interface SeekCommand {
  readonly type: 'seek';
  readonly step: number;
}

/**
 * Seeks to the step that produced etcd revision `revision`: the first step after which the store's
 * revision is ≥ `revision` (an error when the cluster never reached it).
 */
export interface SeekRevisionCommand {
  readonly type: 'seekRevision';
  readonly revision: number;
}

/**
 * Makes the current position the head: the live simulation is rebuilt by replay up to it (`progress`
 * events), the old future is dropped, or, with `branch`, first saved as a saved cluster of that name.
 * At the head it does nothing but answer (and with a branch it duplicates the cluster). User actions at a
 * past position fork implicitly (no branch).
 */
export interface ForkCommand {
  readonly type: 'fork';
  readonly branch: string | null;
}

// ── Saved clusters (see saved-clusters.ts); each is answered by a `clusters` event ──────────────────

export interface ListClustersCommand {
  readonly type: 'listClusters';
}

/** Creates a saved cluster and opens it (answered by `ready`, then `clusters`). */
export interface CreateClusterCommand {
  readonly type: 'createCluster';
  readonly name: string;
  readonly seed: string | number;
  readonly nodes: number;
  /** kube-apiserver's `--storage-media-type` (default protobuf). */
  readonly storageMediaType?: 'protobuf' | 'json';  /** etcd members (1, 3 or 5; absent means 1). */
  readonly etcdMembers?: EtcdMemberCount;
}

/** Opens a saved cluster: restores its last persisted step (`progress`, `ready`, views, `timeline`). */
export interface OpenClusterCommand {
  readonly type: 'openCluster';
  readonly id: string;
}

export interface RenameClusterCommand {
  readonly type: 'renameCluster';
  readonly id: string;
  readonly name: string;
}

/** Copies a saved cluster (seed, nodes, command log, head) under a new name; the open one stays open. */
export interface DuplicateClusterCommand {
  readonly type: 'duplicateCluster';
  readonly id: string;
  readonly name: string;
}

/** Deletes a saved cluster; deleting the open one opens another (or creates a fresh one). */
export interface DeleteClusterCommand {
  readonly type: 'deleteCluster';
  readonly id: string;
}

/** Answered by a `clusterExport` event. */
export interface ExportClusterCommand {
  readonly type: 'exportCluster';
  readonly id: string;
}

/**
 * Imports a cluster from an export file's text or a share link's fragment (`#cluster=…`, with or without
 * the `#`). The input is validated completely first: a malformed or hostile one is answered by an
 * `error` saying what is wrong and changes nothing. A valid one becomes a new saved cluster and is opened.
 */
export interface ImportClusterCommand {
  readonly type: 'importCluster';
  readonly source: 'file' | 'link';
  readonly text: string;
}

export type Command =
  | StepCommand
  | PlayCommand
  | PauseCommand
  | SetSpeedCommand
  | RunUntilIdleCommand
  | ResetCommand
  | ApplyManifestCommand
  | UserRequestCommand
  | KeyspaceAtCommand
  | InspectCommand
  | CauseChainCommand
  | StepBackCommand
  | SeekCommand
  | SeekRevisionCommand
  | ForkCommand
  | ListClustersCommand
  | CreateClusterCommand
  | OpenClusterCommand
  | RenameClusterCommand
  | DuplicateClusterCommand
  | DeleteClusterCommand
  | ExportClusterCommand
  | ImportClusterCommand
  | ConsoleRunCommand
  | ConsoleInterruptCommand
  | FaultCommand
  | AdvanceCommand
  | RunUntilCommandDoneCommand
  | StepLevelCommand
  | TourLocateCommand
  | TraceRangeCommand
  | DescribeValueCommand
  | MeasureScaleLessonCommand
  | LogsShownCommand;

export type CommandType = Command['type'];

/**
 * The most worker nodes a cluster may have: Kubernetes' scale envelope (5,000 nodes), which the largest
 * scenario at scale uses. Export files and every cluster command are checked against it.
 */
export const maxNodes = 5000;

/** How many etcd members a cluster may have: one (no raft traffic) or a raft cluster of three or five. */
export type EtcdMemberCount = 1 | 3 | 5;

export const etcdMemberCounts: readonly EtcdMemberCount[] = [1, 3, 5];

/** The member count a new cluster made on the page starts with (the built-in first screen keeps 1). */
export const defaultNewClusterEtcdMembers: EtcdMemberCount = 3;

/**
 * A word in the simulation worker's name asking it for small bounds (a short trace, few aged pod versions:
 * src/worker/host/bounds.ts): the page names its worker so when opened with `?bounds=small`, for tests.
 */
export const smallBoundsMark = 'small-bounds';

/**
 * The mark of a simulation worker that runs in a process of its own (src/ui/sim-process.ts): its name carries
 * it, and the page's port comes in a first message that is the mark itself.
 */
export const simPortMark = 'own-process';

/**
 * What the page sends a simulation in a process of its own, on the page's port and outside the commands,
 * when the storage worker that saves its cluster could not start or failed: its saves have nowhere to go.
 */
export interface StorageGone {
  readonly type: 'storage-gone';
  readonly reason: string;
}

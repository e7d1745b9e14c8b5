// The timeline: every step the worker has delivered, from 0 (before boot) to the head (the newest step the
// live simulation reached). The simulation's components are generator coroutines and cannot be saved, so
// the source of truth is the seed plus the log of user commands, each tagged with the step (and virtual
// time) at which it was applied: replaying them rebuilds any step exactly. What the UI sees of a past step
// (its trace, its keyspace, its status) is recorded as the steps happen and served without touching the
// live simulation.
//
// Viewing the past. `stepBack`, `seek` and `seekRevision` move the *position*; the worker answers with a
// `traceBatch` whose `replace` is true (the deliveries up to the position), the keys written between the
// two revisions (a `keyspaceDiff`, or a `keyspaceMove` for a long jump; a `keyspaceSnapshot` with
// `current: true` when either is compacted), a `status` describing the position, and a `timeline`.
// `step` at a past position re-serves recorded steps exactly as live ones (`traceBatch`, `keyspaceDiff`)
// until the head, then runs the simulation. `play` and `runUntilIdle` at a past position first return to
// the head.
//
// Forking. A user action (`applyManifest`, `userRequest`) at a past position forks the timeline: the
// worker rebuilds the live simulation by replaying seed + commands up to the position (reporting
// `progress`), drops the old future, and applies the action. `fork` does the same without an action and
// can keep the old future as a saved cluster of its own (a branch).

/** Why a step is marked on the timeline. */
export type TimelineMarkerKind =
  /** A user command (kubectl create, etcdctl put …) was applied after this step. */
  | 'command'
  /** A command failed, or the simulation raised an error, at this step. */
  | 'error'
  /** The timeline was forked here (the future after it was replaced). */
  | 'fork';

export interface TimelineMarker {
  /** The step after which it happened (0 = before the first delivery). */
  readonly step: number;
  readonly kind: TimelineMarkerKind;
  /** Short text for a tooltip, e.g. `kubectl create -f (Deployment nginx)`. */
  readonly label: string;
}

export interface TimelineEvent {
  readonly type: 'timeline';
  /** The step the UI shows (0 ≤ position ≤ head). */
  readonly position: number;
  /** The newest step of the live simulation. */
  readonly head: number;
  /** position === head: stepping runs the simulation, the UI shows the live cluster. */
  readonly live: boolean;
  /** Steps the cluster took to boot before the user could act (they are part of the timeline). */
  readonly bootSteps: number;
  /**
   * The oldest step whose deliveries the worker still holds. Seeking below it is allowed but costs a
   * replay in the background (reported by `progress`); the UI may draw that part of the timeline dimmer.
   */
  readonly retainedFrom: number;
  /** Markers in step order (at most `timelineMarkerLimit`, the newest kept). */
  readonly markers: readonly TimelineMarker[];
  /** The etcd revision after `position` (what the keyspace panel shows). */
  readonly revision: number;
}

/** Long work the worker does in chunks, yielding between them so `pause` or `seek` can still be handled. */
/** A task's words: a replay to fork at step `at`, or a saved cluster restored, of `steps` steps. */
export type ProgressWords =
  | { readonly key: 'fork'; readonly steps: number; readonly at: number }
  | { readonly key: 'restore'; readonly steps: number };

export type ProgressTask =
  /** Rebuilding the live simulation from seed + commands (fork, restore after reload, crash restart). */
  | 'replay'
  /** Reading a saved cluster from IndexedDB. */
  | 'restore'
  /** Run until idle over many steps. */
  | 'fastForward'
  /** Checking and storing an imported cluster. */
  | 'import';

/**
 * Progress of a long task: posted when it starts (done 0), about every chunk, and when it ends (`finished`
 * true, also when it failed or was superseded). While a `replay` runs, commands that need the live
 * simulation (step at the head, play, user actions) are queued and carried out when it finishes; views
 * of recorded steps are answered at once.
 */
export interface ProgressEvent {
  readonly type: 'progress';
  readonly task: ProgressTask;
  /** What the task does, for the page to say in its language: `Replaying 12,000 steps to fork at step 12000`. */
  readonly words: ProgressWords;
  readonly done: number;
  readonly total: number;
  readonly finished: boolean;
}

export const timelineMarkerLimit = 1_000;

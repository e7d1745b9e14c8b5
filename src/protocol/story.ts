// The story of a trace, told at three levels of detail. The worker classifies every delivery as it happens
// (src/worker/story/): what level it belongs to, and, for the steps a person cares about, a typed
// milestone naming the real object, node and etcd revision. Nothing here is a script: a milestone exists
// only because the model did that thing at that step. The UI turns these typed values into words (en and
// 中文) and never reads message payloads to decide what is a milestone.
//
// Levels of one trace (UX.md):
//   milestone  a change a person cares about: an object stored, seen by the component that acts on it,
//              a pod bound, an image pulled, a container started, a pod Running, a Deployment Available,
//              and the failures (FailedScheduling, ImagePullBackOff, CrashLoopBackOff, 409, 410, eviction);
//   request    each HTTP request and response, each etcd request and reply, each watch event;
//   internal   every other delivery: kube-apiserver's filter-chain stages, timers, bookmarks.
// Viewing at a level shows the steps at that level or above (a milestone is also a request, usually).

import type { VirtualTime } from './topology.ts';

export type StepLevel = 'internal' | 'request' | 'milestone';

export const stepLevels: readonly StepLevel[] = ['internal', 'request', 'milestone'];

/** Higher is coarser: viewing at level L shows the steps whose rank ≥ rank(L). */
export const stepLevelRank: Readonly<Record<StepLevel, number>> = { internal: 0, request: 1, milestone: 2 };

/** An object of the model, as kubectl names it. */
export interface ObjectRef {
  /** The resource (plural, lower case), e.g. `deployments`, `pods`. */
  readonly resource: string;
  /** The kind, e.g. `Deployment`. */
  readonly kind: string;
  readonly namespace: string | null;
  readonly name: string;
}

interface MilestoneBase {
  /** The step that delivered the message this milestone is read from. */
  readonly step: number;
  /** That message's id. */
  readonly messageId: number;
  readonly at: VirtualTime;
  /** Engine names of the components involved, for highlighting (e.g. `['kube-apiserver', 'etcd']`). */
  readonly components: readonly string[];
}

/** What happened, with the facts its caption names. Failures are the kinds listed in `failureMilestones`. */
export type MilestoneFacts =
  /** The user's command reached its server: kubectl's request at kube-apiserver, etcdctl's at etcd, or a fault. */
  | { readonly kind: 'userAction'; readonly tool: 'kubectl' | 'etcdctl' | 'fault'; readonly summary: string; readonly object: ObjectRef | null }
  /** etcd stored a new object: a Txn whose compare was mod_revision == 0 succeeded. Pods are `podCreated`. */
  | { readonly kind: 'objectCreated'; readonly object: ObjectRef; readonly key: string; readonly revision: number; readonly owner: ObjectRef | null }
  /** etcd stored a new Pod. */
  | { readonly kind: 'podCreated'; readonly object: ObjectRef; readonly key: string; readonly revision: number; readonly owner: ObjectRef | null; readonly node: string | null; readonly phase: string }
  /** An object's spec changed (its generation grew): kubectl scale, set image, apply, edit. */
  | { readonly kind: 'specChanged'; readonly object: ObjectRef; readonly revision: number; readonly generation: number; readonly change: string }
  /** A watch event reached the component that acts on it (its informer's first sight, or a deletion). */
  | { readonly kind: 'watchSeen'; readonly watcher: string; readonly eventType: 'ADDED' | 'MODIFIED' | 'DELETED'; readonly object: ObjectRef; readonly revision: number }
  /** kube-scheduler's binding was stored: spec.nodeName set. */
  | { readonly kind: 'podBound'; readonly object: ObjectRef; readonly node: string; readonly revision: number }
  /** A kubelet's container runtime step, as its Event reports it (Pulling, Pulled, Created, Started, Killing). The field is `action`: a `step` would collide with the base's step number. */
  | { readonly kind: 'containerStep'; readonly object: ObjectRef; readonly node: string; readonly action: 'pulling' | 'pulled' | 'created' | 'started' | 'killing'; readonly container: string | null; readonly image: string | null }
  /** The pod's status as stored: phase Running and Ready (or not), Succeeded, Failed. */
  | { readonly kind: 'podPhase'; readonly object: ObjectRef; readonly node: string | null; readonly phase: string; readonly ready: boolean; readonly revision: number }
  /** A Deployment's Available condition became True (or False), as stored. */
  | { readonly kind: 'deploymentAvailable'; readonly object: ObjectRef; readonly available: boolean; readonly readyReplicas: number; readonly replicas: number; readonly revision: number }
  /** etcd deleted an object's key (a DeleteRange or a Txn delete succeeded). */
  | { readonly kind: 'objectDeleted'; readonly object: ObjectRef; readonly key: string; readonly revision: number }
  /** metadata.deletionTimestamp was set: the object is terminating (graceful deletion, finalizers). */
  | { readonly kind: 'terminating'; readonly object: ObjectRef; readonly revision: number }
  // ── failures ──
  | { readonly kind: 'failedScheduling'; readonly object: ObjectRef; readonly message: string }
  | { readonly kind: 'imagePullBackOff'; readonly object: ObjectRef; readonly node: string; readonly image: string | null; readonly message: string }
  | { readonly kind: 'crashLoopBackOff'; readonly object: ObjectRef; readonly node: string; readonly container: string | null; readonly message: string }
  /** A request was answered 409 Conflict (a stale resourceVersion, or the object exists). */
  | { readonly kind: 'conflict'; readonly client: string; readonly object: ObjectRef | null; readonly message: string }
  /** A watch or list was answered 410 Gone (too old resource version) and the client lists again. */
  | { readonly kind: 'relist'; readonly client: string; readonly resource: string; readonly message: string }
  /** A pod was evicted (node down, NoExecute taint) or a node became NotReady. */
  | { readonly kind: 'eviction'; readonly object: ObjectRef; readonly node: string | null; readonly message: string }
  /** Any other failed answer to the user (4xx/5xx other than 404), or a Txn whose compare failed. */
  | { readonly kind: 'requestFailed'; readonly client: string; readonly status: number; readonly reason: string; readonly message: string };

export type MilestoneKind = MilestoneFacts['kind'];

export type Milestone = MilestoneBase & MilestoneFacts;

export const failureMilestones: ReadonlySet<MilestoneKind> = new Set<MilestoneKind>([
  'failedScheduling', 'imagePullBackOff', 'crashLoopBackOff', 'conflict', 'relist', 'eviction', 'requestFailed',
]);

export function isFailureMilestone(milestone: Pick<Milestone, 'kind'>): boolean {
  return failureMilestones.has(milestone.kind);
}

// ── Commands and events ───────────────────────────────────────────────────────────────────────────

/**
 * Moves the position one unit at `level`: forward to the next step at that level or above (replaying
 * recorded steps in the past, running the simulation at the head until such a step is delivered or only
 * background work is left), back to the previous one (a seek). Pauses playback first. Answered like
 * `step` / `seek`: a `traceBatch`, `timeline` and `status`.
 */
export interface StepLevelCommand {
  readonly type: 'stepLevel';
  readonly level: StepLevel;
  readonly direction: 'forward' | 'back';
}

/**
 * Milestones the worker classified. `replace` (a new cluster, a fork, a restore) drops those the UI holds
 * first; otherwise these are new, in step order, after every milestone sent before. The worker keeps the
 * newest `milestoneLimit` and sends them again with `replace` when it has to.
 */
export interface StoryEvent {
  readonly type: 'story';
  readonly replace: boolean;
  readonly milestones: readonly Milestone[];
}

/** Milestones the worker keeps and the UI holds at most. */
export const milestoneLimit = 5_000;

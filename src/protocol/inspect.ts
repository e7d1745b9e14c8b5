// What the UI asks the worker about the model's state beyond the keyspace: the objects as kubectl
// prints them (the server's Table cells), the scheduler's per-attempt records, and the cause chain of
// one delivered message. Each is a query answered by one event; the UI asks again when it needs fresher
// data (e.g. after a step while the panel is open). All plain structured-clone-safe data.

import type { TraceRecord } from './trace.ts';

export type InspectTopic = 'objects' | 'scheduler' | 'watchers';

/** Asks for the current state of the given topics (answered by one `inspection`). */
export interface InspectCommand {
  readonly type: 'inspect';
  readonly topics: readonly InspectTopic[];
  /** Which scheduling attempts the scheduler topic lists and which one it details (newest by default). */
  readonly scheduler?: SchedulerQuery;
  /** Which rows of which resource the objects topic sends, and the selected key's. */
  readonly objects?: ObjectsQuery;
}

/** What the panels ask of each topic beyond the topic itself. */
export type InspectQuery = Pick<InspectCommand, 'scheduler' | 'objects'>;

/** The objects panel's window: the rows in view of one resource, and the key selected anywhere. */
export interface ObjectsQuery {
  /** The resource whose rows are sent (`pods` when absent). */
  readonly resource?: string;
  /** The first row wanted, in key order (0 when absent). */
  readonly offset?: number;
  /** Rows wanted from `offset`, at most `objectsWindowLimit` (that many when absent). */
  readonly limit?: number;
  /** A selected key: its object's row and place in its resource's list come too, whatever the window. */
  readonly key?: string | null;
}

/** At most this many rows cross per answer: a window of the list, not the list (150,000 Pods are ~100 MB of rows). */
export const objectsWindowLimit = 300;

/** The scheduler panel's choice: a filter on the pod's name and the attempt it shows in full. */
export interface SchedulerQuery {
  /** Only attempts whose pod (`namespace/name`) contains this text ('' or absent: every attempt). */
  readonly pod?: string;
  /** The attempt shown in full, by its number among every attempt made (`SchedulerAttemptSummary.seq`). */
  readonly seq?: number;
  /**
   * The attempt the panel already holds in full (its seq): when that is the one to show, the answer does not
   * carry it again (`SchedulerView.detailHeld`). At 5,000 nodes an attempt is 0.3 MiB, asked for every 250 ms
   * while playing.
   */
  readonly held?: number;
}

/** At most this many attempts are listed (the newest that match): a list, not the whole log, crosses to the page. */
export const schedulerListLimit = 200;

/** Asks for the chain of causes of message `id` back to its root (answered by a `causeChain`). */
export interface CauseChainCommand {
  readonly type: 'causeChain';
  readonly id: number;
}

export interface ObjectCondition {
  readonly type: string;
  readonly status: string;
  readonly reason: string;
  readonly message: string;
}

export interface OwnerRef {
  readonly kind: string;
  readonly name: string;
  readonly controller: boolean;
  /** The owner's etcd key, when this model stores its kind; null otherwise. */
  readonly key: string | null;
}

/** One object as stored at its key, with the row `kubectl get` prints for it. */
export interface ObjectRow {
  readonly key: string;
  readonly namespace: string | null;
  readonly name: string;
  readonly uid: string;
  /** The Table cells, one per column of its `ObjectTable`. */
  readonly cells: readonly string[];
  /** What the apiserver reports: the key's mod_revision (the stored bytes carry no resourceVersion). */
  readonly resourceVersion: string;
  /** The key's mod_revision as etcd holds it. */
  readonly modRevision: number;
  readonly generation: number | null;
  readonly observedGeneration: number | null;
  readonly ownerReferences: readonly OwnerRef[];
  readonly conditions: readonly ObjectCondition[];
  readonly deleting: boolean;
}

/** One resource's list at the view's revision: its columns and how many objects it has (rows come in a window). */
export interface ObjectTable {
  /** e.g. `pods`, `deployments`. */
  readonly resource: string;
  readonly kind: string;
  /** Its etcd key prefix, e.g. `/registry/pods/` (a key under it is one of its objects). */
  readonly prefix: string;
  readonly namespaced: boolean;
  readonly columns: readonly string[];
  /** Objects stored at the view's revision. */
  readonly count: number;
}

export interface ObjectsView {
  /** A quorum list's resourceVersion: etcd's current revision (or the past revision read). */
  readonly listResourceVersion: string;
  readonly tables: readonly ObjectTable[];
  /** The resource whose rows these are, and the place of the first in its list (key order). */
  readonly resource: string;
  readonly offset: number;
  /** The window asked for: rows `offset` … `offset + rows.length - 1` of `resource`. */
  readonly rows: readonly ObjectRow[];
  /** The selected key's object, its resource and its place in that list; null when none was asked for or it is not stored. */
  readonly selected: { readonly resource: string; readonly index: number; readonly row: ObjectRow } | null;
}

export interface SchedulerPluginVerdict {
  readonly plugin: string;
  readonly pass: boolean;
  readonly reasons: readonly string[];
}

export interface SchedulerNodeRecord {
  readonly node: string;
  readonly feasible: boolean;
  readonly filters: readonly SchedulerPluginVerdict[];
  readonly scores: readonly { readonly plugin: string; readonly weight: number; readonly raw: number; readonly normalized: number }[];
  readonly finalScore: number | null;
}

/** One scheduling attempt of one pod and its outcome, without the nodes (a line of the attempts list). */
export interface SchedulerAttemptSummary {
  /** Its number among every attempt kube-scheduler made (1 = the first): stable while older ones are dropped. */
  readonly seq: number;
  readonly pod: string;
  /** The pod's attempt number (1 = its first). */
  readonly attempt: number;
  /** Virtual ms. */
  readonly time: number;
  readonly selected: string | null;
  readonly message: string;
  readonly bound: boolean;
}

/** One scheduling attempt in full: every node's filter verdicts and scores, and the outcome. */
export interface SchedulerAttempt extends SchedulerAttemptSummary {
  readonly nodes: readonly SchedulerNodeRecord[];
}

/**
 * kube-scheduler's attempts as of the step shown. A bounded answer at any scale: at 10,000 Pods on 500 nodes
 * every attempt's node records would be gigabytes, so one attempt crosses in full and a list of the newest.
 */
export interface SchedulerView {
  /** Attempts made by the step shown, dropped ones included (those made before the oldest kept, at least). */
  readonly made: number;
  /** The oldest attempts no longer kept (the worker keeps a bounded log; a long run drops the oldest). */
  readonly dropped: number;
  /** The pod filter applied ('' for none) and how many kept attempts made by the step match it. */
  readonly pod: string;
  readonly matching: number;
  /** The newest matching attempts, newest first, at most `schedulerListLimit`. */
  readonly attempts: readonly SchedulerAttemptSummary[];
  /** The attempt asked for, in full; else the newest matching one (none asked for, or it is not kept, not made by the step shown, or does not match). */
  readonly detail: SchedulerAttempt | null;
  /** Set, with `detail` null, when the attempt to show is the one the query said it holds: that attempt's seq. */
  readonly detailHeld?: number;
}

/** A watch open at kube-apiserver (served by its watch cache): who asked, for what, from which version. */
export interface ApiserverWatch {
  /** The id of the watch request message. */
  readonly requestId: number;
  /** The component that opened it, e.g. `kube-controller-manager`, `kubelet/node-1`. */
  readonly who: string;
  /** The request path, e.g. `/api/v1/pods`. */
  readonly path: string;
  readonly labelSelector: string;
  readonly fieldSelector: string;
  /** The resourceVersion the watch started from ('' = the most recent). */
  readonly resourceVersion: string;
  /** The step that delivered the request. */
  readonly openedAt: number;
  /** Watch events delivered to the client so far, and the resourceVersion of the newest. */
  readonly events: number;
  readonly lastResourceVersion: string;
}

/** A watcher inside etcd's MVCC store (kube-apiserver's reflectors and etcdctl open them). */
export interface EtcdWatch {
  readonly id: number;
  readonly key: string;
  /** undefined: the single key; '' every key ≥ key; else the range end. */
  readonly rangeEnd: string | null;
  /** The lowest revision the watcher still needs (it has seen everything before). */
  readonly nextRevision: number;
  /** Synced watchers get each write as it commits; unsynced ones are still catching up. */
  readonly synced: boolean;
}

/** One resource's watch cache at kube-apiserver (the Cacher's window of recent events). */
export interface WatchCacheView {
  /** The storage prefix, e.g. `/registry/pods`. */
  readonly resourcePrefix: string;
  readonly capacity: number;
  readonly bufferedEvents: number;
  readonly objects: number;
  /** The oldest resourceVersion a watch can start from; older gets 410 Expired (null before the first list). */
  readonly oldestServable: number | null;
  readonly resourceVersion: number;
}

export interface WatchersView {
  readonly apiserver: readonly ApiserverWatch[];
  readonly etcd: readonly EtcdWatch[];
  /** kube-apiserver's watch caches, one per cached resource (events are not cached). */
  readonly caches: readonly WatchCacheView[];
  /** True when the oldest deliveries were dropped from the trace, so older watches may be missing. */
  readonly partial: boolean;
}

export interface InspectionEvent {
  readonly type: 'inspection';
  /** The step the state is as of. */
  readonly step: number;
  /** Present when asked for (null: this cluster has no such component). */
  readonly objects?: ObjectsView | null;
  readonly scheduler?: SchedulerView | null;
  readonly watchers?: WatchersView | null;
}

export interface CauseChainEvent {
  readonly type: 'causeChain';
  readonly id: number;
  /** The message first, then its cause, its cause's cause … back to the root (cause null). */
  readonly chain: readonly TraceRecord[];
  /** True when the chain goes on before the oldest delivery the engine still keeps. */
  readonly truncated: boolean;
}

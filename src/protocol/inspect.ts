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
}

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

export interface ObjectTable {
  /** e.g. `pods`, `deployments`. */
  readonly resource: string;
  readonly kind: string;
  readonly columns: readonly string[];
  readonly rows: readonly ObjectRow[];
}

export interface ObjectsView {
  /** A quorum list's resourceVersion: etcd's current revision. */
  readonly listResourceVersion: string;
  readonly tables: readonly ObjectTable[];
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

/** One scheduling attempt of one pod: every node's filter verdicts and scores, and the outcome. */
export interface SchedulerAttempt {
  readonly pod: string;
  readonly attempt: number;
  /** Virtual ms. */
  readonly time: number;
  readonly nodes: readonly SchedulerNodeRecord[];
  readonly selected: string | null;
  readonly message: string;
  readonly bound: boolean;
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
  readonly scheduler?: readonly SchedulerAttempt[] | null;
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

// What each component holds inside at the step shown, as the graph draws it in the component's box:
// etcd's revisions, keys, watchers, leases and the write it applied; kube-apiserver's requests in flight
// and watch-cache windows; kube-controller-manager's workqueues; kube-scheduler's queues and its newest
// decision; each kubelet's container starts in progress. The worker samples them after every delivery,
// keeps only changes, and posts an `insides` event whenever the insides of the position shown change
// (live, after a seek, after a step back), so a past step shows its past insides.

/** A write etcd applied: a Txn (kube-apiserver's every write), or an etcdctl Put / DeleteRange. */
export interface EtcdWriteView {
  /** The step that delivered it. */
  readonly step: number;
  readonly rpc: 'Txn' | 'Put' | 'DeleteRange';
  /** The key of its first compare (a Txn) or of the request. */
  readonly key: string;
  /** The first compare as etcdctl prints it, e.g. `mod_revision == 0`; empty without compares. */
  readonly compare: string;
  /** More compares beyond the first. */
  readonly moreCompares: number;
  /** The ops of the branch taken (or, when that cannot be told, of the success branch), e.g. `put`. */
  readonly ops: string;
  /** The branch taken; null when the request was not a Txn or the revisions cannot tell. */
  readonly branch: 'success' | 'failure' | null;
  /** The store revision after it. */
  readonly revision: number;
}

export interface EtcdInsides {
  readonly role: 'etcd';
  readonly revision: number;
  /** The revision etcd compacted at; 0 before the first compaction. */
  readonly compactRevision: number;
  /** Live keys (etcd_debugging_mvcc_keys_total). */
  readonly keys: number;
  /** Watchers on every stream (synced and unsynced). */
  readonly watchers: number;
  readonly leases: number;
  /** The newest write etcd applied (at `write.step`), null before the first. */
  readonly write: EtcdWriteView | null;
  /** Its raft state as a member of a 3- or 5-member cluster; null for a single member (no raft). */
  readonly member: EtcdMemberInsides | null;
  /** A real etcd (`--etcd-servers`) as seen from outside; absent for the model's etcd. */
  readonly real?: RealEtcdInsides;
}

/**
 * What a real etcd tells a client about itself (Maintenance.Status of the endpoint the server is pinned
 * to). There `watchers` counts only the server's own watchers (etcd reports no one else's), `compactRevision`
 * is what a watch from an older revision is told, and `write` is the server's newest write.
 */
export interface RealEtcdInsides {
  /** `host:port` of the member asked. */
  readonly endpoint: string;
  readonly version: string;
  /** Member IDs in hex, as etcdctl prints them. */
  readonly memberId: string;
  readonly leader: string;
  readonly raftTerm: number;
  /** The committed raft index and the applied one. */
  readonly raftIndex: number;
  readonly raftAppliedIndex: number;
  /** Bytes of the backend's file, and of it in use. */
  readonly dbSize: number;
  readonly dbSizeInUse: number;
  /** The revision the page's keyspace starts at (the server's first read of etcd): older revisions are not mirrored. */
  readonly historyFrom: number;
  /** When this was read from etcd (wall clock, ms since the Unix epoch): a page at a past step shows the read it had by then. */
  readonly readAt: number;
}

/** What a cluster member's raft node holds at the step shown (etcd 3.4's raft.Status, and its faults). */
export interface EtcdMemberInsides {
  /** Its raft role; `stopped` while its process is down (nothing below is known then but the faults). */
  readonly state: 'leader' | 'follower' | 'candidate' | 'pre-candidate' | 'stopped';
  /** The member it takes as leader (component name), null when it knows none. */
  readonly lead: string | null;
  readonly term: number;
  /** The highest log index it knows committed. */
  readonly commit: number;
  /** The highest log index it applied to its MVCC store. */
  readonly applied: number;
  /** Its last log index. */
  readonly lastIndex: number;
  /** The first index its raft log still holds (1 until its first snapshot compacts the log). */
  readonly firstIndex: number;
  /** The index of its newest raft snapshot (every 100,000 applied entries, or loaded from the leader); 0 before the first. */
  readonly snapshot: number;
  /** Members its raft messages cannot reach (a partition), by component name. */
  readonly unreachable: readonly string[];
  /** Its disk's fsync time, ms (0 unless the disk was made slow). */
  readonly fsyncMs: number;
  /** The newest write it applied to its MVCC store; null before the first (and while stopped). */
  readonly appliedWrite: EtcdAppliedWrite | null;
}

/**
 * A write as a member applied it: each member applies a committed entry on its own step, so following
 * one write through the members' `appliedWrite` shows it reach each store in turn.
 */
export interface EtcdAppliedWrite {
  /** The step at which the member applied it. */
  readonly step: number;
  /** The key written (a delete's tombstone counts) at `revision`; the last one when it wrote several. */
  readonly key: string;
  /** The member's store revision after it. */
  readonly revision: number;
}

/** One resource's watch cache window in kube-apiserver. */
export interface WatchCacheInsides {
  /** The resource, e.g. `pods`, `replicasets`. */
  readonly resource: string;
  /** Events in the window. */
  readonly events: number;
  readonly capacity: number;
  /** Objects in the cache's current state. */
  readonly objects: number;
  /** The resourceVersion the cache is current to. */
  readonly resourceVersion: number;
}

export interface ApiserverInsides {
  readonly role: 'kube-apiserver';
  /** Requests admitted by max-in-flight and not answered yet (watches not counted). */
  readonly readOnly: number;
  readonly mutating: number;
  readonly watchCaches: readonly WatchCacheInsides[];
}

export type ControllerName = 'deployment' | 'replicaset' | 'garbagecollector' | 'nodelifecycle';

export interface ControllerInsides {
  readonly name: ControllerName;
  /** Keys waiting in its workqueue(s). */
  readonly depth: number;
  /** The object a worker is syncing now (e.g. `default/nginx-deployment`, a node name), the oldest taken. */
  readonly syncing: string | null;
  /** How many objects workers are syncing now. */
  readonly busy: number;
}

export interface ControllerManagerInsides {
  readonly role: 'kube-controller-manager';
  readonly controllers: readonly ControllerInsides[];
}

export interface SchedulerInsides {
  readonly role: 'kube-scheduler';
  /** activeQ, podBackoffQ and unschedulablePods lengths. */
  readonly active: number;
  readonly backoff: number;
  readonly unschedulable: number;
  /** The pod being scheduled now (`namespace/name`), popped from activeQ and not yet bound or failed. */
  readonly scheduling: string | null;
  /** The newest scheduling decision: the pod, the node chosen (null: none fit) and whether the binding succeeded. */
  readonly last: { readonly pod: string; readonly node: string | null; readonly bound: boolean } | null;
}

export interface ContainerStepView {
  /** `namespace/name`. */
  readonly pod: string;
  readonly container: string;
  /** `sandbox`, `pulling`, `creating`, `starting`, `stopping`, or a waiting reason such as `ImagePullBackOff`. */
  readonly step: string;
}

export interface KubeletInsides {
  readonly role: 'kubelet';
  /** Container starts (and stops) in progress, one per pod. */
  readonly steps: readonly ContainerStepView[];
}

export type ComponentInsides = EtcdInsides | ApiserverInsides | ControllerManagerInsides | SchedulerInsides | KubeletInsides;

/**
 * The insides of the modelled components at `step` (by component name) that changed since the last
 * event: the UI merges them into what it holds, or, with `replace` (a new cluster, a fork, a restore),
 * drops what it holds first. Unchanged components are left out, so their boxes keep what they draw.
 * `retained` is false when the step is older than what the worker still keeps (as with the trace): the
 * event then replaces everything with nothing.
 */
export interface InsidesEvent {
  readonly type: 'insides';
  readonly step: number;
  readonly retained: boolean;
  readonly replace: boolean;
  readonly components: Readonly<Record<string, ComponentInsides>>;
}

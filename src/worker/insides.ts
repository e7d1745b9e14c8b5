// Samples what each component holds inside (protocol/insides.ts) after every delivery and keeps only the
// changes: per component a list of (step, snapshot) entries in step order, so the insides at any step are
// found by binary search in each list. Only the component a message was delivered to can have changed
// (every component changes its state only while it handles a message), so a delivery samples that one
// component; a delivery to the user (a fault stops, restarts or powers off another component) samples all.
//
// Kept like the trace: entries no longer needed for a step the engine's trace retains are dropped now and
// then, and a step older than what is kept is reported as not retained. A fork truncates the lists at the
// fork step and goes on sampling the replayed cluster, whose state at that step is the same.
//
// etcd's live key count (etcd_debugging_mvcc_keys_total) is counted once per member and then followed
// through the revisions each write adds (a key created at version 1, a tombstone deletes), so sampling
// never scans the keyspace. In a 3- or 5-member cluster every member is sampled, with its raft node's
// state (role, leader, term, commit, applied), its faults (stopped, partitioned away, slow disk) and the
// newest write it applied (the key at its store's newest revision, found in the same walk over the new
// revisions, and the step it applied at).
//
// A component the recorder cannot read (a real etcd's member, read from outside by the server:
// src/server/real-etcd/outside-view.ts) is `record`ed by whoever reads it, at the step it names (never
// before the last one), kept and pruned like the others: a past step shows what was read by then.

import type {
  ApiserverInsides, ComponentInsides, ControllerInsides, ControllerManagerInsides, EtcdAppliedWrite, EtcdInsides, EtcdMemberInsides, EtcdWriteView, InsidesEvent,
  KubeletInsides, SchedulerInsides, WatchCacheInsides,
} from '../protocol/index.ts';
import { Cluster } from '../sim/cluster.ts';
import type { RateLimitingQueue } from '../sim/client/workqueue.ts';
import type { Engine, Message } from '../sim/engine/index.ts';
import { etcdKinds, type EtcdServer } from '../sim/etcd/server.ts';
import type { StateType } from '../sim/etcd/raft/types.ts';
import type { Compare, DeleteRangeRequest, PutRequest, RequestOp, TxnRequest } from '../sim/etcd/rpc.ts';
import { partitionPoint } from './sorted.ts';

/** The watch caches shown, by storage prefix (nodes are stored under `minions`), with the name shown. */
export const shownWatchCaches: ReadonlyArray<readonly [prefix: string, resource: string]> = [
  ['/registry/pods', 'pods'],
  ['/registry/replicasets', 'replicasets'],
  ['/registry/deployments', 'deployments'],
  ['/registry/minions', 'nodes'],
];

/** Dropped entries are looked for after this many new ones. */
const pruneEvery = 4096;

interface Entry {
  readonly step: number;
  readonly insides: ComponentInsides;
}

export class InsidesRecorder {
  private cluster: Cluster | null = null;
  private kubelets = new Map<string, Cluster['kubelets'][number]>();
  private readonly lists = new Map<string, Entry[]>();
  private detach: (() => void) | null = null;
  private engine: Engine | null = null;
  /**
   * The components recorded from outside (`record`), with the step their list is complete from: 0 until it
   * was pruned (a step before its first entry has nothing read yet, which is no gap).
   */
  private readonly outside = new Map<string, number>();
  /** Each etcd member, by name, with its live key count and the revision that count is at. */
  private members = new Map<string, { server: EtcdServer; liveKeys: number; keysAtRevision: number }>();
  private added = 0;
  /** What the last event posted held (per component, the entry objects), to post only changes. */
  private posted: { step: number; retained: boolean; entries: ReadonlyArray<ComponentInsides | undefined> } | null = null;

  /** Forgets everything and samples `cluster` (a new cluster, built and not yet booted, or restored). */
  begin(cluster: { readonly engine: Engine }): void {
    this.lists.clear();
    this.outside.clear();
    this.posted = null;
    this.added = 0;
    this.attach(cluster);
  }

  /**
   * Goes on sampling `cluster` (a cluster of src/sim/cluster.ts; any other has no insides) from its current
   * step: the replayed one after a fork (after `truncate`).
   */
  attach(cluster: { readonly engine: Engine }): void {
    this.detach?.();
    this.detach = null;
    this.engine = cluster.engine;
    this.cluster = cluster instanceof Cluster ? cluster : null;
    const target = this.cluster;
    this.kubelets = new Map(target?.kubelets.map((k) => [k.name, k]) ?? []);
    if (!target) return;
    this.members = new Map(target.etcdMembers.map((server) => [server.name, {
      server, liveKeys: server.kv.range({ key: '\0', rangeEnd: '\0', countOnly: true }).count, keysAtRevision: server.store.currentRev,
    }]));
    for (const name of this.componentNames()) this.sample(name, target.engine.step, null);
    this.detach = target.engine.onDelivery((message) => this.delivered(target, message));
  }

  /** Forgets every entry after `step` (the fork point). */
  truncate(step: number): void {
    for (const list of this.lists.values()) {
      let keep = list.length;
      while (keep > 1 && list[keep - 1]!.step > step) keep--;
      list.length = keep;
    }
    this.posted = null;
  }

  /** The oldest step whose insides are all kept. */
  get retainedFrom(): number {
    let from = 0;
    for (const [name, list] of this.lists) from = Math.max(from, this.outside.get(name) ?? list[0]?.step ?? 0);
    return from;
  }

  /**
   * Records `insides` of component `name`, which the recorder cannot read itself, as holding from `step`
   * on (never before the last one recorded; a second record at one step replaces the first); kept only
   * if it differs from the last one recorded.
   */
  record(name: string, step: number, insides: ComponentInsides): void {
    if (!this.outside.has(name)) this.outside.set(name, 0);
    let list = this.lists.get(name);
    if (!list) {
      list = [];
      this.lists.set(name, list);
    }
    const previous = list.at(-1);
    if (previous && sameInsides(previous.insides, insides)) return;
    if (previous?.step === step) list[list.length - 1] = { step, insides };
    else list.push({ step, insides });
    if (++this.added >= pruneEvery && this.engine) {
      this.added = 0;
      this.prune(this.engine.trace.firstStep);
    }
  }

  /** Every component's insides at `step` (by name); null when the step is older than what is kept. */
  at(step: number): Record<string, ComponentInsides> | null {
    if (step < this.retainedFrom) return null;
    const components: Record<string, ComponentInsides> = {};
    for (const [name, list] of this.lists) {
      const entry = entryAt(list, step);
      if (entry) components[name] = entry.insides;
    }
    return components;
  }

  /**
   * The `insides` event for `step`: the components whose insides differ from what the last event left the
   * UI holding (all of them, `replace`, after a new cluster, a fork or a change of retention); null when
   * none differ, and for a cluster without insides.
   */
  eventIfChanged(step: number): InsidesEvent | null {
    if (this.lists.size === 0) return null;
    const retained = step >= this.retainedFrom;
    const names = [...this.lists.keys()];
    const entries = names.map((name) => (retained ? entryAt(this.lists.get(name)!, step)?.insides : undefined));
    const last = this.posted;
    const replace = last === null || last.retained !== retained || last.entries.length !== entries.length;
    const components: Record<string, ComponentInsides> = {};
    let changed = false;
    names.forEach((name, i) => {
      const insides = entries[i];
      if (!replace && insides === last.entries[i]) return;
      changed = true;
      if (insides) components[name] = insides;
    });
    if (!replace && !changed) return null;
    this.posted = { step, retained, entries };
    return { type: 'insides', step, retained, replace, components };
  }

  private componentNames(): string[] {
    const cluster = this.cluster!;
    return [
      ...cluster.etcdMembers.map((m) => m.name), cluster.apiserver.name,
      ...(cluster.controllerManager ? [cluster.controllerManager.name] : []),
      ...(cluster.scheduler ? [cluster.scheduler.name] : []),
      ...cluster.kubelets.map((k) => k.name),
    ];
  }

  private delivered(cluster: Cluster, message: Message): void {
    const step = cluster.engine.step;
    if (message.to === cluster.user.name) {
      for (const name of this.componentNames()) this.sample(name, step, null);
    } else if (this.lists.has(message.to)) {
      this.sample(message.to, step, message);
    }
    if (++this.added >= pruneEvery) {
      this.added = 0;
      this.prune(cluster.engine.trace.firstStep);
    }
  }

  /** Samples component `name` after `step` (which delivered `message` to it, if not null); stores a change. */
  private sample(name: string, step: number, message: Message | null): void {
    let list = this.lists.get(name);
    if (!list) {
      list = [];
      this.lists.set(name, list);
    }
    const previous = list.at(-1)?.insides ?? null;
    const next = this.read(name, step, message, previous);
    if (next === null || (previous !== null && sameInsides(previous, next))) return;
    list.push({ step, insides: next });
  }

  private read(name: string, step: number, message: Message | null, previous: ComponentInsides | null): ComponentInsides | null {
    const cluster = this.cluster!;
    const member = this.members.get(name);
    if (member) return this.readEtcd(member, step, message, previous?.role === 'etcd' ? previous : null);
    if (name === cluster.apiserver.name) return readApiserver(cluster);
    if (name === cluster.controllerManager?.name) return readControllerManager(cluster);
    if (name === cluster.scheduler?.name) return readScheduler(cluster);
    const kubelet = this.kubelets.get(name);
    return kubelet ? { role: 'kubelet', steps: kubelet.containerSteps() } satisfies KubeletInsides : null;
  }

  private readEtcd(
    member: { server: EtcdServer; liveKeys: number; keysAtRevision: number }, step: number, message: Message | null, previous: EtcdInsides | null,
  ): EtcdInsides {
    const { store, lessor } = member.server;
    const revision = store.currentRev;
    let newestKey: string | null = null;
    if (revision !== member.keysAtRevision) {
      if (revision > member.keysAtRevision) {
        store.backend.rangeRevisions(member.keysAtRevision + 1, revision + 1, (kv) => {
          if (kv.createRevision === 0) member.liveKeys--;
          else if (kv.version === 1) member.liveKeys++;
          newestKey = kv.key;
        });
      }
      member.keysAtRevision = revision;
    }
    const before = previous?.revision ?? revision;
    // A cluster member applies a write when raft commits it, not when the request arrives: its box shows
    // the member's indexes instead of a write.
    const raftMember = this.cluster!.etcdMembers.length > 1;
    const write = message && !raftMember ? writeOf(message, step, before, revision) : null;
    return {
      role: 'etcd',
      revision,
      // etcd's compactMainRev is -1 until the first compaction.
      compactRevision: Math.max(0, store.compactMainRev),
      keys: member.liveKeys,
      watchers: store.synced.size + store.unsynced.size,
      leases: lessor.size,
      write: write ?? previous?.write ?? null,
      member: raftMember ? memberOf(member.server, this.cluster!.etcdMembers, appliedWrite(step, newestKey, revision, previous)) : null,
    };
  }

  private prune(firstStep: number): void {
    for (const [name, list] of this.lists) {
      // Keep the entry that covers firstStep and every later one.
      let drop = 0;
      while (drop + 1 < list.length && list[drop + 1]!.step <= firstStep) drop++;
      if (drop === 0) continue;
      list.splice(0, drop);
      if (this.outside.has(name)) this.outside.set(name, list[0]!.step);
    }
  }
}

const roles: Record<StateType, EtcdMemberInsides['state']> = {
  StateLeader: 'leader', StateFollower: 'follower', StateCandidate: 'candidate', StatePreCandidate: 'pre-candidate',
};

/** The member's newest applied write: `key` if this step's sample found the store at a new revision, else the last one. */
function appliedWrite(step: number, key: string | null, revision: number, previous: EtcdInsides | null): EtcdAppliedWrite | null {
  if (key !== null) return { step, key, revision };
  return previous?.member?.appliedWrite ?? null;
}

/** A member's raft state; raft IDs are the members' positions (1-based) in `members` (cluster.ts). */
function memberOf(server: EtcdServer, members: readonly EtcdServer[], applied: EtcdAppliedWrite | null): EtcdMemberInsides {
  const { raft } = server;
  const faults = { unreachable: [...server.unreachable].sort(), fsyncMs: server.fsyncMs };
  if (raft === null) return { state: 'stopped', lead: null, term: 0, commit: 0, applied: 0, lastIndex: 0, firstIndex: 0, snapshot: 0, ...faults, appliedWrite: null };
  return {
    state: roles[raft.state],
    lead: raft.lead === 0 ? null : (members[raft.lead - 1]?.name ?? null),
    term: raft.term,
    commit: raft.log.committed,
    applied: raft.log.applied,
    lastIndex: raft.log.lastIndex,
    firstIndex: raft.log.firstIndex,
    snapshot: raft.log.currentSnapshot.metadata.index,
    ...faults,
    appliedWrite: applied,
  };
}

/** The last entry at or before `step`, or undefined when the list starts later. */
function entryAt(list: readonly Entry[], step: number): Entry | undefined {
  const after = partitionPoint(list.length, (i) => list[i]!.step <= step);
  return after === 0 ? undefined : list[after - 1];
}

function readApiserver(cluster: Cluster): ApiserverInsides {
  const { apiserver } = cluster;
  const { readOnly, mutating } = apiserver.requestsInFlight;
  const watchCaches: WatchCacheInsides[] = [];
  for (const [prefix, resource] of shownWatchCaches) {
    const window = apiserver.watchCacheWindowOf(prefix);
    if (window) watchCaches.push({ resource, events: window.bufferedEvents, capacity: window.capacity, objects: window.objects, resourceVersion: window.resourceVersion });
  }
  return { role: 'kube-apiserver', readOnly, mutating, watchCaches };
}

function readControllerManager(cluster: Cluster): ControllerManagerInsides {
  const kcm = cluster.controllerManager!;
  const controllers: ControllerInsides[] = [];
  if (kcm.deploymentController) controllers.push(controllerOf('deployment', [kcm.deploymentController.queue]));
  if (kcm.replicaSetController) controllers.push(controllerOf('replicaset', [kcm.replicaSetController.queue]));
  const gc = kcm.garbageCollector;
  if (gc) {
    // The garbage collector's queues hold uids: the object is named from its dependency graph.
    const named = (uid: string) => {
      const identity = gc.node(uid)?.identity;
      return identity ? `${identity.kind} ${identity.namespace ? `${identity.namespace}/` : ''}${identity.name}` : uid;
    };
    controllers.push(controllerOf('garbagecollector', [gc.attemptToDelete, gc.attemptToOrphan], named));
  }
  if (kcm.nodeLifecycleController) controllers.push(controllerOf('nodelifecycle', [kcm.nodeLifecycleController.updateQueue]));
  return { role: 'kube-controller-manager', controllers };
}

function controllerOf(name: ControllerInsides['name'], queues: readonly RateLimitingQueue[], named: (key: string) => string = (key) => key): ControllerInsides {
  let depth = 0;
  let busy = 0;
  let syncing: string | null = null;
  for (const queue of queues) {
    depth += queue.length;
    busy += queue.processingItems.size;
    if (syncing === null) for (const key of queue.processingItems) {
      syncing = named(key);
      break;
    }
  }
  return { name, depth, syncing, busy };
}

function readScheduler(cluster: Cluster): SchedulerInsides {
  const scheduler = cluster.scheduler!;
  const { active, backoff, unschedulable, scheduling } = scheduler.queueState();
  const attempt = scheduler.attempts.at(-1);
  return {
    role: 'kube-scheduler', active, backoff, unschedulable, scheduling,
    last: attempt ? { pod: attempt.pod, node: attempt.selected, bound: attempt.bound } : null,
  };
}

/** The write `message` made etcd apply (its store went from `before` to `after`), or null if it was none. */
export function writeOf(message: Message, step: number, before: number, after: number): EtcdWriteView | null {
  switch (message.kind) {
    case etcdKinds.txn: {
      const txn = message.payload as TxnRequest;
      const compares = txn.compare ?? [];
      const success = txn.success ?? [];
      const failure = txn.failure ?? [];
      const branch = branchTaken(success, failure, after !== before);
      const first = compares[0];
      return {
        step, rpc: 'Txn', key: first?.key ?? opKey(success[0] ?? failure[0]),
        compare: first ? compareText(first) : '', moreCompares: Math.max(0, compares.length - 1),
        ops: opsText(branch === 'failure' ? failure : success), branch, revision: after,
      };
    }
    case etcdKinds.put:
      return { step, rpc: 'Put', key: (message.payload as PutRequest).key, compare: '', moreCompares: 0, ops: 'put', branch: null, revision: after };
    case etcdKinds.deleteRange:
      return { step, rpc: 'DeleteRange', key: (message.payload as DeleteRangeRequest).key, compare: '', moreCompares: 0, ops: 'delete', branch: null, revision: after };
    default:
      return null;
  }
}

/**
 * Which branch a Txn took, told from whether it made a revision: only writes make one, and a put always
 * does. Null when both branches would look the same.
 */
function branchTaken(success: readonly RequestOp[], failure: readonly RequestOp[], changed: boolean): 'success' | 'failure' | null {
  const writes = (ops: readonly RequestOp[]) => ops.some((op) => op.requestPut !== undefined || op.requestDeleteRange !== undefined || op.requestTxn !== undefined);
  const puts = (ops: readonly RequestOp[]) => ops.some((op) => op.requestPut !== undefined);
  if (changed) {
    if (writes(success) && !writes(failure)) return 'success';
    if (writes(failure) && !writes(success)) return 'failure';
    return null;
  }
  if (puts(success) && !puts(failure)) return 'failure';
  if (puts(failure) && !puts(success)) return 'success';
  return null;
}

const compareTargets: Record<NonNullable<Compare['target']>, { field: string; value: (c: Compare) => string | number }> = {
  VERSION: { field: 'version', value: (c) => c.version ?? 0 },
  CREATE: { field: 'create_revision', value: (c) => c.createRevision ?? 0 },
  MOD: { field: 'mod_revision', value: (c) => c.modRevision ?? 0 },
  VALUE: { field: 'value', value: (c) => JSON.stringify(c.value ?? '') },
  LEASE: { field: 'lease', value: (c) => c.lease ?? 0 },
};
const compareResults: Record<NonNullable<Compare['result']>, string> = { EQUAL: '==', NOT_EQUAL: '!=', GREATER: '>', LESS: '<' };

/** `mod_revision == 0` (etcd's defaults: target VERSION, result EQUAL). */
export function compareText(compare: Compare): string {
  const target = compareTargets[compare.target ?? 'VERSION'];
  return `${target.field} ${compareResults[compare.result ?? 'EQUAL']} ${target.value(compare)}`;
}

function opsText(ops: readonly RequestOp[]): string {
  if (ops.length === 0) return 'nothing';
  return ops.map((op) => (op.requestPut ? 'put' : op.requestDeleteRange ? 'delete' : op.requestRange ? 'get' : 'txn')).join(', ');
}

function opKey(op: RequestOp | undefined): string {
  return op?.requestPut?.key ?? op?.requestDeleteRange?.key ?? op?.requestRange?.key ?? '';
}

function sameMember(a: EtcdMemberInsides | null, b: EtcdMemberInsides | null): boolean {
  if (a === null || b === null) return a === b;
  return a.state === b.state && a.lead === b.lead && a.term === b.term && a.commit === b.commit && a.applied === b.applied
    && a.lastIndex === b.lastIndex && a.firstIndex === b.firstIndex && a.snapshot === b.snapshot && a.fsyncMs === b.fsyncMs && a.appliedWrite === b.appliedWrite && a.unreachable.length === b.unreachable.length && a.unreachable.every((n, i) => n === b.unreachable[i]);
}

/** Whether two snapshots of one component say the same (field by field, without allocating). */
function sameInsides(a: ComponentInsides, b: ComponentInsides): boolean {
  switch (a.role) {
    case 'etcd': {
      const o = b as EtcdInsides;
      return a.revision === o.revision && a.compactRevision === o.compactRevision && a.keys === o.keys && a.watchers === o.watchers
        && a.leases === o.leases && a.write === o.write && a.real === o.real && sameMember(a.member, o.member);
    }
    case 'kube-apiserver': {
      const o = b as ApiserverInsides;
      if (a.readOnly !== o.readOnly || a.mutating !== o.mutating || a.watchCaches.length !== o.watchCaches.length) return false;
      return a.watchCaches.every((c, i) => {
        const d = o.watchCaches[i]!;
        return c.resource === d.resource && c.events === d.events && c.capacity === d.capacity && c.objects === d.objects && c.resourceVersion === d.resourceVersion;
      });
    }
    case 'kube-controller-manager': {
      const o = b as ControllerManagerInsides;
      return a.controllers.length === o.controllers.length && a.controllers.every((c, i) => {
        const d = o.controllers[i]!;
        return c.name === d.name && c.depth === d.depth && c.syncing === d.syncing && c.busy === d.busy;
      });
    }
    case 'kube-scheduler': {
      const o = b as SchedulerInsides;
      return a.active === o.active && a.backoff === o.backoff && a.unschedulable === o.unschedulable && a.scheduling === o.scheduling
        && (a.last === o.last || (a.last !== null && o.last !== null && a.last.pod === o.last.pod && a.last.node === o.last.node && a.last.bound === o.last.bound));
    }
    case 'kubelet': {
      const o = b as KubeletInsides;
      return a.steps.length === o.steps.length && a.steps.every((st, i) => {
        const d = o.steps[i]!;
        return st.pod === d.pod && st.container === d.container && st.step === d.step;
      });
    }
  }
}

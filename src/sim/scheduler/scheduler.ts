// kube-scheduler: a queue of unassigned pods fed by informers, the default filter and score plugins,
// a per-attempt record of every decision, binding through `pods/<name>/binding`, and the Scheduled /
// FailedScheduling events.
//
// Models pkg/scheduler/schedule_one.go (scheduleOne, findNodesThatFitPod, prioritizeNodes, selectHost,
// handleSchedulingFailure), pkg/scheduler/internal/queue/scheduling_queue.go (activeQ, backoff 1 s → 10 s,
// unschedulable pods flushed after 5 min), pkg/scheduler/framework/types.go (FitError.Error) and
// pkg/scheduler/framework/plugins/* (see plugins.ts).
//
// Not modelled: preemption (PostFilter only writes its message: no pod has a lower priority here),
// volumes, inter-pod affinity, the cache's assume/forget beyond a map of assumed pods, leader election,
// percentageOfNodesToScore (all nodes are scored; fine below 100 nodes).

import { isStatusError } from '../api/errors.ts';
import { formatTimestamp } from '../api/time.ts';
import type { Binding, Node, Pod } from '../api/types/core.ts';
import type { Lease } from '../api/types/coordination.ts';
import { LeaderElector } from '../client/leader-election.ts';
import { builtinTokens } from '../wire/credentials.ts';
import {
  ClientComponent, EventBroadcaster, metaNamespaceKey, RestClient, SharedInformerFactory,
  type EventRecorder, type Indexer, type ResourceClient, type SharedIndexInformer,
} from '../client/index.ts';
import type { Co, Duration, Message } from '../engine/index.ts';
import { filterPlugins, scorePlugins, sumRequests, type FilterResult, type NodeInfo, type Resources } from './plugins.ts';

/** The control-plane host's name: the first half of the leader-election identity. */
const controlPlaneHostname = 'control-plane';

export const defaultSchedulerName = 'default-scheduler';

/** Every filter plugin's record when it passes, in order: shared by all records (they are read-only). */
const passRecords: readonly PluginRecord[] = Object.freeze(filterPlugins.map((p) => Object.freeze({ plugin: p.name, pass: true, reasons: Object.freeze([]) })));

/**
 * One node as the scheduler cache sees it: its pod count and request sums, and its pods (informer's
 * assigned ones in key order, then the assumed ones), listed only when a plugin reads them (host ports,
 * topology spread).
 */
class CachedNodeInfo implements NodeInfo {
  private listed: readonly Pod[] | undefined;

  constructor(readonly node: Node, private readonly index: Indexer<Pod>, private readonly assumed: readonly Pod[] | undefined,
    readonly podCount: number, readonly requested: Resources, readonly nonZeroRequested: Resources) {}

  get pods(): readonly Pod[] {
    if (this.listed === undefined) {
      const name = this.node.metadata.name ?? '';
      const assigned = name === '' ? [] : this.index.byIndex(nodeNameIndex, name);
      this.listed = this.assumed ? [...assigned, ...this.assumed] : assigned;
    }
    return this.listed;
  }
}

export const queueDurations = {
  initialBackoff: 1000,
  maxBackoff: 10_000,
  unschedulableFlush: 5 * 60_000,
} as const;

/** One plugin's verdict on one node in one attempt. */
export interface PluginRecord {
  readonly plugin: string;
  readonly pass: boolean;
  readonly reasons: readonly string[];
}

export interface ScoreRecord {
  readonly plugin: string;
  readonly weight: number;
  readonly raw: number;
  readonly normalized: number;
}

export interface NodeRecord {
  readonly node: string;
  readonly filters: readonly PluginRecord[];
  readonly feasible: boolean;
  readonly scores: readonly ScoreRecord[];
  readonly finalScore: number | null;
}

/** Everything one scheduling attempt decided; attempts are appended, never overwritten. */
export interface AttemptRecord {
  readonly pod: string;
  readonly uid: string;
  readonly attempt: number;
  readonly time: number;
  readonly nodes: readonly NodeRecord[];
  readonly selected: string | null;
  readonly message: string;
  readonly bound: boolean;
}

interface QueuedPod {
  attempts: number;
  backoffUntil: number;
  state: 'active' | 'backoff' | 'unschedulable' | 'inflight';
}

/** FitError.Error(): `0/<N> nodes are available: <count> <reason>, ….` plus the preemption message. */
export function fitErrorMessage(numNodes: number, failures: readonly FilterResult[]): string {
  const histogram = new Map<string, number>();
  let unresolvable = 0;
  for (const f of failures) {
    for (const r of f.reasons) histogram.set(r, (histogram.get(r) ?? 0) + 1);
    if (f.unresolvable) unresolvable++;
  }
  const reasons = [...histogram].map(([r, n]) => `${n} ${r}`).sort();
  let message = `0/${numNodes} nodes are available: ${reasons.join(', ')}.`;
  // Models framework/preemption/preemption.go: every node is either not helpful or has no victims.
  const preempt: string[] = [];
  if (unresolvable > 0) preempt.push(`${unresolvable} Preemption is not helpful for scheduling`);
  if (failures.length - unresolvable > 0) preempt.push(`${failures.length - unresolvable} No preemption victims found for incoming pod`);
  if (numNodes > 0) message += ` preemption: 0/${numNodes} nodes are available: ${preempt.sort().join(', ')}..`;
  return message;
}

/**
 * Models scheduling_queue.go isPodUpdated: an update moves an unschedulable pod only if something other
 * than its resourceVersion, generation, managedFields or status changed (so the scheduler's own
 * PodScheduled=False patch does not retry the pod).
 */
export function isPodUpdated(old: Pod, pod: Pod): boolean {
  const strip = (p: Pod) => {
    const { resourceVersion: _rv, generation: _g, managedFields: _mf, ...metadata } = p.metadata;
    return JSON.stringify({ metadata, spec: p.spec });
  };
  return strip(old) !== strip(pod);
}

/** The pod informer's index of assigned pods by node (the scheduler cache's NodeInfo pods). */
const nodeNameIndex = 'spec.nodeName';

export interface KubeSchedulerOptions {
  readonly name?: string;
  readonly schedulerName?: string;
  readonly token?: string;
  /**
   * How many attempt records to keep (all by default). Beyond it the oldest are dropped in chunks of a
   * quarter, as the trace drops records; a large benchmark sets it to bound memory.
   */
  readonly attemptLimit?: number;
  /** --leader-elect (true): wait for the kube-system/kube-scheduler Lease before scheduling. */
  readonly leaderElect?: boolean;
}

export class KubeScheduler extends ClientComponent {
  readonly client: RestClient;
  readonly recorder: EventRecorder;
  factory: SharedInformerFactory;
  pods: SharedIndexInformer<Pod>;
  nodes: SharedIndexInformer<Node>;
  readonly schedulerName: string;
  /** Every attempt, in order. */
  readonly attempts: AttemptRecord[] = [];
  private readonly podsApi: ResourceClient<Pod>;
  private readonly queue = new Map<string, QueuedPod>();
  private readonly active: string[] = [];
  /** Pods bound by this scheduler that the informer has not shown assigned yet (the cache's assumed pods). */
  private readonly assumed = new Map<string, Pod>();
  private busy = false;
  private readonly attemptLimit: number;
  /** Per node name: the informer's assigned pods counted and their requests summed, until one of them changes. */
  private readonly nodePodSums = new Map<string, { count: number; requested: Resources; nonZeroRequested: Resources }>();
  /** nodesByName's cache: node names in key order and their permutation into name order. */
  private nodeOrder: { names: readonly string[]; order: readonly number[] } | null = null;
  leaderElector: LeaderElector | undefined;
  private readonly leaderElect: boolean;

  constructor(options: KubeSchedulerOptions = {}) {
    super(options.name ?? 'kube-scheduler');
    this.schedulerName = options.schedulerName ?? defaultSchedulerName;
    this.attemptLimit = options.attemptLimit ?? Number.POSITIVE_INFINITY;
    this.leaderElect = options.leaderElect ?? true;
    this.client = new RestClient(this.host, options.token ?? builtinTokens.scheduler, 'kube-scheduler/v1.28.15 (linux/amd64) kubernetes/8418565/scheduler');
    this.recorder = new EventBroadcaster(this.host, this.client).newRecorder({ component: this.schedulerName });
    this.podsApi = this.client.resource<Pod>('pods');
    [this.factory, this.pods, this.nodes] = this.informers();
  }

  // Models pkg/scheduler/scheduler.go: one pod informer of non-terminal pods (assigned ones feed the cache).
  private informers(): [SharedInformerFactory, SharedIndexInformer<Pod>, SharedIndexInformer<Node>] {
    const factory = new SharedInformerFactory(this.host, this.client);
    const pods = factory.informerFor<Pod>('pods', '', { fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed' });
    pods.indexer.addIndexer(nodeNameIndex, (p) => (p.spec.nodeName ? [p.spec.nodeName] : []));
    this.nodePodSums.clear();
    pods.indexer.onIndexChange(nodeNameIndex, (node) => this.nodePodSums.delete(node));
    return [factory, pods, factory.informerFor<Node>('nodes')];
  }

  /** A restarted scheduler starts empty: new informers list again and rebuild its queue and cache. */
  override onStart(): void {
    this.queue.clear();
    this.active.length = 0;
    this.assumed.clear();
    this.busy = false;
    [this.factory, this.pods, this.nodes] = this.informers();
    this.start();
  }

  /** Elects itself leader (kube-system/kube-scheduler), then starts its informers. */
  start(): void {
    this.leaderElector?.stop();
    if (this.leaderElect === false) {
      this.startScheduling();
      return;
    }
    this.leaderElector = new LeaderElector(this.host, {
      namespace: 'kube-system', name: 'kube-scheduler', identity: `${controlPlaneHostname}_${this.rng.uuid()}`,
      leases: this.client.resource<Lease>('leases', 'coordination.k8s.io'), recorder: this.recorder,
      onStartedLeading: () => this.startScheduling(),
    });
    this.leaderElector.run();
  }

  private startScheduling(): void {
    this.pods.addEventHandler({
      onAdd: (pod) => this.podChanged(pod),
      onUpdate: (old, pod) => this.podChanged(pod, old),
      onDelete: (obj) => {
        const pod = 'metadata' in obj ? obj : obj.obj;
        const key = metaNamespaceKey(pod);
        this.queue.delete(key);
        this.assumed.delete(key);
      },
    });
    this.nodes.addEventHandler({
      onAdd: () => this.moveAllToActive(),
      onUpdate: () => this.moveAllToActive(),
    });
    this.factory.start();
  }

  protected handle(_message: Message): void {
    // Every message of the scheduler is the client library's.
  }

  private responsible(pod: Pod): boolean {
    return (pod.spec.schedulerName ?? defaultSchedulerName) === this.schedulerName;
  }

  private podChanged(pod: Pod, old?: Pod): void {
    const key = metaNamespaceKey(pod);
    if (pod.spec.nodeName) {
      this.assumed.delete(key);
      this.queue.delete(key);
      return;
    }
    if (!this.responsible(pod) || pod.metadata.deletionTimestamp || (pod.spec.schedulingGates?.length ?? 0) > 0) return;
    const q = this.queue.get(key);
    if (!q) {
      this.queue.set(key, { attempts: 0, backoffUntil: 0, state: 'active' });
      this.activate(key);
    } else if (q.state === 'unschedulable' && (!old || isPodUpdated(old, pod))) {
      this.requeue(key, q);
    }
  }

  private moveAllToActive(): void {
    for (const [key, q] of this.queue) if (q.state === 'unschedulable') this.requeue(key, q);
  }

  /** Unschedulable → backoffQ (until its backoff ends) → activeQ. */
  private requeue(key: string, q: QueuedPod): void {
    if (q.backoffUntil <= this.host.now) {
      q.state = 'active';
      this.activate(key);
      return;
    }
    q.state = 'backoff';
    this.host.after(q.backoffUntil - this.host.now, 'scheduler-backoff', () => {
      if (this.queue.get(key) === q && q.state === 'backoff') {
        q.state = 'active';
        this.activate(key);
      }
    }, { background: true });
  }

  private activate(key: string): void {
    this.active.push(key);
    if (!this.busy) {
      this.busy = true;
      this.host.spawn(this.run());
    }
  }

  private *run(): Co<void> {
    for (let key = this.active.shift(); key !== undefined; key = this.active.shift()) {
      const q = this.queue.get(key);
      if (!q || q.state !== 'active') continue;
      const [namespace, name] = key.includes('/') ? key.split('/') as [string, string] : ['', key];
      const pod = this.pods.get(namespace, name);
      if (!pod || pod.spec.nodeName) {
        this.queue.delete(key);
        continue;
      }
      q.state = 'inflight';
      yield* this.scheduleOne(key, pod, q);
    }
    this.busy = false;
  }

  /**
   * The scheduling queue's lengths (activeQ, podBackoffQ, unschedulablePods) and the pod being scheduled
   * now (popped from activeQ, not yet bound or failed), as `namespace/name`; read-only, for the UI.
   */
  queueState(): { active: number; backoff: number; unschedulable: number; scheduling: string | null } {
    let active = 0;
    let backoff = 0;
    let unschedulable = 0;
    let scheduling: string | null = null;
    for (const [key, q] of this.queue) {
      if (q.state === 'active') active++;
      else if (q.state === 'backoff') backoff++;
      else if (q.state === 'unschedulable') unschedulable++;
      else scheduling = key;
    }
    return { active, backoff, unschedulable, scheduling };
  }

  /** The cache's view of each node: the node plus the pods on it (assigned or assumed). */
  nodeInfos(): NodeInfo[] {
    // Each node's pods: the informer's assigned pods in key order (its nodeName index), then the assumed ones.
    const assumedByNode = new Map<string, Pod[]>();
    for (const [key, p] of this.assumed) {
      const [ns, n] = key.split('/') as [string, string];
      if (!p.spec.nodeName || this.pods.get(ns, n)?.spec.nodeName) continue;
      const list = assumedByNode.get(p.spec.nodeName) ?? [];
      list.push(p);
      assumedByNode.set(p.spec.nodeName, list);
    }
    const podsIndex = this.pods.indexer;
    return this.nodesByName().map((node) => {
      const name = node.metadata.name ?? '';
      const assumed = assumedByNode.get(name);
      const sums = this.podSums(name);
      return new CachedNodeInfo(node, podsIndex, assumed, sums.count + (assumed?.length ?? 0),
        assumed ? sumRequests(assumed, false, sums.requested) : sums.requested,
        assumed ? sumRequests(assumed, true, sums.nonZeroRequested) : sums.nonZeroRequested);
    });
  }

  private podSums(node: string): { count: number; requested: Resources; nonZeroRequested: Resources } {
    let sums = this.nodePodSums.get(node);
    if (sums === undefined) {
      const pods = node === '' ? [] : this.pods.indexer.byIndex(nodeNameIndex, node);
      sums = { count: pods.length, requested: sumRequests(pods, false), nonZeroRequested: sumRequests(pods, true) };
      this.nodePodSums.set(node, sums);
    }
    return sums;
  }

  /** The nodes in name order; the order is sorted again only when the set of nodes changes. */
  private nodesByName(): Node[] {
    const nodes = this.nodes.list();
    const names = nodes.map((n) => n.metadata.name ?? '');
    const cached = this.nodeOrder;
    if (cached === null || cached.names.length !== names.length || cached.names.some((n, i) => n !== names[i])) {
      const order = names.map((_, i) => i).sort((a, b) => names[a]!.localeCompare(names[b]!));
      this.nodeOrder = { names, order };
      return order.map((i) => nodes[i]!);
    }
    return cached.order.map((i) => nodes[i]!);
  }

  private *scheduleOne(key: string, pod: Pod, q: QueuedPod): Co<void> {
    q.attempts++;
    const infos = this.nodeInfos();
    const records: NodeRecord[] = [];
    /** For each record, its node's place among the feasible ones (-1 if filtered out). */
    const feasibleIndex: number[] = [];
    const failures: FilterResult[] = [];
    const feasible: NodeInfo[] = [];
    for (const info of infos) {
      let failed: FilterResult | undefined;
      let failedAt = 0;
      for (; failedAt < filterPlugins.length; failedAt++) {
        const result = filterPlugins[failedAt]!.filter(pod, info);
        if (result.reasons.length > 0) {
          failed = result;
          break;
        }
      }
      // The passing plugins' records are shared (frozen): most nodes pass every filter.
      const filters = failed
        ? [...passRecords.slice(0, failedAt), { plugin: filterPlugins[failedAt]!.name, pass: false, reasons: failed.reasons }]
        : passRecords;
      if (failed) failures.push(failed);
      else feasible.push(info);
      feasibleIndex.push(failed ? -1 : feasible.length - 1);
      records.push({ node: info.node.metadata.name ?? '', filters, feasible: !failed, scores: [], finalScore: null });
    }

    if (feasible.length === 0) {
      const message = fitErrorMessage(infos.length, failures);
      this.recordAttempt({ pod: key, uid: pod.metadata.uid ?? '', attempt: q.attempts, time: this.host.now, nodes: records, selected: null, message, bound: false });
      yield* this.handleFailure(key, pod, q, message);
      return;
    }

    // prioritizeNodes: each plugin scores every feasible node, normalizes, and is weighted.
    // Totals and score records by place among the feasible nodes (node names are unique).
    const totals = feasible.map(() => 0);
    const scoreRecords = feasible.map((): ScoreRecord[] => []);
    for (const plugin of scorePlugins) {
      const raw = plugin.score(pod, feasible, infos);
      if (raw === null) continue;
      const normalized = plugin.normalize ? plugin.normalize(raw) : raw;
      for (let i = 0; i < feasible.length; i++) {
        totals[i] = totals[i]! + normalized[i]! * plugin.weight;
        scoreRecords[i]!.push({ plugin: plugin.name, weight: plugin.weight, raw: raw[i]!, normalized: normalized[i]! });
      }
    }
    // selectHost: the highest total; ties broken uniformly at random (reservoir sampling).
    let selected = '';
    let best = -Infinity;
    let ties = 0;
    for (let i = 0; i < feasible.length; i++) {
      const n = feasible[i]!.node.metadata.name ?? '';
      const total = totals[i]!;
      if (total > best) {
        best = total;
        selected = n;
        ties = 1;
      } else if (total === best) {
        ties++;
        if (this.host.rng.int(ties) === 0) selected = n;
      }
    }
    const nodes = records.map((r, j) => (r.feasible ? { ...r, scores: scoreRecords[feasibleIndex[j]!]!, finalScore: totals[feasibleIndex[j]!]! } : r));
    const record: AttemptRecord = { pod: key, uid: pod.metadata.uid ?? '', attempt: q.attempts, time: this.host.now, nodes, selected, message: '', bound: false };
    this.recordAttempt(record);

    // assume, then bind (DefaultBinder).
    this.assumed.set(key, { ...pod, spec: { ...pod.spec, nodeName: selected } });
    const binding: Binding = {
      apiVersion: 'v1', kind: 'Binding',
      metadata: { name: pod.metadata.name ?? '', namespace: pod.metadata.namespace ?? 'default', uid: pod.metadata.uid ?? '' },
      target: { kind: 'Node', name: selected },
    };
    try {
      yield* this.podsApi.create(pod.metadata.namespace, binding as unknown as Pod, { subresource: 'binding' });
    } catch (err) {
      if (!isStatusError(err)) throw err;
      this.assumed.delete(key);
      const failed = { ...record, message: err.message };
      this.replaceAttempt(record, failed);
      yield* this.handleFailure(key, pod, q, err.message, false);
      return;
    }
    this.replaceAttempt(record, { ...record, bound: true });
    this.queue.delete(key);
    this.recorder.event(pod, 'Normal', 'Scheduled', `Successfully assigned ${pod.metadata.namespace ?? 'default'}/${pod.metadata.name ?? ''} to ${selected}`);
  }

  private recordAttempt(record: AttemptRecord): void {
    this.attempts.push(record);
    if (this.attempts.length > this.attemptLimit) {
      this.attempts.splice(0, Math.max(this.attempts.length - this.attemptLimit, Math.ceil(this.attemptLimit / 4)));
    }
  }

  /** Replaces a record still kept (searching from the newest: it is usually the last). */
  private replaceAttempt(record: AttemptRecord, next: AttemptRecord): void {
    const i = this.attempts.lastIndexOf(record);
    if (i >= 0) this.attempts[i] = next;
  }

  // Models schedule_one.go handleSchedulingFailure and scheduling_queue.go AddUnschedulableIfNotPresent.
  private *handleFailure(key: string, pod: Pod, q: QueuedPod, message: string, unschedulable = true): Co<void> {
    const backoff: Duration = Math.min(queueDurations.initialBackoff * 2 ** (q.attempts - 1), queueDurations.maxBackoff);
    q.backoffUntil = this.host.now + backoff;
    q.state = 'unschedulable';
    const attempts = q.attempts;
    this.host.after(queueDurations.unschedulableFlush, 'scheduler-flush-unschedulable', () => {
      if (this.queue.get(key) === q && q.state === 'unschedulable' && q.attempts === attempts) this.requeue(key, q);
    }, { background: true });
    if (!unschedulable) this.requeue(key, q);
    this.recorder.event(pod, 'Warning', 'FailedScheduling', message);
    const condition = {
      type: 'PodScheduled', status: 'False', lastProbeTime: null,
      lastTransitionTime: formatTimestamp(this.host.epochMs + this.host.now),
      reason: 'Unschedulable', message,
    };
    const current = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
    if (current && current.status === 'False' && current.reason === 'Unschedulable' && current.message === message) return;
    try {
      yield* this.podsApi.patch(pod.metadata.namespace, pod.metadata.name ?? '', 'application/strategic-merge-patch+json',
        { status: { conditions: [condition] } }, { subresource: 'status' });
    } catch (err) {
      if (!isStatusError(err)) throw err;
    }
  }
}

// The node lifecycle controller: every 5 s (--node-monitor-period) it checks each Node's health from its
// Ready condition's heartbeat and its Lease in kube-node-lease; a node not heard from for 40 s
// (--node-monitor-grace-period) gets its conditions set to Unknown ("Kubelet stopped posting node
// status."), its pods marked not Ready, and the taints that make the scheduler avoid it (NoSchedule) and
// the taint manager evict its pods (NoExecute). When the kubelet reports Ready again the taints go.
// Models k8s pkg/controller/nodelifecycle/node_lifecycle_controller.go (1.28: monitorNodeHealth,
// tryUpdateNodeHealth, processTaintBaseEviction, doNoScheduleTaintingPass, doNoExecuteTaintingPass,
// markNodeAsReachable, the taint templates and condition→taint map), pkg/controller/util/node/
// controller_utils.go (MarkPodsNotReady, RecordNodeStatusChange, RecordNodeEvent, SwapNodeControllerTaint)
// and pkg/controller/controller_utils.go (AddOrUpdateTaintOnNode, RemoveTaintOffNode, PatchNodeTaints).
//
// Deviations: the NoExecute tainter's per-zone rate limit (0.1 node/s) and its 100 ms pass are collapsed:
// a node queued for tainting is tainted in the same monitor pass; zone disruption states (partial and
// full disruption) are not modelled; nodeStartupGracePeriod (60 s) applies only to a node without a
// Ready condition, which kubelets here never register.

import { isStatusError } from '../../api/errors.ts';
import { formatTimestamp } from '../../api/time.ts';
import type { Node, NodeCondition, Pod, Taint } from '../../api/types/core.ts';
import type { Lease } from '../../api/types/coordination.ts';
import { DeletedFinalStateUnknown, podType, RateLimitingQueue, runWorkers, syncOrRequeue, typed, type EventRecorder, type Typed, type ResourceClient, type SharedIndexInformer } from '../../client/index.ts';
import { second, type Co, type Duration } from '../../engine/index.ts';
import { deepCopy } from '../controller-utils.ts';
import type { ControllerContext } from '../kube-controller-manager.ts';
import { NoExecuteTaintManager } from './taint-manager.ts';

export const nodeLifecycleControllerName = 'node-controller';

/** --node-monitor-period and --node-monitor-grace-period (1.28 defaults). */
export const nodeMonitorPeriod: Duration = 5 * second;
export const nodeMonitorGracePeriod: Duration = 40 * second;
/** --node-startup-grace-period. */
export const nodeStartupGracePeriod: Duration = 60 * second;

export const taintKeys = {
  notReady: 'node.kubernetes.io/not-ready',
  unreachable: 'node.kubernetes.io/unreachable',
  unschedulable: 'node.kubernetes.io/unschedulable',
  memoryPressure: 'node.kubernetes.io/memory-pressure',
  diskPressure: 'node.kubernetes.io/disk-pressure',
  pidPressure: 'node.kubernetes.io/pid-pressure',
  networkUnavailable: 'node.kubernetes.io/network-unavailable',
} as const;

const unreachableTaintTemplate: Taint = { key: taintKeys.unreachable, effect: 'NoExecute' };
const notReadyTaintTemplate: Taint = { key: taintKeys.notReady, effect: 'NoExecute' };

/** nodeConditionToTaintKeyStatusMap: the NoSchedule taint each condition status stands for. */
const conditionToTaintKey: Record<string, Partial<Record<string, string>>> = {
  Ready: { False: taintKeys.notReady, Unknown: taintKeys.unreachable },
  MemoryPressure: { True: taintKeys.memoryPressure },
  DiskPressure: { True: taintKeys.diskPressure },
  NetworkUnavailable: { True: taintKeys.networkUnavailable },
  PIDPressure: { True: taintKeys.pidPressure },
};
const conditionTaintKeys = new Set(Object.values(conditionToTaintKey).flatMap((m) => Object.values(m)));

interface NodeHealth {
  /** Virtual time of the last sign of life (a new heartbeat or lease renewal). */
  probeTimestamp: number;
  readyTransitionTimestamp: number;
  /** The Ready condition as last seen. */
  ready: NodeCondition | undefined;
  leaseRenewTime: string | undefined;
}

const matchTaint = (a: Taint, b: Taint) => a.key === b.key && a.effect === b.effect;

export class NodeLifecycleController {
  readonly nodeInformer: SharedIndexInformer<Node>;
  readonly leaseInformer: SharedIndexInformer<Lease>;
  readonly podInformer: SharedIndexInformer<Pod>;
  readonly taintManager: NoExecuteTaintManager;
  readonly recorder: EventRecorder;
  private readonly nodeUpdateQueue: RateLimitingQueue;
  private readonly nodes: ResourceClient<Node>;
  private readonly pods: ResourceClient<Pod>;
  private readonly health = new Map<string, NodeHealth>();
  private readonly knownNodes = new Set<string>();
  private readonly nodesToRetry = new Set<string>();

  /** The queue of nodes to taint or untaint (read-only use: the UI shows its depth). */
  get updateQueue(): RateLimitingQueue {
    return this.nodeUpdateQueue;
  }

  constructor(private readonly ctx: ControllerContext) {
    this.recorder = ctx.broadcaster.newRecorder({ component: nodeLifecycleControllerName });
    this.nodeInformer = ctx.informers.informerFor<Node>('nodes');
    this.leaseInformer = ctx.informers.informerFor<Lease>('leases', 'coordination.k8s.io');
    this.podInformer = ctx.informers.informerFor<Pod>('pods');
    this.nodes = ctx.client.resource<Node>('nodes');
    this.pods = ctx.client.resource<Pod>('pods');
    this.nodeUpdateQueue = new RateLimitingQueue(ctx.host, 'node_lifecycle_controller');
    const taintRecorder = ctx.broadcaster.newRecorder({ component: 'taint-controller' });
    this.taintManager = new NoExecuteTaintManager(ctx.host, this.pods, this.podInformer, this.nodeInformer, taintRecorder);
    this.nodeInformer.addEventHandler({
      onAdd: (node) => {
        this.nodeUpdateQueue.add(node.metadata.name ?? '');
        this.taintManager.nodeUpdated(null, node);
      },
      onUpdate: (old, node) => {
        this.nodeUpdateQueue.add(node.metadata.name ?? '');
        this.taintManager.nodeUpdated(old, node);
      },
      onDelete: (obj) => this.taintManager.nodeUpdated(obj instanceof DeletedFinalStateUnknown ? obj.obj : obj, null),
    });
    this.podInformer.addEventHandler({
      onAdd: (pod) => this.taintManager.podUpdated(null, pod),
      onUpdate: (old, pod) => this.taintManager.podUpdated(old, pod),
      onDelete: (obj) => this.taintManager.podUpdated(obj instanceof DeletedFinalStateUnknown ? obj.obj : obj, null),
    });
  }

  /** Starts the NoSchedule tainting workers and the monitor loop (first pass at once, then every 5 s). */
  run(workers: number): void {
    runWorkers(this.ctx.host, this.nodeUpdateQueue, workers, (name) => syncOrRequeue(this.nodeUpdateQueue, name, (n) => this.doNoScheduleTaintingPass(n)));
    this.ctx.host.spawn(this.monitorLoop());
  }

  private *monitorLoop(): Co<void> {
    yield* this.monitorNodeHealth();
    this.ctx.host.after(nodeMonitorPeriod, 'node-monitor', () => this.ctx.host.spawn(this.monitorLoop()), { background: true });
  }

  private now(): string {
    return formatTimestamp(this.ctx.host.epochMs + this.ctx.host.now);
  }

  /** The NoSchedule taints that the node's conditions (and spec.unschedulable) call for. */
  private *doNoScheduleTaintingPass(name: string): Co<void> {
    const node = this.nodeInformer.get('', name);
    if (!node) return;
    const wanted: Taint[] = [];
    for (const c of node.status?.conditions ?? []) {
      const key = conditionToTaintKey[c.type]?.[c.status];
      if (key) wanted.push({ key, effect: 'NoSchedule' });
    }
    if (node.spec?.unschedulable) wanted.push({ key: taintKeys.unschedulable, effect: 'NoSchedule' });
    const current = (node.spec?.taints ?? []).filter((t) => t.effect === 'NoSchedule' && conditionTaintKeys.has(t.key) || t.key === taintKeys.unschedulable && t.effect === 'NoSchedule');
    const toAdd = wanted.filter((w) => !current.some((c) => matchTaint(c, w)));
    const toDel = current.filter((c) => !wanted.some((w) => matchTaint(c, w)));
    if (toAdd.length === 0 && toDel.length === 0) return;
    yield* this.swapNodeControllerTaint(toAdd, toDel, node);
  }

  // Models monitorNodeHealth: classify nodes, then each node's health, taints and pods.
  private *monitorNodeHealth(): Co<void> {
    const nodes = this.nodeInformer.list();
    const names = new Set(nodes.map((n) => n.metadata.name ?? ''));
    for (const node of nodes) {
      const name = node.metadata.name ?? '';
      if (this.knownNodes.has(name)) continue;
      this.recorder.event(nodeRef(node), 'Normal', 'RegisteredNode', `Registered Node ${name} in Controller`);
      this.knownNodes.add(name);
    }
    for (const name of [...this.knownNodes]) {
      if (names.has(name)) continue;
      this.recorder.event(nodeRef({ metadata: { name } } as Node), 'Normal', 'RemovingNode', `Removing Node ${name} from Controller`);
      this.knownNodes.delete(name);
      this.health.delete(name);
    }
    yield* this.ctx.all('monitorNodeHealth', nodes.map((node) => this.updateNode(deepCopy(node))));
  }

  private *updateNode(node: Node): Co<void> {
    const name = node.metadata.name ?? '';
    let result: { observed: NodeCondition; current: NodeCondition | undefined };
    try {
      result = yield* this.tryUpdateNodeHealth(node);
    } catch (err) {
      if (!isStatusError(err)) throw err;
      return;
    }
    const { observed, current } = result;
    if (!current) return;
    const latest = this.nodeInformer.get('', name) ?? node;
    yield* this.processTaintBaseEviction(latest, observed);
    const needsRetry = this.nodesToRetry.has(name);
    if (current.status !== 'True' && observed.status === 'True') {
      this.recorder.event(nodeRef(node), 'Normal', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
    }
    if ((current.status !== 'True' && observed.status === 'True') || (needsRetry && observed.status !== 'True')) {
      const ok = yield* this.markPodsNotReady(name);
      if (!ok) {
        this.nodesToRetry.add(name);
        return;
      }
    }
    this.nodesToRetry.delete(name);
  }

  /** tryUpdateNodeHealth: returns the Ready condition observed before and after this pass. */
  private *tryUpdateNodeHealth(node: Node): Co<{ observed: NodeCondition; current: NodeCondition | undefined }> {
    const name = node.metadata.name ?? '';
    const now = this.ctx.host.now;
    let health = this.health.get(name);
    const conditions = node.status?.conditions ?? [];
    let current = conditions.find((c) => c.type === 'Ready');
    let gracePeriod = nodeMonitorGracePeriod;
    let observed: NodeCondition;
    if (!current) {
      observed = { type: 'Ready', status: 'Unknown', lastHeartbeatTime: node.metadata.creationTimestamp ?? null, lastTransitionTime: node.metadata.creationTimestamp ?? null };
      gracePeriod = nodeStartupGracePeriod;
    } else {
      observed = { ...current };
    }
    const saved = health?.ready;
    if (!health || (!saved && current) || (saved && !current)) {
      health = { probeTimestamp: now, readyTransitionTimestamp: now, ready: current && { ...current }, leaseRenewTime: health?.leaseRenewTime };
    } else if (saved && current && saved.lastHeartbeatTime !== current.lastHeartbeatTime) {
      const transition = saved.lastTransitionTime !== current.lastTransitionTime ? now : health.readyTransitionTimestamp;
      health = { probeTimestamp: now, readyTransitionTimestamp: transition, ready: { ...current }, leaseRenewTime: health.leaseRenewTime };
    }
    const lease = this.leaseInformer.get('kube-node-lease', name);
    const renewTime = lease?.spec?.renewTime ?? undefined;
    if (renewTime && (health.leaseRenewTime === undefined || health.leaseRenewTime < renewTime)) {
      health.leaseRenewTime = renewTime;
      health.probeTimestamp = now;
    }
    this.health.set(name, health);
    if (now > health.probeTimestamp + gracePeriod) {
      const t = this.now();
      const status = node.status ?? (node.status = {});
      status.conditions = status.conditions ?? [];
      for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
        const c = status.conditions.find((x) => x.type === type);
        if (!c) {
          status.conditions.push({
            type, status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.',
            lastHeartbeatTime: node.metadata.creationTimestamp ?? null, lastTransitionTime: t,
          });
        } else if (c.status !== 'Unknown') {
          c.status = 'Unknown';
          c.reason = 'NodeStatusUnknown';
          c.message = 'Kubelet stopped posting node status.';
          c.lastTransitionTime = t;
        }
      }
      current = status.conditions.find((x) => x.type === 'Ready');
      if (JSON.stringify(current) !== JSON.stringify(observed)) {
        yield* this.nodes.update({ apiVersion: 'v1', kind: 'Node', ...node }, { subresource: 'status' });
        this.health.set(name, { probeTimestamp: health.probeTimestamp, readyTransitionTimestamp: now, ready: current && { ...current }, leaseRenewTime: renewTime });
      }
    }
    return { observed, current };
  }

  private *processTaintBaseEviction(node: Node, observed: NodeCondition): Co<void> {
    const taints = node.spec?.taints ?? [];
    const has = (t: Taint) => taints.some((x) => matchTaint(x, t));
    if (observed.status === 'False' || observed.status === 'Unknown') {
      const [add, opposite] = observed.status === 'False' ? [notReadyTaintTemplate, unreachableTaintTemplate] : [unreachableTaintTemplate, notReadyTaintTemplate];
      if (has(add)) return;
      yield* this.swapNodeControllerTaint([{ ...add }], [opposite], node);
    } else if (observed.status === 'True') {
      // markNodeAsReachable
      yield* this.removeTaintOffNode(node, [unreachableTaintTemplate]);
      yield* this.removeTaintOffNode(node, [notReadyTaintTemplate]);
    }
  }

  /** SwapNodeControllerTaint: taints to add get timeAdded now; added first, then the others removed. */
  private *swapNodeControllerTaint(toAdd: Taint[], toRemove: Taint[], node: Node): Co<void> {
    const t = this.now();
    yield* this.addOrUpdateTaintOnNode(node.metadata.name ?? '', toAdd.map((x) => ({ ...x, timeAdded: t })));
    yield* this.removeTaintOffNode(node, toRemove);
  }

  /** AddOrUpdateTaintOnNode: GET (first with resourceVersion=0), then PatchNodeTaints; retried on conflict. */
  private *addOrUpdateTaintOnNode(name: string, taints: readonly Taint[]): Co<void> {
    if (taints.length === 0) return;
    yield* this.patchTaints(name, (current) => {
      let next = [...current];
      let updated = false;
      for (const taint of taints) {
        const i = next.findIndex((x) => matchTaint(x, taint));
        if (i >= 0) {
          if (JSON.stringify(next[i]) === JSON.stringify(taint)) continue;
          next = next.filter((_, j) => j !== i).concat([taint]);
        } else {
          next = next.concat([taint]);
        }
        updated = true;
      }
      return updated ? next : null;
    });
  }

  /** RemoveTaintOffNode: nothing to do (no request) when the node in hand has none of them. */
  private *removeTaintOffNode(node: Node, taints: readonly Taint[]): Co<void> {
    if (taints.length === 0 || !(node.spec?.taints ?? []).some((x) => taints.some((t) => matchTaint(x, t)))) return;
    yield* this.patchTaints(node.metadata.name ?? '', (current) => {
      const next = current.filter((x) => !taints.some((t) => matchTaint(x, t)));
      return next.length === current.length ? null : next;
    });
  }

  /** PatchNodeTaints: a two-way strategic merge patch of spec.taints carrying the read resourceVersion. */
  private *patchTaints(name: string, change: (current: Taint[]) => Taint[] | null): Co<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const node = yield* this.nodes.get(undefined, name, attempt === 0 ? { resourceVersion: '0' } : {});
      const next = change(node.spec?.taints ?? []);
      if (next === null) return;
      try {
        yield* this.nodes.patch(undefined, name, 'application/strategic-merge-patch+json', {
          metadata: { resourceVersion: node.metadata.resourceVersion ?? '' },
          spec: { taints: next.length > 0 ? next : null },
        });
        return;
      } catch (err) {
        if (!isStatusError(err) || err.code !== 409) throw err;
        yield* this.ctx.host.sleep(50, { reason: 'conflict-retry' });
      }
    }
  }

  /** MarkPodsNotReady: each pod of the node gets Ready=False by a status update, and a NodeNotReady event. */
  private *markPodsNotReady(nodeName: string): Co<boolean> {
    let ok = true;
    for (const cached of this.podInformer.list().filter((p) => p.spec.nodeName === nodeName)) {
      const pod = deepCopy(cached);
      const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
      if (!ready || ready.status === 'False') continue;
      ready.status = 'False';
      ready.lastTransitionTime = this.now();
      try {
        yield* this.pods.update({ apiVersion: 'v1', kind: 'Pod', ...pod }, { subresource: 'status' });
      } catch (err) {
        if (!isStatusError(err)) throw err;
        if (err.code === 404) continue;
        ok = false;
      }
      this.recorder.event(typed(pod, podType), 'Warning', 'NodeNotReady', 'Node is not ready');
    }
    return ok;
  }
}

/** RecordNodeEvent's reference: the node by name and uid, cluster-scoped. */
function nodeRef(node: Node): Typed<Node> {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name: node.metadata.name ?? '', uid: node.metadata.uid ?? '' } };
}

// The NoExecute taint manager: evicts the pods of a node with NoExecute taints once their tolerations
// run out (at once for a pod that does not tolerate them all; after the smallest tolerationSeconds —
// 300 s from the DefaultTolerationSeconds admission plugin — otherwise), and cancels a scheduled
// eviction when the taints go away.
// Models k8s pkg/controller/nodelifecycle/scheduler/taint_manager.go (1.28: NodeUpdated, PodUpdated,
// handleNodeUpdate, handlePodUpdate, processPodOnNode, getMinTolerationTime, deletePodHandler,
// addConditionAndDeletePod, the TaintManagerEviction events) and timed_workers.go (one timer per pod).
//
// Deviations: node and pod updates are handled in the informer delivery (upstream hashes them onto 8
// worker queues); the DisruptionTarget condition is written with a strategic merge patch of the
// status (upstream uses server-side apply, which this apiserver does not model).

import type { Node, Pod, Taint, Toleration } from '../../api/types/core.ts';
import { formatTimestamp } from '../../api/time.ts';
import { isStatusError } from '../../api/errors.ts';
import type { ClientHost, EventRecorder, ResourceClient, SharedIndexInformer, TimerHandle, Typed } from '../../client/index.ts';
import { second, type Co } from '../../engine/index.ts';
import { tolerates } from '../../scheduler/index.ts';

export const taintManagerFieldManager = 'TaintManager';

export function noExecuteTaints(taints: readonly Taint[] | undefined): Taint[] {
  return (taints ?? []).filter((t) => t.effect === 'NoExecute');
}

/** getMinTolerationTime in ms: 0 without tolerations or with one ≤ 0 s, -1 when every one tolerates forever. */
export function minTolerationTime(tolerations: readonly Toleration[]): number {
  if (tolerations.length === 0) return 0;
  let min = Number.POSITIVE_INFINITY;
  for (const t of tolerations) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    if (t.tolerationSeconds <= 0) return 0;
    min = Math.min(min, t.tolerationSeconds);
  }
  return min === Number.POSITIVE_INFINITY ? -1 : min * second;
}

/** GetMatchingTolerations: whether every taint is tolerated, and the tolerations that matched. */
function matchingTolerations(taints: readonly Taint[], tolerations: readonly Toleration[]): { all: boolean; used: Toleration[] } {
  const used: Toleration[] = [];
  for (const taint of taints) {
    const t = tolerations.find((tol) => tolerates(tol, taint));
    if (!t) return { all: false, used: [] };
    used.push(t);
  }
  return { all: true, used };
}

interface ScheduledEviction {
  readonly createdAt: number;
  readonly timer: TimerHandle;
}

export class NoExecuteTaintManager {
  private readonly taintedNodes = new Map<string, Taint[]>();
  private readonly evictions = new Map<string, ScheduledEviction>();

  constructor(
    private readonly host: ClientHost,
    private readonly pods: ResourceClient<Pod>,
    private readonly podInformer: SharedIndexInformer<Pod>,
    private readonly nodeInformer: SharedIndexInformer<Node>,
    private readonly recorder: EventRecorder,
  ) {}

  /** Eviction times scheduled, by `namespace/name`, for tests and the UI. */
  scheduled(): Map<string, number> {
    return new Map([...this.evictions].map(([k, v]) => [k, v.createdAt]));
  }

  nodeUpdated(oldNode: Node | null, node: Node | null): void {
    const name = node?.metadata.name ?? oldNode?.metadata.name ?? '';
    if (oldNode && node && JSON.stringify(noExecuteTaints(oldNode.spec?.taints)) === JSON.stringify(noExecuteTaints(node.spec?.taints))) return;
    this.handleNodeUpdate(name);
  }

  podUpdated(oldPod: Pod | null, pod: Pod | null): void {
    const p = pod ?? oldPod!;
    if (oldPod && pod && JSON.stringify(oldPod.spec.tolerations ?? []) === JSON.stringify(pod.spec.tolerations ?? [])
      && oldPod.spec.nodeName === pod.spec.nodeName) return;
    this.handlePodUpdate(p.metadata.namespace ?? '', p.metadata.name ?? '', p.spec.nodeName ?? '');
  }

  private podsOnNode(node: string): Pod[] {
    return this.podInformer.list().filter((p) => p.spec.nodeName === node);
  }

  private handleNodeUpdate(nodeName: string): void {
    const node = this.nodeInformer.get('', nodeName);
    if (!node) {
      this.taintedNodes.delete(nodeName);
      return;
    }
    const taints = noExecuteTaints(node.spec?.taints);
    if (taints.length === 0) this.taintedNodes.delete(nodeName);
    else this.taintedNodes.set(nodeName, taints);
    const pods = this.podsOnNode(nodeName);
    if (taints.length === 0) {
      for (const pod of pods) this.cancelWorkWithEvent(pod.metadata.namespace ?? '', pod.metadata.name ?? '');
      return;
    }
    for (const pod of pods) this.processPodOnNode(pod, taints);
  }

  private handlePodUpdate(namespace: string, name: string, nodeName: string): void {
    const pod = this.podInformer.get(namespace, name);
    if (!pod) {
      this.cancelWorkWithEvent(namespace, name);
      return;
    }
    if ((pod.spec.nodeName ?? '') !== nodeName || nodeName === '') return;
    const taints = this.taintedNodes.get(nodeName);
    if (!taints) return;
    this.processPodOnNode(pod, taints);
  }

  private processPodOnNode(pod: Pod, taints: readonly Taint[]): void {
    const namespace = pod.metadata.namespace ?? '';
    const name = pod.metadata.name ?? '';
    const key = `${namespace}/${name}`;
    if (taints.length === 0) this.cancelWorkWithEvent(namespace, name);
    const { all, used } = matchingTolerations(taints, pod.spec.tolerations ?? []);
    const now = this.host.now;
    if (!all) {
      this.cancelWorkWithEvent(namespace, name);
      this.addWork(namespace, name, now, now);
      return;
    }
    const min = minTolerationTime(used);
    if (min < 0) {
      this.cancelWorkWithEvent(namespace, name);
      return;
    }
    let startTime = now;
    const triggerTime = startTime + min;
    const scheduled = this.evictions.get(key);
    if (scheduled) {
      startTime = scheduled.createdAt;
      if (startTime + min < triggerTime) return;
      this.cancelWorkWithEvent(namespace, name);
    }
    this.addWork(namespace, name, startTime, startTime + min);
  }

  private addWork(namespace: string, name: string, createdAt: number, fireAt: number): void {
    const key = `${namespace}/${name}`;
    if (this.evictions.has(key)) return;
    const timer = this.host.after(Math.max(0, fireAt - this.host.now), 'taint-eviction', () => {
      this.evictions.delete(key);
      this.host.spawn(this.deletePod(namespace, name));
    });
    this.evictions.set(key, { createdAt, timer });
  }

  private cancelWorkWithEvent(namespace: string, name: string): void {
    const key = `${namespace}/${name}`;
    const scheduled = this.evictions.get(key);
    if (!scheduled) return;
    scheduled.timer.cancel();
    this.evictions.delete(key);
    this.recorder.event(podRef(namespace, name), 'Normal', 'TaintManagerEviction', `Cancelling deletion of Pod ${key}`);
  }

  // deletePodHandler and addConditionAndDeletePod (retried 5 times, 10 ms apart).
  private *deletePod(namespace: string, name: string): Co<void> {
    this.recorder.event(podRef(namespace, name), 'Normal', 'TaintManagerEviction', `Marking for deletion Pod ${namespace}/${name}`);
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        yield* this.pods.get(namespace, name);
        yield* this.pods.patch(namespace, name, 'application/strategic-merge-patch+json', {
          status: {
            conditions: [{
              type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager',
              message: 'Taint manager: deleting due to NoExecute taint', lastTransitionTime: formatTimestamp(this.host.epochMs + this.host.now),
            }],
          },
        }, { subresource: 'status', fieldManager: taintManagerFieldManager });
        yield* this.pods.delete(namespace, name, {});
        return;
      } catch (err) {
        if (!isStatusError(err)) throw err;
        yield* this.host.sleep(10, { reason: 'eviction-retry', pod: `${namespace}/${name}` });
      }
    }
  }
}

/** The event reference of a pod known only by its name (upstream's ObjectReference{Kind: Pod, Name, Namespace}). */
function podRef(namespace: string, name: string): Typed<Pod> {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace }, spec: { containers: [] } };
}

// What the framework hands its plugins about a node: the Node and its pods as the scheduler cache sees
// them (assigned by the informer, or assumed by this scheduler), with the requests summed; and the pod's
// own requests, as the resource plugins read them.
// Models pkg/scheduler/framework/types.go (NodeInfo: Node, Pods, Requested, NonZeroRequested),
// pkg/api/v1/resource/helpers.go (PodRequests) and pkg/scheduler/util/pod_resources.go (non-zero defaults).

import { parseQuantity, quantityMilliValue, quantityValue } from '../../api/quantity.ts';
import type { Node, Pod } from '../../api/types/core.ts';

export type Resources = Readonly<{ cpu: number; memory: number }>;

export interface NodeInfo {
  readonly node: Node;
  readonly pods: readonly Pod[];
  /**
   * What the scheduler cache keeps per node (framework.NodeInfo's Requested, NonZeroRequested and the
   * length of Pods); summed from `pods` when absent.
   */
  readonly podCount?: number;
  readonly requested?: Resources;
  readonly nonZeroRequested?: Resources;
}

/** The highest score a Score plugin gives a node after NormalizeScore (framework.MaxNodeScore). */
export const maxNodeScore = 100;

/** Each quantity text's value (milli, then whole), computed once: a cluster has few distinct texts. */
const quantityOfText = [new Map<string, number>(), new Map<string, number>()] as const;
const quantityTexts = 1024;

function quantity(text: string | undefined, milli: boolean): number {
  if (text === undefined) return 0;
  const memo = quantityOfText[milli ? 0 : 1];
  let value = memo.get(text);
  if (value === undefined) {
    const q = parseQuantity(text);
    value = q.ok ? Number(milli ? quantityMilliValue(q.value) : quantityValue(q.value)) : 0;
    if (memo.size >= quantityTexts) memo.clear();
    memo.set(text, value);
  }
  return value;
}

/**
 * Requests of frozen pod specs (the informer's, shared with the watch cache) and allocatable of frozen
 * allocatable lists, computed once: the scheduler sums them over every node's pods in every cycle. A
 * node's heartbeats write new statuses whose unchanged allocatable list the watch cache shares.
 */
const requestsOfFrozenSpec = [new WeakMap<Pod['spec'], Resources>(), new WeakMap<Pod['spec'], Resources>()] as const;
const allocatableOfFrozenList = new WeakMap<object, Readonly<{ cpu: number; memory: number; pods: number }>>();

/** Pod requests: max(sum of containers, any init container) + overhead (resource_helpers PodRequests). */
export function podRequests(pod: Pod, nonZero = false): Resources {
  if (!Object.isFrozen(pod.spec)) return computePodRequests(pod, nonZero);
  const memo = requestsOfFrozenSpec[nonZero ? 1 : 0];
  let r = memo.get(pod.spec);
  if (r === undefined) memo.set(pod.spec, (r = Object.freeze(computePodRequests(pod, nonZero))));
  return r;
}

function computePodRequests(pod: Pod, nonZero: boolean): { cpu: number; memory: number } {
  let cpu = 0;
  let memory = 0;
  for (const c of pod.spec.containers) {
    const r = c.resources?.requests ?? {};
    const cc = quantity(r['cpu'], true);
    const mm = quantity(r['memory'], false);
    // Models pkg/scheduler/util/pod_resources.go: 100m / 200Mi for containers without requests (scoring only).
    cpu += nonZero && r['cpu'] === undefined ? 100 : cc;
    memory += nonZero && r['memory'] === undefined ? 200 * 1024 * 1024 : mm;
  }
  for (const c of pod.spec.initContainers ?? []) {
    const r = c.resources?.requests ?? {};
    cpu = Math.max(cpu, quantity(r['cpu'], true));
    memory = Math.max(memory, quantity(r['memory'], false));
  }
  return { cpu, memory };
}

/** The node's allocatable cpu (millicores), memory (bytes) and pod count. */
export function allocatable(node: Node): Readonly<{ cpu: number; memory: number; pods: number }> {
  const list = node.status?.allocatable;
  if (list === undefined || !Object.isFrozen(list)) return computeAllocatable(node);
  let a = allocatableOfFrozenList.get(list);
  if (a === undefined) allocatableOfFrozenList.set(list, (a = Object.freeze(computeAllocatable(node))));
  return a;
}

function computeAllocatable(node: Node): { cpu: number; memory: number; pods: number } {
  const a = node.status?.allocatable ?? {};
  return { cpu: quantity(a['cpu'], true), memory: quantity(a['memory'], false), pods: quantity(a['pods'], false) };
}

/** NodeInfo.Requested (or NonZeroRequested): the cache's sums, or the node's pods summed. */
export function requested(info: NodeInfo, nonZero: boolean): Resources {
  return (nonZero ? info.nonZeroRequested : info.requested) ?? sumRequests(info.pods, nonZero);
}

/** The pods' requests added up in order (framework.NodeInfo.Requested, or NonZeroRequested). */
export function sumRequests(pods: Iterable<Pod>, nonZero: boolean, start: Resources = { cpu: 0, memory: 0 }): Resources {
  let { cpu, memory } = start;
  for (const p of pods) {
    const r = podRequests(p, nonZero);
    cpu += r.cpu;
    memory += r.memory;
  }
  return { cpu, memory };
}

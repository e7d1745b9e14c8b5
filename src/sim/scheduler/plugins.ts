// The default filter and score plugins of kube-scheduler 1.28 (weights from
// pkg/scheduler/apis/config/v1/default_plugins.go). Each plugin models its upstream file:
// framework/plugins/{nodeunschedulable,nodename,tainttoleration,nodeaffinity,nodeports,noderesources,
// imagelocality,podtopologyspread}.

import { parseQuantity, quantityMilliValue, quantityValue } from '../api/quantity.ts';
import type { Node, NodeSelectorRequirement, NodeSelectorTerm, Pod, Taint, Toleration } from '../api/types/core.ts';
import { labelSelectorAsSelector, matchesLabels } from '../api/labels.ts';

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

export interface FilterResult {
  readonly reasons: readonly string[];
  /** UnschedulableAndUnresolvable: preemption cannot help. */
  readonly unresolvable: boolean;
}

export interface FilterPlugin {
  readonly name: string;
  filter(pod: Pod, info: NodeInfo): FilterResult;
}

export interface ScorePlugin {
  readonly name: string;
  readonly weight: number;
  /** Raw scores of `feasible` in order; null when the plugin skips this pod (PreScore Skip). */
  score(pod: Pod, feasible: readonly NodeInfo[], all: readonly NodeInfo[]): number[] | null;
  normalize?(raw: readonly number[]): number[];
}

const pass: FilterResult = { reasons: [], unresolvable: false };
const maxNodeScore = 100;

function quantity(text: string | undefined, milli: boolean): number {
  if (text === undefined) return 0;
  const q = parseQuantity(text);
  if (!q.ok) return 0;
  return Number(milli ? quantityMilliValue(q.value) : quantityValue(q.value));
}

export type Resources = Readonly<{ cpu: number; memory: number }>;

/**
 * Requests of frozen pod specs (the informer's, shared with the watch cache) and allocatable of frozen
 * node statuses, computed once: the scheduler sums them over every node's pods in every cycle.
 */
const requestsOfFrozenSpec = [new WeakMap<Pod['spec'], Resources>(), new WeakMap<Pod['spec'], Resources>()] as const;
const allocatableOfFrozenStatus = new WeakMap<object, Readonly<{ cpu: number; memory: number; pods: number }>>();

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

function allocatable(node: Node): Readonly<{ cpu: number; memory: number; pods: number }> {
  const status = node.status;
  if (status === undefined || !Object.isFrozen(status)) return computeAllocatable(node);
  let a = allocatableOfFrozenStatus.get(status);
  if (a === undefined) allocatableOfFrozenStatus.set(status, (a = Object.freeze(computeAllocatable(node))));
  return a;
}

function computeAllocatable(node: Node): { cpu: number; memory: number; pods: number } {
  const a = node.status?.allocatable ?? {};
  return { cpu: quantity(a['cpu'], true), memory: quantity(a['memory'], false), pods: quantity(a['pods'], false) };
}

function requested(info: NodeInfo, nonZero: boolean): Resources {
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

export function tolerates(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.operator === 'Exists') return !t.key || t.key === taint.key;
  return (t.key ?? '') === taint.key && (t.value ?? '') === (taint.value ?? '');
}

function matchRequirement(req: NodeSelectorRequirement, value: string | undefined): boolean {
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In': return value !== undefined && values.includes(value);
    case 'NotIn': return value === undefined || !values.includes(value);
    case 'Exists': return value !== undefined;
    case 'DoesNotExist': return value === undefined;
    case 'Gt': return value !== undefined && Number(value) > Number(values[0]);
    case 'Lt': return value !== undefined && Number(value) < Number(values[0]);
    default: return false;
  }
}

function matchTerm(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  return exprs.every((r) => matchRequirement(r, labels[r.key]))
    && fields.every((r) => matchRequirement(r, r.key === 'metadata.name' ? node.metadata.name : undefined));
}

// Models framework/plugins/nodeunschedulable/node_unschedulable.go.
const nodeUnschedulable: FilterPlugin = {
  name: 'NodeUnschedulable',
  filter(pod, { node }) {
    if (!node.spec?.unschedulable) return pass;
    const tolerated = (pod.spec.tolerations ?? []).some((t) => tolerates(t, { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }));
    return tolerated ? pass : { reasons: ['node(s) were unschedulable'], unresolvable: true };
  },
};

// Models framework/plugins/nodename/node_name.go.
const nodeName: FilterPlugin = {
  name: 'NodeName',
  filter(pod, { node }) {
    return !pod.spec.nodeName || pod.spec.nodeName === node.metadata.name ? pass
      : { reasons: ["node(s) didn't match the requested node name"], unresolvable: true };
  },
};

// Models framework/plugins/tainttoleration/taint_toleration.go (Filter: NoSchedule and NoExecute).
const taintTolerationFilter: FilterPlugin = {
  name: 'TaintToleration',
  filter(pod, { node }) {
    const taint = (node.spec?.taints ?? []).find((t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute')
      && !(pod.spec.tolerations ?? []).some((tol) => tolerates(tol, t)));
    return taint ? { reasons: [`node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`], unresolvable: true } : pass;
  },
};

// Models framework/plugins/nodeaffinity/node_affinity.go (nodeSelector and required terms).
const nodeAffinityFilter: FilterPlugin = {
  name: 'NodeAffinity',
  filter(pod, { node }) {
    const labels = node.metadata.labels ?? {};
    const selectorOk = Object.entries(pod.spec.nodeSelector ?? {}).every(([k, v]) => labels[k] === v);
    const terms = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
    const affinityOk = !terms || terms.some((t) => matchTerm(t, node));
    return selectorOk && affinityOk ? pass : { reasons: ["node(s) didn't match Pod's node affinity/selector"], unresolvable: true };
  },
};

const hostPortsOfFrozenSpec = new WeakMap<Pod['spec'], readonly string[]>();

/** The pod's host ports as `protocol/ip/port`, computed once per frozen spec (NodePorts asks for every node). */
function hostPorts(pod: Pod): readonly string[] {
  if (!Object.isFrozen(pod.spec)) return computeHostPorts(pod);
  let ports = hostPortsOfFrozenSpec.get(pod.spec);
  if (ports === undefined) hostPortsOfFrozenSpec.set(pod.spec, (ports = Object.freeze(computeHostPorts(pod))));
  return ports;
}

function computeHostPorts(pod: Pod): string[] {
  return pod.spec.containers.flatMap((c) => (c.ports ?? []).filter((p) => p.hostPort)
    .map((p) => `${p.protocol ?? 'TCP'}/${p.hostIP ?? '0.0.0.0'}/${p.hostPort}`));
}

// Models framework/plugins/nodeports/node_ports.go.
const nodePorts: FilterPlugin = {
  name: 'NodePorts',
  filter(pod, info) {
    const wanted = hostPorts(pod);
    if (wanted.length === 0) return pass;
    const used = new Set(info.pods.flatMap(hostPorts));
    return wanted.some((p) => used.has(p)) ? { reasons: ["node(s) didn't have free ports for the requested pod ports"], unresolvable: false } : pass;
  },
};

// Models framework/plugins/noderesources/fit.go (fitsRequest).
const nodeResourcesFitFilter: FilterPlugin = {
  name: 'NodeResourcesFit',
  filter(pod, info) {
    const alloc = allocatable(info.node);
    const used = requested(info, false);
    const want = podRequests(pod);
    const reasons: string[] = [];
    if ((info.podCount ?? info.pods.length) + 1 > alloc.pods) reasons.push('Too many pods');
    if (want.cpu > 0 && want.cpu > alloc.cpu - used.cpu) reasons.push('Insufficient cpu');
    if (want.memory > 0 && want.memory > alloc.memory - used.memory) reasons.push('Insufficient memory');
    return reasons.length ? { reasons, unresolvable: false } : pass;
  },
};

export const filterPlugins: readonly FilterPlugin[] = [
  nodeUnschedulable, nodeName, taintTolerationFilter, nodeAffinityFilter, nodePorts, nodeResourcesFitFilter,
];

/** DefaultNormalizeScore: scale to 0..100 by the maximum (optionally reversed). */
function normalizeByMax(raw: readonly number[], reverse: boolean): number[] {
  const max = Math.max(0, ...raw);
  if (max === 0) return raw.map(() => (reverse ? maxNodeScore : 0));
  return raw.map((s) => {
    const n = Math.floor((s * maxNodeScore) / max);
    return reverse ? maxNodeScore - n : n;
  });
}

/** least_allocated.go leastRequestedScore for one resource. */
function leastRequestedScore(cap: number, req: number): number {
  return cap === 0 || req > cap ? 0 : Math.floor(((cap - req) * maxNodeScore) / cap);
}

// Models noderesources/least_allocated.go (cpu and memory, weight 1 each).
const leastAllocated: ScorePlugin = {
  name: 'NodeResourcesFit',
  weight: 1,
  score(pod, feasible) {
    const want = podRequests(pod, true);
    return feasible.map((info) => {
      const alloc = allocatable(info.node);
      const used = requested(info, true);
      return Math.floor((leastRequestedScore(alloc.cpu, used.cpu + want.cpu) + leastRequestedScore(alloc.memory, used.memory + want.memory)) / 2);
    });
  },
};

/** balanced_allocation.go: the requested fraction of one resource, at most 1. */
function requestedFraction(req: number, cap: number): number {
  return cap === 0 ? 0 : Math.min(1, req / cap);
}

// Models noderesources/balanced_allocation.go.
const balancedAllocation: ScorePlugin = {
  name: 'NodeResourcesBalancedAllocation',
  weight: 1,
  score(pod, feasible) {
    const want = podRequests(pod, true);
    return feasible.map((info) => {
      const alloc = allocatable(info.node);
      const used = requested(info, true);
      const std = Math.abs(requestedFraction(used.cpu + want.cpu, alloc.cpu) - requestedFraction(used.memory + want.memory, alloc.memory)) / 2;
      return Math.floor((1 - std) * maxNodeScore);
    });
  },
};

// Models tainttoleration/taint_toleration.go Score: intolerable PreferNoSchedule taints, reversed.
const taintTolerationScore: ScorePlugin = {
  name: 'TaintToleration',
  weight: 3,
  score(pod, feasible) {
    const tols = (pod.spec.tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
    return feasible.map(({ node }) => (node.spec?.taints ?? [])
      .filter((t) => t.effect === 'PreferNoSchedule' && !tols.some((tol) => tolerates(tol, t))).length);
  },
  normalize: (raw) => normalizeByMax(raw, true),
};

// Models nodeaffinity/node_affinity.go Score: sum of matched preferred weights.
const nodeAffinityScore: ScorePlugin = {
  name: 'NodeAffinity',
  weight: 2,
  score(pod, feasible) {
    const preferred = pod.spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
    return feasible.map(({ node }) => preferred.reduce((sum, p) => sum + (matchTerm(p.preference, node) ? p.weight : 0), 0));
  },
  normalize: (raw) => normalizeByMax(raw, false),
};

const mb = 1024 * 1024;

function imageKey(image: string): string {
  let ref = image;
  if (!ref.includes('/')) ref = `docker.io/library/${ref}`;
  else if (!ref.split('/')[0]!.includes('.')) ref = `docker.io/${ref}`;
  if (!ref.slice(ref.lastIndexOf('/') + 1).includes(':')) ref += ':latest';
  return ref;
}

// Models imagelocality/image_locality.go: size × spread of each present image, scaled between 23 MB and 1000 MB × containers.
const imageLocality: ScorePlugin = {
  name: 'ImageLocality',
  weight: 1,
  score(pod, feasible, all) {
    const total = all.length;
    const images = pod.spec.containers.map((c) => imageKey(c.image ?? ''));
    const onNode = (node: Node, image: string) => (node.status?.images ?? []).find((i) => (i.names ?? []).includes(image));
    const minThreshold = 23 * mb;
    const maxThreshold = 1000 * mb * pod.spec.containers.length;
    // How many nodes have each image: counted once per pod, not once per feasible node.
    const nodesWith = new Map<string, number>();
    for (const image of images) if (!nodesWith.has(image)) nodesWith.set(image, all.filter((i) => onNode(i.node, image)).length);
    return feasible.map(({ node }) => {
      let sum = 0;
      for (const image of images) {
        const present = onNode(node, image);
        if (!present) continue;
        const spread = nodesWith.get(image)! / total;
        sum += Math.floor((present.sizeBytes ?? 0) * spread);
      }
      const clamped = Math.min(Math.max(sum, minThreshold), maxThreshold);
      return Math.floor((maxNodeScore * (clamped - minThreshold)) / (maxThreshold - minThreshold));
    });
  },
};

// Models podtopologyspread/scoring.go for the pod's own ScheduleAnyway constraints: fewer matching pods in
// the node's domain scores higher. Pods without such constraints are skipped (the system default
// constraints, which need the pod's Service/ReplicaSet selector, are not modelled).
const podTopologySpread: ScorePlugin = {
  name: 'PodTopologySpread',
  weight: 2,
  score(pod, feasible, all) {
    const constraints = (pod.spec.topologySpreadConstraints ?? []).filter((c) => c.whenUnsatisfiable === 'ScheduleAnyway');
    if (constraints.length === 0) return null;
    return feasible.map(({ node }) => constraints.reduce((sum, c) => {
      const domain = node.metadata.labels?.[c.topologyKey];
      if (domain === undefined) return sum;
      const selector = labelSelectorAsSelector(c.labelSelector);
      if (!selector.ok) return sum;
      const count = all.filter((i) => i.node.metadata.labels?.[c.topologyKey] === domain)
        .reduce((n, i) => n + i.pods.filter((p) => p.metadata.namespace === pod.metadata.namespace && matchesLabels(selector.value, p.metadata.labels)).length, 0);
      return sum + count;
    }, 0));
  },
  normalize: (raw) => {
    const max = Math.max(...raw);
    const min = Math.min(...raw);
    return raw.map((s) => (max === min ? maxNodeScore : Math.floor((maxNodeScore * (max + min - s)) / max)));
  },
};

export const scorePlugins: readonly ScorePlugin[] = [
  taintTolerationScore, nodeAffinityScore, leastAllocated, podTopologySpread, balancedAllocation, imageLocality,
];

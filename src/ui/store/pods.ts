// The pods the graph draws, per node: the worker's `pods` diffs applied to a map by key, and for each node
// (and for the unbound pods, which wait near the scheduler) the chips to show. A node shows at most
// `chipSlots` chips, oldest first, the last slot becoming "+K more" when there are more, so a node's box
// never changes size. Only the groups a diff touches are rebuilt; the others keep their identity, so a
// node whose pods did not change does not re-render.

import type { PodChip, PodsEvent } from '../../protocol/index.ts';

/** Chip slots in a node's box. */
export const chipSlots = 8;

/** The unbound pods' group (shown by kube-scheduler). */
export const unbound = '';

export interface PodGroup {
  /** Every pod of the group, oldest first (drawn one by one when the graph is zoomed in). */
  readonly all: readonly PodChip[];
  /** The chips shown, oldest first (at most `chipSlots`, or `chipSlots − 1` when `more` > 0). */
  readonly shown: readonly PodChip[];
  /** Pods of the group not shown. */
  readonly more: number;
  readonly total: number;
  /** How many of the group are in each look (see `podLook`), for the "+K more" chip's description. */
  readonly looks: Readonly<Partial<Record<PodLook, number>>>;
}

export interface PodsState {
  readonly byKey: ReadonlyMap<string, PodChip>;
  /** By node name; `unbound` for pods not yet bound. Groups without pods are absent. */
  readonly groups: ReadonlyMap<string, PodGroup>;
  /**
   * Set when the step shown is older than the pods the worker keeps (PodsEvent.keptFrom): the oldest
   * etcd revision whose pods are known. Null when the pods shown are the step's.
   */
  readonly keptFrom: number | null;
}

export const emptyPods: PodsState = { byKey: new Map(), groups: new Map(), keptFrom: null };

/** How a chip is coloured: what state the pod is in, at a glance. */
export type PodLook = 'pending' | 'starting' | 'running' | 'terminating' | 'succeeded' | 'failed';

export function podLook(pod: Pick<PodChip, 'phase' | 'ready' | 'deleting' | 'node'>): PodLook {
  if (pod.deleting) return 'terminating';
  switch (pod.phase) {
    case 'Running': return pod.ready ? 'running' : 'starting';
    case 'Succeeded': return 'succeeded';
    case 'Failed': return 'failed';
    default: return pod.node === null ? 'pending' : 'starting';
  }
}

function groupOf(pod: PodChip): string {
  return pod.node ?? unbound;
}

export function applyPods(state: PodsState, event: PodsEvent): PodsState {
  if (event.replace) {
    const byKey = new Map(event.upserted.map((pod) => [pod.key, pod]));
    return { byKey, groups: groupAll(byKey), keptFrom: event.keptFrom ?? null };
  }
  // The map is updated in place, as the keyspace's live entries are (store/keyspace.ts): copying 150,000 pods
  // at every step cost ~65 ms. Nothing reads an older state's map but for its size.
  const byKey = state.byKey === emptyPods.byKey ? new Map<string, PodChip>() : state.byKey as Map<string, PodChip>;
  // For each group the diff touches, its pods that leave (null) or come or change.
  const changed = new Map<string, Map<string, PodChip | null>>();
  const change = (group: string, key: string, pod: PodChip | null) => {
    let pods = changed.get(group);
    if (!pods) changed.set(group, (pods = new Map()));
    pods.set(key, pod);
  };
  for (const key of event.removed) {
    const old = byKey.get(key);
    if (!old) continue;
    change(groupOf(old), key, null);
    byKey.delete(key);
  }
  for (const pod of event.upserted) {
    const old = byKey.get(pod.key);
    if (old && groupOf(old) !== groupOf(pod)) change(groupOf(old), pod.key, null);
    change(groupOf(pod), pod.key, pod);
    byKey.set(pod.key, pod);
  }
  if (changed.size === 0) return state;
  // Only the touched groups are rebuilt, from their own pods: a group's cost is its size, not the cluster's.
  const groups = new Map(state.groups);
  for (const [name, pods] of changed) {
    const kept = (state.groups.get(name)?.all ?? []).filter((pod) => !pods.has(pod.key));
    for (const pod of pods.values()) if (pod) kept.push(pod);
    if (kept.length === 0) groups.delete(name);
    else groups.set(name, makeGroup(kept));
  }
  return { byKey, groups, keptFrom: state.keptFrom };
}

function groupAll(byKey: ReadonlyMap<string, PodChip>): Map<string, PodGroup> {
  const members = new Map<string, PodChip[]>();
  for (const pod of byKey.values()) {
    const name = groupOf(pod);
    const list = members.get(name);
    if (list) list.push(pod);
    else members.set(name, [pod]);
  }
  return new Map([...members].map(([name, pods]) => [name, makeGroup(pods)]));
}

function makeGroup(pods: PodChip[]): PodGroup {
  pods.sort((a, b) => a.createRevision - b.createRevision || (a.key < b.key ? -1 : 1));
  const shownCount = pods.length <= chipSlots ? pods.length : chipSlots - 1;
  const looks: Partial<Record<PodLook, number>> = {};
  for (const pod of pods) {
    const look = podLook(pod);
    looks[look] = (looks[look] ?? 0) + 1;
  }
  return { all: pods, shown: pods.slice(0, shownCount), more: pods.length - shownCount, total: pods.length, looks };
}

/** The part of a pod's name a chip shows: after the last `-` (the random suffix), or the whole name. */
export function chipLabel(name: string): string {
  const dash = name.lastIndexOf('-');
  return dash >= 0 && dash < name.length - 1 ? name.slice(dash + 1) : name;
}

/** What a screen reader says for a chip. */
export function chipName(pod: Pick<PodChip, 'name' | 'status'>): string {
  return `pod ${pod.name}, ${pod.status}`;
}

/** What a screen reader says for the "+K more" chip: how many, and in which states. */
export function moreName(group: PodGroup): string {
  const parts = (Object.entries(group.looks) as [PodLook, number][]).map(([look, n]) => `${n} ${look}`);
  return `${group.more} more pods (of ${group.total}: ${parts.join(', ')})`;
}

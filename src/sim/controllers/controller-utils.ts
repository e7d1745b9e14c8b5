// Shared pieces of kube-controller-manager's controllers: controller expectations, pod readiness and
// availability, the ranking of pods to delete, controller references and slow-start batches.
// Models k8s pkg/controller/controller_utils.go (ControllerExpectations, UIDTrackingControllerExpectations,
// ActivePodsWithRanks, FilterActivePods, slowStartBatch lives in replica_set.go) and
// pkg/api/v1/pod/util.go (IsPodReady, IsPodAvailable).

import type { Pod, PodCondition } from '../api/types/core.ts';
import type { KubeObject, OwnerReference } from '../api/types/meta.ts';
import { parseTimestamp } from '../api/time.ts';
import { metaNamespaceKey, type Indexer } from '../client/index.ts';
import { minute, second, type Duration, type Time } from '../engine/index.ts';
import { copyJson } from '../api/json-copy.ts';

/** ExpectationsTimeout: unmet expectations older than this no longer block a sync. */
export const expectationsTimeout: Duration = 5 * minute;
/** BurstReplicas: at most this many creations or deletions per sync. */
export const burstReplicas = 500;
/** SlowStartInitialBatchSize. */
export const slowStartInitialBatchSize = 1;

interface Expectation {
  add: number;
  del: number;
  timestamp: Time;
  /** UIDTrackingControllerExpectations: the pods whose deletion is expected (namespace/name). */
  readonly deleting: Set<string>;
}

/** Per-controller-key counts of creations and deletions the informer has not shown yet. */
export class ControllerExpectations {
  private readonly records = new Map<string, Expectation>();

  constructor(private readonly now: () => Time) {}

  /** SatisfiedExpectations: no record, all observed, or expired (5 min). */
  satisfied(key: string): boolean {
    const e = this.records.get(key);
    if (!e) return true;
    if (e.add <= 0 && e.del <= 0) return true;
    return this.now() - e.timestamp > expectationsTimeout;
  }

  expectCreations(key: string, adds: number): void {
    this.records.set(key, { add: adds, del: 0, timestamp: this.now(), deleting: new Set() });
  }

  expectDeletions(key: string, podKeys: readonly string[]): void {
    this.records.set(key, { add: 0, del: podKeys.length, timestamp: this.now(), deleting: new Set(podKeys) });
  }

  creationObserved(key: string): void {
    const e = this.records.get(key);
    if (e) e.add--;
  }

  /** Counts only pods whose deletion this controller expects (UID tracking). */
  deletionObserved(key: string, podKey: string): void {
    const e = this.records.get(key);
    if (e && e.deleting.delete(podKey)) e.del--;
  }

  deleteExpectations(key: string): void {
    this.records.delete(key);
  }

  get(key: string): { add: number; del: number } | undefined {
    const e = this.records.get(key);
    return e && { add: e.add, del: e.del };
  }
}

export function getPodCondition(pod: Pod, type: string): PodCondition | undefined {
  // Plain loops here and in getControllerOf: both run for every pod of a namespace on every replicaset sync.
  for (const c of pod.status?.conditions ?? []) if (c.type === type) return c;
  return undefined;
}

/** podutil.IsPodReady. */
export function isPodReady(pod: Pod): boolean {
  return getPodCondition(pod, 'Ready')?.status === 'True';
}

/** podutil.IsPodAvailable: ready for at least minReadySeconds at `nowEpochMs`. */
export function isPodAvailable(pod: Pod, minReadySeconds: number, nowEpochMs: number): boolean {
  const ready = getPodCondition(pod, 'Ready');
  if (ready?.status !== 'True') return false;
  if (minReadySeconds === 0) return true;
  const since = ready.lastTransitionTime ? parseTimestamp(ready.lastTransitionTime) : undefined;
  return since !== undefined && since + minReadySeconds * second <= nowEpochMs;
}

/** What the replicaset controller reads of a pod on every sync. */
export interface PodFacts {
  readonly active: boolean;
  readonly controller: OwnerReference | undefined;
  readonly ready: boolean;
}

const factsOfPod = new WeakMap<Pod, PodFacts>();

/**
 * isPodActive, getControllerOf and isPodReady of an informer's pod, computed once per pod object
 * (informer objects are never changed; a change arrives as a new object). A sync visits every pod of
 * the namespace, so reading one small record instead of walking each pod's metadata and status matters
 * at 10,000 pods.
 */
export function podFacts(pod: Pod): PodFacts {
  let facts = factsOfPod.get(pod);
  if (facts === undefined) {
    facts = { active: isPodActive(pod), controller: getControllerOf(pod), ready: isPodReady(pod) };
    factsOfPod.set(pod, facts);
  }
  return facts;
}

/** PodControllerUIDIndex: pods by their controller's uid, orphans under OrphanPodIndexKeyForNamespace. */
export const podControllerUIDIndex = 'podControllerUID';
const orphanPodIndexKey = '_ORPHAN_POD';

/** OrphanPodIndexKeyForNamespace: the index value of the pods of `namespace` that have no controller. */
export function orphanPodIndexKeyForNamespace(namespace: string): string {
  return `${orphanPodIndexKey}/${namespace}`;
}

/**
 * PodControllerUIDIndexFunc and AddPodControllerUIDIndexer (newer than 1.28: kubernetes PR #130864,
 * 1.33). Adds the index to a shared pod informer unless another controller already did.
 */
export function addPodControllerUIDIndexer(indexer: Indexer<Pod>): void {
  if (indexer.hasIndexer(podControllerUIDIndex)) return;
  indexer.addIndexer(podControllerUIDIndex, (pod) => {
    const ref = podFacts(pod).controller;
    return [ref ? ref.uid : orphanPodIndexKeyForNamespace(pod.metadata.namespace ?? '')];
  });
}

/**
 * FilterPodsByOwner with includeOrphanedPods (1.33): the pods of `owner`'s namespace it controls plus
 * the namespace's orphans, merged in key order, so the result is the 1.28 namespace list
 * (`podLister.Pods(ns).List`, sorted keys here) less the pods other controllers own, in the same order.
 */
export function filterPodsByOwner(indexer: Indexer<Pod>, owner: KubeObject): Pod[] {
  const namespace = owner.metadata.namespace ?? '';
  const prefix = `${namespace}/`;
  // A controller uid is unique cluster-wide, but an ownerReference can name any uid: keep the namespace's.
  const owned = indexer.byIndex(podControllerUIDIndex, owner.metadata.uid ?? '')
    .filter((p) => metaNamespaceKey(p).startsWith(prefix));
  const orphans = indexer.byIndex(podControllerUIDIndex, orphanPodIndexKeyForNamespace(namespace));
  if (orphans.length === 0) return owned;
  if (owned.length === 0) return orphans;
  const merged: Pod[] = [];
  let i = 0;
  let j = 0;
  while (i < owned.length && j < orphans.length) {
    merged.push(metaNamespaceKey(owned[i]!) < metaNamespaceKey(orphans[j]!) ? owned[i++]! : orphans[j++]!);
  }
  while (i < owned.length) merged.push(owned[i++]!);
  while (j < orphans.length) merged.push(orphans[j++]!);
  return merged;
}

/** controller.IsPodActive: not Succeeded, not Failed, not being deleted. */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

/** metav1.GetControllerOf. */
export function getControllerOf(obj: KubeObject): OwnerReference | undefined {
  for (const r of obj.metadata.ownerReferences ?? []) if (r.controller === true) return r;
  return undefined;
}

/** metav1.NewControllerRef. */
export function newControllerRef(owner: KubeObject, apiVersion: string, kind: string): OwnerReference {
  return { apiVersion, kind, name: owner.metadata.name ?? '', uid: owner.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}

const phaseRank: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

function timeOf(s: string | null | undefined): number {
  return (s ? parseTimestamp(s) : undefined) ?? 0;
}

/**
 * ActivePodsWithRanks.Less (1.28): which pod goes first when scaling down. `ranks` counts, per pod, the
 * related pods on its node (doubled-up pods go first).
 */
export function comparePodsForDeletion(a: Pod, b: Pod, rankA: number, rankB: number): number {
  // 1. Unassigned < assigned.
  const assignedA = a.spec.nodeName ? 1 : 0;
  const assignedB = b.spec.nodeName ? 1 : 0;
  if (assignedA !== assignedB) return assignedA - assignedB;
  // 2. Pending < Unknown < Running.
  const pa = phaseRank[a.status?.phase ?? 'Pending'] ?? 0;
  const pb = phaseRank[b.status?.phase ?? 'Pending'] ?? 0;
  if (pa !== pb) return pa - pb;
  // 3. Not ready < ready.
  const ra = isPodReady(a) ? 1 : 0;
  const rb = isPodReady(b) ? 1 : 0;
  if (ra !== rb) return ra - rb;
  // 4. Lower pod-deletion-cost first (PodDeletionCost is on by default in 1.28).
  const ca = Number(a.metadata.annotations?.['controller.kubernetes.io/pod-deletion-cost'] ?? 0) || 0;
  const cb = Number(b.metadata.annotations?.['controller.kubernetes.io/pod-deletion-cost'] ?? 0) || 0;
  if (ca !== cb) return ca - cb;
  // 5. More related pods on the same node first.
  if (rankA !== rankB) return rankB - rankA;
  // 6. Ready for a shorter time first.
  if (ra === 1 && rb === 1) {
    const ta = timeOf(getPodCondition(a, 'Ready')?.lastTransitionTime);
    const tb = timeOf(getPodCondition(b, 'Ready')?.lastTransitionTime);
    if (ta !== tb) return tb - ta;
  }
  // 7. More container restarts first.
  const restarts = (p: Pod) => (p.status?.containerStatuses ?? []).reduce((n, c) => Math.max(n, c.restartCount ?? 0), 0);
  if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a);
  // 8. Newer first.
  const na = timeOf(a.metadata.creationTimestamp);
  const nb = timeOf(b.metadata.creationTimestamp);
  return nb - na;
}

/**
 * getPodsToDelete (replica_set.go): ranks `filteredPods` by the number of `relatedPods` on the same node
 * and returns the first `diff` in deletion order.
 */
export function podsToDelete(filteredPods: readonly Pod[], relatedPods: readonly Pod[], diff: number): Pod[] {
  if (diff >= filteredPods.length) return [...filteredPods];
  const perNode = new Map<string, number>();
  for (const p of relatedPods) {
    if (!p.spec.nodeName || !isPodActive(p)) continue;
    perNode.set(p.spec.nodeName, (perNode.get(p.spec.nodeName) ?? 0) + 1);
  }
  const rank = (p: Pod) => (p.spec.nodeName ? perNode.get(p.spec.nodeName) ?? 0 : 0);
  const ranked = filteredPods.map((p) => ({ p, r: rank(p) }));
  ranked.sort((x, y) => comparePodsForDeletion(x.p, y.p, x.r, y.r));
  return ranked.slice(0, diff).map((x) => x.p);
}

/** Deep copy of JSON-shaped data. */
export function deepCopy<T>(value: T): T {
  return value === undefined ? value : copyJson(value);
}

/**
 * A bug in the model rather than a failure a controller would log and retry (API errors, adoption
 * refusals): surfaced instead of requeued, so tests fail loudly.
 */
export function isProgrammingError(err: unknown): boolean {
  return err instanceof TypeError || err instanceof ReferenceError || err instanceof RangeError || err instanceof SyntaxError;
}

// The replicaset controller: keeps `spec.replicas` pods running for every ReplicaSet, creating pods from
// its template in slow-start batches and deleting the surplus by rank, then writes the ReplicaSet's
// status. Driven only by the pods and replicasets informers; expectations stop it from acting twice on a
// change its informer has not shown yet.
// Models k8s pkg/controller/replicaset/replica_set.go (NewBaseController handlers, syncReplicaSet,
// manageReplicas, slowStartBatch, getPodsToDelete, processNextWorkItem), replica_set_utils.go
// (calculateStatus, updateReplicaSetStatus: replica-set-utils.ts) and pkg/controller/controller_utils.go (RealPodControl
// CreatePods/DeletePod, GetPodFromTemplate).
//
// Not modelled: conditions other than ReplicaFailure.
//
// Newer than 1.28 (kubernetes PR #130864, 1.33): the pods a sync looks at come from the pod informer's
// controller-uid index (the ReplicaSet's own pods plus the namespace's orphans, FilterPodsByOwner)
// instead of the whole namespace (1.28's `podLister.Pods(ns).List(labels.Everything())`). Requests and
// results are the same: ClaimPods passes over pods other controllers own without a word, and the two
// lists are merged in key order, the order the namespace list had, so the same pod is adopted or
// deleted first. A sync that has nothing to adopt or release reads counts kept per ReplicaSet
// (claim-tally.ts) instead of walking its pods.

import { isStatusError } from '../../api/errors.ts';
import { labelSelectorAsSelector, matchesLabels, selectorFromSet, type Selector } from '../../api/labels.ts';
import type { Pod } from '../../api/types/core.ts';
import type { ReplicaSet } from '../../api/types/apps.ts';
import type { OwnerReference } from '../../api/types/meta.ts';
import {
  DeletedFinalStateUnknown, metaNamespaceKey, RateLimitingQueue, runWorkers, splitMetaNamespaceKey,
  type EventRecorder, type ResourceClient, type SharedIndexInformer,
} from '../../client/index.ts';
import { second, type Co } from '../../engine/index.ts';
import {
  addPodControllerUIDIndexer, burstReplicas, ControllerExpectations, deepCopy, filterPodsByOwner, getControllerOf,
  isPodReady, isProgrammingError, orphanPodIndexKeyForNamespace, podControllerUIDIndex, podFacts, podsToDelete,
  slowStartInitialBatchSize,
} from '../controller-utils.ts';
import { ClaimTally } from './claim-tally.ts';
import { calculateStatus, countPods, rsKind, updateReplicaSetStatus, type Claimed } from './replica-set-utils.ts';
import { claim } from '../controller-ref-manager.ts';
import type { ControllerContext } from '../kube-controller-manager.ts';

export const replicaSetControllerName = 'replicaset-controller';

export class ReplicaSetController {
  readonly queue: RateLimitingQueue;
  readonly expectations: ControllerExpectations;
  readonly recorder: EventRecorder;
  readonly rsInformer: SharedIndexInformer<ReplicaSet>;
  readonly podInformer: SharedIndexInformer<Pod>;
  private readonly pods: ResourceClient<Pod>;
  private readonly replicaSets: ResourceClient<ReplicaSet>;
  /** Claim counts by ReplicaSet uid, for the ReplicaSets synced so far. */
  private readonly tallies = new Map<string, ClaimTally>();

  constructor(private readonly ctx: ControllerContext) {
    const { host } = ctx;
    this.queue = new RateLimitingQueue(host, 'replicaset');
    this.expectations = new ControllerExpectations(() => host.now);
    this.recorder = ctx.broadcaster.newRecorder({ component: replicaSetControllerName });
    this.rsInformer = ctx.informers.informerFor<ReplicaSet>('replicasets', 'apps');
    this.podInformer = ctx.informers.informerFor<Pod>('pods');
    addPodControllerUIDIndexer(this.podInformer.indexer);
    this.podInformer.indexer.onIndexChange(podControllerUIDIndex, (uid, key) => this.tallies.get(uid)?.markDirty(key));
    this.pods = ctx.client.resource<Pod>('pods');
    this.replicaSets = ctx.client.resource<ReplicaSet>('replicasets', 'apps');

    this.rsInformer.addEventHandler({
      onAdd: (rs) => this.enqueue(rs),
      onUpdate: (_old, rs) => this.enqueue(rs),
      onDelete: (obj) => {
        const rs = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
        this.expectations.deleteExpectations(metaNamespaceKey(rs));
        this.tallies.delete(rs.metadata.uid ?? '');
        this.enqueue(rs);
      },
    });
    this.podInformer.addEventHandler({
      onAdd: (pod) => this.addPod(pod),
      onUpdate: (old, pod) => this.updatePod(old, pod),
      onDelete: (obj) => this.deletePod(obj),
    });
  }

  run(workers: number): void {
    runWorkers(this.ctx.host, this.queue, workers, (key) => this.processNextWorkItem(key));
  }

  private enqueue(rs: ReplicaSet): void {
    this.queue.add(metaNamespaceKey(rs));
  }

  /** resolveControllerRef: the cached ReplicaSet the reference names, if its uid matches. */
  private resolveControllerRef(namespace: string, ref: OwnerReference): ReplicaSet | undefined {
    if (ref.kind !== 'ReplicaSet') return undefined;
    const rs = this.rsInformer.get(namespace, ref.name);
    return rs && rs.metadata.uid === ref.uid ? rs : undefined;
  }

  /** getPodReplicaSets: the ReplicaSets whose selector matches an orphan pod. */
  private podReplicaSets(pod: Pod): ReplicaSet[] {
    return this.rsInformer.list(pod.metadata.namespace ?? '').filter((rs) => {
      const selector = labelSelectorAsSelector(rs.spec.selector);
      return selector.ok && selector.value.requirements.length > 0 && matchesLabels(selector.value, pod.metadata.labels);
    });
  }

  private addPod(pod: Pod): void {
    if (pod.metadata.deletionTimestamp) {
      this.deletePod(pod);
      return;
    }
    const ref = getControllerOf(pod);
    if (ref) {
      const rs = this.resolveControllerRef(pod.metadata.namespace ?? '', ref);
      if (!rs) return;
      this.expectations.creationObserved(metaNamespaceKey(rs));
      this.enqueue(rs);
      return;
    }
    for (const rs of this.podReplicaSets(pod)) this.enqueue(rs);
  }

  private updatePod(old: Pod, cur: Pod): void {
    if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return;
    const labelChanged = JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(cur.metadata.labels ?? {});
    if (cur.metadata.deletionTimestamp) {
      this.deletePod(cur);
      if (labelChanged) this.deletePod(old);
      return;
    }
    const curRef = getControllerOf(cur);
    const oldRef = getControllerOf(old);
    const refChanged = JSON.stringify(curRef) !== JSON.stringify(oldRef);
    if (refChanged && oldRef) {
      const rs = this.resolveControllerRef(old.metadata.namespace ?? '', oldRef);
      if (rs) this.enqueue(rs);
    }
    if (curRef) {
      const rs = this.resolveControllerRef(cur.metadata.namespace ?? '', curRef);
      if (!rs) return;
      this.enqueue(rs);
      const minReady = rs.spec.minReadySeconds ?? 0;
      if (!isPodReady(old) && isPodReady(cur) && minReady > 0) {
        this.queue.addAfter(metaNamespaceKey(rs), (minReady + 1) * second);
      }
      return;
    }
    if (labelChanged || refChanged) for (const rs of this.podReplicaSets(cur)) this.enqueue(rs);
  }

  private deletePod(obj: Pod | DeletedFinalStateUnknown<Pod>): void {
    const pod = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
    const ref = getControllerOf(pod);
    if (!ref) return;
    const rs = this.resolveControllerRef(pod.metadata.namespace ?? '', ref);
    if (!rs) return;
    const key = metaNamespaceKey(rs);
    this.expectations.deletionObserved(key, metaNamespaceKey(pod));
    this.enqueue(rs);
  }

  private *processNextWorkItem(key: string): Co<void> {
    try {
      yield* this.syncReplicaSet(key);
      this.queue.forget(key);
    } catch (err) {
      this.queue.addRateLimited(key);
      if (isProgrammingError(err)) throw err;
    }
  }

  *syncReplicaSet(key: string): Co<void> {
    const [namespace, name] = splitMetaNamespaceKey(key);
    const cached = this.rsInformer.get(namespace, name);
    if (!cached) {
      this.expectations.deleteExpectations(key);
      return;
    }
    const rsNeedsSync = this.expectations.satisfied(key);
    const selector = labelSelectorAsSelector(cached.spec.selector);
    if (!selector.ok) return;
    const filtered = yield* this.claimPods(cached, selector.value);

    let manageError: unknown;
    if (rsNeedsSync && !cached.metadata.deletionTimestamp) {
      try {
        yield* this.manageReplicas(filtered, cached);
      } catch (err) {
        manageError = err;
      }
    }
    // Upstream deep-copies the cached ReplicaSet here; calculateStatus and updateReplicaSetStatus only
    // read it (the PUT's body is a new object), so the model reads the cache's frozen object instead.
    const rs = cached;
    const status = calculateStatus(rs, filtered, manageError, this.ctx.host.epochMs + this.ctx.host.now);
    const updated = yield* updateReplicaSetStatus(this.replicaSets, rs, status);
    const replicas = updated.spec.replicas ?? 1;
    const minReady = updated.spec.minReadySeconds ?? 0;
    if (manageError === undefined && minReady > 0 && (updated.status?.readyReplicas ?? 0) === replicas
      && (updated.status?.availableReplicas ?? 0) !== replicas) {
      this.queue.addAfter(key, minReady * second);
    }
    if (manageError !== undefined) throw manageError;
  }

  /**
   * claimPods over the ReplicaSet's pods and the namespace's orphans (FilterPodsByOwner). When there is
   * no orphan to adopt and no pod to release, the claim would send nothing and return the active matching
   * pods the ReplicaSet controls: their counts come from the tally, the pods themselves are listed only if
   * a scale-down or minReadySeconds needs them, before the sync first waits (the informer moves on then).
   */
  private *claimPods(rs: ReplicaSet, selector: Selector): Co<Claimed> {
    const uid = rs.metadata.uid ?? '';
    const templateLabels = selectorFromSet(rs.spec.template?.metadata?.labels ?? {});
    const minReady = rs.spec.minReadySeconds ?? 0;
    const counts = this.tallyFor(rs, selector, templateLabels).refresh((k) => this.podInformer.indexer.getByKey(k));
    if ((counts.notMatching === 0 || rs.metadata.deletionTimestamp) && !this.hasAdoptableOrphan(rs, selector)) {
      const related = once(() => filterPodsByOwner(this.podInformer.indexer, rs).filter((p) => podFacts(p).controller?.uid === uid));
      const pods = once(() => related().filter((p) => podFacts(p).active && matchesLabels(selector, p.metadata.labels)));
      if (minReady > 0) pods();
      return {
        count: counts.claimed, pods, related,
        statusCounts: (nowEpoch) => (minReady === 0
          ? { replicas: counts.claimed, fullyLabeled: counts.fullyLabeled, ready: counts.ready, available: counts.ready }
          : countPods(pods(), templateLabels, minReady, nowEpoch)),
      };
    }
    const allPods = filterPodsByOwner(this.podInformer.indexer, rs);
    // Adopt matching orphans, release controlled pods that no longer match.
    const claimed = yield* claim(allPods.filter((p) => podFacts(p).active), {
      owner: rs, ownerApiVersion: rsKind.apiVersion, ownerKind: rsKind.kind, selector,
      ownerClient: this.replicaSets, client: this.pods, controllerOf: (p) => podFacts(p).controller,
    });
    return {
      count: claimed.length, pods: () => claimed,
      related: () => allPods.filter((p) => getControllerOf(p)?.uid === uid),
      statusCounts: (nowEpoch) => countPods(claimed, templateLabels, minReady, nowEpoch),
    };
  }

  /** The ReplicaSet's tally, started (every pod it controls marked to be read) on first use or after its selector or template labels changed. */
  private tallyFor(rs: ReplicaSet, selector: Selector, templateLabels: Selector): ClaimTally {
    const uid = rs.metadata.uid ?? '';
    const signature = JSON.stringify([rs.spec.selector, rs.spec.template?.metadata?.labels ?? {}]);
    let tally = this.tallies.get(uid);
    if (tally?.signature !== signature) {
      tally = new ClaimTally(uid, rs.metadata.namespace ?? '', signature, selector, templateLabels);
      for (const pod of this.podInformer.indexer.byIndex(podControllerUIDIndex, uid)) tally.markDirty(metaNamespaceKey(pod));
      this.tallies.set(uid, tally);
    }
    return tally;
  }

  /** Whether ClaimPods would try to adopt one of the namespace's orphans. */
  private hasAdoptableOrphan(rs: ReplicaSet, selector: Selector): boolean {
    if (rs.metadata.deletionTimestamp) return false;
    const orphans = this.podInformer.indexer.byIndex(podControllerUIDIndex, orphanPodIndexKeyForNamespace(rs.metadata.namespace ?? ''));
    return orphans.some((p) => podFacts(p).active && matchesLabels(selector, p.metadata.labels));
  }

  private *manageReplicas(filtered: Claimed, rs: ReplicaSet): Co<void> {
    const key = metaNamespaceKey(rs);
    let diff = filtered.count - (rs.spec.replicas ?? 1);
    if (diff < 0) {
      diff = Math.min(-diff, burstReplicas);
      this.expectations.expectCreations(key, diff);
      const { successes, error } = yield* this.slowStartBatch(key, diff, () => this.createPod(rs));
      for (let skipped = diff - successes; skipped > 0; skipped--) this.expectations.creationObserved(key);
      if (error !== undefined) throw error;
    } else if (diff > 0) {
      diff = Math.min(diff, burstReplicas);
      const victims = podsToDelete(filtered.pods(), filtered.related(), diff);
      this.expectations.expectDeletions(key, victims.map((p) => metaNamespaceKey(p)));
      let firstError: unknown;
      yield* this.ctx.all(`delete ${diff} pods of ${key}`, victims.map((pod) => this.deletePodOf(rs, pod, (err) => {
        firstError ??= err;
      })));
      if (firstError !== undefined) throw firstError;
    }
  }

  /** slowStartBatch: batches of 1, 2, 4, … run concurrently; the first batch with a failure stops the rest. */
  private *slowStartBatch(key: string, count: number, fn: () => Co<void>): Co<{ successes: number; error?: unknown }> {
    let remaining = count;
    let successes = 0;
    for (let batch = Math.min(remaining, slowStartInitialBatchSize); batch > 0; batch = Math.min(2 * batch, remaining)) {
      let failed: unknown;
      let ok = 0;
      const tasks = Array.from({ length: batch }, () => (function* () {
        try {
          yield* fn();
          ok++;
        } catch (err) {
          failed ??= err;
        }
      })());
      yield* this.ctx.all(`create ${batch} pods for ${key}`, tasks);
      successes += ok;
      if (failed !== undefined) return { successes, error: failed };
      remaining -= batch;
    }
    return { successes };
  }

  /** RealPodControl.CreatePods with GetPodFromTemplate. */
  private *createPod(rs: ReplicaSet): Co<void> {
    const template = rs.spec.template ?? {};
    const tm = template.metadata ?? {};
    const metadata: Pod['metadata'] = { generateName: `${rs.metadata.name}-` };
    if (tm.labels) metadata.labels = { ...tm.labels };
    if (tm.annotations) metadata.annotations = { ...tm.annotations };
    if (tm.finalizers) metadata.finalizers = [...tm.finalizers];
    metadata.ownerReferences = [{ ...rsKind, name: rs.metadata.name ?? '', uid: rs.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }];
    // The typed client's encoder writes apiVersion and kind; GetPodFromTemplate leaves the namespace to the path.
    const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata, spec: deepCopy(template.spec ?? { containers: [] }) };
    const reference = { ...rs, ...rsKind };
    if (!metadata.labels || Object.keys(metadata.labels).length === 0) throw new Error('unable to create pods, no labels');
    try {
      const created = yield* this.pods.create(rs.metadata.namespace, pod);
      this.recorder.event(reference, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
    } catch (err) {
      this.recorder.event(reference, 'Warning', 'FailedCreate', `Error creating: ${err instanceof Error ? err.message : String(err)}`);
      throw err;
    }
  }

  /** RealPodControl.DeletePod; a pod already gone counts as deleted. */
  private *deletePodOf(rs: ReplicaSet, pod: Pod, fail: (err: unknown) => void): Co<void> {
    const key = metaNamespaceKey(rs);
    const reference = { ...rs, ...rsKind };
    try {
      yield* this.pods.delete(pod.metadata.namespace, pod.metadata.name ?? '');
      this.recorder.event(reference, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
    } catch (err) {
      this.expectations.deletionObserved(key, metaNamespaceKey(pod));
      if (isStatusError(err) && err.code === 404) return;
      this.recorder.event(reference, 'Warning', 'FailedDelete', `Error deleting: ${err instanceof Error ? err.message : String(err)}`);
      fail(err);
    }
  }

}

/** `f`'s result, computed on the first call. */
function once<T>(f: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: f() }).v;
}

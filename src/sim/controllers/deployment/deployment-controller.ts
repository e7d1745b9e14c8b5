// The deployment controller: for every Deployment, a ReplicaSet `<deployment>-<pod-template-hash>` per
// template, scaled by the strategy (RollingUpdate within maxSurge/maxUnavailable, or Recreate), and the
// Deployment's revision annotation, status and conditions.
// Models k8s pkg/controller/deployment/deployment_controller.go (handlers, syncDeployment,
// getReplicaSetsForDeployment, handleErr with maxRetries 15), sync.go (getAllReplicaSetsAndSyncRevision,
// getNewReplicaSet, scale, scaleReplicaSet, calculateStatus, isScalingEvent), rolling.go
// (rolloutRolling, reconcileNewReplicaSet, reconcileOldReplicaSets, cleanupUnhealthyReplicas,
// scaleDownOldReplicaSetsForRollingUpdate), recreate.go and progress.go (syncRolloutStatus).
//
// Not modelled: pause/rollback,
// revision-history cleanup (cleanupDeployment), the SelectingAll guard.

import { isStatusError } from '../../api/errors.ts';
import { labelSelectorAsSelector, matchesLabels } from '../../api/labels.ts';
import type { Pod } from '../../api/types/core.ts';
import type { Deployment, DeploymentStatus, ReplicaSet } from '../../api/types/apps.ts';
import type { LabelSelector, OwnerReference } from '../../api/types/meta.ts';
import { formatTimestamp, parseTimestamp } from '../../api/time.ts';
import {
  DeletedFinalStateUnknown, metaNamespaceKey, RateLimitingQueue, runWorkers, splitMetaNamespaceKey,
  type EventRecorder, type ResourceClient, type SharedIndexInformer, type TimerHandle,
} from '../../client/index.ts';
import { second, type Co } from '../../engine/index.ts';
import { deepCopy, getControllerOf, isProgrammingError, newControllerRef } from '../controller-utils.ts';
import { claim } from '../controller-ref-manager.ts';
import type { ControllerContext } from '../kube-controller-manager.ts';
import { computePodTemplateHash } from './pod-template-hash.ts';
import {
  annotations, byCreation, deploymentComplete, deploymentProgressing, deploymentTimedOut, findNewReplicaSet,
  getCondition, hasProgressDeadline, isRollingUpdate, maxRevision, maxSurge, maxUnavailable, newCondition,
  newRSNewReplicas, podTemplateHashLabel, reasons, removeCondition, replicasAnnotationsNeedUpdate, replicasOf, revisionOf,
  setCondition, setDeploymentRevision, setNewReplicaSetAnnotations, setReplicasAnnotations, sumActual, sumAvailable,
  sumReady, sumReplicas,
} from './deployment-util.ts';

export const deploymentControllerName = 'deployment-controller';
/** maxRetries: a Deployment is retried 15 times, then dropped until its next change. */
export const deploymentMaxRetries = 15;
const deploymentKind = { apiVersion: 'apps/v1', kind: 'Deployment' } as const;
const rsKind = { apiVersion: 'apps/v1', kind: 'ReplicaSet' } as const;

export class DeploymentController {
  readonly queue: RateLimitingQueue;
  readonly recorder: EventRecorder;
  readonly dInformer: SharedIndexInformer<Deployment>;
  readonly rsInformer: SharedIndexInformer<ReplicaSet>;
  readonly podInformer: SharedIndexInformer<Pod>;
  private readonly deployments: ResourceClient<Deployment>;
  private readonly replicaSets: ResourceClient<ReplicaSet>;
  private readonly deadlineChecks = new Map<string, { readyAt: number; timer: TimerHandle }>();

  constructor(private readonly ctx: ControllerContext) {
    this.queue = new RateLimitingQueue(ctx.host, 'deployment');
    this.recorder = ctx.broadcaster.newRecorder({ component: deploymentControllerName });
    this.dInformer = ctx.informers.informerFor<Deployment>('deployments', 'apps');
    this.rsInformer = ctx.informers.informerFor<ReplicaSet>('replicasets', 'apps');
    this.podInformer = ctx.informers.informerFor<Pod>('pods');
    this.deployments = ctx.client.resource<Deployment>('deployments', 'apps');
    this.replicaSets = ctx.client.resource<ReplicaSet>('replicasets', 'apps');

    this.dInformer.addEventHandler({
      onAdd: (d) => this.enqueue(d),
      onUpdate: (_o, d) => this.enqueue(d),
      onDelete: (obj) => this.enqueue(obj instanceof DeletedFinalStateUnknown ? obj.obj : obj),
    });
    this.rsInformer.addEventHandler({
      onAdd: (rs) => this.addReplicaSet(rs),
      onUpdate: (old, rs) => this.updateReplicaSet(old, rs),
      onDelete: (obj) => {
        const rs = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
        const d = this.resolve(rs.metadata.namespace ?? '', getControllerOf(rs));
        if (d) this.enqueue(d);
      },
    });
    this.podInformer.addEventHandler({ onDelete: (obj) => this.deletePod(obj instanceof DeletedFinalStateUnknown ? obj.obj : obj) });
  }

  run(workers: number): void {
    runWorkers(this.ctx.host, this.queue, workers, (key) => this.processNextWorkItem(key));
  }

  private enqueue(d: Deployment): void {
    this.queue.add(metaNamespaceKey(d));
  }

  private resolve(namespace: string, ref: OwnerReference | undefined): Deployment | undefined {
    if (!ref || ref.kind !== 'Deployment') return undefined;
    const d = this.dInformer.get(namespace, ref.name);
    return d && d.metadata.uid === ref.uid ? d : undefined;
  }

  private deploymentsSelecting(rs: ReplicaSet): Deployment[] {
    return this.dInformer.list(rs.metadata.namespace ?? '').filter((d) => {
      const s = labelSelectorAsSelector(d.spec.selector);
      return s.ok && s.value.requirements.length > 0 && matchesLabels(s.value, rs.metadata.labels);
    });
  }

  private addReplicaSet(rs: ReplicaSet): void {
    const ref = getControllerOf(rs);
    if (ref) {
      const d = this.resolve(rs.metadata.namespace ?? '', ref);
      if (d) this.enqueue(d);
      return;
    }
    for (const d of this.deploymentsSelecting(rs)) this.enqueue(d);
  }

  private updateReplicaSet(old: ReplicaSet, cur: ReplicaSet): void {
    if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return;
    const curRef = getControllerOf(cur);
    const oldRef = getControllerOf(old);
    if (JSON.stringify(curRef) !== JSON.stringify(oldRef)) {
      const d = this.resolve(old.metadata.namespace ?? '', oldRef);
      if (d) this.enqueue(d);
    }
    if (curRef) {
      const d = this.resolve(cur.metadata.namespace ?? '', curRef);
      if (d) this.enqueue(d);
      return;
    }
    for (const d of this.deploymentsSelecting(cur)) this.enqueue(d);
  }

  /** deletePod: a Recreate rollout waits for the old pods to be gone. */
  private deletePod(pod: Pod): void {
    const ref = getControllerOf(pod);
    if (!ref || ref.kind !== 'ReplicaSet') return;
    const rs = this.rsInformer.get(pod.metadata.namespace ?? '', ref.name);
    if (!rs || rs.metadata.uid !== ref.uid) return;
    const d = this.resolve(rs.metadata.namespace ?? '', getControllerOf(rs));
    if (d && d.spec.strategy?.type === 'Recreate') this.enqueue(d);
  }

  private *processNextWorkItem(key: string): Co<void> {
    try {
      yield* this.syncDeployment(key);
      this.queue.forget(key);
    } catch (err) {
      if (this.queue.numRequeues(key) < deploymentMaxRetries) this.queue.addRateLimited(key);
      else this.queue.forget(key);
      if (isProgrammingError(err)) throw err;
    }
  }

  private nowTimestamp(): string {
    return formatTimestamp(this.ctx.host.epochMs + this.ctx.host.now);
  }

  *syncDeployment(key: string): Co<void> {
    const [namespace, name] = splitMetaNamespaceKey(key);
    const cached = this.dInformer.get(namespace, name);
    if (!cached) return;
    const d = deepCopy(cached);
    const rsList = yield* this.replicaSetsFor(d);
    if (d.metadata.deletionTimestamp) {
      yield* this.syncStatusOnly(d, rsList);
      return;
    }
    if (yield* this.isScalingEvent(d, rsList)) {
      yield* this.sync(d, rsList);
      return;
    }
    if (d.spec.strategy?.type === 'Recreate') yield* this.rolloutRecreate(d, rsList);
    else yield* this.rolloutRolling(d, rsList);
  }

  /** getReplicaSetsForDeployment: ClaimReplicaSets (adopt matching orphans, release what no longer matches). */
  private *replicaSetsFor(d: Deployment): Co<ReplicaSet[]> {
    const selector = labelSelectorAsSelector(d.spec.selector);
    if (!selector.ok) throw new ControllerError(`deployment ${d.metadata.name} has invalid label selector: ${selector.error}`);
    return yield* claim(this.rsInformer.list(d.metadata.namespace ?? ''), {
      owner: d, ownerApiVersion: deploymentKind.apiVersion, ownerKind: deploymentKind.kind, selector: selector.value,
      ownerClient: this.deployments, client: this.replicaSets,
    });
  }

  /** getAllReplicaSetsAndSyncRevision. */
  private *allReplicaSets(d: Deployment, rsList: readonly ReplicaSet[], create: boolean): Co<{ newRS: ReplicaSet | undefined; oldRSs: ReplicaSet[] }> {
    const found = findNewReplicaSet(d, rsList);
    const oldRSs = rsList.filter((rs) => rs !== found);
    const newRS = yield* this.getNewReplicaSet(d, rsList, oldRSs, create);
    return { newRS, oldRSs };
  }

  private *getNewReplicaSet(d: Deployment, rsList: readonly ReplicaSet[], oldRSs: ReplicaSet[], create: boolean): Co<ReplicaSet | undefined> {
    const existing = findNewReplicaSet(d, rsList);
    const newRevision = String(maxRevision(oldRSs) + 1);
    if (existing) {
      let rs = deepCopy(existing);
      const annotationsUpdated = setNewReplicaSetAnnotations(d, rs, newRevision, true);
      const minReadyNeedsUpdate = (rs.spec.minReadySeconds ?? 0) !== (d.spec.minReadySeconds ?? 0);
      if (annotationsUpdated || minReadyNeedsUpdate) {
        if (d.spec.minReadySeconds !== undefined) rs.spec.minReadySeconds = d.spec.minReadySeconds;
        rs = yield* this.replicaSets.update({ ...rs, ...rsKind });
      }
      let needsUpdate = setDeploymentRevision(d, rs.metadata.annotations?.[annotations.revision] ?? '');
      if (hasProgressDeadline(d) && !getCondition(d.status, 'Progressing')) {
        d.status ??= {};
        setCondition(d.status, newCondition('Progressing', 'True', reasons.foundNewRS, `Found new replica set "${rs.metadata.name}"`, this.nowTimestamp()));
        needsUpdate = true;
      }
      if (needsUpdate) yield* this.updateStatus(d);
      return rs;
    }
    if (!create) return undefined;

    const hash = computePodTemplateHash(d.spec.template, d.status?.collisionCount);
    const template = deepCopy(d.spec.template);
    template.metadata = { ...(template.metadata ?? {}), labels: { ...(d.spec.template.metadata?.labels ?? {}), [podTemplateHashLabel]: hash } };
    const selector: LabelSelector = deepCopy(d.spec.selector ?? {});
    selector.matchLabels = { ...(selector.matchLabels ?? {}), [podTemplateHashLabel]: hash };
    const newRS: ReplicaSet = {
      ...rsKind,
      metadata: {
        name: `${d.metadata.name}-${hash}`,
        namespace: d.metadata.namespace,
        labels: { ...template.metadata.labels! },
        ownerReferences: [newControllerRef(d, deploymentKind.apiVersion, deploymentKind.kind)],
      },
      spec: { replicas: 0, selector, template },
    };
    if (d.spec.minReadySeconds !== undefined) newRS.spec.minReadySeconds = d.spec.minReadySeconds;
    const count = newRSNewReplicas(d, [...oldRSs, newRS], newRS);
    newRS.spec.replicas = count;
    setNewReplicaSetAnnotations(d, newRS, newRevision, false);

    let created: ReplicaSet;
    let alreadyExists = false;
    try {
      created = yield* this.replicaSets.create(d.metadata.namespace, newRS);
    } catch (err) {
      if (isStatusError(err) && err.code === 409 && err.status.reason === 'AlreadyExists') {
        const rs = this.rsInformer.get(d.metadata.namespace ?? '', newRS.metadata.name ?? '');
        if (!rs) throw err;
        if (getControllerOf(rs)?.uid === d.metadata.uid && equalTemplates(rs, d)) {
          created = rs;
          alreadyExists = true;
        } else {
          // A hash collision: bump collisionCount so the next sync computes another name.
          d.status ??= {};
          d.status.collisionCount = (d.status.collisionCount ?? 0) + 1;
          yield* this.updateStatus(d);
          throw err;
        }
      } else {
        if (hasProgressDeadline(d)) {
          d.status ??= {};
          const msg = `Failed to create new replica set "${newRS.metadata.name}": ${err instanceof Error ? err.message : String(err)}`;
          setCondition(d.status, newCondition('ReplicaFailure', 'True', reasons.rsCreateError, msg, this.nowTimestamp()));
          yield* this.updateStatus(d);
        }
        throw err;
      }
    }
    if (!alreadyExists && count > 0) {
      this.recorder.event({ ...d, ...deploymentKind }, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${created.metadata.name} to ${count}`);
    }
    let needsUpdate = setDeploymentRevision(d, newRevision);
    if (!alreadyExists && hasProgressDeadline(d)) {
      d.status ??= {};
      setCondition(d.status, newCondition('Progressing', 'True', reasons.newRSCreated, `Created new replica set "${created.metadata.name}"`, this.nowTimestamp()));
      needsUpdate = true;
    }
    if (needsUpdate) yield* this.updateStatus(d);
    return created;
  }

  /** PUT deployments/<name>/status with the whole object (annotations travel along). */
  private *updateStatus(d: Deployment): Co<void> {
    const updated = yield* this.deployments.update({ ...d, ...deploymentKind }, { subresource: 'status' });
    d.metadata.resourceVersion = updated.metadata.resourceVersion;
  }

  /** isScalingEvent: an active ReplicaSet's desired-replicas annotation differs from spec.replicas. */
  private *isScalingEvent(d: Deployment, rsList: readonly ReplicaSet[]): Co<boolean> {
    const { newRS, oldRSs } = yield* this.allReplicaSets(d, rsList, false);
    for (const rs of [...(newRS ? [newRS] : []), ...oldRSs]) {
      if (replicasOf(rs) === 0) continue;
      const desired = rs.metadata.annotations?.[annotations.desiredReplicas];
      if (desired === undefined) continue;
      if (Number(desired) !== replicasOf(d)) return true;
    }
    return false;
  }

  /** sync: scaling (and paused) Deployments. */
  private *sync(d: Deployment, rsList: readonly ReplicaSet[]): Co<void> {
    const { newRS, oldRSs } = yield* this.allReplicaSets(d, rsList, false);
    const all = yield* this.scale(d, newRS, oldRSs);
    // Clean up a paused Deployment (no rollback is modelled).
    if (d.spec.paused) yield* this.cleanupDeployment(oldRSs, d);
    yield* this.syncDeploymentStatus(d, all.newRS, all.oldRSs);
  }

  /**
   * scale (sync.go): one active (or the latest) ReplicaSet takes spec.replicas; a saturated new
   * ReplicaSet scales the old ones to 0; during a rolling update the difference to replicas + maxSurge is
   * shared out in proportion to each ReplicaSet's size against its max-replicas annotation
   * (GetProportion, getReplicaSetFraction), the leftover going to the first after sorting by size.
   */
  private *scale(d: Deployment, newRS: ReplicaSet | undefined, oldRSs: ReplicaSet[]): Co<{ newRS: ReplicaSet | undefined; oldRSs: ReplicaSet[] }> {
    const replace = (rs: ReplicaSet, updated: ReplicaSet) => {
      if (rs === newRS) newRS = updated;
      else oldRSs = oldRSs.map((o) => (o === rs ? updated : o));
    };
    const newestFirst = byCreation(oldRSs).reverse();
    const active = [...newestFirst, ...(newRS ? [newRS] : [])].filter((rs) => replicasOf(rs) > 0);
    const activeOrLatest = active.length === 1 ? active[0] : active.length === 0 ? (newRS ?? newestFirst[0]) : undefined;
    if (active.length <= 1) {
      if (activeOrLatest && replicasOf(activeOrLatest) !== replicasOf(d)) replace(activeOrLatest, yield* this.scaleAndRecord(activeOrLatest, replicasOf(d), d));
      return { newRS, oldRSs };
    }
    // IsSaturated: the new ReplicaSet was sized for this spec.replicas and all of it is available.
    if (newRS && Number(newRS.metadata.annotations?.[annotations.desiredReplicas]) === replicasOf(d)
      && (newRS.status?.availableReplicas ?? 0) === replicasOf(d)) {
      for (const rs of oldRSs.filter((o) => replicasOf(o) > 0)) replace(rs, yield* this.scaleAndRecord(rs, 0, d));
      return { newRS, oldRSs };
    }
    if (!isRollingUpdate(d)) return { newRS, oldRSs };
    const allowed = replicasOf(d) > 0 ? replicasOf(d) + maxSurge(d) : 0;
    const toAdd = allowed - sumReplicas(active);
    const created = (rs: ReplicaSet) => parseTimestamp(rs.metadata.creationTimestamp ?? '') ?? 0;
    // ReplicaSetsBySizeNewer (scaling up) / ReplicaSetsBySizeOlder (scaling down): larger first, then by age.
    const ordered = [...active].sort((a, b) => replicasOf(b) - replicasOf(a)
      || (toAdd > 0 ? created(b) - created(a) : created(a) - created(b)));
    const sizes = new Map<ReplicaSet, number>();
    let added = 0;
    for (const rs of ordered) {
      if (toAdd === 0) {
        sizes.set(rs, replicasOf(rs));
        continue;
      }
      const proportion = this.proportion(rs, d, toAdd, added);
      sizes.set(rs, replicasOf(rs) + proportion);
      added += proportion;
    }
    for (const [i, rs] of ordered.entries()) {
      if (i === 0 && toAdd !== 0) sizes.set(rs, Math.max(0, sizes.get(rs)! + toAdd - added));
      replace(rs, yield* this.scaleAndRecord(rs, sizes.get(rs)!, d));
    }
    return { newRS, oldRSs };
  }

  /** GetProportion with getReplicaSetFraction. */
  private proportion(rs: ReplicaSet, d: Deployment, toAdd: number, added: number): number {
    if (replicasOf(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
    let fraction: number;
    if (replicasOf(d) === 0) {
      fraction = -replicasOf(rs);
    } else {
      const deploymentReplicas = replicasOf(d) + maxSurge(d);
      const annotated = Number(rs.metadata.annotations?.[annotations.maxReplicas] ?? NaN);
      const base = Number.isFinite(annotated) ? annotated : (d.status?.replicas ?? 0);
      // integer.RoundToInt32: round half away from zero.
      const size = (replicasOf(rs) * deploymentReplicas) / base;
      fraction = Math.sign(size) * Math.round(Math.abs(size)) - replicasOf(rs);
    }
    const allowed = toAdd - added;
    return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
  }

  /** scaleReplicaSetAndRecordEvent / scaleReplicaSet: PUT the ReplicaSet; a size change records ScalingReplicaSet. */
  private *scaleAndRecord(rs: ReplicaSet, newScale: number, d: Deployment): Co<ReplicaSet> {
    const oldScale = replicasOf(rs);
    const sizeNeedsUpdate = oldScale !== newScale;
    const max = replicasOf(d) + maxSurge(d);
    if (!sizeNeedsUpdate && !replicasAnnotationsNeedUpdate(rs, replicasOf(d), max)) return rs;
    const copy = deepCopy(rs);
    copy.spec.replicas = newScale;
    setReplicasAnnotations(copy, replicasOf(d), max);
    const updated = yield* this.replicaSets.update({ ...copy, ...rsKind });
    if (sizeNeedsUpdate) {
      const op = oldScale < newScale ? 'up' : 'down';
      this.recorder.event({ ...d, ...deploymentKind }, 'Normal', 'ScalingReplicaSet', `Scaled ${op} replica set ${rs.metadata.name} to ${newScale} from ${oldScale}`);
    }
    return updated;
  }

  /** rolloutRolling (rolling.go). */
  private *rolloutRolling(d: Deployment, rsList: readonly ReplicaSet[]): Co<void> {
    const { newRS, oldRSs } = yield* this.allReplicaSets(d, rsList, true);
    let current = newRS!;
    let olds = oldRSs;
    // reconcileNewReplicaSet
    if (replicasOf(current) !== replicasOf(d)) {
      const target = replicasOf(current) > replicasOf(d) ? replicasOf(d) : newRSNewReplicas(d, [...olds, current], current);
      if (target !== replicasOf(current)) {
        current = yield* this.scaleAndRecord(current, target, d);
        yield* this.syncRolloutStatus(d, current, olds);
        return;
      }
    }
    // reconcileOldReplicaSets
    const oldCount = sumReplicas(olds);
    if (oldCount > 0) {
      const allCount = sumReplicas([...olds, current]);
      const minAvailable = replicasOf(d) - maxUnavailable(d);
      const newUnavailable = replicasOf(current) - (current.status?.availableReplicas ?? 0);
      const maxScaledDown = allCount - minAvailable - newUnavailable;
      if (maxScaledDown > 0) {
        let scaled = 0;
        // cleanupUnhealthyReplicas
        const sorted = byCreation(olds.filter((rs) => replicasOf(rs) > 0));
        const byName = new Map(olds.map((rs) => [rs.metadata.name, rs]));
        let cleaned = 0;
        for (const rs of sorted) {
          if (cleaned >= maxScaledDown) break;
          const available = rs.status?.availableReplicas ?? 0;
          if (replicasOf(rs) === available) continue;
          const down = Math.min(maxScaledDown - cleaned, replicasOf(rs) - available);
          byName.set(rs.metadata.name, yield* this.scaleAndRecord(rs, replicasOf(rs) - down, d));
          cleaned += down;
        }
        olds = olds.map((rs) => byName.get(rs.metadata.name) ?? rs);
        scaled += cleaned;
        // scaleDownOldReplicaSetsForRollingUpdate
        const availableCount = sumAvailable([...olds, current]);
        if (availableCount > minAvailable) {
          const total = availableCount - minAvailable;
          let done = 0;
          for (const rs of byCreation(olds.filter((o) => replicasOf(o) > 0))) {
            if (done >= total) break;
            const down = Math.min(replicasOf(rs), total - done);
            byName.set(rs.metadata.name, yield* this.scaleAndRecord(rs, replicasOf(rs) - down, d));
            done += down;
          }
          olds = olds.map((rs) => byName.get(rs.metadata.name) ?? rs);
          scaled += done;
        }
        if (scaled > 0) {
          yield* this.syncRolloutStatus(d, current, olds);
          return;
        }
      }
    }
    if (deploymentComplete(d, d.status ?? {})) yield* this.cleanupDeployment(oldRSs, d);
    yield* this.syncRolloutStatus(d, current, olds);
  }

  /**
   * cleanupDeployment (sync.go): beyond spec.revisionHistoryLimit, the oldest old ReplicaSets (by
   * revision) that are scaled to 0, observed and not being deleted are deleted.
   */
  private *cleanupDeployment(oldRSs: readonly ReplicaSet[], d: Deployment): Co<void> {
    const limit = d.spec.revisionHistoryLimit;
    if (limit === undefined || limit === null) return;
    const cleanable = oldRSs.filter((rs) => rs.metadata.deletionTimestamp === undefined || rs.metadata.deletionTimestamp === null);
    const diff = cleanable.length - limit;
    if (diff <= 0) return;
    const byRevision = byCreation(cleanable).sort((a, b) => revisionOf(a) - revisionOf(b));
    for (let i = 0; i < diff; i++) {
      const rs = byRevision[i]!;
      if ((rs.status?.replicas ?? 0) !== 0 || replicasOf(rs) !== 0 || (rs.metadata.generation ?? 0) > (rs.status?.observedGeneration ?? 0)) continue;
      try {
        yield* this.replicaSets.delete(rs.metadata.namespace, rs.metadata.name ?? '', {});
      } catch (err) {
        if (!(isStatusError(err) && err.status.reason === 'NotFound')) throw err;
      }
    }
  }

  /** rolloutRecreate (recreate.go): old ReplicaSets to 0, wait for their pods, then the new one to full size. */
  private *rolloutRecreate(d: Deployment, rsList: readonly ReplicaSet[]): Co<void> {
    let { newRS, oldRSs } = yield* this.allReplicaSets(d, rsList, false);
    let scaledDown = false;
    const olds: ReplicaSet[] = [];
    for (const rs of oldRSs) {
      if (replicasOf(rs) > 0) {
        olds.push(yield* this.scaleAndRecord(rs, 0, d));
        scaledDown = true;
      } else {
        olds.push(rs);
      }
    }
    oldRSs = olds;
    if (scaledDown) {
      yield* this.syncRolloutStatus(d, newRS, oldRSs);
      return;
    }
    // oldPodsRunning: any pod of an old ReplicaSet that has not finished.
    const oldUids = new Set(oldRSs.map((rs) => rs.metadata.uid));
    const running = this.podInformer.list(d.metadata.namespace ?? '').some((p) => oldUids.has(getControllerOf(p)?.uid)
      && p.status?.phase !== 'Failed' && p.status?.phase !== 'Succeeded');
    if (running || sumActual(oldRSs) > 0) {
      yield* this.syncRolloutStatus(d, newRS, oldRSs);
      return;
    }
    if (!newRS) ({ newRS, oldRSs } = yield* this.allReplicaSets(d, rsList, true));
    if (newRS && replicasOf(newRS) !== replicasOf(d)) newRS = yield* this.scaleAndRecord(newRS, replicasOf(d), d);
    if (deploymentComplete(d, d.status ?? {})) yield* this.cleanupDeployment(oldRSs, d);
    yield* this.syncRolloutStatus(d, newRS, oldRSs);
  }

  private *syncStatusOnly(d: Deployment, rsList: readonly ReplicaSet[]): Co<void> {
    const { newRS, oldRSs } = yield* this.allReplicaSets(d, rsList, false);
    yield* this.syncDeploymentStatus(d, newRS, oldRSs);
  }

  /** syncDeploymentStatus (sync.go): write the calculated status if it changed. */
  private *syncDeploymentStatus(d: Deployment, newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[]): Co<void> {
    const status = this.calculateStatus(d, newRS, oldRSs);
    if (JSON.stringify(status) === JSON.stringify(d.status ?? {})) return;
    d.status = status;
    yield* this.updateStatus(d);
  }

  /** calculateStatus (sync.go). */
  private calculateStatus(d: Deployment, newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[]): DeploymentStatus {
    const all = [...oldRSs, ...(newRS ? [newRS] : [])];
    const available = sumAvailable(all);
    const total = sumReplicas(all);
    const status: DeploymentStatus = {};
    if (d.metadata.generation) status.observedGeneration = d.metadata.generation;
    const put = (k: 'replicas' | 'updatedReplicas' | 'readyReplicas' | 'availableReplicas' | 'unavailableReplicas', v: number) => {
      if (v !== 0) status[k] = v;
    };
    put('replicas', sumActual(all));
    put('updatedReplicas', newRS ? sumActual([newRS]) : 0);
    put('readyReplicas', sumReady(all));
    put('availableReplicas', available);
    put('unavailableReplicas', Math.max(0, total - available));
    if (d.status?.conditions) status.conditions = d.status.conditions.map((c) => ({ ...c }));
    if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount;
    const now = this.nowTimestamp();
    if (available >= replicasOf(d) - maxUnavailable(d)) {
      setCondition(status, newCondition('Available', 'True', reasons.minimumReplicasAvailable, 'Deployment has minimum availability.', now));
    } else {
      setCondition(status, newCondition('Available', 'False', reasons.minimumReplicasUnavailable, 'Deployment does not have minimum availability.', now));
    }
    return status;
  }

  /** syncRolloutStatus (progress.go): Progressing condition, then the status write; requeue a stuck rollout at its deadline. */
  private *syncRolloutStatus(d: Deployment, newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[]): Co<void> {
    const status = this.calculateStatus(d, newRS, oldRSs);
    if (!hasProgressDeadline(d)) removeCondition(status, 'Progressing');
    const current = getCondition(status, 'Progressing');
    const complete = (status.replicas ?? 0) === (status.updatedReplicas ?? 0) && current?.reason === reasons.newRSAvailable;
    const now = this.nowTimestamp();
    const nowEpoch = this.ctx.host.epochMs + this.ctx.host.now;
    if (hasProgressDeadline(d) && !complete) {
      if (deploymentComplete(d, status)) {
        setCondition(status, newCondition('Progressing', 'True', reasons.newRSAvailable, `ReplicaSet "${newRS?.metadata.name}" has successfully progressed.`, now));
      } else if (deploymentProgressing(d, status)) {
        const condition = newCondition('Progressing', 'True', reasons.rsUpdated, `ReplicaSet "${newRS?.metadata.name}" is progressing.`, now);
        if (current) {
          if (current.status === 'True') condition.lastTransitionTime = current.lastTransitionTime ?? null;
          removeCondition(status, 'Progressing');
        }
        setCondition(status, condition);
      } else if (deploymentTimedOut(d, status, nowEpoch)) {
        setCondition(status, newCondition('Progressing', 'False', reasons.timedOut, `ReplicaSet "${newRS?.metadata.name}" has timed out progressing.`, now));
      }
    }
    if (JSON.stringify(status) === JSON.stringify(d.status ?? {})) {
      this.requeueStuck(d, status, nowEpoch);
      return;
    }
    d.status = status;
    yield* this.updateStatus(d);
  }

  /** requeueStuckDeployment: look again one second after the progress deadline would pass. */
  private requeueStuck(d: Deployment, status: DeploymentStatus, nowEpoch: number): void {
    const c = getCondition(status, 'Progressing');
    if (!c || c.reason === reasons.newRSAvailable || c.reason === reasons.timedOut || !hasProgressDeadline(d)) return;
    if (deploymentComplete(d, status)) return;
    const updated = (c.lastUpdateTime ? parseTimestamp(c.lastUpdateTime) : undefined) ?? nowEpoch;
    const after = updated + (d.spec.progressDeadlineSeconds ?? 0) * second - nowEpoch;
    const key = metaNamespaceKey(d);
    if (after < second) {
      this.queue.addRateLimited(key);
      return;
    }
    // A background timer, unlike workqueue.AddAfter's: a rollout waiting for its deadline leaves the
    // engine idle, so `runUntilIdle` does not jump 10 minutes ahead to time it out.
    const readyAt = this.ctx.host.now + after + second;
    const pending = this.deadlineChecks.get(key);
    if (pending && pending.readyAt <= readyAt) return;
    pending?.timer.cancel();
    const timer = this.ctx.host.after(after + second, 'deployment.progress-deadline', () => {
      this.deadlineChecks.delete(key);
      this.queue.add(key);
    }, { background: true });
    this.deadlineChecks.set(key, { readyAt, timer });
  }
}

class ControllerError extends Error {}

function equalTemplates(rs: ReplicaSet, d: Deployment): boolean {
  return findNewReplicaSet(d, [rs]) !== undefined;
}

// The deployment controller's sync of one Deployment's ReplicaSets: find or create the new ReplicaSet
// (named `<deployment>-<pod-template-hash>`) and sync the revision, scale a Deployment whose
// spec.replicas changed in proportion across its active ReplicaSets, clean up old ReplicaSets beyond
// spec.revisionHistoryLimit, and calculate the status the rollouts (rolling.ts, recreate.ts) write.
// Models k8s pkg/controller/deployment/sync.go (getAllReplicaSetsAndSyncRevision, getNewReplicaSet,
// scale, scaleReplicaSet, cleanupDeployment, syncDeploymentStatus, calculateStatus, isScalingEvent).

import { isStatusError } from '../../api/errors.ts';
import type { Pod } from '../../api/types/core.ts';
import type { Deployment, DeploymentStatus, ReplicaSet } from '../../api/types/apps.ts';
import type { LabelSelector } from '../../api/types/meta.ts';
import { formatTimestamp, parseTimestamp } from '../../api/time.ts';
import type { EventRecorder, RateLimitingQueue, ResourceClient, SharedIndexInformer, TimerHandle } from '../../client/index.ts';
import type { Co } from '../../engine/index.ts';
import { deepCopy, getControllerOf, newControllerRef } from '../controller-utils.ts';
import type { ControllerContext } from '../kube-controller-manager.ts';
import { computePodTemplateHash } from './pod-template-hash.ts';
import {
  annotations, byCreation, findNewReplicaSet, getCondition, hasProgressDeadline, isRollingUpdate, maxRevision,
  maxSurge, maxUnavailable, newCondition, newRSNewReplicas, podTemplateHashLabel, reasons,
  replicasAnnotationsNeedUpdate, replicasOf, revisionOf, setCondition, setDeploymentRevision,
  setNewReplicaSetAnnotations, setReplicasAnnotations, sumActual, sumAvailable, sumReady, sumReplicas,
} from './deployment-util.ts';

export const deploymentKind = { apiVersion: 'apps/v1', kind: 'Deployment' } as const;
const rsKind = { apiVersion: 'apps/v1', kind: 'ReplicaSet' } as const;

/** What the sync, rollout and progress functions use of the deployment controller (dc in upstream). */
export interface DeploymentSyncContext {
  readonly ctx: ControllerContext;
  readonly deployments: ResourceClient<Deployment>;
  readonly replicaSets: ResourceClient<ReplicaSet>;
  readonly rsInformer: SharedIndexInformer<ReplicaSet>;
  readonly podInformer: SharedIndexInformer<Pod>;
  readonly recorder: EventRecorder;
  readonly queue: RateLimitingQueue;
  /** The pending progress-deadline checks, by Deployment key. */
  readonly deadlineChecks: Map<string, { readyAt: number; timer: TimerHandle }>;
}

export function nowTimestamp(dc: DeploymentSyncContext): string {
  return formatTimestamp(dc.ctx.host.epochMs + dc.ctx.host.now);
}

/** getAllReplicaSetsAndSyncRevision. */
export function* allReplicaSets(dc: DeploymentSyncContext, d: Deployment, rsList: readonly ReplicaSet[], create: boolean): Co<{ newRS: ReplicaSet | undefined; oldRSs: ReplicaSet[] }> {
  const found = findNewReplicaSet(d, rsList);
  const oldRSs = rsList.filter((rs) => rs !== found);
  const newRS = yield* getNewReplicaSet(dc, d, rsList, oldRSs, create);
  return { newRS, oldRSs };
}

function* getNewReplicaSet(dc: DeploymentSyncContext, d: Deployment, rsList: readonly ReplicaSet[], oldRSs: ReplicaSet[], create: boolean): Co<ReplicaSet | undefined> {
  const existing = findNewReplicaSet(d, rsList);
  const newRevision = String(maxRevision(oldRSs) + 1);
  if (existing) {
    // Upstream deep-copies; only the annotations (replaced whole) and minReadySeconds are changed here,
    // and every later change of the returned ReplicaSet copies it first (scaleAndRecord).
    let rs: ReplicaSet = { ...existing, metadata: { ...existing.metadata }, spec: { ...existing.spec } };
    const annotationsUpdated = setNewReplicaSetAnnotations(d, rs, newRevision, true);
    const minReadyNeedsUpdate = (rs.spec.minReadySeconds ?? 0) !== (d.spec.minReadySeconds ?? 0);
    if (annotationsUpdated || minReadyNeedsUpdate) {
      if (d.spec.minReadySeconds !== undefined) rs.spec.minReadySeconds = d.spec.minReadySeconds;
      rs = yield* dc.replicaSets.update({ ...rs, ...rsKind });
    }
    let needsUpdate = setDeploymentRevision(d, rs.metadata.annotations?.[annotations.revision] ?? '');
    if (hasProgressDeadline(d) && !getCondition(d.status, 'Progressing')) {
      d.status ??= {};
      setCondition(d.status, newCondition('Progressing', 'True', reasons.foundNewRS, `Found new replica set "${rs.metadata.name}"`, nowTimestamp(dc)));
      needsUpdate = true;
    }
    if (needsUpdate) yield* updateStatus(dc, d);
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
    created = yield* dc.replicaSets.create(d.metadata.namespace, newRS);
  } catch (err) {
    if (isStatusError(err) && err.code === 409 && err.status.reason === 'AlreadyExists') {
      const rs = dc.rsInformer.get(d.metadata.namespace ?? '', newRS.metadata.name ?? '');
      if (!rs) throw err;
      if (getControllerOf(rs)?.uid === d.metadata.uid && equalTemplates(rs, d)) {
        created = rs;
        alreadyExists = true;
      } else {
        // A hash collision: bump collisionCount so the next sync computes another name.
        d.status ??= {};
        d.status.collisionCount = (d.status.collisionCount ?? 0) + 1;
        yield* updateStatus(dc, d);
        throw err;
      }
    } else {
      if (hasProgressDeadline(d)) {
        d.status ??= {};
        const msg = `Failed to create new replica set "${newRS.metadata.name}": ${err instanceof Error ? err.message : String(err)}`;
        setCondition(d.status, newCondition('ReplicaFailure', 'True', reasons.rsCreateError, msg, nowTimestamp(dc)));
        yield* updateStatus(dc, d);
      }
      throw err;
    }
  }
  if (!alreadyExists && count > 0) {
    dc.recorder.event({ ...d, ...deploymentKind }, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${created.metadata.name} to ${count}`);
  }
  let needsUpdate = setDeploymentRevision(d, newRevision);
  if (!alreadyExists && hasProgressDeadline(d)) {
    d.status ??= {};
    setCondition(d.status, newCondition('Progressing', 'True', reasons.newRSCreated, `Created new replica set "${created.metadata.name}"`, nowTimestamp(dc)));
    needsUpdate = true;
  }
  if (needsUpdate) yield* updateStatus(dc, d);
  return created;
}

/**
 * PUT deployments/<name>/status with the whole object (annotations travel along). The body is a copy, as
 * the Go client's is its encoding: `d` is changed after (its resourceVersion from the answer, later its
 * conditions), and a body sharing its parts would change in the trace with it.
 */
export function* updateStatus(dc: DeploymentSyncContext, d: Deployment): Co<void> {
  const updated = yield* dc.deployments.update(deepCopy({ ...d, ...deploymentKind }), { subresource: 'status' });
  d.metadata.resourceVersion = updated.metadata.resourceVersion;
}

/** isScalingEvent: an active ReplicaSet's desired-replicas annotation differs from spec.replicas. */
export function* isScalingEvent(dc: DeploymentSyncContext, d: Deployment, rsList: readonly ReplicaSet[]): Co<boolean> {
  const { newRS, oldRSs } = yield* allReplicaSets(dc, d, rsList, false);
  for (const rs of [...(newRS ? [newRS] : []), ...oldRSs]) {
    if (replicasOf(rs) === 0) continue;
    const desired = rs.metadata.annotations?.[annotations.desiredReplicas];
    if (desired === undefined) continue;
    if (Number(desired) !== replicasOf(d)) return true;
  }
  return false;
}

/** sync: scaling (and paused) Deployments. */
export function* sync(dc: DeploymentSyncContext, d: Deployment, rsList: readonly ReplicaSet[]): Co<void> {
  const { newRS, oldRSs } = yield* allReplicaSets(dc, d, rsList, false);
  const all = yield* scale(dc, d, newRS, oldRSs);
  // Clean up a paused Deployment (no rollback is modelled).
  if (d.spec.paused) yield* cleanupDeployment(dc, oldRSs, d);
  yield* syncDeploymentStatus(dc, d, all.newRS, all.oldRSs);
}

/**
 * scale (sync.go): one active (or the latest) ReplicaSet takes spec.replicas; a saturated new
 * ReplicaSet scales the old ones to 0; during a rolling update the difference to replicas + maxSurge is
 * shared out in proportion to each ReplicaSet's size against its max-replicas annotation
 * (GetProportion, getReplicaSetFraction), the leftover going to the first after sorting by size.
 */
function* scale(dc: DeploymentSyncContext, d: Deployment, newRS: ReplicaSet | undefined, oldRSs: ReplicaSet[]): Co<{ newRS: ReplicaSet | undefined; oldRSs: ReplicaSet[] }> {
  const replace = (rs: ReplicaSet, updated: ReplicaSet) => {
    if (rs === newRS) newRS = updated;
    else oldRSs = oldRSs.map((o) => (o === rs ? updated : o));
  };
  const newestFirst = byCreation(oldRSs).reverse();
  const active = [...newestFirst, ...(newRS ? [newRS] : [])].filter((rs) => replicasOf(rs) > 0);
  const activeOrLatest = active.length === 1 ? active[0] : active.length === 0 ? (newRS ?? newestFirst[0]) : undefined;
  if (active.length <= 1) {
    if (activeOrLatest && replicasOf(activeOrLatest) !== replicasOf(d)) replace(activeOrLatest, yield* scaleAndRecord(dc, activeOrLatest, replicasOf(d), d));
    return { newRS, oldRSs };
  }
  // IsSaturated: the new ReplicaSet was sized for this spec.replicas and all of it is available.
  if (newRS && Number(newRS.metadata.annotations?.[annotations.desiredReplicas]) === replicasOf(d)
    && (newRS.status?.availableReplicas ?? 0) === replicasOf(d)) {
    for (const rs of oldRSs.filter((o) => replicasOf(o) > 0)) replace(rs, yield* scaleAndRecord(dc, rs, 0, d));
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
    const proportion = getProportion(rs, d, toAdd, added);
    sizes.set(rs, replicasOf(rs) + proportion);
    added += proportion;
  }
  for (const [i, rs] of ordered.entries()) {
    if (i === 0 && toAdd !== 0) sizes.set(rs, Math.max(0, sizes.get(rs)! + toAdd - added));
    replace(rs, yield* scaleAndRecord(dc, rs, sizes.get(rs)!, d));
  }
  return { newRS, oldRSs };
}

/** GetProportion with getReplicaSetFraction. */
function getProportion(rs: ReplicaSet, d: Deployment, toAdd: number, added: number): number {
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
export function* scaleAndRecord(dc: DeploymentSyncContext, rs: ReplicaSet, newScale: number, d: Deployment): Co<ReplicaSet> {
  const oldScale = replicasOf(rs);
  const sizeNeedsUpdate = oldScale !== newScale;
  const max = replicasOf(d) + maxSurge(d);
  if (!sizeNeedsUpdate && !replicasAnnotationsNeedUpdate(rs, replicasOf(d), max)) return rs;
  const copy = deepCopy(rs);
  copy.spec.replicas = newScale;
  setReplicasAnnotations(copy, replicasOf(d), max);
  const updated = yield* dc.replicaSets.update({ ...copy, ...rsKind });
  if (sizeNeedsUpdate) {
    const op = oldScale < newScale ? 'up' : 'down';
    dc.recorder.event({ ...d, ...deploymentKind }, 'Normal', 'ScalingReplicaSet', `Scaled ${op} replica set ${rs.metadata.name} to ${newScale} from ${oldScale}`);
  }
  return updated;
}

/**
 * cleanupDeployment (sync.go): beyond spec.revisionHistoryLimit, the oldest old ReplicaSets (by
 * revision) that are scaled to 0, observed and not being deleted are deleted.
 */
export function* cleanupDeployment(dc: DeploymentSyncContext, oldRSs: readonly ReplicaSet[], d: Deployment): Co<void> {
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
      yield* dc.replicaSets.delete(rs.metadata.namespace, rs.metadata.name ?? '', {});
    } catch (err) {
      if (!(isStatusError(err) && err.status.reason === 'NotFound')) throw err;
    }
  }
}

export function* syncStatusOnly(dc: DeploymentSyncContext, d: Deployment, rsList: readonly ReplicaSet[]): Co<void> {
  const { newRS, oldRSs } = yield* allReplicaSets(dc, d, rsList, false);
  yield* syncDeploymentStatus(dc, d, newRS, oldRSs);
}

/** syncDeploymentStatus (sync.go): write the calculated status if it changed. */
function* syncDeploymentStatus(dc: DeploymentSyncContext, d: Deployment, newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[]): Co<void> {
  const status = calculateStatus(dc, d, newRS, oldRSs);
  if (JSON.stringify(status) === JSON.stringify(d.status ?? {})) return;
  d.status = status;
  yield* updateStatus(dc, d);
}

/** calculateStatus (sync.go). */
export function calculateStatus(dc: DeploymentSyncContext, d: Deployment, newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[]): DeploymentStatus {
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
  const now = nowTimestamp(dc);
  if (available >= replicasOf(d) - maxUnavailable(d)) {
    setCondition(status, newCondition('Available', 'True', reasons.minimumReplicasAvailable, 'Deployment has minimum availability.', now));
  } else {
    setCondition(status, newCondition('Available', 'False', reasons.minimumReplicasUnavailable, 'Deployment does not have minimum availability.', now));
  }
  return status;
}

function equalTemplates(rs: ReplicaSet, d: Deployment): boolean {
  return findNewReplicaSet(d, [rs]) !== undefined;
}

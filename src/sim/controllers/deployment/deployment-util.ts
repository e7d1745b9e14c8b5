// Deployment helpers: fenceposts, revisions, annotations, conditions, replica counts.
// Models k8s pkg/controller/deployment/util/deployment_util.go (ResolveFenceposts, MaxSurge,
// MaxUnavailable, NewRSNewReplicas, SetNewReplicaSetAnnotations, SetReplicasAnnotations,
// ReplicasAnnotationsNeedUpdate, FindNewReplicaSet, EqualIgnoreHash, DeploymentComplete,
// DeploymentProgressing, DeploymentTimedOut, NewDeploymentCondition, SetDeploymentCondition).

import type { PodTemplateSpec } from '../../api/types/core.ts';
import type { Deployment, DeploymentCondition, DeploymentStatus, ReplicaSet } from '../../api/types/apps.ts';
import { parseTimestamp } from '../../api/time.ts';
import { canonicalDump } from './pod-template-hash.ts';
import { copyJson } from '../../api/json-copy.ts';

export const podTemplateHashLabel = 'pod-template-hash';
export const annotations = {
  revision: 'deployment.kubernetes.io/revision',
  revisionHistory: 'deployment.kubernetes.io/revision-history',
  desiredReplicas: 'deployment.kubernetes.io/desired-replicas',
  maxReplicas: 'deployment.kubernetes.io/max-replicas',
  rollbackTo: 'deprecated.deployment.rollback.to',
  lastApplied: 'kubectl.kubernetes.io/last-applied-configuration',
} as const;

/** Deployment annotations never copied to its ReplicaSets. */
const skippedAnnotations: ReadonlySet<string> = new Set([
  annotations.lastApplied, annotations.revision, annotations.revisionHistory, annotations.desiredReplicas,
  annotations.maxReplicas, annotations.rollbackTo,
]);

export const reasons = {
  newRSCreated: 'NewReplicaSetCreated',
  foundNewRS: 'FoundNewReplicaSet',
  rsUpdated: 'ReplicaSetUpdated',
  newRSAvailable: 'NewReplicaSetAvailable',
  timedOut: 'ProgressDeadlineExceeded',
  rsCreateError: 'ReplicaSetCreateError',
  minimumReplicasAvailable: 'MinimumReplicasAvailable',
  minimumReplicasUnavailable: 'MinimumReplicasUnavailable',
} as const;

export const replicasOf = (obj: { spec: { replicas?: number } }): number => obj.spec.replicas ?? 1;

/** intstr.GetScaledValueFromIntOrPercent. */
export function scaledValue(value: number | string | undefined, total: number, roundUp: boolean): number {
  if (value === undefined) return 0;
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(value);
  if (!m) return Number(value) || 0;
  const v = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(v) : Math.floor(v);
}

export function isRollingUpdate(d: Deployment): boolean {
  return (d.spec.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
}

/** ResolveFenceposts: surge rounds up, unavailable down; both 0 → unavailable 1. */
export function resolveFenceposts(d: Deployment): [surge: number, unavailable: number] {
  const desired = replicasOf(d);
  const ru = d.spec.strategy?.rollingUpdate;
  const surge = scaledValue(ru?.maxSurge ?? '25%', desired, true);
  let unavailable = scaledValue(ru?.maxUnavailable ?? '25%', desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return [surge, unavailable];
}

export function maxSurge(d: Deployment): number {
  return isRollingUpdate(d) ? resolveFenceposts(d)[0] : 0;
}

export function maxUnavailable(d: Deployment): number {
  if (!isRollingUpdate(d) || replicasOf(d) === 0) return 0;
  return Math.min(resolveFenceposts(d)[1], replicasOf(d));
}

export const sumReplicas = (rss: readonly ReplicaSet[]): number => rss.reduce((n, rs) => n + replicasOf(rs), 0);
export const sumActual = (rss: readonly ReplicaSet[]): number => rss.reduce((n, rs) => n + (rs.status?.replicas ?? 0), 0);
export const sumReady = (rss: readonly ReplicaSet[]): number => rss.reduce((n, rs) => n + (rs.status?.readyReplicas ?? 0), 0);
export const sumAvailable = (rss: readonly ReplicaSet[]): number => rss.reduce((n, rs) => n + (rs.status?.availableReplicas ?? 0), 0);

/** NewRSNewReplicas: how big the new ReplicaSet may be now. */
export function newRSNewReplicas(d: Deployment, allRSs: readonly ReplicaSet[], newRS: ReplicaSet): number {
  if (!isRollingUpdate(d)) return replicasOf(d);
  const maxTotal = replicasOf(d) + maxSurge(d);
  const current = sumReplicas(allRSs);
  if (current >= maxTotal) return replicasOf(newRS);
  const scaleUp = Math.min(maxTotal - current, replicasOf(d) - replicasOf(newRS));
  return replicasOf(newRS) + scaleUp;
}

/** withoutHash's dump of frozen templates (the informers' ReplicaSets): a Deployment sync compares each of them. */
const dumpOfFrozenTemplate = new WeakMap<PodTemplateSpec, string>();

function withoutHash(template: PodTemplateSpec | undefined): string {
  if (template === undefined || !Object.isFrozen(template)) return computeWithoutHash(template);
  let dump = dumpOfFrozenTemplate.get(template);
  if (dump === undefined) dumpOfFrozenTemplate.set(template, (dump = computeWithoutHash(template)));
  return dump;
}

function computeWithoutHash(template: PodTemplateSpec | undefined): string {
  const copy = copyJson(template ?? {});
  if (copy.metadata?.labels) {
    delete copy.metadata.labels[podTemplateHashLabel];
    if (Object.keys(copy.metadata.labels).length === 0) delete copy.metadata.labels;
  }
  return canonicalDump(copy);
}

const creationTime = (rs: ReplicaSet) => parseTimestamp(rs.metadata.creationTimestamp ?? '') ?? 0;

/** ReplicaSetsByCreationTimestamp: oldest first, ties by name. */
export function byCreation(rss: readonly ReplicaSet[]): ReplicaSet[] {
  return [...rss].sort((a, b) => creationTime(a) - creationTime(b) || ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
}

/** FindNewReplicaSet: the oldest ReplicaSet whose template equals the Deployment's. */
export function findNewReplicaSet(d: Deployment, rss: readonly ReplicaSet[]): ReplicaSet | undefined {
  if (rss.length === 0) return undefined;
  const wanted = withoutHash(d.spec.template);
  return byCreation(rss).find((rs) => withoutHash(rs.spec.template) === wanted);
}

export function revisionOf(obj: { metadata: { annotations?: Record<string, string> } }): number {
  return Number(obj.metadata.annotations?.[annotations.revision] ?? 0) || 0;
}

export function maxRevision(rss: readonly ReplicaSet[]): number {
  return rss.reduce((m, rs) => Math.max(m, revisionOf(rs)), 0);
}

function sortedAnnotations(a: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(a).sort(([x], [y]) => (x < y ? -1 : 1)));
}

/** SetReplicasAnnotations: desired-replicas and max-replicas; true if either changed. */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number): boolean {
  const a = { ...(rs.metadata.annotations ?? {}) };
  let changed = false;
  if (a[annotations.desiredReplicas] !== String(desired)) {
    a[annotations.desiredReplicas] = String(desired);
    changed = true;
  }
  if (a[annotations.maxReplicas] !== String(max)) {
    a[annotations.maxReplicas] = String(max);
    changed = true;
  }
  if (changed) rs.metadata.annotations = sortedAnnotations(a);
  return changed;
}

export function replicasAnnotationsNeedUpdate(rs: ReplicaSet, desired: number, max: number): boolean {
  const a = rs.metadata.annotations ?? {};
  return a[annotations.desiredReplicas] !== String(desired) || a[annotations.maxReplicas] !== String(max);
}

/** SetNewReplicaSetAnnotations: copies the Deployment's annotations and sets the revision (and, for a new RS, the replica annotations). */
export function setNewReplicaSetAnnotations(d: Deployment, rs: ReplicaSet, newRevision: string, exists: boolean): boolean {
  const a = { ...(rs.metadata.annotations ?? {}) };
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (skippedAnnotations.has(k) || a[k] === v) continue;
    a[k] = v;
    changed = true;
  }
  const oldRevision = a[annotations.revision];
  if ((Number(oldRevision ?? 0) || 0) < Number(newRevision)) {
    a[annotations.revision] = newRevision;
    changed = true;
  }
  rs.metadata.annotations = sortedAnnotations(a);
  if (!exists && setReplicasAnnotations(rs, replicasOf(d), replicasOf(d) + maxSurge(d))) changed = true;
  if (Object.keys(rs.metadata.annotations ?? {}).length === 0) delete rs.metadata.annotations;
  return changed;
}

/** SetDeploymentRevision: true if the Deployment's revision annotation changed. */
export function setDeploymentRevision(d: Deployment, revision: string): boolean {
  if (d.metadata.annotations?.[annotations.revision] === revision) return false;
  d.metadata.annotations = { ...(d.metadata.annotations ?? {}), [annotations.revision]: revision };
  return true;
}

export function getCondition(status: DeploymentStatus | undefined, type: string): DeploymentCondition | undefined {
  return status?.conditions?.find((c) => c.type === type);
}

export function newCondition(type: string, status: 'True' | 'False', reason: string, message: string, now: string): DeploymentCondition {
  return { type, status, lastUpdateTime: now, lastTransitionTime: now, reason, message };
}

/** SetDeploymentCondition: same status and reason → no change; same status → keep the transition time. */
export function setCondition(status: DeploymentStatus, condition: DeploymentCondition): void {
  const current = getCondition(status, condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  const c = { ...condition };
  if (current && current.status === c.status) c.lastTransitionTime = current.lastTransitionTime ?? null;
  status.conditions = [...(status.conditions ?? []).filter((x) => x.type !== c.type), c];
}

export function removeCondition(status: DeploymentStatus, type: string): void {
  if (!status.conditions) return;
  status.conditions = status.conditions.filter((c) => c.type !== type);
}

export function hasProgressDeadline(d: Deployment): boolean {
  const s = d.spec.progressDeadlineSeconds;
  return s !== undefined && s !== 2147483647;
}

export function deploymentComplete(d: Deployment, s: DeploymentStatus): boolean {
  const r = replicasOf(d);
  return (s.updatedReplicas ?? 0) === r && (s.replicas ?? 0) === r && (s.availableReplicas ?? 0) === r
    && (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 0);
}

export function deploymentProgressing(d: Deployment, s: DeploymentStatus): boolean {
  const o = d.status ?? {};
  const oldOld = (o.replicas ?? 0) - (o.updatedReplicas ?? 0);
  const newOld = (s.replicas ?? 0) - (s.updatedReplicas ?? 0);
  return (s.updatedReplicas ?? 0) > (o.updatedReplicas ?? 0) || newOld < oldOld
    || (s.readyReplicas ?? 0) > (o.readyReplicas ?? 0) || (s.availableReplicas ?? 0) > (o.availableReplicas ?? 0);
}

/** DeploymentTimedOut: the Progressing condition was last updated more than progressDeadlineSeconds ago. */
export function deploymentTimedOut(d: Deployment, s: DeploymentStatus, nowEpochMs: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getCondition(s, 'Progressing');
  if (!c || c.reason === reasons.newRSAvailable) return false;
  if (c.reason === reasons.timedOut) return true;
  const from = parseTimestamp(c.lastUpdateTime ?? '') ?? nowEpochMs;
  return from + (d.spec.progressDeadlineSeconds ?? 0) * 1000 < nowEpochMs;
}

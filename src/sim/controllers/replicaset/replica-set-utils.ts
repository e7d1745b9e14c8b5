// What a ReplicaSet's status says of its pods, and how it is written.
// Models k8s pkg/controller/replicaset/replica_set_utils.go (calculateStatus, updateReplicaSetStatus).

import { matchesLabels, type Selector } from '../../api/labels.ts';
import type { Pod } from '../../api/types/core.ts';
import type { ReplicaSet, ReplicaSetCondition, ReplicaSetStatus } from '../../api/types/apps.ts';
import { formatTimestamp } from '../../api/time.ts';
import type { ResourceClient } from '../../client/index.ts';
import type { Co } from '../../engine/index.ts';
import { isPodAvailable, podFacts } from '../controller-utils.ts';

export const rsKind = { apiVersion: 'apps/v1', kind: 'ReplicaSet' } as const;

/** What calculateStatus counts over the claimed pods. */
export interface StatusCounts {
  readonly replicas: number;
  readonly fullyLabeled: number;
  readonly ready: number;
  readonly available: number;
}

/** What claimPods found, read as late as each use needs. */
export interface Claimed {
  readonly count: number;
  /** The claimed pods, in list order. */
  pods(): readonly Pod[];
  /** The pods the ReplicaSet controls, active or not (getPodsToDelete's related pods), in list order. */
  related(): readonly Pod[];
  /** calculateStatus's counts at `nowEpoch`. */
  statusCounts(nowEpoch: number): StatusCounts;
}

/** calculateStatus (replica_set_utils.go). */
export function calculateStatus(rs: ReplicaSet, filtered: Claimed, manageError: unknown, nowEpoch: number): ReplicaSetStatus {
  const { fullyLabeled, ready, available } = filtered.statusCounts(nowEpoch);
  let conditions = (rs.status?.conditions ?? []).filter((c) => c.type !== 'ReplicaFailure' || manageError !== undefined);
  if (manageError !== undefined && !conditions.some((c) => c.type === 'ReplicaFailure')) {
    const creating = (rs.spec.replicas ?? 1) > filtered.count;
    const condition: ReplicaSetCondition = {
      type: 'ReplicaFailure', status: 'True',
      lastTransitionTime: formatTimestamp(nowEpoch),
      reason: creating ? 'FailedCreate' : 'FailedDelete',
      message: manageError instanceof Error ? manageError.message : String(manageError),
    };
    conditions = [...conditions, condition];
  }
  const status: ReplicaSetStatus = { replicas: filtered.count };
  if (fullyLabeled) status.fullyLabeledReplicas = fullyLabeled;
  if (ready) status.readyReplicas = ready;
  if (available) status.availableReplicas = available;
  if (rs.status?.observedGeneration !== undefined) status.observedGeneration = rs.status.observedGeneration;
  if (conditions.length) status.conditions = conditions;
  return status;
}

/** updateReplicaSetStatus: PUT …/status unless nothing changed; one retry after a fresh GET. */
export function* updateReplicaSetStatus(replicaSets: ResourceClient<ReplicaSet>, rs: ReplicaSet, status: ReplicaSetStatus): Co<ReplicaSet> {
  const cur = rs.status;
  if (cur && cur.replicas === status.replicas
    && (cur.fullyLabeledReplicas ?? 0) === (status.fullyLabeledReplicas ?? 0)
    && (cur.readyReplicas ?? 0) === (status.readyReplicas ?? 0)
    && (cur.availableReplicas ?? 0) === (status.availableReplicas ?? 0)
    && cur.observedGeneration === rs.metadata.generation
    && JSON.stringify(cur.conditions ?? []) === JSON.stringify(status.conditions ?? [])) {
    return rs;
  }
  let target = rs;
  for (let attempt = 0; ; attempt++) {
    const next: ReplicaSetStatus = { ...status };
    if (target.metadata.generation !== undefined) next.observedGeneration = target.metadata.generation;
    const body: ReplicaSet = { ...target, ...rsKind, status: next };
    try {
      return yield* replicaSets.update(body, { subresource: 'status' });
    } catch (err) {
      if (attempt >= 1) throw err;
      target = yield* replicaSets.get(rs.metadata.namespace, rs.metadata.name ?? '');
    }
  }
}

/** calculateStatus's loop over the claimed pods. */
export function countPods(pods: readonly Pod[], templateLabels: Selector, minReady: number, nowEpoch: number): StatusCounts {
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const p of pods) {
    if (matchesLabels(templateLabels, p.metadata.labels)) fullyLabeled++;
    if (podFacts(p).ready) {
      ready++;
      if (minReady === 0 || isPodAvailable(p, minReady, nowEpoch)) available++;
    }
  }
  return { replicas: pods.length, fullyLabeled, ready, available };
}

// A rollout's progress: the Progressing condition (NewReplicaSetAvailable, ReplicaSetUpdated,
// ProgressDeadlineExceeded) with the status write, and a look again when a stuck rollout's
// progressDeadlineSeconds pass.
// Models k8s pkg/controller/deployment/progress.go (syncRolloutStatus, requeueStuckDeployment).

import type { Deployment, DeploymentStatus, ReplicaSet } from '../../api/types/apps.ts';
import { parseTimestamp } from '../../api/time.ts';
import { metaNamespaceKey } from '../../client/index.ts';
import { second, type Co } from '../../engine/index.ts';
import {
  deploymentComplete, deploymentProgressing, deploymentTimedOut, getCondition, hasProgressDeadline,
  newCondition, reasons, removeCondition, setCondition,
} from './deployment-util.ts';
import { calculateStatus, nowTimestamp, updateStatus, type DeploymentSyncContext } from './sync.ts';

/** syncRolloutStatus (progress.go): Progressing condition, then the status write; requeue a stuck rollout at its deadline. */
export function* syncRolloutStatus(dc: DeploymentSyncContext, d: Deployment, newRS: ReplicaSet | undefined, oldRSs: readonly ReplicaSet[]): Co<void> {
  const status = calculateStatus(dc, d, newRS, oldRSs);
  if (!hasProgressDeadline(d)) removeCondition(status, 'Progressing');
  const current = getCondition(status, 'Progressing');
  const complete = (status.replicas ?? 0) === (status.updatedReplicas ?? 0) && current?.reason === reasons.newRSAvailable;
  const now = nowTimestamp(dc);
  const nowEpoch = dc.ctx.host.epochMs + dc.ctx.host.now;
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
    requeueStuck(dc, d, status, nowEpoch);
    return;
  }
  d.status = status;
  yield* updateStatus(dc, d);
}

/** requeueStuckDeployment: look again one second after the progress deadline would pass. */
function requeueStuck(dc: DeploymentSyncContext, d: Deployment, status: DeploymentStatus, nowEpoch: number): void {
  const c = getCondition(status, 'Progressing');
  if (!c || c.reason === reasons.newRSAvailable || c.reason === reasons.timedOut || !hasProgressDeadline(d)) return;
  if (deploymentComplete(d, status)) return;
  const updated = (c.lastUpdateTime ? parseTimestamp(c.lastUpdateTime) : undefined) ?? nowEpoch;
  const after = updated + (d.spec.progressDeadlineSeconds ?? 0) * second - nowEpoch;
  const key = metaNamespaceKey(d);
  if (after < second) {
    dc.queue.addRateLimited(key);
    return;
  }
  // A background timer, unlike workqueue.AddAfter's: a rollout waiting for its deadline leaves the
  // engine idle, so `runUntilIdle` does not jump 10 minutes ahead to time it out.
  const readyAt = dc.ctx.host.now + after + second;
  const pending = dc.deadlineChecks.get(key);
  if (pending && pending.readyAt <= readyAt) return;
  pending?.timer.cancel();
  const timer = dc.ctx.host.after(after + second, 'deployment.progress-deadline', () => {
    dc.deadlineChecks.delete(key);
    dc.queue.add(key);
  }, { background: true });
  dc.deadlineChecks.set(key, { readyAt, timer });
}

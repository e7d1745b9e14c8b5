// The Recreate strategy: scale every old ReplicaSet to 0, wait until their pods are gone, then scale the
// new ReplicaSet to spec.replicas.
// Models k8s pkg/controller/deployment/recreate.go (rolloutRecreate, scaleDownOldReplicaSetsForRecreate,
// oldPodsRunning, scaleUpNewReplicaSetForRecreate).

import type { Deployment, ReplicaSet } from '../../api/types/apps.ts';
import type { Co } from '../../engine/index.ts';
import { getControllerOf } from '../controller-utils.ts';
import {
  deploymentComplete, replicasOf, sumActual,
} from './deployment-util.ts';
import { syncRolloutStatus } from './progress.ts';
import { allReplicaSets, cleanupDeployment, scaleAndRecord, type DeploymentSyncContext } from './sync.ts';

/** rolloutRecreate (recreate.go): old ReplicaSets to 0, wait for their pods, then the new one to full size. */
export function* rolloutRecreate(dc: DeploymentSyncContext, d: Deployment, rsList: readonly ReplicaSet[]): Co<void> {
  let { newRS, oldRSs } = yield* allReplicaSets(dc, d, rsList, false);
  let scaledDown = false;
  const olds: ReplicaSet[] = [];
  for (const rs of oldRSs) {
    if (replicasOf(rs) > 0) {
      olds.push(yield* scaleAndRecord(dc, rs, 0, d));
      scaledDown = true;
    } else {
      olds.push(rs);
    }
  }
  oldRSs = olds;
  if (scaledDown) {
    yield* syncRolloutStatus(dc, d, newRS, oldRSs);
    return;
  }
  // oldPodsRunning: any pod of an old ReplicaSet that has not finished.
  const oldUids = new Set(oldRSs.map((rs) => rs.metadata.uid));
  const running = dc.podInformer.list(d.metadata.namespace ?? '').some((p) => oldUids.has(getControllerOf(p)?.uid)
    && p.status?.phase !== 'Failed' && p.status?.phase !== 'Succeeded');
  if (running || sumActual(oldRSs) > 0) {
    yield* syncRolloutStatus(dc, d, newRS, oldRSs);
    return;
  }
  if (!newRS) ({ newRS, oldRSs } = yield* allReplicaSets(dc, d, rsList, true));
  if (newRS && replicasOf(newRS) !== replicasOf(d)) newRS = yield* scaleAndRecord(dc, newRS, replicasOf(d), d);
  if (deploymentComplete(d, d.status ?? {})) yield* cleanupDeployment(dc, oldRSs, d);
  yield* syncRolloutStatus(dc, d, newRS, oldRSs);
}

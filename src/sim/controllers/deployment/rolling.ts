// The RollingUpdate strategy: scale the new ReplicaSet up within maxSurge, then the old ones down within
// maxUnavailable (unhealthy replicas first), one step per sync.
// Models k8s pkg/controller/deployment/rolling.go (rolloutRolling, reconcileNewReplicaSet,
// reconcileOldReplicaSets, cleanupUnhealthyReplicas, scaleDownOldReplicaSetsForRollingUpdate).

import type { Deployment, ReplicaSet } from '../../api/types/apps.ts';
import type { Co } from '../../engine/index.ts';
import {
  byCreation, deploymentComplete, maxUnavailable, newRSNewReplicas, replicasOf, sumAvailable, sumReplicas,
} from './deployment-util.ts';
import { syncRolloutStatus } from './progress.ts';
import { allReplicaSets, cleanupDeployment, scaleAndRecord, type DeploymentSyncContext } from './sync.ts';

/** rolloutRolling (rolling.go). */
export function* rolloutRolling(dc: DeploymentSyncContext, d: Deployment, rsList: readonly ReplicaSet[]): Co<void> {
  const { newRS, oldRSs } = yield* allReplicaSets(dc, d, rsList, true);
  let current = newRS!;
  let olds = oldRSs;
  // reconcileNewReplicaSet
  if (replicasOf(current) !== replicasOf(d)) {
    const target = replicasOf(current) > replicasOf(d) ? replicasOf(d) : newRSNewReplicas(d, [...olds, current], current);
    if (target !== replicasOf(current)) {
      current = yield* scaleAndRecord(dc, current, target, d);
      yield* syncRolloutStatus(dc, d, current, olds);
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
        byName.set(rs.metadata.name, yield* scaleAndRecord(dc, rs, replicasOf(rs) - down, d));
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
          byName.set(rs.metadata.name, yield* scaleAndRecord(dc, rs, replicasOf(rs) - down, d));
          done += down;
        }
        olds = olds.map((rs) => byName.get(rs.metadata.name) ?? rs);
        scaled += done;
      }
      if (scaled > 0) {
        yield* syncRolloutStatus(dc, d, current, olds);
        return;
      }
    }
  }
  if (deploymentComplete(d, d.status ?? {})) yield* cleanupDeployment(dc, oldRSs, d);
  yield* syncRolloutStatus(dc, d, current, olds);
}

// The deployment controller: for every Deployment, a ReplicaSet `<deployment>-<pod-template-hash>` per
// template, scaled by the strategy (RollingUpdate within maxSurge/maxUnavailable, or Recreate), and the
// Deployment's revision annotation, status and conditions. This file is the controller's informer
// handlers and its sync of one key; the sync itself is sync.ts, the strategies rolling.ts and
// recreate.ts, the Progressing condition progress.ts, the helpers deployment-util.ts.
// Models k8s pkg/controller/deployment/deployment_controller.go (handlers, syncDeployment,
// getReplicaSetsForDeployment, handleErr with maxRetries 15).
//
// Not modelled: pause/rollback (rollback.go), the SelectingAll guard.

import { labelSelectorAsSelector, matchesLabels } from '../../api/labels.ts';
import type { Pod } from '../../api/types/core.ts';
import type { Deployment, ReplicaSet } from '../../api/types/apps.ts';
import type { OwnerReference } from '../../api/types/meta.ts';
import {
  DeletedFinalStateUnknown, metaNamespaceKey, RateLimitingQueue, runWorkers, splitMetaNamespaceKey,
  type EventRecorder, type SharedIndexInformer,
} from '../../client/index.ts';
import type { Co } from '../../engine/index.ts';
import { deepCopy, getControllerOf, isProgrammingError } from '../controller-utils.ts';
import { claim } from '../controller-ref-manager.ts';
import type { ControllerContext } from '../kube-controller-manager.ts';
import { rolloutRecreate } from './recreate.ts';
import { rolloutRolling } from './rolling.ts';
import { deploymentKind, isScalingEvent, sync, syncStatusOnly, type DeploymentSyncContext } from './sync.ts';

export const deploymentControllerName = 'deployment-controller';
/** maxRetries: a Deployment is retried 15 times, then dropped until its next change. */
export const deploymentMaxRetries = 15;

export class DeploymentController {
  readonly queue: RateLimitingQueue;
  readonly recorder: EventRecorder;
  readonly dInformer: SharedIndexInformer<Deployment>;
  readonly rsInformer: SharedIndexInformer<ReplicaSet>;
  readonly podInformer: SharedIndexInformer<Pod>;
  private readonly dc: DeploymentSyncContext;

  constructor(private readonly ctx: ControllerContext) {
    this.queue = new RateLimitingQueue(ctx.host, 'deployment');
    this.recorder = ctx.broadcaster.newRecorder({ component: deploymentControllerName });
    this.dInformer = ctx.informers.informerFor<Deployment>('deployments', 'apps');
    this.rsInformer = ctx.informers.informerFor<ReplicaSet>('replicasets', 'apps');
    this.podInformer = ctx.informers.informerFor<Pod>('pods');
    this.dc = {
      ctx,
      deployments: ctx.client.resource<Deployment>('deployments', 'apps'),
      replicaSets: ctx.client.resource<ReplicaSet>('replicasets', 'apps'),
      rsInformer: this.rsInformer,
      podInformer: this.podInformer,
      recorder: this.recorder,
      queue: this.queue,
      deadlineChecks: new Map(),
    };

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

  *syncDeployment(key: string): Co<void> {
    const [namespace, name] = splitMetaNamespaceKey(key);
    const cached = this.dInformer.get(namespace, name);
    if (!cached) return;
    const d = copySharingTemplate(cached);
    const rsList = yield* this.replicaSetsFor(d);
    if (d.metadata.deletionTimestamp) {
      yield* syncStatusOnly(this.dc, d, rsList);
      return;
    }
    if (yield* isScalingEvent(this.dc, d, rsList)) {
      yield* sync(this.dc, d, rsList);
      return;
    }
    if (d.spec.strategy?.type === 'Recreate') yield* rolloutRecreate(this.dc, d, rsList);
    else yield* rolloutRolling(this.dc, d, rsList);
  }

  /** getReplicaSetsForDeployment: ClaimReplicaSets (adopt matching orphans, release what no longer matches). */
  private *replicaSetsFor(d: Deployment): Co<ReplicaSet[]> {
    const selector = labelSelectorAsSelector(d.spec.selector);
    if (!selector.ok) throw new ControllerError(`deployment ${d.metadata.name} has invalid label selector: ${selector.error}`);
    return yield* claim(this.rsInformer.list(d.metadata.namespace ?? ''), {
      owner: d, ownerApiVersion: deploymentKind.apiVersion, ownerKind: deploymentKind.kind, selector: selector.value,
      ownerClient: this.dc.deployments, client: this.dc.replicaSets,
    });
  }

}

class ControllerError extends Error {}

/**
 * The sync's deep copy of the cached Deployment, except that spec.template stays the cache's frozen
 * object: no step of the sync changes the template (writing into it would throw), and findNewReplicaSet
 * remembers a frozen template's dump instead of copying and dumping it on every sync. An unfrozen
 * template (a test's informer) is copied with the rest.
 */
function copySharingTemplate(cached: Deployment): Deployment {
  const template = cached.spec.template;
  if (!Object.isFrozen(template)) return deepCopy(cached);
  // Key for key, in the cache's order, as copyJson copies.
  const copyExcept = (source: object, shared: string, keep: unknown): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(source)) {
      if (v !== undefined) out[k] = k === shared ? keep : deepCopy(v);
    }
    return out;
  };
  return copyExcept(cached, 'spec', copyExcept(cached.spec, 'template', template)) as unknown as Deployment;
}

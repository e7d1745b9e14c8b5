// The Deployments' and ReplicaSets' subresources with their REST storage: scale (an autoscaling/v1 Scale
// read from and written into the workload's spec.replicas) and status. StatefulSets and
// ReplicationControllers share the scale storage (registry/strategies.ts).
// Models k8s pkg/registry/apps/deployment/storage/storage.go (ScaleREST.Get, ScaleREST.Update,
// scaleFromDeployment, scaleUpdatedObjectInfo, StatusREST) and pkg/registry/apps/replicaset/storage,
// whose ScaleREST has the same shape.

import { formatLabelSelector } from '../../api/labels.ts';
import type { Deployment, ReplicaSet } from '../../api/types/apps.ts';
import type { Scale } from '../../api/types/autoscaling.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import type { Co } from '../../engine/index.ts';
import { deploymentStatusStrategy, replicaSetStatusStrategy } from './apps.ts';
import type { GenericStore, RegistryContext } from './generic-store.ts';
import { statusREST, type SubresourceREST, type UpdatedObject } from './rest.ts';

/**
 * The workload's Scale (scaleFromDeployment, scaleFromReplicaSet, and for the StatefulSets and
 * ReplicationControllers served without a controller, scaleFromStatefulSet and scaleFromRC: an RC's
 * selector is a plain label map, printed as labels.SelectorFromSet does).
 */
function scaleOf(obj: KubeObject): Scale {
  const workload = obj as Deployment | ReplicaSet;
  const rcSelector = obj.kind === 'ReplicationController' ? (workload.spec?.selector as Record<string, string> | undefined) : undefined;
  const selector = formatLabelSelector(obj.kind === 'ReplicationController' ? (rcSelector ? { matchLabels: rcSelector } : undefined) : workload.spec?.selector);
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: obj.metadata.name ?? '', namespace: obj.metadata.namespace ?? '', uid: obj.metadata.uid ?? '',
      resourceVersion: obj.metadata.resourceVersion ?? '', creationTimestamp: obj.metadata.creationTimestamp ?? null,
    },
    spec: { replicas: workload.spec?.replicas ?? 0 },
    status: { replicas: workload.status?.replicas ?? 0, ...(selector ? { selector } : {}) },
  } as Scale;
}

/** The workload with the Scale's replicas; the Scale's resourceVersion, when set, is the optimistic lock. */
function withScale(obj: KubeObject, scale: Scale): KubeObject {
  const rv = scale.metadata?.resourceVersion;
  if (rv) obj.metadata.resourceVersion = rv;
  const workload = obj as Deployment;
  workload.spec = { ...workload.spec, replicas: scale.spec?.replicas ?? 0 } as Deployment['spec'];
  return obj;
}

export const scaleREST: SubresourceREST = {
  *get(store: GenericStore, ctx: RegistryContext, name: string, resourceVersion: string): Co<KubeObject> {
    return scaleOf(yield* store.get(ctx, name, resourceVersion));
  },
  // scaleUpdatedObjectInfo: the new Scale is made from the current workload's, then written into it.
  *update(store: GenericStore, ctx: RegistryContext, name: string, updated: UpdatedObject): Co<KubeObject> {
    const { object } = yield* store.update(ctx, name, (current) => withScale(current!, updated(scaleOf(current!)) as Scale), { subresource: 'scale' });
    return scaleOf(object);
  },
};

export const deploymentSubresources: ReadonlyMap<string, SubresourceREST> = new Map([
  ['scale', scaleREST],
  ['status', statusREST(deploymentStatusStrategy)],
]);

export const replicaSetSubresources: ReadonlyMap<string, SubresourceREST> = new Map([
  ['scale', scaleREST],
  ['status', statusREST(replicaSetStatusStrategy)],
]);

// Which strategy serves which resource, and which REST storage serves each of its subresources.

import type { ResourceInfo } from '../../api/resources.ts';
import { deploymentStrategy, replicaSetStrategy } from './apps.ts';
import {
  clusterRoleBindingStrategy, clusterRoleStrategy, configMapStrategy, eventStrategy, leaseStrategy, namespaceStrategy,
  nodeStrategy, roleBindingStrategy, roleStrategy, serviceAccountStrategy,
} from './core.ts';
import { namespaceFinalizeStrategy, namespaceStatusStrategy } from './namespaces.ts';
import { deploymentSubresources, replicaSetSubresources, scaleREST } from './deployment-storage.ts';
import { podSubresources } from './pod-storage.ts';
import { podStrategy } from './pods.ts';
import { statusREST, type SubresourceREST } from './rest.ts';
import { endpointSliceStrategy, endpointsStrategy, priorityClassStrategy, serviceStatusStrategy, serviceStrategy } from './services.ts';
import type { Strategy } from './strategy.ts';
import {
  cronJobStrategy, daemonSetStrategy, ingressStrategy, jobStrategy, persistentVolumeClaimStrategy, persistentVolumeStrategy, replicationControllerStrategy,
  secretStrategy, statefulSetStrategy, workloadStatusStrategies,
} from './workloads.ts';

const all: readonly Strategy[] = [
  podStrategy, deploymentStrategy, replicaSetStrategy, namespaceStrategy, nodeStrategy, eventStrategy, configMapStrategy,
  serviceAccountStrategy, leaseStrategy, roleStrategy, clusterRoleStrategy, roleBindingStrategy, clusterRoleBindingStrategy,
  serviceStrategy, endpointsStrategy, endpointSliceStrategy, priorityClassStrategy, secretStrategy, persistentVolumeClaimStrategy,
  persistentVolumeStrategy, replicationControllerStrategy, daemonSetStrategy, statefulSetStrategy, jobStrategy, cronJobStrategy, ingressStrategy,
];

const byResource = new Map(all.map((s) => [`${s.resource.group}/${s.resource.resource}`, s]));

/** The kinds served without a controller that have a scale subresource in 1.28. */
const scalable = new Set(['/replicationcontrollers', 'apps/statefulsets']);

/** Per resource, its subresources' REST storage by name (nodes/status is the node store as it is). */
const subresources = new Map<string, ReadonlyMap<string, SubresourceREST>>([
  ['/pods', podSubresources],
  ['apps/deployments', deploymentSubresources],
  ['apps/replicasets', replicaSetSubresources],
  ['/namespaces', new Map([['status', statusREST(namespaceStatusStrategy)], ['finalize', statusREST(namespaceFinalizeStrategy)]])],
  ['/services', new Map([['status', statusREST(serviceStatusStrategy)]])],
  ...workloadStatusStrategies.map(([resource, status]) => [
    resource,
    new Map<string, SubresourceREST>([['status', statusREST(status)], ...(scalable.has(resource) ? [['scale', scaleREST] as const] : [])]),
  ] as const),
]);

export function strategyFor(r: ResourceInfo): Strategy {
  const s = byResource.get(`${r.group}/${r.resource}`);
  if (!s) throw new Error(`no registry strategy for ${r.resource}.${r.group}`);
  return s;
}

export function subresourceREST(r: ResourceInfo, subresource: string): SubresourceREST | undefined {
  return subresources.get(`${r.group}/${r.resource}`)?.get(subresource);
}

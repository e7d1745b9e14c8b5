// Which strategy serves which resource, and which subresources have a status strategy.

import type { ResourceInfo } from '../../api/resources.ts';
import { deploymentStatusStrategy, deploymentStrategy, replicaSetStatusStrategy, replicaSetStrategy } from './apps.ts';
import {
  clusterRoleBindingStrategy, clusterRoleStrategy, configMapStrategy, eventStrategy, leaseStrategy, namespaceStrategy,
  nodeStrategy, roleBindingStrategy, roleStrategy, serviceAccountStrategy,
} from './core.ts';
import { namespaceFinalizeStrategy, namespaceStatusStrategy } from './namespaces.ts';
import { podStatusStrategy, podStrategy } from './pods.ts';
import { endpointSliceStrategy, endpointsStrategy, priorityClassStrategy, serviceStatusStrategy, serviceStrategy } from './services.ts';
import type { StatusStrategy, Strategy } from './strategy.ts';
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

const statusStrategies = new Map<string, StatusStrategy>([
  ['/pods', podStatusStrategy],
  ['apps/deployments', deploymentStatusStrategy],
  ['apps/replicasets', replicaSetStatusStrategy],
  ['/namespaces', namespaceStatusStrategy],
  ['/services', serviceStatusStrategy],
  ...workloadStatusStrategies,
]);

const finalizeStrategies = new Map<string, StatusStrategy>([
  ['/namespaces', namespaceFinalizeStrategy],
]);

export function strategyFor(r: ResourceInfo): Strategy {
  const s = byResource.get(`${r.group}/${r.resource}`);
  if (!s) throw new Error(`no registry strategy for ${r.resource}.${r.group}`);
  return s;
}

export function statusStrategyFor(r: ResourceInfo, subresource = 'status'): StatusStrategy | undefined {
  return (subresource === 'finalize' ? finalizeStrategies : statusStrategies).get(`${r.group}/${r.resource}`);
}

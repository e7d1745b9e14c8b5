// Services, Endpoints, EndpointSlices and PriorityClasses in the registry. A Service's status is cleared on
// create and kept on update (the status subresource writes it); an update that leaves out the allocated
// values (clusterIP, clusterIPs, ipFamilies, ipFamilyPolicy, nodePorts — what `kubectl apply` of a manifest
// without them sends) keeps the stored ones. The allocation itself is the Service REST's begin-create and
// after-delete hooks (server.ts wires service-rest.ts into the generic store).
// Models k8s pkg/registry/core/service/strategy.go (PrepareForCreate/Update, serviceStatusStrategy),
// pkg/registry/core/service/storage/storage.go (patchAllocatedValues), pkg/registry/core/endpoint,
// pkg/registry/discovery/endpointslice and pkg/registry/scheduling/priorityclass strategies.

import type { Service } from '../../api/types/index.ts';
import { resourceInfo, strategy } from './base.ts';
import type { StatusStrategy } from './strategy.ts';

export const serviceStrategy = strategy(resourceInfo('', 'services'), {
  prepareForCreate(obj) {
    (obj as Service).status = {};
  },
  prepareForUpdate(obj, old) {
    const svc = obj as Service;
    const prev = old as Service;
    svc.status = prev.status ?? {};
    patchAllocatedValues(svc, prev);
  },
});

/** patchAllocatedValues: fields the user did not set keep what the allocators gave the old object. */
function patchAllocatedValues(svc: Service, old: Service): void {
  const spec = svc.spec ?? (svc.spec = {});
  const prev = old.spec ?? {};
  const needsClusterIP = (t: string | undefined) => (t ?? 'ClusterIP') !== 'ExternalName';
  if (needsClusterIP(spec.type) && needsClusterIP(prev.type)) {
    if (!spec.clusterIP && prev.clusterIP) spec.clusterIP = prev.clusterIP;
    if ((spec.clusterIPs ?? []).length === 0 && prev.clusterIPs) spec.clusterIPs = [...prev.clusterIPs];
    if ((spec.ipFamilies ?? []).length === 0 && prev.ipFamilies) spec.ipFamilies = [...prev.ipFamilies];
    if (spec.ipFamilyPolicy === undefined && prev.ipFamilyPolicy !== undefined) spec.ipFamilyPolicy = prev.ipFamilyPolicy;
  }
  if ((spec.type === 'NodePort' || spec.type === 'LoadBalancer') && (prev.type === 'NodePort' || prev.type === 'LoadBalancer')) {
    for (const port of spec.ports ?? []) {
      if (port.nodePort) continue;
      const match = (prev.ports ?? []).find((p) => p.port === port.port && (p.protocol ?? 'TCP') === (port.protocol ?? 'TCP'));
      if (match?.nodePort) port.nodePort = match.nodePort;
    }
  }
}

export const serviceStatusStrategy: StatusStrategy = {
  prepareForUpdate(obj, old) {
    (obj as Service).spec = (old as Service).spec;
  },
  validateUpdate: () => [],
};

export const endpointsStrategy = strategy(resourceInfo('', 'endpoints'), { allowCreateOnUpdate: true });
export const endpointSliceStrategy = strategy(resourceInfo('discovery.k8s.io', 'endpointslices'));
export const priorityClassStrategy = strategy(resourceInfo('scheduling.k8s.io', 'priorityclasses'));

// What kube-apiserver creates for itself when it starts, as a 1.28 apiserver's post-start hooks do: the
// system namespaces, the RBAC bootstrap policy (bootstrap-policy.ts), the system PriorityClasses, the
// Service IP and NodePort ranges, and the `kubernetes` Service in `default` with its Endpoints and
// EndpointSlice pointing at the apiserver itself.
// Models k8s pkg/controlplane/controller/systemnamespaces, pkg/registry/rbac/rest/storage_rbac.go
// (PostStartHook), pkg/registry/scheduling/rest/storage_scheduling.go (AddSystemPriorityClasses and
// pkg/apis/scheduling SystemPriorityClasses), pkg/controlplane/controller/kubernetesservice (CreateOrUpdate
// of the master service: ClusterIP the first address of the range, port https 443 → 6443) and
// pkg/controlplane/reconcilers (the Endpoints with the endpointslice.kubernetes.io/skip-mirror label, and
// endpointsadapter.go's EndpointSlice mirrored from them).

import type { KubeObject } from '../api/types/meta.ts';
import type { Endpoints, EndpointSlice, PriorityClass, Service } from '../api/types/service.ts';
import { bootstrapRbacObjects } from './bootstrap-policy.ts';

export const systemNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

/** `--secure-port` and the port the `kubernetes` Service publishes it on. */
export const apiserverSecurePort = 6443;
export const kubernetesServicePort = 443;
/** `--advertise-address`: the control-plane host on the nodes' network (the nodes are 172.18.0.2 and up). */
export const defaultAdvertiseAddress = '172.18.0.1';

/** The bootstrap RBAC objects, in creation order, each with its resource. */
export function bootstrapPolicy(): Array<{ resource: string; group: string; namespace: string; object: KubeObject }> {
  return bootstrapRbacObjects().map(({ resource, object }) => ({ resource, group: 'rbac.authorization.k8s.io', namespace: '', object }));
}

/** scheduling.SystemPriorityClasses(): system-node-critical and system-cluster-critical. */
export function systemPriorityClasses(): PriorityClass[] {
  const pc = (name: string, value: number, description: string): PriorityClass => ({
    apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, description, preemptionPolicy: 'PreemptLowerPriority',
  });
  return [
    pc('system-node-critical', 2000001000, 'Used for system critical pods that must not be moved from their current node.'),
    pc('system-cluster-critical', 2000000000, 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.'),
  ];
}

/** The master Service as kubernetesservice.Controller creates it (the allocators give it 10.96.0.1). */
export function kubernetesService(clusterIP: string): Service {
  return {
    apiVersion: 'v1', kind: 'Service',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: {
      ports: [{ name: 'https', protocol: 'TCP', port: kubernetesServicePort, targetPort: apiserverSecurePort }],
      clusterIP, clusterIPs: [clusterIP], type: 'ClusterIP', sessionAffinity: 'None', ipFamilyPolicy: 'SingleStack', internalTrafficPolicy: 'Cluster',
    },
  };
}

/** The reconciler's Endpoints for the master Service. */
export function kubernetesEndpoints(address: string): Endpoints {
  return {
    apiVersion: 'v1', kind: 'Endpoints',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [{ addresses: [{ ip: address }], ports: [{ name: 'https', port: apiserverSecurePort, protocol: 'TCP' }] }],
  };
}

/** endpointsadapter.endpointSliceFromEndpoints. */
export function kubernetesEndpointSlice(address: string): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
    addressType: 'IPv4',
    endpoints: [{ addresses: [address], conditions: { ready: true } }],
    ports: [{ name: 'https', protocol: 'TCP', port: apiserverSecurePort }],
  };
}

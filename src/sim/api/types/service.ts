// core/v1 Service, Endpoints and RangeAllocation; discovery.k8s.io/v1 EndpointSlice; scheduling.k8s.io/v1
// PriorityClass: what a fresh cluster's kube-apiserver stores for itself and what Services are made of.
// Models k8s.io/api/core/v1/types.go (Service*, Endpoints*, RangeAllocation), discovery/v1/types.go and
// scheduling/v1/types.go (v0.28).

import type { IntOrString, ObjectReference, PreemptionPolicy, Protocol } from './core.ts';
import type { Condition, KubeObject } from './meta.ts';

export type ServiceType = 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';
export type IPFamily = 'IPv4' | 'IPv6';
export type IPFamilyPolicy = 'SingleStack' | 'PreferDualStack' | 'RequireDualStack';

export interface ServicePort {
  name?: string;
  protocol?: Protocol;
  appProtocol?: string;
  port: number;
  targetPort?: IntOrString;
  nodePort?: number;
}

export interface ServiceSpec {
  ports?: ServicePort[];
  selector?: Record<string, string>;
  clusterIP?: string;
  clusterIPs?: string[];
  type?: ServiceType;
  externalIPs?: string[];
  sessionAffinity?: 'ClientIP' | 'None';
  loadBalancerIP?: string;
  loadBalancerSourceRanges?: string[];
  externalName?: string;
  externalTrafficPolicy?: 'Cluster' | 'Local';
  healthCheckNodePort?: number;
  publishNotReadyAddresses?: boolean;
  sessionAffinityConfig?: { clientIP?: { timeoutSeconds?: number } };
  ipFamilies?: IPFamily[];
  ipFamilyPolicy?: IPFamilyPolicy;
  allocateLoadBalancerNodePorts?: boolean;
  loadBalancerClass?: string;
  internalTrafficPolicy?: 'Cluster' | 'Local';
}

export interface ServiceStatus {
  loadBalancer?: { ingress?: Array<{ ip?: string; hostname?: string }> };
  conditions?: Condition[];
}

export interface Service extends KubeObject {
  spec?: ServiceSpec;
  status?: ServiceStatus;
}

export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: ObjectReference;
}

export interface EndpointPort {
  name?: string;
  port: number;
  protocol?: Protocol;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

export interface Endpoints extends KubeObject {
  subsets?: EndpointSubset[];
}

/** discovery/v1 EndpointConditions. */
export interface EndpointConditions {
  ready?: boolean;
  serving?: boolean;
  terminating?: boolean;
}

/** discovery/v1 Endpoint. */
export interface SliceEndpoint {
  addresses: string[];
  conditions?: EndpointConditions;
  hostname?: string;
  targetRef?: ObjectReference;
  nodeName?: string;
  zone?: string;
}

/** discovery/v1 EndpointPort (every field a pointer). */
export interface SlicePort {
  name?: string;
  protocol?: Protocol;
  port?: number;
  appProtocol?: string;
}

export interface EndpointSlice extends KubeObject {
  addressType: 'IPv4' | 'IPv6' | 'FQDN';
  endpoints: SliceEndpoint[] | null;
  ports: SlicePort[] | null;
}

export interface PriorityClass extends KubeObject {
  value: number;
  globalDefault?: boolean;
  description?: string;
  preemptionPolicy?: PreemptionPolicy;
}

/** core/v1 RangeAllocation: an allocator's bitmap as stored under /registry/ranges/. */
export interface RangeAllocation extends KubeObject {
  range: string;
  /** base64 of the bitmap's big-endian bytes (a Go big.Int's Bytes()). */
  data: string;
}

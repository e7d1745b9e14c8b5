// core/v1 types served by Podflow: Namespace, Node, Binding, Event, ServiceAccount, ConfigMap; the Pod
// and the structures it is built from are pod.ts (re-exported here). Field names and optionality follow
// the Go structs' JSON tags.
// Models k8s.io/api/core/v1/types.go.

import type { ConditionStatus, KubeObject, MicroTimestamp, Timestamp } from './meta.ts';
import type { LocalObjectReference, ObjectReference, ResourceList, Taint } from './pod.ts';

export type * from './pod.ts';

export type NamespacePhase = 'Active' | 'Terminating';

export interface NamespaceCondition {
  type: string;
  status: ConditionStatus;
  lastTransitionTime?: Timestamp | null;
  reason?: string;
  message?: string;
}

export interface Namespace extends KubeObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: NamespacePhase; conditions?: NamespaceCondition[] };
}

export interface NodeAddress {
  type: 'Hostname' | 'InternalIP' | 'ExternalIP' | 'InternalDNS' | 'ExternalDNS';
  address: string;
}

export interface NodeCondition {
  type: 'Ready' | 'MemoryPressure' | 'DiskPressure' | 'PIDPressure' | 'NetworkUnavailable' | string;
  status: ConditionStatus;
  lastHeartbeatTime?: Timestamp | null;
  lastTransitionTime?: Timestamp | null;
  reason?: string;
  message?: string;
}

export interface NodeSystemInfo {
  machineID: string;
  systemUUID: string;
  bootID: string;
  kernelVersion: string;
  osImage: string;
  containerRuntimeVersion: string;
  kubeletVersion: string;
  kubeProxyVersion: string;
  operatingSystem: string;
  architecture: string;
}

export interface ContainerImage {
  names?: string[];
  sizeBytes?: number;
}

export interface NodeSpec {
  podCIDR?: string;
  podCIDRs?: string[];
  providerID?: string;
  unschedulable?: boolean;
  taints?: Taint[];
  configSource?: Record<string, unknown>;
  externalID?: string;
}

export interface NodeStatus {
  capacity?: ResourceList;
  allocatable?: ResourceList;
  phase?: string;
  conditions?: NodeCondition[];
  addresses?: NodeAddress[];
  daemonEndpoints?: { kubeletEndpoint?: { Port: number } };
  nodeInfo?: NodeSystemInfo;
  images?: ContainerImage[];
  volumesInUse?: string[];
  volumesAttached?: { name: string; devicePath: string }[];
  config?: Record<string, unknown>;
}

export interface Node extends KubeObject {
  spec?: NodeSpec;
  status?: NodeStatus;
}

/** The body of `POST pods/<name>/binding`. */
export interface Binding extends KubeObject {
  target: ObjectReference;
}

export interface EventSource {
  component?: string;
  host?: string;
}

export interface EventSeries {
  count?: number;
  lastObservedTime?: MicroTimestamp;
}

/** core/v1 Event. */
export interface Event extends KubeObject {
  involvedObject: ObjectReference;
  reason?: string;
  message?: string;
  source?: EventSource;
  firstTimestamp?: Timestamp | null;
  lastTimestamp?: Timestamp | null;
  count?: number;
  type?: 'Normal' | 'Warning' | string;
  /** Serialized as `null` when zero. */
  eventTime?: MicroTimestamp | null;
  series?: EventSeries;
  action?: string;
  related?: ObjectReference;
  reportingComponent?: string;
  reportingInstance?: string;
}

export interface ServiceAccount extends KubeObject {
  secrets?: ObjectReference[];
  imagePullSecrets?: LocalObjectReference[];
  automountServiceAccountToken?: boolean;
}

/** A component's health as kube-apiserver probed it when asked (never stored). */
export interface ComponentCondition {
  /** Only `Healthy`. */
  type: string;
  /** `True`, `False` or `Unknown`. */
  status: string;
  message?: string;
  error?: string;
}

/** Deprecated in 1.19: `kubectl get componentstatuses`. */
export interface ComponentStatus extends KubeObject {
  conditions?: ComponentCondition[];
}

export interface ConfigMap extends KubeObject {
  immutable?: boolean;
  data?: Record<string, string>;
  /** Base64-encoded bytes per key. */
  binaryData?: Record<string, string>;
}

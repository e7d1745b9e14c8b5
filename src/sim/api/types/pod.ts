// core/v1's Pod and what it is built from: containers (ports, env, mounts, resources, probes), volumes,
// scheduling constraints (node selector terms, affinity, tolerations, topology spread), the pod spec and
// status, and the references and quantities other core kinds share. Field names and optionality follow
// the Go structs' JSON tags; rarely used subtrees (volume sources beyond the common ones, security
// contexts, lifecycle hooks) are typed loosely but are carried through unchanged.
// Models k8s.io/api/core/v1/types.go.

import type { ConditionStatus, KubeObject, LabelSelector, ObjectMeta, Timestamp } from './meta.ts';

/** Resource name → Quantity string (`cpu: "500m"`, `memory: "128Mi"`). */
export type ResourceList = Record<string, string>;
/** intstr.IntOrString: a number, or a string such as `"25%"` or a port name. */
export type IntOrString = number | string;
export type Protocol = 'TCP' | 'UDP' | 'SCTP';
export type PullPolicy = 'Always' | 'Never' | 'IfNotPresent';
export type RestartPolicy = 'Always' | 'OnFailure' | 'Never';
export type DNSPolicy = 'ClusterFirstWithHostNet' | 'ClusterFirst' | 'Default' | 'None';
export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
export type TolerationOperator = 'Exists' | 'Equal';
export type PreemptionPolicy = 'PreemptLowerPriority' | 'Never';
export type TerminationMessagePolicy = 'File' | 'FallbackToLogsOnError';
export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
export type PodQOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';
export type NodeSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';

export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface LocalObjectReference {
  name?: string;
}

export interface ContainerPort {
  name?: string;
  hostPort?: number;
  containerPort: number;
  protocol?: Protocol;
  hostIP?: string;
}

export interface ObjectFieldSelector {
  apiVersion?: string;
  fieldPath: string;
}

export interface ResourceFieldSelector {
  containerName?: string;
  resource: string;
  divisor?: string;
}

export interface KeySelector {
  name?: string;
  key: string;
  optional?: boolean;
}

export interface EnvVarSource {
  fieldRef?: ObjectFieldSelector;
  resourceFieldRef?: ResourceFieldSelector;
  configMapKeyRef?: KeySelector;
  secretKeyRef?: KeySelector;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: EnvVarSource;
}

export interface EnvFromSource {
  prefix?: string;
  configMapRef?: LocalObjectReference & { optional?: boolean };
  secretRef?: LocalObjectReference & { optional?: boolean };
}

export interface ResourceRequirements {
  limits?: ResourceList;
  requests?: ResourceList;
  claims?: { name: string }[];
}

export interface VolumeMount {
  name: string;
  readOnly?: boolean;
  mountPath: string;
  subPath?: string;
  mountPropagation?: string;
  subPathExpr?: string;
}

export interface HTTPGetAction {
  path?: string;
  port: IntOrString;
  host?: string;
  scheme?: 'HTTP' | 'HTTPS';
  httpHeaders?: { name: string; value: string }[];
}

export interface Probe {
  exec?: { command?: string[] };
  httpGet?: HTTPGetAction;
  tcpSocket?: { port: IntOrString; host?: string };
  grpc?: { port: number; service?: string };
  initialDelaySeconds?: number;
  timeoutSeconds?: number;
  periodSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
  terminationGracePeriodSeconds?: number;
}

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  workingDir?: string;
  ports?: ContainerPort[];
  envFrom?: EnvFromSource[];
  env?: EnvVar[];
  /** Always present once stored (`resources: {}`): Go never omits a struct. */
  resources?: ResourceRequirements;
  resizePolicy?: { resourceName: string; restartPolicy: string }[];
  restartPolicy?: 'Always';
  volumeMounts?: VolumeMount[];
  volumeDevices?: { name: string; devicePath: string }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: Record<string, unknown>;
  terminationMessagePath?: string;
  terminationMessagePolicy?: TerminationMessagePolicy;
  imagePullPolicy?: PullPolicy;
  securityContext?: Record<string, unknown>;
  stdin?: boolean;
  stdinOnce?: boolean;
  tty?: boolean;
}

export interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}

export interface VolumeProjection {
  secret?: { name?: string; items?: KeyToPath[]; optional?: boolean };
  configMap?: { name?: string; items?: KeyToPath[]; optional?: boolean };
  downwardAPI?: { items?: { path: string; fieldRef?: ObjectFieldSelector; resourceFieldRef?: ResourceFieldSelector; mode?: number }[] };
  serviceAccountToken?: { audience?: string; expirationSeconds?: number; path: string };
}

/**
 * A volume: its name plus exactly one source. The common sources are typed; any other source of
 * core/v1 VolumeSource (nfs, csi, …) is carried as plain data.
 */
export interface Volume {
  name: string;
  emptyDir?: { medium?: string; sizeLimit?: string };
  hostPath?: { path: string; type?: string };
  configMap?: { name?: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
  secret?: { secretName?: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
  projected?: { sources?: VolumeProjection[]; defaultMode?: number };
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  downwardAPI?: Record<string, unknown>;
  [source: string]: unknown;
}

export interface Toleration {
  key?: string;
  operator?: TolerationOperator;
  value?: string;
  effect?: TaintEffect;
  tolerationSeconds?: number;
}

export interface Taint {
  key: string;
  value?: string;
  effect: TaintEffect;
  timeAdded?: Timestamp;
}

export interface NodeSelectorRequirement {
  key: string;
  operator: NodeSelectorOperator;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface NodeSelector {
  nodeSelectorTerms: NodeSelectorTerm[];
}

export interface PreferredSchedulingTerm {
  weight: number;
  preference: NodeSelectorTerm;
}

export interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector;
  preferredDuringSchedulingIgnoredDuringExecution?: PreferredSchedulingTerm[];
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelector;
  namespaces?: string[];
  topologyKey: string;
  namespaceSelector?: LabelSelector;
}

export interface WeightedPodAffinityTerm {
  weight: number;
  podAffinityTerm: PodAffinityTerm;
}

export interface PodAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
  preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
}

export interface Affinity {
  nodeAffinity?: NodeAffinity;
  podAffinity?: PodAffinity;
  podAntiAffinity?: PodAffinity;
}

export interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway';
  labelSelector?: LabelSelector;
  minDomains?: number;
  nodeAffinityPolicy?: 'Honor' | 'Ignore';
  nodeTaintsPolicy?: 'Honor' | 'Ignore';
  matchLabelKeys?: string[];
}

export interface PodSpec {
  volumes?: Volume[];
  initContainers?: Container[];
  containers: Container[];
  ephemeralContainers?: (Container & { targetContainerName?: string })[];
  restartPolicy?: RestartPolicy;
  terminationGracePeriodSeconds?: number;
  activeDeadlineSeconds?: number;
  dnsPolicy?: DNSPolicy;
  nodeSelector?: Record<string, string>;
  serviceAccountName?: string;
  /** Deprecated alias of serviceAccountName. */
  serviceAccount?: string;
  automountServiceAccountToken?: boolean;
  nodeName?: string;
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  shareProcessNamespace?: boolean;
  securityContext?: Record<string, unknown>;
  imagePullSecrets?: LocalObjectReference[];
  hostname?: string;
  subdomain?: string;
  affinity?: Affinity;
  schedulerName?: string;
  tolerations?: Toleration[];
  hostAliases?: { ip: string; hostnames?: string[] }[];
  priorityClassName?: string;
  priority?: number;
  dnsConfig?: Record<string, unknown>;
  readinessGates?: { conditionType: string }[];
  runtimeClassName?: string;
  enableServiceLinks?: boolean;
  preemptionPolicy?: PreemptionPolicy;
  overhead?: ResourceList;
  topologySpreadConstraints?: TopologySpreadConstraint[];
  setHostnameAsFQDN?: boolean;
  os?: { name: string };
  hostUsers?: boolean;
  schedulingGates?: { name: string }[];
  resourceClaims?: Record<string, unknown>[];
}

export interface PodCondition {
  type: 'PodScheduled' | 'PodReadyToStartContainers' | 'Initialized' | 'ContainersReady' | 'Ready' | 'DisruptionTarget' | string;
  status: ConditionStatus;
  /** Serialized as `null` when zero. */
  lastProbeTime?: Timestamp | null;
  lastTransitionTime?: Timestamp | null;
  reason?: string;
  message?: string;
}

export interface ContainerStateWaiting {
  reason?: string;
  message?: string;
}

export interface ContainerStateRunning {
  startedAt?: Timestamp | null;
}

export interface ContainerStateTerminated {
  exitCode: number;
  signal?: number;
  reason?: string;
  message?: string;
  startedAt?: Timestamp | null;
  finishedAt?: Timestamp | null;
  containerID?: string;
}

export interface ContainerState {
  waiting?: ContainerStateWaiting;
  running?: ContainerStateRunning;
  terminated?: ContainerStateTerminated;
}

export interface ContainerStatus {
  name: string;
  state?: ContainerState;
  lastState?: ContainerState;
  ready: boolean;
  restartCount: number;
  image: string;
  imageID: string;
  containerID?: string;
  started?: boolean;
  allocatedResources?: ResourceList;
  resources?: ResourceRequirements;
}

export interface PodStatus {
  phase?: PodPhase;
  conditions?: PodCondition[];
  message?: string;
  reason?: string;
  nominatedNodeName?: string;
  hostIP?: string;
  hostIPs?: { ip: string }[];
  podIP?: string;
  podIPs?: { ip: string }[];
  startTime?: Timestamp;
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
  qosClass?: PodQOSClass;
  ephemeralContainerStatuses?: ContainerStatus[];
  resize?: string;
  resourceClaimStatuses?: Record<string, unknown>[];
}

/** `spec` is always present on the wire (Go never omits a struct); `status` may be left out when writing. */
export interface Pod extends KubeObject {
  spec: PodSpec;
  status?: PodStatus;
}

export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec?: PodSpec;
}

// Defaulting as kube-apiserver 1.28 applies it when it decodes a request body (before admission):
// what the generated SetObjectDefaults_<Kind> functions set. Each function fills in missing fields of
// the object it is given, in place. Admission plugins (ServiceAccount, DefaultTolerationSeconds,
// Priority's `priority: 0` and `preemptionPolicy`) and registry strategies (status clearing,
// generation, the namespace `kubernetes` finalizer) come later in the request and are not here.
// Models k8s pkg/apis/core/v1/defaults.go and zz_generated.defaults.go, pkg/apis/apps/v1/defaults.go,
// pkg/apis/rbac/v1/defaults.go, pkg/apis/batch/v1/defaults.go.

import { parseImageName } from './image.ts';
import { parseQuantity, quantityString, roundUpQuantity } from './quantity.ts';
import type { GroupVersionKind } from './gvk.ts';
import type {
  ClusterRoleBinding, Container, Deployment, HTTPGetAction, Namespace, Node, Pod, PodSpec, PodTemplateSpec, Probe,
  ReplicaSet, ResourceList, RoleBinding, Subject, Volume, Service, Endpoints, EndpointSlice, PriorityClass,
  CronJob, DaemonSet, Job, JobSpec, PersistentVolume, PersistentVolumeClaim, ReplicationController, Secret, StatefulSet,
} from './types/index.ts';
import type { KubeObject } from './types/meta.ts';

/** Kubernetes' default pull policy: Always for `:latest` or no tag, else IfNotPresent (also for unparsable names). */
export function defaultImagePullPolicy(image: string | undefined): 'Always' | 'IfNotPresent' {
  const parsed = parseImageName(image ?? '');
  return parsed.ok && parsed.value.tag === 'latest' ? 'Always' : 'IfNotPresent';
}

/** SetDefaults_ResourceList: every quantity rounded up to milli units and re-printed canonically. */
function defaultResourceList(list: ResourceList | undefined): void {
  if (list === undefined) return;
  for (const [name, text] of Object.entries(list)) {
    const q = parseQuantity(text);
    if (q.ok) list[name] = quantityString(roundUpQuantity(q.value, -3));
  }
}

function defaultHTTPGet(action: HTTPGetAction | undefined): void {
  if (action === undefined) return;
  action.path ||= '/';
  action.scheme ||= 'HTTP';
}

function defaultProbe(probe: Probe | undefined): void {
  if (probe === undefined) return;
  probe.timeoutSeconds ||= 1;
  probe.periodSeconds ||= 10;
  probe.successThreshold ||= 1;
  probe.failureThreshold ||= 3;
  defaultHTTPGet(probe.httpGet);
  if (probe.grpc !== undefined) probe.grpc.service ??= '';
}

interface LifecycleHandlers {
  postStart?: { httpGet?: HTTPGetAction };
  preStop?: { httpGet?: HTTPGetAction };
}

/** SetDefaults_Container plus the generated per-field defaults of a container. */
function defaultContainer(c: Container): void {
  c.imagePullPolicy ||= defaultImagePullPolicy(c.image);
  c.terminationMessagePath ||= '/dev/termination-log';
  c.terminationMessagePolicy ||= 'File';
  for (const port of c.ports ?? []) port.protocol ||= 'TCP';
  for (const env of c.env ?? []) if (env.valueFrom?.fieldRef !== undefined) env.valueFrom.fieldRef.apiVersion ||= 'v1';
  c.resources ??= {};
  defaultResourceList(c.resources.limits);
  defaultResourceList(c.resources.requests);
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
  const lifecycle = c.lifecycle as LifecycleHandlers | undefined;
  defaultHTTPGet(lifecycle?.postStart?.httpGet);
  defaultHTTPGet(lifecycle?.preStop?.httpGet);
}

const volumeSources = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile', 'configMap',
  'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO', 'storageos',
  'csi', 'ephemeral',
] as const;

interface DownwardAPIItems {
  items?: { fieldRef?: { apiVersion?: string } }[];
  defaultMode?: number;
}

/** SetDefaults_Volume and the volume source defaults: no source means `emptyDir: {}`; file modes 0644 (420). */
function defaultVolume(v: Volume): void {
  if (!volumeSources.some((s) => v[s] !== undefined && v[s] !== null)) v.emptyDir = {};
  if (v.hostPath !== undefined) v.hostPath.type ??= '';
  if (v.secret !== undefined) v.secret.defaultMode ??= 420;
  if (v.configMap !== undefined) v.configMap.defaultMode ??= 420;
  const downward = v.downwardAPI as DownwardAPIItems | undefined;
  if (downward !== undefined) {
    downward.defaultMode ??= 420;
    for (const item of downward.items ?? []) if (item.fieldRef !== undefined) item.fieldRef.apiVersion ||= 'v1';
  }
  if (v.projected !== undefined) {
    v.projected.defaultMode ??= 420;
    for (const source of v.projected.sources ?? []) {
      for (const item of source.downwardAPI?.items ?? []) if (item.fieldRef !== undefined) item.fieldRef.apiVersion ||= 'v1';
      if (source.serviceAccountToken !== undefined) source.serviceAccountToken.expirationSeconds ??= 3600;
    }
  }
}

/** SetDefaults_PodSpec and the generated defaults of everything inside a pod spec. */
function defaultPodSpec(spec: PodSpec): void {
  spec.dnsPolicy ||= 'ClusterFirst';
  spec.restartPolicy ||= 'Always';
  spec.securityContext ??= {};
  spec.terminationGracePeriodSeconds ??= 30;
  spec.schedulerName ||= 'default-scheduler';
  for (const v of spec.volumes ?? []) defaultVolume(v);
  for (const c of spec.initContainers ?? []) defaultContainer(c);
  for (const c of spec.containers ?? []) defaultContainer(c);
  for (const c of spec.ephemeralContainers ?? []) defaultContainer(c);
}

function defaultTemplate(template: PodTemplateSpec): void {
  template.spec ??= { containers: [] };
  defaultPodSpec(template.spec);
}

/** Requests copied from limits for every resource that has a limit but no request (Pods only, not templates). */
function defaultRequestsFromLimits(containers: Container[] | undefined): void {
  for (const c of containers ?? []) {
    const limits = c.resources?.limits;
    if (limits === undefined || c.resources === undefined) continue;
    c.resources.requests ??= {};
    for (const [name, value] of Object.entries(limits)) if (!(name in c.resources.requests)) c.resources.requests[name] = value;
  }
}

function defaultHostNetworkPorts(containers: Container[] | undefined): void {
  for (const c of containers ?? []) for (const p of c.ports ?? []) if (!p.hostPort) p.hostPort = p.containerPort;
}

/** SetObjectDefaults_Pod. */
export function setPodDefaults(pod: Pod): void {
  pod.spec ??= { containers: [] };
  const spec = pod.spec;
  defaultRequestsFromLimits(spec.containers);
  defaultRequestsFromLimits(spec.initContainers);
  spec.enableServiceLinks ??= true;
  if (spec.hostNetwork) {
    defaultHostNetworkPorts(spec.containers);
    defaultHostNetworkPorts(spec.initContainers);
  }
  defaultPodSpec(spec);
}

/** SetObjectDefaults_Deployment: replicas 1, RollingUpdate 25%/25%, history 10, deadline 600 s, template defaults. */
export function setDeploymentDefaults(d: Deployment): void {
  d.spec ??= { selector: null, template: {} };
  const spec = d.spec;
  spec.replicas ??= 1;
  spec.strategy ??= {};
  spec.strategy.type ||= 'RollingUpdate';
  if (spec.strategy.type === 'RollingUpdate') {
    spec.strategy.rollingUpdate ??= {};
    spec.strategy.rollingUpdate.maxUnavailable ??= '25%';
    spec.strategy.rollingUpdate.maxSurge ??= '25%';
  }
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  spec.template ??= {};
  defaultTemplate(spec.template);
}

/** SetObjectDefaults_ReplicaSet: replicas 1 and template defaults. */
export function setReplicaSetDefaults(rs: ReplicaSet): void {
  rs.spec ??= { selector: null };
  rs.spec.replicas ??= 1;
  rs.spec.template ??= {};
  defaultTemplate(rs.spec.template);
}

/** SetObjectDefaults_Namespace: the `kubernetes.io/metadata.name` label and phase Active. */
export function setNamespaceDefaults(ns: Namespace): void {
  if (ns.metadata.name) {
    ns.metadata.labels ??= {};
    ns.metadata.labels['kubernetes.io/metadata.name'] = ns.metadata.name;
  }
  ns.status ??= {};
  ns.status.phase ||= 'Active';
}

/** SetObjectDefaults_Node: allocatable defaults to capacity; quantities rounded to milli units. */
export function setNodeDefaults(node: Node): void {
  const status = node.status;
  if (status === undefined) return;
  if (status.allocatable === undefined && status.capacity !== undefined) status.allocatable = { ...status.capacity };
  defaultResourceList(status.capacity);
  defaultResourceList(status.allocatable);
}

function defaultSubjects(subjects: Subject[] | undefined): void {
  for (const s of subjects ?? []) {
    if (s.apiGroup) continue;
    if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = 'rbac.authorization.k8s.io';
  }
}

/** SetObjectDefaults_RoleBinding / ClusterRoleBinding: roleRef and User/Group subjects get the rbac group. */
export function setBindingDefaults(b: RoleBinding | ClusterRoleBinding): void {
  b.roleRef.apiGroup ||= 'rbac.authorization.k8s.io';
  defaultSubjects(b.subjects);
}

/** SetDefaults_Service and its ports: ClusterIP, SessionAffinity None, TCP, targetPort = port, traffic policies. */
export function setServiceDefaults(svc: Service): void {
  svc.spec ??= {};
  const spec = svc.spec;
  spec.sessionAffinity ||= 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  spec.type ||= 'ClusterIP';
  for (const port of spec.ports ?? []) {
    port.protocol ||= 'TCP';
    if (port.targetPort === undefined || port.targetPort === 0 || port.targetPort === '') port.targetPort = port.port;
  }
  if ((spec.type === 'NodePort' || spec.type === 'LoadBalancer') && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
  if (spec.type !== 'ExternalName' && spec.internalTrafficPolicy === undefined) spec.internalTrafficPolicy = 'Cluster';
  if (spec.type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
}

/** SetDefaults_PersistentVolumeClaim(Spec): phase Pending, volumeMode Filesystem. */
function setPersistentVolumeClaimDefaults(pvc: PersistentVolumeClaim): void {
  pvc.spec ??= {};
  pvc.spec.volumeMode ??= 'Filesystem';
  pvc.status ??= {};
  pvc.status.phase ||= 'Pending';
}

/** SetDefaults_PersistentVolume: reclaim policy Retain, volumeMode Filesystem, phase Pending; a hostPath's type "". */
function setPersistentVolumeDefaults(pv: PersistentVolume): void {
  pv.spec ??= {};
  pv.spec.persistentVolumeReclaimPolicy ||= 'Retain';
  pv.spec.volumeMode ??= 'Filesystem';
  const hostPath = pv.spec['hostPath'] as { type?: string } | undefined;
  if (hostPath !== undefined) hostPath.type ??= '';
  pv.status ??= {};
  pv.status.phase ||= 'Pending';
}

/** SetDefaults_ReplicationController: selector and labels from the template's labels, replicas 1. */
function setReplicationControllerDefaults(rc: ReplicationController): void {
  rc.spec ??= {};
  const labels = rc.spec.template?.metadata?.labels;
  if (labels !== undefined) {
    if (Object.keys(rc.spec.selector ?? {}).length === 0) rc.spec.selector = { ...labels };
    if (Object.keys(rc.metadata.labels ?? {}).length === 0) rc.metadata.labels = { ...labels };
  }
  rc.spec.replicas ??= 1;
  if (rc.spec.template !== undefined) defaultTemplate(rc.spec.template);
}

/** SetDefaults_DaemonSet: RollingUpdate with maxUnavailable 1 and maxSurge 0, history 10. */
function setDaemonSetDefaults(ds: DaemonSet): void {
  const spec = ds.spec;
  spec.updateStrategy ??= {};
  spec.updateStrategy.type ||= 'RollingUpdate';
  if (spec.updateStrategy.type === 'RollingUpdate') {
    spec.updateStrategy.rollingUpdate ??= {};
    spec.updateStrategy.rollingUpdate.maxUnavailable ??= 1;
    spec.updateStrategy.rollingUpdate.maxSurge ??= 0;
  }
  spec.revisionHistoryLimit ??= 10;
  spec.template ??= {};
  defaultTemplate(spec.template);
}

/**
 * SetDefaults_StatefulSet: OrderedReady, RollingUpdate with partition 0, replicas 1, history 10, the
 * PVC retention policy Retain/Retain (StatefulSetAutoDeletePVC, beta and on in 1.28); each claim template
 * gets a PVC's defaults.
 */
function setStatefulSetDefaults(sts: StatefulSet): void {
  const spec = sts.spec;
  spec.podManagementPolicy ||= 'OrderedReady';
  spec.updateStrategy ??= {};
  spec.updateStrategy.type ||= 'RollingUpdate';
  if (spec.updateStrategy.type === 'RollingUpdate') {
    spec.updateStrategy.rollingUpdate ??= {};
    spec.updateStrategy.rollingUpdate.partition ??= 0;
  }
  spec.persistentVolumeClaimRetentionPolicy ??= {};
  spec.persistentVolumeClaimRetentionPolicy.whenDeleted ||= 'Retain';
  spec.persistentVolumeClaimRetentionPolicy.whenScaled ||= 'Retain';
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  spec.template ??= {};
  defaultTemplate(spec.template);
  for (const claim of spec.volumeClaimTemplates ?? []) setPersistentVolumeClaimDefaults(claim);
}

/**
 * SetDefaults_Job: completions and parallelism 1 when both are unset, parallelism 1, backoffLimit 6
 * (MaxInt32 with backoffLimitPerIndex), completionMode NonIndexed, suspend false.
 */
function setJobSpecDefaults(spec: JobSpec): void {
  if (spec.completions === undefined && spec.parallelism === undefined) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  spec.parallelism ??= 1;
  spec.backoffLimit ??= spec.backoffLimitPerIndex === undefined ? 6 : 2147483647;
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
}

/** SetDefaults_CronJob: Allow, not suspended, history limits 3 and 1; the job template's pod defaults. */
function setCronJobDefaults(cj: CronJob): void {
  const spec = cj.spec;
  spec.concurrencyPolicy ||= 'Allow';
  spec.suspend ??= false;
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
  const template = spec.jobTemplate.spec?.template;
  if (template !== undefined) defaultTemplate(template);
}

/** Applies the defaults of a kind, if it has any (most kinds without a function have none). */
export function applyDefaults(gvk: GroupVersionKind, obj: KubeObject): void {
  const key = `${gvk.group}/${gvk.kind}`;
  switch (key) {
    case '/Pod': setPodDefaults(obj as Pod); break;
    case '/Namespace': setNamespaceDefaults(obj as Namespace); break;
    case '/Node': setNodeDefaults(obj as Node); break;
    case 'apps/Deployment': setDeploymentDefaults(obj as Deployment); break;
    case 'apps/ReplicaSet': setReplicaSetDefaults(obj as ReplicaSet); break;
    case 'rbac.authorization.k8s.io/RoleBinding':
    case 'rbac.authorization.k8s.io/ClusterRoleBinding':
      setBindingDefaults(obj as RoleBinding); break;
    case '/Service': setServiceDefaults(obj as Service); break;
    case '/Endpoints':
      for (const ss of (obj as Endpoints).subsets ?? []) for (const p of ss.ports ?? []) p.protocol ||= 'TCP';
      break;
    case 'discovery.k8s.io/EndpointSlice':
      for (const p of (obj as EndpointSlice).ports ?? []) {
        p.name ??= '';
        p.protocol ??= 'TCP';
      }
      break;
    case '/Secret': (obj as Secret).type ||= 'Opaque'; break;
    case '/PersistentVolumeClaim': setPersistentVolumeClaimDefaults(obj as PersistentVolumeClaim); break;
    case '/PersistentVolume': setPersistentVolumeDefaults(obj as PersistentVolume); break;
    case '/ReplicationController': setReplicationControllerDefaults(obj as ReplicationController); break;
    case 'apps/DaemonSet': setDaemonSetDefaults(obj as DaemonSet); break;
    case 'apps/StatefulSet': setStatefulSetDefaults(obj as StatefulSet); break;
    case 'batch/Job': {
      const job = obj as Job;
      job.spec ??= { template: {} };
      setJobSpecDefaults(job.spec);
      job.spec.template ??= {};
      defaultTemplate(job.spec.template);
      break;
    }
    case 'batch/CronJob': (obj as CronJob).spec ??= { schedule: '', jobTemplate: {} }; setCronJobDefaults(obj as CronJob); break;
    case 'scheduling.k8s.io/PriorityClass': (obj as PriorityClass).preemptionPolicy ??= 'PreemptLowerPriority'; break;
  }
}

// The kinds the protobuf codec knows, with the group/version each is registered in. A kind's root
// struct has the kind's name in schema-data.ts (`Pod`), a list kind is `<Kind>List` (ListMeta = 1,
// items = 2). meta/v1's Status, DeleteOptions and WatchEvent are registered in every group version.
// Models k8s.io/apimachinery/pkg/runtime/scheme.go (ObjectKinds, New) as kube-apiserver's scheme fills it.

export const kindVersions: Readonly<Record<string, string>> = {
  Pod: 'v1',
  Node: 'v1',
  Namespace: 'v1',
  ConfigMap: 'v1',
  Secret: 'v1',
  PersistentVolume: 'v1',
  PersistentVolumeClaim: 'v1',
  ReplicationController: 'v1',
  Event: 'v1',
  ServiceAccount: 'v1',
  Binding: 'v1',
  Service: 'v1',
  Endpoints: 'v1',
  RangeAllocation: 'v1',
  ComponentStatus: 'v1',
  Deployment: 'apps/v1',
  ReplicaSet: 'apps/v1',
  DaemonSet: 'apps/v1',
  StatefulSet: 'apps/v1',
  Job: 'batch/v1',
  CronJob: 'batch/v1',
  Ingress: 'networking.k8s.io/v1',
  Scale: 'autoscaling/v1',
  Lease: 'coordination.k8s.io/v1',
  Role: 'rbac.authorization.k8s.io/v1',
  ClusterRole: 'rbac.authorization.k8s.io/v1',
  RoleBinding: 'rbac.authorization.k8s.io/v1',
  ClusterRoleBinding: 'rbac.authorization.k8s.io/v1',
  EndpointSlice: 'discovery.k8s.io/v1',
  PriorityClass: 'scheduling.k8s.io/v1',
  Eviction: 'policy/v1',
  SelfSubjectAccessReview: 'authorization.k8s.io/v1',
  SubjectAccessReview: 'authorization.k8s.io/v1',
  SelfSubjectRulesReview: 'authorization.k8s.io/v1',
  SelfSubjectReview: 'authentication.k8s.io/v1',
};

/** Kinds every group version has (metav1.AddToGroupVersion). */
export const metaKinds: ReadonlySet<string> = new Set(['Status', 'DeleteOptions', 'WatchEvent']);

/** Kinds with no `…List` registered. */
const unlisted: ReadonlySet<string> = new Set(['Binding', 'Scale', 'Eviction', 'SelfSubjectAccessReview', 'SubjectAccessReview',
  'SelfSubjectRulesReview', 'SelfSubjectReview']);

/** The item kind of a list kind (`PodList` → `Pod`), if it is one the codec knows. */
export function listItemKind(kind: string): string | undefined {
  if (!kind.endsWith('List')) return undefined;
  const item = kind.slice(0, -4);
  return kindVersions[item] !== undefined && !unlisted.has(item) ? item : undefined;
}

/** Whether `apiVersion` registers `kind`. */
export function isRegistered(kind: string, apiVersion: string): boolean {
  if (metaKinds.has(kind)) return true;
  const item = listItemKind(kind) ?? kind;
  return kindVersions[item] === apiVersion;
}

/** Whether the codec can encode objects of this kind (`Pod`, `PodList`, `Status`, `WatchEvent`…). */
export function hasProtobufKind(kind: string): boolean {
  return kindVersions[kind] !== undefined || metaKinds.has(kind) || listItemKind(kind) !== undefined;
}

// The RBAC bootstrap policy kube-apiserver stores at start (its rbac/bootstrap-roles post-start hook):
// every ClusterRole of bootstrappolicy.ClusterRoles() and ClusterRoleBinding of ClusterRoleBindings(),
// with their names, labels, annotations, aggregation rules and rules, in name order.
// Models k8s plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go as its golden files
// testdata/cluster-roles.yaml and cluster-role-bindings.yaml record it (transcribed by hand from the
// kubernetes/kubernetes tree; the 1.28 release differs at most in the odd rule of a role no simulated
// component uses). Not stored: ControllerRoles()/ControllerRoleBindings() (system:controller:*, one per
// controller's service account) and the namespaced roles in kube-system and kube-public — the simulated
// kube-controller-manager runs its controllers under one identity (see authentication.ts).
// Deviation: the `system:node` binding names the group system:nodes (1.28 leaves its subjects empty and
// relies on the Node authorizer, which is not modelled).

import type { KubeObject } from '../api/types/meta.ts';
import type { PolicyRule } from '../api/types/rbac.ts';

const rbacGroup = 'rbac.authorization.k8s.io';
const rbacV1 = `${rbacGroup}/v1`;
const bootstrapping = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const autoupdate = { 'rbac.authorization.kubernetes.io/autoupdate': 'true' };

const read = ['get', 'list', 'watch'];
const write = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const readWrite = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const eventWrite = ['create', 'patch', 'update'];

function r(apiGroups: string[], resources: string[], verbs: string[], resourceNames?: string[]): PolicyRule {
  return { apiGroups, resources, verbs, ...(resourceNames ? { resourceNames } : {}) } as PolicyRule;
}

function nr(nonResourceURLs: string[], verbs: string[]): PolicyRule {
  return { nonResourceURLs, verbs } as PolicyRule;
}

interface RoleSpec {
  readonly name: string;
  readonly rules: PolicyRule[] | null;
  /** The aggregate-to-* label this role carries. */
  readonly aggregateTo?: 'admin' | 'edit' | 'view';
  /** The aggregate-to-* label its aggregation rule selects. */
  readonly aggregates?: 'admin' | 'edit' | 'view';
}

const csrApprover = (signer: string, name: string): RoleSpec => ({
  name: `system:certificates.k8s.io:${name}`, rules: [r(['certificates.k8s.io'], ['signers'], ['approve'], [signer])],
});

const roles: readonly RoleSpec[] = [
  { name: 'admin', rules: null, aggregates: 'admin' },
  { name: 'cluster-admin', rules: [r(['*'], ['*'], ['*']), nr(['*'], ['*'])] },
  { name: 'edit', rules: null, aggregates: 'edit', aggregateTo: 'admin' },
  {
    name: 'system:aggregate-to-admin', aggregateTo: 'admin', rules: [
      r(['authorization.k8s.io'], ['localsubjectaccessreviews'], ['create']),
      r([rbacGroup], ['rolebindings', 'roles'], readWrite),
    ],
  },
  {
    name: 'system:aggregate-to-edit', aggregateTo: 'edit', rules: [
      r([''], ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy'], read),
      r([''], ['serviceaccounts'], ['impersonate']),
      r([''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy'], write),
      r([''], ['pods/eviction'], ['create']),
      r([''], ['configmaps', 'events', 'persistentvolumeclaims', 'replicationcontrollers', 'replicationcontrollers/scale', 'secrets', 'serviceaccounts', 'services', 'services/proxy'], write),
      r([''], ['serviceaccounts/token'], ['create']),
      r(['apps'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale'], write),
      r(['autoscaling'], ['horizontalpodautoscalers'], write),
      r(['batch'], ['cronjobs', 'jobs'], write),
      r(['extensions'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'ingresses', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale'], write),
      r(['policy'], ['poddisruptionbudgets'], write),
      r(['networking.k8s.io'], ['ingresses', 'networkpolicies'], write),
      r(['coordination.k8s.io'], ['leases'], readWrite),
    ],
  },
  {
    name: 'system:aggregate-to-view', aggregateTo: 'view', rules: [
      r([''], ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status'], read),
      r([''], ['bindings', 'events', 'limitranges', 'namespaces/status', 'pods/log', 'pods/status', 'replicationcontrollers/status', 'resourcequotas', 'resourcequotas/status'], read),
      r([''], ['namespaces'], read),
      r(['discovery.k8s.io'], ['endpointslices'], read),
      r(['apps'], ['controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'statefulsets/status'], read),
      r(['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status'], read),
      r(['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status'], read),
      r(['extensions'], ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses', 'ingresses/status', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale'], read),
      r(['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status'], read),
      r(['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies'], read),
    ],
  },
  { name: 'system:auth-delegator', rules: [r(['authentication.k8s.io'], ['tokenreviews'], ['create']), r(['authorization.k8s.io'], ['subjectaccessreviews'], ['create'])] },
  {
    name: 'system:basic-user', rules: [
      r(['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'], ['create']),
      r(['authentication.k8s.io'], ['selfsubjectreviews'], ['create']),
    ],
  },
  { name: 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', rules: [r(['certificates.k8s.io'], ['certificatesigningrequests/nodeclient'], ['create'])] },
  { name: 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', rules: [r(['certificates.k8s.io'], ['certificatesigningrequests/selfnodeclient'], ['create'])] },
  csrApprover('kubernetes.io/kube-apiserver-client', 'kube-apiserver-client-approver'),
  csrApprover('kubernetes.io/kube-apiserver-client-kubelet', 'kube-apiserver-client-kubelet-approver'),
  csrApprover('kubernetes.io/kubelet-serving', 'kubelet-serving-approver'),
  csrApprover('kubernetes.io/legacy-unknown', 'legacy-unknown-approver'),
  { name: 'system:discovery', rules: [nr(['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'], ['get'])] },
  { name: 'system:heapster', rules: [r([''], ['events', 'namespaces', 'nodes', 'pods'], read), r(['extensions'], ['deployments'], read)] },
  { name: 'system:kube-aggregator', rules: [r([''], ['endpoints', 'services'], read)] },
  {
    name: 'system:kube-controller-manager', rules: [
      r(['', 'events.k8s.io'], ['events'], eventWrite),
      r(['coordination.k8s.io'], ['leases'], ['create']),
      r(['coordination.k8s.io'], ['leases'], ['get', 'update'], ['kube-controller-manager']),
      r([''], ['secrets', 'serviceaccounts'], ['create']),
      r([''], ['secrets'], ['delete']),
      r([''], ['configmaps', 'namespaces', 'secrets', 'serviceaccounts'], ['get']),
      r([''], ['secrets', 'serviceaccounts'], ['update']),
      r(['authentication.k8s.io'], ['tokenreviews'], ['create']),
      r(['authorization.k8s.io'], ['subjectaccessreviews'], ['create']),
      r(['*'], ['*'], ['list', 'watch']),
      r([''], ['serviceaccounts/token'], ['create']),
    ],
  },
  { name: 'system:kube-dns', rules: [r([''], ['endpoints', 'services'], ['list', 'watch'])] },
  {
    name: 'system:kube-scheduler', rules: [
      r(['', 'events.k8s.io'], ['events'], eventWrite),
      r(['coordination.k8s.io'], ['leases'], ['create']),
      r(['coordination.k8s.io'], ['leases'], ['get', 'update'], ['kube-scheduler']),
      r([''], ['nodes'], read),
      r([''], ['pods'], ['delete', 'get', 'list', 'watch']),
      r([''], ['bindings', 'pods/binding'], ['create']),
      r([''], ['pods/status'], ['patch', 'update']),
      r([''], ['replicationcontrollers', 'services'], read),
      r(['apps', 'extensions'], ['replicasets'], read),
      r(['apps'], ['statefulsets'], read),
      r(['policy'], ['poddisruptionbudgets'], read),
      r([''], ['persistentvolumeclaims', 'persistentvolumes'], read),
      r(['authentication.k8s.io'], ['tokenreviews'], ['create']),
      r(['authorization.k8s.io'], ['subjectaccessreviews'], ['create']),
      r(['storage.k8s.io'], ['csinodes'], read),
      r([''], ['namespaces'], read),
      r(['storage.k8s.io'], ['csidrivers'], read),
      r(['storage.k8s.io'], ['csistoragecapacities'], read),
    ],
  },
  {
    name: 'system:kubelet-api-admin', rules: [
      r([''], ['nodes'], read),
      r([''], ['nodes'], ['proxy']),
      r([''], ['nodes/log', 'nodes/metrics', 'nodes/proxy', 'nodes/stats'], ['*']),
    ],
  },
  { name: 'system:monitoring', rules: [nr(['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*'], ['get'])] },
  {
    name: 'system:node', rules: [
      r(['authentication.k8s.io'], ['tokenreviews'], ['create']),
      r(['authorization.k8s.io'], ['localsubjectaccessreviews', 'subjectaccessreviews'], ['create']),
      r([''], ['services'], read),
      r([''], ['nodes'], ['create', 'get', 'list', 'watch']),
      r([''], ['nodes/status'], ['patch', 'update']),
      r([''], ['nodes'], ['patch', 'update']),
      r([''], ['events'], eventWrite),
      r([''], ['pods'], read),
      r([''], ['pods'], ['create', 'delete']),
      r([''], ['pods/status'], ['patch', 'update']),
      r([''], ['pods/eviction'], ['create']),
      r([''], ['configmaps', 'secrets'], read),
      r([''], ['persistentvolumeclaims', 'persistentvolumes'], ['get']),
      r([''], ['endpoints'], ['get']),
      r(['certificates.k8s.io'], ['certificatesigningrequests'], ['create', 'get', 'list', 'watch']),
      r(['coordination.k8s.io'], ['leases'], ['create', 'delete', 'get', 'patch', 'update']),
      r(['storage.k8s.io'], ['volumeattachments'], ['get']),
      r([''], ['serviceaccounts/token'], ['create']),
      r([''], ['persistentvolumeclaims/status'], ['get', 'patch', 'update']),
      r(['storage.k8s.io'], ['csidrivers'], read),
      r(['storage.k8s.io'], ['csinodes'], ['create', 'delete', 'get', 'patch', 'update']),
      r(['node.k8s.io'], ['runtimeclasses'], read),
    ],
  },
  { name: 'system:node-bootstrapper', rules: [r(['certificates.k8s.io'], ['certificatesigningrequests'], ['create', 'get', 'list', 'watch'])] },
  { name: 'system:node-problem-detector', rules: [r([''], ['nodes'], ['get']), r([''], ['nodes/status'], ['patch']), r(['', 'events.k8s.io'], ['events'], eventWrite)] },
  {
    name: 'system:node-proxier', rules: [
      r([''], ['endpoints', 'services'], ['list', 'watch']),
      r([''], ['nodes'], read),
      r(['', 'events.k8s.io'], ['events'], eventWrite),
      r(['discovery.k8s.io'], ['endpointslices'], ['list', 'watch']),
    ],
  },
  {
    name: 'system:persistent-volume-provisioner', rules: [
      r([''], ['persistentvolumes'], ['create', 'delete', 'get', 'list', 'watch']),
      r([''], ['persistentvolumeclaims'], ['get', 'list', 'update', 'watch']),
      r(['storage.k8s.io'], ['storageclasses'], read),
      r([''], ['events'], ['watch']),
      r(['', 'events.k8s.io'], ['events'], eventWrite),
    ],
  },
  { name: 'system:public-info-viewer', rules: [nr(['/healthz', '/livez', '/readyz', '/version', '/version/'], ['get'])] },
  { name: 'system:service-account-issuer-discovery', rules: [nr(['/.well-known/openid-configuration', '/openid/v1/jwks'], ['get'])] },
  {
    name: 'system:volume-scheduler', rules: [
      r([''], ['persistentvolumes'], ['get', 'list', 'patch', 'update', 'watch']),
      r(['storage.k8s.io'], ['storageclasses'], read),
      r([''], ['persistentvolumeclaims'], ['get', 'list', 'patch', 'update', 'watch']),
    ],
  },
  { name: 'view', rules: null, aggregates: 'view', aggregateTo: 'edit' },
];

type SubjectSpec = readonly ['User' | 'Group' | 'ServiceAccount', string];

/** ClusterRoleBindings(): name (= role name) and subjects. */
const bindings: ReadonlyArray<readonly [string, readonly SubjectSpec[]]> = [
  ['cluster-admin', [['Group', 'system:masters']]],
  ['system:basic-user', [['Group', 'system:authenticated']]],
  ['system:discovery', [['Group', 'system:authenticated']]],
  ['system:kube-controller-manager', [['User', 'system:kube-controller-manager']]],
  ['system:kube-dns', [['ServiceAccount', 'kube-dns']]],
  ['system:kube-scheduler', [['User', 'system:kube-scheduler']]],
  ['system:monitoring', [['Group', 'system:monitoring']]],
  ['system:node', [['Group', 'system:nodes']]],
  ['system:node-proxier', [['User', 'system:kube-proxy']]],
  ['system:public-info-viewer', [['Group', 'system:authenticated'], ['Group', 'system:unauthenticated']]],
  ['system:service-account-issuer-discovery', [['Group', 'system:serviceaccounts']]],
  ['system:volume-scheduler', [['User', 'system:kube-scheduler']]],
];

function clusterRole(spec: RoleSpec): KubeObject {
  const labels: Record<string, string> = { ...bootstrapping };
  if (spec.aggregateTo) labels[`rbac.authorization.k8s.io/aggregate-to-${spec.aggregateTo}`] = 'true';
  return {
    apiVersion: rbacV1, kind: 'ClusterRole',
    metadata: { name: spec.name, labels, annotations: { ...autoupdate } },
    ...(spec.aggregates ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [`rbac.authorization.k8s.io/aggregate-to-${spec.aggregates}`]: 'true' } }] } } : {}),
    ...(spec.rules ? { rules: spec.rules.map((rule) => ({ ...rule })) } : {}),
  } as KubeObject;
}

function clusterRoleBinding(name: string, subjects: readonly SubjectSpec[]): KubeObject {
  return {
    apiVersion: rbacV1, kind: 'ClusterRoleBinding',
    metadata: { name, labels: { ...bootstrapping }, annotations: { ...autoupdate } },
    roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name },
    subjects: subjects.map(([kind, subject]) => (kind === 'ServiceAccount'
      ? { kind, name: subject, namespace: 'kube-system' }
      : { apiGroup: rbacGroup, kind, name: subject })),
  } as KubeObject;
}

export const bootstrapClusterRoleNames: readonly string[] = roles.map((role) => role.name);
export const bootstrapClusterRoleBindingNames: readonly string[] = bindings.map(([name]) => name);

/** Every bootstrap ClusterRole, then every ClusterRoleBinding. */
export function bootstrapRbacObjects(): Array<{ resource: 'clusterroles' | 'clusterrolebindings'; object: KubeObject }> {
  return [
    ...roles.map((role) => ({ resource: 'clusterroles' as const, object: clusterRole(role) })),
    ...bindings.map(([name, subjects]) => ({ resource: 'clusterrolebindings' as const, object: clusterRoleBinding(name, subjects) })),
  ];
}

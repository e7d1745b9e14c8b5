// What kube-apiserver creates for itself when it starts: the system namespaces and the RBAC bootstrap
// policy (a subset of the real one, sized to the simulated components), plus a restricted user's
// pod-reader Role for trying out denials.
// Models k8s pkg/controlplane/controller/systemnamespaces and
// plugin/pkg/auth/authorizer/rbac/bootstrappolicy (policy.go, controller_policy.go). Deviation: the
// simulated kube-controller-manager acts under its own identity rather than one service account per
// controller, so its ClusterRole grants what all its controllers need; kubelets get `system:node`
// through a binding to the group system:nodes (1.28 relies on the Node authorizer instead).

import type { KubeObject } from '../api/types/meta.ts';
import type { PolicyRule } from '../api/types/rbac.ts';
import { builtinUsers } from './filters/authentication.ts';

export const systemNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

const rbacV1 = 'rbac.authorization.k8s.io/v1';
const bootstrapLabels = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const autoupdate = { 'rbac.authorization.kubernetes.io/autoupdate': 'true' };

function clusterRole(name: string, rules: PolicyRule[]): KubeObject {
  return { apiVersion: rbacV1, kind: 'ClusterRole', metadata: { name, labels: bootstrapLabels, annotations: autoupdate }, rules } as KubeObject;
}

function clusterRoleBinding(name: string, role: string, subject: { kind: 'User' | 'Group'; name: string }): KubeObject {
  return {
    apiVersion: rbacV1, kind: 'ClusterRoleBinding',
    metadata: { name, labels: bootstrapLabels, annotations: autoupdate },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', ...subject }],
  } as KubeObject;
}

const read = ['get', 'list', 'watch'];
const readWrite = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

/** The bootstrap RBAC objects, in creation order, each with its resource. */
export function bootstrapPolicy(): Array<{ resource: string; group: string; namespace: string; object: KubeObject }> {
  const cluster = (object: KubeObject, resource: string) => ({ resource, group: 'rbac.authorization.k8s.io', namespace: '', object });
  return [
    cluster(clusterRole('cluster-admin', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceURLs: ['*'], verbs: ['*'] }]), 'clusterroles'),
    cluster(clusterRole('system:kube-scheduler', [
      { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch', 'update'] },
      { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create', 'patch', 'update'] },
      { apiGroups: [''], resources: ['pods/binding', 'bindings'], verbs: ['create'] },
      { apiGroups: [''], resources: ['pods/status'], verbs: ['patch', 'update'] },
      { apiGroups: [''], resources: ['nodes', 'pods', 'namespaces'], verbs: read },
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: readWrite },
    ]), 'clusterroles'),
    cluster(clusterRole('system:kube-controller-manager', [
      { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch', 'update'] },
      { apiGroups: [''], resources: ['pods', 'nodes', 'namespaces', 'serviceaccounts', 'configmaps'], verbs: [...readWrite, 'deletecollection'] },
      { apiGroups: [''], resources: ['pods/status', 'nodes/status'], verbs: ['patch', 'update'] },
      { apiGroups: ['apps'], resources: ['deployments', 'replicasets'], verbs: [...readWrite, 'deletecollection'] },
      { apiGroups: ['apps'], resources: ['deployments/status', 'replicasets/status', 'deployments/scale', 'replicasets/scale'], verbs: ['get', 'patch', 'update'] },
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: readWrite },
    ]), 'clusterroles'),
    // The namespace controller's rules (controller_policy.go); bound to the controller manager's identity.
    cluster(clusterRole('system:controller:namespace-controller', [
      { apiGroups: [''], resources: ['namespaces'], verbs: ['delete', 'get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['namespaces/finalize', 'namespaces/status'], verbs: ['update'] },
      { apiGroups: ['*'], resources: ['*'], verbs: ['delete', 'deletecollection', 'get', 'list'] },
    ]), 'clusterroles'),
    cluster(clusterRole('system:node', [
      { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch', 'update'] },
      { apiGroups: [''], resources: ['nodes'], verbs: ['create', 'get', 'list', 'watch', 'patch', 'update'] },
      { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch', 'update'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch', 'create', 'delete'] },
      { apiGroups: [''], resources: ['pods/status'], verbs: ['patch', 'update'] },
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: readWrite },
    ]), 'clusterroles'),
    cluster(clusterRole('system:discovery', [{
      nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'],
      verbs: ['get'],
    }]), 'clusterroles'),
    cluster(clusterRole('system:public-info-viewer', [{ nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'], verbs: ['get'] }]), 'clusterroles'),
    cluster(clusterRoleBinding('cluster-admin', 'cluster-admin', { kind: 'Group', name: 'system:masters' }), 'clusterrolebindings'),
    cluster(clusterRoleBinding('system:discovery', 'system:discovery', { kind: 'Group', name: 'system:authenticated' }), 'clusterrolebindings'),
    cluster(clusterRoleBinding('system:public-info-viewer', 'system:public-info-viewer', { kind: 'Group', name: 'system:unauthenticated' }), 'clusterrolebindings'),
    cluster(clusterRoleBinding('system:kube-scheduler', 'system:kube-scheduler', { kind: 'User', name: builtinUsers.scheduler.name }), 'clusterrolebindings'),
    cluster(clusterRoleBinding('system:kube-controller-manager', 'system:kube-controller-manager', { kind: 'User', name: builtinUsers.controllerManager.name }), 'clusterrolebindings'),
    cluster(clusterRoleBinding('system:node', 'system:node', { kind: 'Group', name: 'system:nodes' }), 'clusterrolebindings'),
    cluster(clusterRoleBinding('system:controller:namespace-controller', 'system:controller:namespace-controller', { kind: 'User', name: builtinUsers.controllerManager.name }), 'clusterrolebindings'),
    {
      resource: 'roles', group: 'rbac.authorization.k8s.io', namespace: 'default',
      object: { apiVersion: rbacV1, kind: 'Role', metadata: { name: 'pod-reader', namespace: 'default' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: read }] } as KubeObject,
    },
    {
      resource: 'rolebindings', group: 'rbac.authorization.k8s.io', namespace: 'default',
      object: {
        apiVersion: rbacV1, kind: 'RoleBinding', metadata: { name: 'alice-pod-reader', namespace: 'default' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: builtinUsers.restricted.name }],
      } as KubeObject,
    },
  ];
}

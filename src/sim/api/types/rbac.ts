// rbac.authorization.k8s.io/v1 Role, ClusterRole, RoleBinding, ClusterRoleBinding.
// Models k8s.io/api/rbac/v1/types.go.

import type { KubeObject, LabelSelector } from './meta.ts';

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount' | string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: 'Role' | 'ClusterRole' | string;
  name: string;
}

export interface Role extends KubeObject {
  rules: PolicyRule[] | null;
}

export interface ClusterRole extends KubeObject {
  rules: PolicyRule[] | null;
  aggregationRule?: { clusterRoleSelectors?: LabelSelector[] };
}

export interface RoleBinding extends KubeObject {
  subjects?: Subject[];
  roleRef: RoleRef;
}

export interface ClusterRoleBinding extends KubeObject {
  subjects?: Subject[];
  roleRef: RoleRef;
}

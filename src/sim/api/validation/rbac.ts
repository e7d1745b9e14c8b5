// rbac.authorization.k8s.io/v1 validation: names usable as path segments, policy rules, role refs
// and subjects.
// Models k8s pkg/apis/rbac/validation/validation.go.

import { FieldPath, fieldError, goStringSlice, type FieldError } from '../field.ts';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, Subject } from '../types/index.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from './meta.ts';
import { nameIsDNSSubdomain, validatePathSegmentName, type NameValidator } from './names.ts';

const rbacGroup = 'rbac.authorization.k8s.io';
export const validateRBACName: NameValidator = (name) => validatePathSegmentName(name, false);

function validatePolicyRule(rule: PolicyRule, namespaced: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if ((rule.verbs ?? []).length === 0) errs.push(fieldError.required(path.child('verbs'), 'verbs must contain at least one value'));
  const urls = rule.nonResourceURLs ?? [];
  if (urls.length > 0) {
    if (namespaced) errs.push(fieldError.invalid(path.child('nonResourceURLs'), goStringSlice(urls), 'namespaced rules cannot apply to non-resource URLs'));
    if ((rule.apiGroups ?? []).length + (rule.resources ?? []).length + (rule.resourceNames ?? []).length > 0) {
      errs.push(fieldError.invalid(path.child('nonResourceURLs'), goStringSlice(urls), 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if ((rule.apiGroups ?? []).length === 0) errs.push(fieldError.required(path.child('apiGroups'), 'resource rules must supply at least one api group'));
  if ((rule.resources ?? []).length === 0) errs.push(fieldError.required(path.child('resources'), 'resource rules must supply at least one resource'));
  return errs;
}

function validateRules(rules: readonly PolicyRule[] | null, namespaced: boolean): FieldError[] {
  return (rules ?? []).flatMap((r, i) => validatePolicyRule(r, namespaced, FieldPath.of('rules').index(i)));
}

function validateSubject(s: Subject, namespaced: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.name) errs.push(fieldError.required(path.child('name')));
  switch (s.kind) {
    case 'ServiceAccount':
      if (s.name) for (const msg of nameIsDNSSubdomain(s.name, false)) errs.push(fieldError.invalid(path.child('name'), s.name, msg));
      if (s.apiGroup) errs.push(fieldError.notSupported(path.child('apiGroup'), s.apiGroup, ['']));
      if (!namespaced && !s.namespace) errs.push(fieldError.required(path.child('namespace')));
      break;
    case 'User': case 'Group':
      if (s.apiGroup !== rbacGroup) errs.push(fieldError.notSupported(path.child('apiGroup'), s.apiGroup ?? '', [rbacGroup]));
      break;
    default:
      errs.push(fieldError.notSupported(path.child('kind'), s.kind, ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

function validateBinding(b: RoleBinding | ClusterRoleBinding, namespaced: boolean): FieldError[] {
  const errs = validateObjectMeta(b.metadata, namespaced, validateRBACName);
  if (b.roleRef.apiGroup !== rbacGroup) errs.push(fieldError.notSupported(FieldPath.of('roleRef', 'apiGroup'), b.roleRef.apiGroup, [rbacGroup]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(b.roleRef.kind)) errs.push(fieldError.notSupported(FieldPath.of('roleRef', 'kind'), b.roleRef.kind, kinds));
  if (!b.roleRef.name) errs.push(fieldError.required(FieldPath.of('roleRef', 'name')));
  else for (const msg of validateRBACName(b.roleRef.name, false)) errs.push(fieldError.invalid(FieldPath.of('roleRef', 'name'), b.roleRef.name, msg));
  (b.subjects ?? []).forEach((s, i) => errs.push(...validateSubject(s, namespaced, FieldPath.of('subjects').index(i))));
  return errs;
}

function roleRefChanged(b: RoleBinding | ClusterRoleBinding, old: RoleBinding | ClusterRoleBinding): FieldError[] {
  const same = b.roleRef.apiGroup === old.roleRef.apiGroup && b.roleRef.kind === old.roleRef.kind && b.roleRef.name === old.roleRef.name;
  return same ? [] : [fieldError.invalid(FieldPath.of('roleRef'), { goSyntax: `rbac.RoleRef{APIGroup:${JSON.stringify(b.roleRef.apiGroup)}, Kind:${JSON.stringify(b.roleRef.kind)}, Name:${JSON.stringify(b.roleRef.name)}}` }, 'cannot change roleRef')];
}

export const validateRole = (r: Role): FieldError[] => [...validateObjectMeta(r.metadata, true, validateRBACName), ...validateRules(r.rules, true)];
export const validateClusterRole = (r: ClusterRole): FieldError[] => [...validateObjectMeta(r.metadata, false, validateRBACName), ...validateRules(r.rules, false)];
export const validateRoleBinding = (b: RoleBinding): FieldError[] => validateBinding(b, true);
export const validateClusterRoleBinding = (b: ClusterRoleBinding): FieldError[] => validateBinding(b, false);

export const validateRoleUpdate = (r: Role, old: Role): FieldError[] => [...validateRole(r), ...validateObjectMetaUpdate(r.metadata, old.metadata)];
export const validateClusterRoleUpdate = (r: ClusterRole, old: ClusterRole): FieldError[] => [...validateClusterRole(r), ...validateObjectMetaUpdate(r.metadata, old.metadata)];
export const validateRoleBindingUpdate = (b: RoleBinding, old: RoleBinding): FieldError[] => [...validateRoleBinding(b), ...validateObjectMetaUpdate(b.metadata, old.metadata), ...roleRefChanged(b, old)];
export const validateClusterRoleBindingUpdate = (b: ClusterRoleBinding, old: ClusterRoleBinding): FieldError[] => [...validateClusterRoleBinding(b), ...validateObjectMetaUpdate(b.metadata, old.metadata), ...roleRefChanged(b, old)];

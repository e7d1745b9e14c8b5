// Authorization: the privileged-group check (system:masters may do anything) followed by RBAC over the
// Roles, ClusterRoles and bindings stored under /registry. The authorizer reads an in-process index of
// those objects; the registry updates it on every committed RBAC write (kube-apiserver's own RBAC
// informer, collapsed because this apiserver is the only writer).
// Models k8s.io/apiserver/pkg/authorization/authorizerfactory (privileged groups) and
// k8s plugin/pkg/auth/authorizer/rbac/rbac.go (RBACAuthorizer.Authorize, RuleAllows, appliesTo).

import type { AuthorizationAttributes } from '../../api/errors.ts';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, Subject } from '../../api/types/rbac.ts';
import { systemMasters, type UserInfo } from './authentication.ts';

export type Decision = { readonly allowed: true; readonly reason: string } | { readonly allowed: false; readonly reason: string };

export class RbacIndex {
  private readonly clusterRoles = new Map<string, ClusterRole>();
  private readonly roles = new Map<string, Role>();
  private readonly clusterRoleBindings = new Map<string, ClusterRoleBinding>();
  private readonly roleBindings = new Map<string, RoleBinding>();

  /** Records a committed write (or deletion, with `deleted`) of an RBAC object. */
  observe(resource: string, obj: Role | ClusterRole | RoleBinding | ClusterRoleBinding, deleted = false): void {
    const ns = obj.metadata.namespace ?? '';
    const key = `${ns}/${obj.metadata.name ?? ''}`;
    const map = ({
      clusterroles: this.clusterRoles,
      roles: this.roles,
      clusterrolebindings: this.clusterRoleBindings,
      rolebindings: this.roleBindings,
    } as Record<string, Map<string, unknown>>)[resource];
    if (!map) return;
    if (deleted) map.delete(key);
    else map.set(key, obj);
  }

  authorize(user: UserInfo, a: AuthorizationAttributes): Decision {
    if (user.groups.includes(systemMasters)) return { allowed: true, reason: `group ${systemMasters} is privileged` };
    for (const binding of this.clusterRoleBindings.values()) {
      if (!appliesTo(user, binding.subjects ?? [], '')) continue;
      const rules = this.rulesOf(binding.roleRef.kind, binding.roleRef.name, '');
      if (rules.some((r) => ruleAllows(a, r))) {
        return { allowed: true, reason: `RBAC: allowed by ClusterRoleBinding "${binding.metadata.name}" of ClusterRole "${binding.roleRef.name}" to ${describeSubjects(binding.subjects)}` };
      }
    }
    if (a.namespace) {
      for (const binding of this.roleBindings.values()) {
        if (binding.metadata.namespace !== a.namespace || !appliesTo(user, binding.subjects ?? [], a.namespace)) continue;
        const rules = this.rulesOf(binding.roleRef.kind, binding.roleRef.name, a.namespace);
        if (rules.some((r) => ruleAllows(a, r))) {
          return { allowed: true, reason: `RBAC: allowed by RoleBinding "${binding.metadata.name}/${a.namespace}" of ${binding.roleRef.kind} "${binding.roleRef.name}" to ${describeSubjects(binding.subjects)}` };
        }
      }
    }
    return { allowed: false, reason: '' };
  }

  /**
   * The rules that apply to a user in a namespace (cluster role bindings first, then the namespace's role
   * bindings), for SelfSubjectRulesReview; `incomplete` when a binding names a role that does not exist.
   * Models rbac.go RulesFor and pkg/registry/rbac/validation/rule.go VisitRulesFor.
   */
  rulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; incomplete: boolean; errors: string[] } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    const visit = (kind: string, name: string, ns: string): void => {
      const role = kind === 'ClusterRole' ? this.clusterRoles.get(`/${name}`) : this.roles.get(`${ns}/${name}`);
      if (!role) errors.push(`${kind === 'ClusterRole' ? 'clusterrole' : 'role'}.rbac.authorization.k8s.io "${name}" not found`);
      else rules.push(...(role.rules ?? []));
    };
    for (const binding of this.clusterRoleBindings.values()) {
      if (appliesTo(user, binding.subjects ?? [], '')) visit(binding.roleRef.kind, binding.roleRef.name, '');
    }
    if (namespace !== '') {
      for (const binding of this.roleBindings.values()) {
        if (binding.metadata.namespace === namespace && appliesTo(user, binding.subjects ?? [], namespace)) visit(binding.roleRef.kind, binding.roleRef.name, namespace);
      }
    }
    return { rules, incomplete: errors.length > 0, errors };
  }

  private rulesOf(kind: string, name: string, namespace: string): readonly PolicyRule[] {
    const role = kind === 'ClusterRole' ? this.clusterRoles.get(`/${name}`) : this.roles.get(`${namespace}/${name}`);
    return role?.rules ?? [];
  }
}

function describeSubjects(subjects: readonly Subject[] | undefined): string {
  return (subjects ?? []).map((s) => `${s.kind} "${s.namespace ? `${s.namespace}/` : ''}${s.name}"`).join(', ');
}

// Models rbac.go appliesToUser.
function appliesTo(user: UserInfo, subjects: readonly Subject[], namespace: string): boolean {
  return subjects.some((s) => {
    switch (s.kind) {
      case 'User': return s.name === user.name;
      case 'Group': return user.groups.includes(s.name);
      case 'ServiceAccount': return user.name === `system:serviceaccount:${s.namespace || namespace}:${s.name}`;
      default: return false;
    }
  });
}

// Models pkg/apis/rbac/v1/evaluation_helpers.go (VerbMatches, APIGroupMatches, ResourceMatches, ResourceNameMatches).
export function ruleAllows(a: AuthorizationAttributes, rule: PolicyRule): boolean {
  const verbs = rule.verbs ?? [];
  if (!verbs.includes('*') && !verbs.includes(a.verb)) return false;
  if (!a.resourceRequest) {
    const path = a.path ?? '';
    return (rule.nonResourceURLs ?? []).some((u) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.slice(0, -1))));
  }
  const groups = rule.apiGroups ?? [];
  if (!groups.includes('*') && !groups.includes(a.apiGroup ?? '')) return false;
  const combined = a.subresource ? `${a.resource ?? ''}/${a.subresource}` : a.resource ?? '';
  const resources = rule.resources ?? [];
  const resourceOk = resources.some((r) => r === '*' || r === combined || (a.subresource !== undefined && a.subresource !== '' && r === `*/${a.subresource}`));
  if (!resourceOk) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || (a.name !== undefined && a.name !== '' && names.includes(a.name));
}

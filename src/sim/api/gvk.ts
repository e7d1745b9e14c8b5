// Group/version/kind/resource identifiers and their printed forms.
// Models k8s.io/apimachinery/pkg/runtime/schema/group_version.go.

export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

export interface GroupKind {
  readonly group: string;
  readonly kind: string;
}

export interface GroupVersion {
  readonly group: string;
  readonly version: string;
}

export interface GroupVersionKind extends GroupVersion {
  readonly kind: string;
}

/** `pods`, `deployments.apps`: how error messages name a resource. */
export function groupResourceString(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

/** `Pod`, `Deployment.apps`: how Invalid errors name a kind. */
export function groupKindString(gk: GroupKind): string {
  return gk.group === '' ? gk.kind : `${gk.kind}.${gk.group}`;
}

/**
 * Splits an apiVersion as schema.ParseGroupVersion does: `v1` → core, `apps/v1` → apps; `""` is the
 * empty GroupVersion; more than one `/` is an error (`unexpected GroupVersion string: a/b/c`).
 */
export function parseGroupVersion(apiVersion: string): GroupVersion | { readonly error: string } {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: parts[0]! };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return { error: `unexpected GroupVersion string: ${apiVersion}` };
}

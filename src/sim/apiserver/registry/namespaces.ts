// Namespaces: the first DELETE only marks a namespace for deletion (deletionTimestamp, phase
// Terminating); the `kubernetes` finalizer in spec.finalizers keeps it until the namespace controller
// has removed its content and PUT the namespace to `/finalize` without it, whereupon the update deletes
// it. `/status` writes the status only, `/finalize` spec.finalizers only.
// Models k8s pkg/registry/core/namespace/storage/storage.go (REST.Delete, ShouldDeleteNamespaceDuringUpdate,
// shouldHaveOrphanFinalizer, shouldHaveDeleteDependentsFinalizer) and pkg/registry/core/namespace/strategy.go
// (namespaceStrategy, namespaceStatusStrategy, namespaceFinalizeStrategy), with
// pkg/apis/core/validation ValidateNamespaceStatusUpdate's phase rule.

import { newConflict } from '../../api/errors.ts';
import { fieldError, FieldPath, type FieldError } from '../../api/field.ts';
import type { Namespace } from '../../api/types/core.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import { formatTimestamp } from '../../api/time.ts';
import { validateStatusUpdate } from '../../api/validation/index.ts';
import type { Co } from '../../engine/index.ts';
import { interpretStorageError } from '../storage/errors.ts';
import type { DeleteResult, GenericStore, RegistryContext } from './generic-store.ts';
import { shouldDeleteDuringUpdate } from './store-delete.ts';
import type { DeleteOptions, StatusStrategy } from './strategy.ts';

const namespacesGR = { group: '', resource: 'namespaces' };
const namespaceGvk = { group: '', version: 'v1', kind: 'Namespace' };

/** The finalizer the namespace controller removes once the namespace is empty (v1.FinalizerKubernetes). */
export const finalizerKubernetes = 'kubernetes';

function shouldHaveOrphanFinalizer(options: DeleteOptions, have: boolean): boolean {
  if (options.orphanDependents !== undefined && options.orphanDependents !== null) return options.orphanDependents;
  if (options.propagationPolicy !== undefined && options.propagationPolicy !== null) return options.propagationPolicy === 'Orphan';
  return have;
}

function shouldHaveDeleteDependentsFinalizer(options: DeleteOptions, have: boolean): boolean {
  if (options.orphanDependents !== undefined && options.orphanDependents !== null) return options.orphanDependents === false;
  if (options.propagationPolicy !== undefined && options.propagationPolicy !== null) return options.propagationPolicy === 'Foreground';
  return have;
}

/** REST.Delete of namespaces. */
export function* deleteNamespace(store: GenericStore, ctx: RegistryContext, name: string, options: DeleteOptions): Co<DeleteResult> {
  let namespace: Namespace;
  try {
    namespace = (yield* store.get(ctx, name, '')) as Namespace;
  } catch (err) {
    throw interpretStorageError(err, namespacesGR, name);
  }
  const uid = options.preconditions?.uid ?? namespace.metadata.uid ?? '';
  if (uid !== namespace.metadata.uid) {
    throw newConflict(namespacesGR, name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${namespace.metadata.uid ?? ''}`);
  }
  const rv = options.preconditions?.resourceVersion;
  if (rv !== undefined && rv !== namespace.metadata.resourceVersion) {
    throw newConflict(namespacesGR, name, `Precondition failed: ResourceVersion in precondition: ${rv}, ResourceVersion in object meta: ${namespace.metadata.resourceVersion ?? ''}`);
  }
  yield* store.admitDelete(ctx, namespace);
  // Upon the first request to delete, the phase switches to Terminating.
  if (namespace.metadata.deletionTimestamp === undefined || namespace.metadata.deletionTimestamp === null) {
    const preconditions = { uid, ...(rv !== undefined ? { resourceVersion: rv } : {}) };
    const object = yield* store.updateForDelete(ctx, name, preconditions, (existing) => {
      const ns = existing as Namespace;
      if (ns.metadata.deletionTimestamp === undefined || ns.metadata.deletionTimestamp === null) ns.metadata.deletionTimestamp = formatTimestamp(ctx.epochMs + ctx.now);
      if (ns.status?.phase !== 'Terminating') ns.status = { ...ns.status, phase: 'Terminating' };
      const current = new Set(ns.metadata.finalizers ?? []);
      const want = new Map([
        ['orphan', shouldHaveOrphanFinalizer(options, current.has('orphan'))],
        ['foregroundDeletion', shouldHaveDeleteDependentsFinalizer(options, current.has('foregroundDeletion'))],
      ]);
      let changed = false;
      for (const [f, should] of want) {
        if (current.has(f) !== should) changed = true;
        if (should) current.add(f);
        else current.delete(f);
      }
      if (changed) ns.metadata.finalizers = [...current];
      return ns;
    });
    return { object, deleted: false };
  }
  // Prior to the final deletion, spec.finalizers must be empty.
  if ((namespace.spec?.finalizers ?? []).length > 0) return { object: namespace, deleted: false };
  return yield* store.genericDelete(ctx, name, options);
}

/** ShouldDeleteNamespaceDuringUpdate: the generic rule, and no spec.finalizers left. */
export function shouldDeleteNamespaceDuringUpdate(obj: KubeObject, existing: KubeObject): boolean {
  return ((obj as Namespace).spec?.finalizers ?? []).length === 0 && shouldDeleteDuringUpdate(obj, existing);
}

/** ValidateNamespaceStatusUpdate's phase rule. */
function validatePhase(ns: Namespace): FieldError[] {
  const phase = ns.status?.phase ?? '';
  const deleting = ns.metadata.deletionTimestamp !== undefined && ns.metadata.deletionTimestamp !== null;
  if (!deleting && phase !== 'Active') return [fieldError.invalid(FieldPath.of('status', 'Phase'), phase, "may only be 'Active' if `deletionTimestamp` is empty")];
  if (deleting && phase !== 'Terminating') return [fieldError.invalid(FieldPath.of('status', 'Phase'), phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
  return [];
}

export const namespaceStatusStrategy: StatusStrategy = {
  prepareForUpdate(obj: KubeObject, old: KubeObject) {
    const ns = obj as Namespace;
    const o = old as Namespace;
    if (o.spec !== undefined) ns.spec = o.spec;
    else delete ns.spec;
  },
  validateUpdate: (obj, old) => [...validateStatusUpdate(namespaceGvk, obj, old), ...validatePhase(obj as Namespace)],
};

export const namespaceFinalizeStrategy: StatusStrategy = {
  prepareForUpdate(obj: KubeObject, old: KubeObject) {
    const ns = obj as Namespace;
    const o = old as Namespace;
    if (o.status !== undefined) ns.status = o.status;
    else delete ns.status;
  },
  validateUpdate: (obj, old) => validateStatusUpdate(namespaceGvk, obj, old),
};

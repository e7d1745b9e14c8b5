// ObjectMeta validation on create and update: names per resource, namespace, labels, annotations
// (256 KiB total), owner references, finalizers, managed fields, and the immutable fields of an
// update (`field is immutable`, `must be specified for an update`).
// Models k8s.io/apimachinery/pkg/api/validation/objectmeta.go and k8s pkg/apis/core/validation
// (ValidateObjectMeta adds the standard-finalizer check).

import { FieldPath, fieldError, goStringSlice, type FieldError } from '../field.ts';
import { validateLabels } from './meta-v1.ts';
import { utf8Length } from '../../go/strconv.ts';
import type { ManagedFieldsEntry, ObjectMeta, OwnerReference } from '../types/meta.ts';
import { goOwnerReference } from './go-values.ts';
import { fieldImmutableErrorMsg, isNegativeErrorMsg, isQualifiedName, validateNamespaceName, type NameValidator } from './names.ts';

/** Total bytes of annotation keys and values allowed. */
export const totalAnnotationSizeLimitB = 256 * 1024;

const standardFinalizers = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

export function validateAnnotations(annotations: Readonly<Record<string, string>> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    // Case does not matter for annotation keys.
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(fieldError.invalid(path, k, msg));
    total += utf8Length(k) + utf8Length(v);
  }
  if (total > totalAnnotationSizeLimitB) errs.push(fieldError.tooLong(path, totalAnnotationSizeLimitB));
  return errs;
}

function validateOwnerReference(ref: OwnerReference, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const slash = (ref.apiVersion ?? '').indexOf('/');
  const version = slash < 0 ? ref.apiVersion ?? '' : ref.apiVersion.slice(slash + 1);
  const group = slash < 0 ? '' : ref.apiVersion.slice(0, slash);
  if (version === '') errs.push(fieldError.invalid(path.child('apiVersion'), ref.apiVersion ?? '', 'version must not be empty'));
  if (!ref.kind) errs.push(fieldError.invalid(path.child('kind'), ref.kind ?? '', 'kind must not be empty'));
  if (!ref.name) errs.push(fieldError.invalid(path.child('name'), ref.name ?? '', 'name must not be empty'));
  if (!ref.uid) errs.push(fieldError.invalid(path.child('uid'), ref.uid ?? '', 'uid must not be empty'));
  if (group === '' && version === 'v1' && ref.kind === 'Event') {
    errs.push(fieldError.invalid(path, { goSyntax: goOwnerReference(ref) }, '/v1, Kind=Event is disallowed from being an owner'));
  }
  return errs;
}

export function validateOwnerReferences(refs: readonly OwnerReference[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs ?? []) {
    errs.push(...validateOwnerReference(ref, path));
    if (ref.controller) {
      const current = `${ref.kind}/${ref.name}`;
      if (firstController !== '') {
        errs.push(fieldError.invalid(path, { goSyntax: `[]v1.OwnerReference{${(refs ?? []).map(goOwnerReference).join(', ')}}` },
          `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`));
      } else {
        firstController = current;
      }
    }
  }
  return errs;
}

/** Finalizer names are qualified names; unprefixed ones must be `kubernetes`, `orphan` or `foregroundDeletion`. */
export function validateFinalizers(finalizers: readonly string[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const list = finalizers ?? [];
  for (const f of list) for (const msg of isQualifiedName(f)) errs.push(fieldError.invalid(path, f, msg));
  if (list.includes('orphan') && list.includes('foregroundDeletion')) {
    errs.push(fieldError.invalid(path, goStringSlice(list), 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

function validateKubeFinalizerNames(finalizers: readonly string[] | undefined, path: FieldPath): FieldError[] {
  return (finalizers ?? []).flatMap((f, i) => (f.split('/').length === 1 && !standardFinalizers.has(f)
    ? [fieldError.invalid(path.index(i), f, 'name is neither a standard finalizer name nor is it fully qualified')]
    : []));
}

function validateManagedFields(entries: readonly ManagedFieldsEntry[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (entries ?? []).forEach((e, i) => {
    const p = path.index(i);
    if (e.operation !== 'Apply' && e.operation !== 'Update') errs.push(fieldError.invalid(p.child('operation'), e.operation ?? '', 'must be `Apply` or `Update`'));
    if (e.fieldsType !== undefined && e.fieldsType !== 'FieldsV1') errs.push(fieldError.invalid(p.child('fieldsType'), e.fieldsType, 'must be `FieldsV1`'));
    if (utf8Length(e.manager ?? '') > 128) errs.push(fieldError.tooLong(p.child('manager'), 128));
    if (utf8Length(e.subresource ?? '') > 256) errs.push(fieldError.tooLong(p.child('subresource'), 256));
  });
  return errs;
}

/**
 * ValidateObjectMeta for a create, after name generation: name per the resource's rule, namespace
 * required (namespaced) or forbidden (cluster-scoped), then labels, annotations, owners, finalizers.
 */
export function validateObjectMeta(meta: ObjectMeta, requiresNamespace: boolean, nameFn: NameValidator, path = FieldPath.of('metadata')): FieldError[] {
  const errs: FieldError[] = [];
  if (meta.generateName) {
    for (const msg of nameFn(meta.generateName, true)) errs.push(fieldError.invalid(path.child('generateName'), meta.generateName, msg));
  }
  if (!meta.name) errs.push(fieldError.required(path.child('name'), 'name or generateName is required'));
  else for (const msg of nameFn(meta.name, false)) errs.push(fieldError.invalid(path.child('name'), meta.name, msg));
  if (requiresNamespace) {
    if (!meta.namespace) errs.push(fieldError.required(path.child('namespace')));
    else for (const msg of validateNamespaceName(meta.namespace, false)) errs.push(fieldError.invalid(path.child('namespace'), meta.namespace, msg));
  } else if (meta.namespace) {
    errs.push(fieldError.forbidden(path.child('namespace'), 'not allowed on this type'));
  }
  if ((meta.generation ?? 0) < 0) errs.push(fieldError.invalid(path.child('generation'), meta.generation ?? 0, isNegativeErrorMsg));
  errs.push(...validateLabels(meta.labels, path.child('labels')));
  errs.push(...validateAnnotations(meta.annotations, path.child('annotations')));
  errs.push(...validateOwnerReferences(meta.ownerReferences, path.child('ownerReferences')));
  errs.push(...validateFinalizers(meta.finalizers, path.child('finalizers')));
  errs.push(...validateManagedFields(meta.managedFields, path.child('managedFields')));
  errs.push(...validateKubeFinalizerNames(meta.finalizers, path.child('finalizers')));
  return errs;
}

/** ValidateImmutableField; `pointer` fields print `null` when unset, plain strings print `""`. */
function immutable(newValue: string | number | undefined | null, oldValue: string | number | undefined | null, path: FieldPath, pointer = false): FieldError[] {
  const unset = pointer ? null : '';
  if ((newValue ?? unset) === (oldValue ?? unset)) return [];
  return [fieldError.invalid(path, newValue ?? unset, fieldImmutableErrorMsg)];
}

/** ValidateObjectMetaUpdate: what an update may not change in metadata. */
export function validateObjectMetaUpdate(newMeta: ObjectMeta, oldMeta: ObjectMeta, path = FieldPath.of('metadata')): FieldError[] {
  const errs: FieldError[] = [];
  if (oldMeta.deletionTimestamp !== undefined) {
    const added = [...new Set(newMeta.finalizers ?? [])].filter((f) => !(oldMeta.finalizers ?? []).includes(f)).sort();
    if (added.length > 0) {
      errs.push(fieldError.forbidden(path.child('finalizers'), `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(added).goSyntax}`));
    }
  }
  if (!newMeta.resourceVersion) errs.push(fieldError.invalid(path.child('resourceVersion'), newMeta.resourceVersion ?? '', 'must be specified for an update'));
  if ((newMeta.generation ?? 0) < (oldMeta.generation ?? 0)) errs.push(fieldError.invalid(path.child('generation'), newMeta.generation ?? 0, 'must not be decremented'));
  errs.push(...immutable(newMeta.name, oldMeta.name, path.child('name')));
  errs.push(...immutable(newMeta.namespace, oldMeta.namespace, path.child('namespace')));
  errs.push(...immutable(newMeta.uid, oldMeta.uid, path.child('uid')));
  errs.push(...immutable(newMeta.creationTimestamp, oldMeta.creationTimestamp, path.child('creationTimestamp')));
  errs.push(...immutable(newMeta.deletionTimestamp, oldMeta.deletionTimestamp, path.child('deletionTimestamp'), true));
  errs.push(...immutable(newMeta.deletionGracePeriodSeconds, oldMeta.deletionGracePeriodSeconds, path.child('deletionGracePeriodSeconds'), true));
  errs.push(...validateLabels(newMeta.labels, path.child('labels')));
  errs.push(...validateAnnotations(newMeta.annotations, path.child('annotations')));
  errs.push(...validateOwnerReferences(newMeta.ownerReferences, path.child('ownerReferences')));
  errs.push(...validateManagedFields(newMeta.managedFields, path.child('managedFields')));
  errs.push(...validateKubeFinalizerNames(newMeta.finalizers, path.child('finalizers')));
  return errs;
}

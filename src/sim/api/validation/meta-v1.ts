// Field validation of meta/v1's label types: label keys and values (`metadata.labels`), and a
// LabelSelector's matchLabels and matchExpressions, with upstream's texts.
// Models k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go.

import { fieldError, type FieldError, type FieldPath } from '../field.ts';
import type { LabelSelector, LabelSelectorRequirement } from '../types/meta.ts';
import { isQualifiedName, isValidLabelValue } from './names.ts';

/** A label key: a qualified name. */
export function validateLabelName(name: string, path: FieldPath): FieldError[] {
  return isQualifiedName(name).map((msg) => fieldError.invalid(path, name, msg));
}

/** `metadata.labels`: every key a qualified name, every value a label value (errors at the map's path). */
export function validateLabels(labels: Readonly<Record<string, string>> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    errs.push(...validateLabelName(k, path));
    for (const msg of isValidLabelValue(v)) errs.push(fieldError.invalid(path, v, msg));
  }
  return errs;
}

/**
 * The values a set-based requirement (a label selector's, a node selector's) needs for its operator:
 * some for In and NotIn, none for Exists and DoesNotExist; undefined for any other operator, which each
 * selector judges by its own rules.
 */
export function setOperatorValueErrors(operator: string, values: readonly string[], path: FieldPath): FieldError[] | undefined {
  switch (operator) {
    case 'In': case 'NotIn':
      return values.length === 0 ? [fieldError.required(path.child('values'), "must be specified when `operator` is 'In' or 'NotIn'")] : [];
    case 'Exists': case 'DoesNotExist':
      return values.length > 0 ? [fieldError.forbidden(path.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")] : [];
    default:
      return undefined;
  }
}

function validateLabelSelectorRequirement(sr: LabelSelectorRequirement, path: FieldPath): FieldError[] {
  const values = sr.values ?? [];
  const errs = setOperatorValueErrors(sr.operator, values, path)
    ?? [fieldError.invalid(path.child('operator'), sr.operator, 'not a valid selector operator')];
  errs.push(...validateLabelName(sr.key, path.child('key')));
  values.forEach((v, i) => {
    for (const msg of isValidLabelValue(v)) errs.push(fieldError.invalid(path.child('values').index(i), v, msg));
  });
  return errs;
}

/** metav1validation.ValidateLabelSelector. */
export function validateLabelSelector(ls: LabelSelector | null | undefined, path: FieldPath): FieldError[] {
  if (ls === null || ls === undefined) return [];
  const errs = validateLabels(ls.matchLabels, path.child('matchLabels'));
  (ls.matchExpressions ?? []).forEach((expr, i) => errs.push(...validateLabelSelectorRequirement(expr, path.child('matchExpressions').index(i))));
  return errs;
}

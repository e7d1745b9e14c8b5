// Validation of request options: ListOptions (resourceVersionMatch rules), DeleteOptions,
// Create/Update/PatchOptions (fieldManager, dryRun, fieldValidation). Failures are 422s of kind
// `ListOptions.meta.k8s.io ""` etc., built with `newOptionsInvalid`.
// Models k8s.io/apimachinery/pkg/apis/meta/internalversion/validation (ValidateListOptions) and
// pkg/apis/meta/v1/validation (ValidateDeleteOptions, ValidateCreateOptions, ValidatePatchOptions).

import { newInvalid, type StatusError } from '../errors.ts';
import { FieldPath, fieldError, goStringSlice, type FieldError } from '../field.ts';
import { utf8Length } from '../../go/strconv.ts';
import type { DeleteOptions } from '../types/meta.ts';

export interface ListOptionsInput {
  readonly watch?: boolean;
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: string;
  readonly continue?: string;
  /** Present (true or false) when the request set `sendInitialEvents`. */
  readonly sendInitialEvents?: boolean;
}

const rvMatch = FieldPath.of('resourceVersionMatch');

/** ValidateListOptions, with the WatchList feature gate off as in 1.28 by default unless given. */
export function validateListOptions(o: ListOptionsInput, watchListEnabled = false): FieldError[] {
  const errs: FieldError[] = [];
  const match = o.resourceVersionMatch ?? '';
  if (o.watch) {
    if (o.sendInitialEvents !== undefined) {
      if (match !== 'NotOlderThan') errs.push(fieldError.forbidden(rvMatch, 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
      if (!watchListEnabled) errs.push(fieldError.forbidden(FieldPath.of('sendInitialEvents'), 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'));
    }
    if (match !== '') {
      if (o.sendInitialEvents === undefined) errs.push(fieldError.forbidden(rvMatch, 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
      if (match !== 'NotOlderThan') errs.push(fieldError.notSupported(rvMatch, match, ['NotOlderThan']));
      if (o.continue) errs.push(fieldError.forbidden(rvMatch, 'resourceVersionMatch is forbidden when continue is provided'));
    }
    return errs;
  }
  if (match !== '') {
    if (!o.resourceVersion) errs.push(fieldError.forbidden(rvMatch, 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (o.continue) errs.push(fieldError.forbidden(rvMatch, 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan') errs.push(fieldError.notSupported(rvMatch, match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && o.resourceVersion === '0') errs.push(fieldError.forbidden(rvMatch, 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if (o.sendInitialEvents !== undefined) errs.push(fieldError.forbidden(FieldPath.of('sendInitialEvents'), 'sendInitialEvents is forbidden for list'));
  return errs;
}

function validateDryRun(dryRun: readonly string[] | undefined): FieldError[] {
  return (dryRun ?? []).every((d) => d === 'All') ? [] : [fieldError.notSupported(FieldPath.of('dryRun'), goStringSlice(dryRun ?? []), ['All'])];
}

/** Printable per Go's unicode.IsPrint (letters, marks, numbers, punctuation, symbols, ASCII space). */
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

function validateFieldManager(manager: string | undefined): FieldError[] {
  const m = manager ?? '';
  const path = FieldPath.of('fieldManager');
  const errs: FieldError[] = [];
  if (utf8Length(m) > 128) errs.push(fieldError.tooLong(path, 128));
  let offset = 0;
  for (const ch of m) {
    if (!printable.test(ch)) {
      const cp = ch.codePointAt(0)!;
      errs.push(fieldError.invalid(path, m, `invalid character U+${cp.toString(16).toUpperCase().padStart(4, '0')} (at position ${offset})`));
    }
    offset += utf8Length(ch);
  }
  return errs;
}

function validateFieldValidation(v: string | undefined): FieldError[] {
  const value = v ?? '';
  return ['', 'Ignore', 'Strict', 'Warn'].includes(value) ? [] : [fieldError.notSupported(FieldPath.of('fieldValidation'), value, ['', 'Ignore', 'Strict', 'Warn'])];
}

export interface WriteOptionsInput {
  readonly fieldManager?: string;
  readonly dryRun?: readonly string[];
  readonly fieldValidation?: string;
}

/** ValidateCreateOptions / ValidateUpdateOptions. */
export function validateWriteOptions(o: WriteOptionsInput): FieldError[] {
  return [...validateFieldManager(o.fieldManager), ...validateDryRun(o.dryRun), ...validateFieldValidation(o.fieldValidation)];
}

/** ValidatePatchOptions: `force` only with apply patches, which require a fieldManager. */
export function validatePatchOptions(o: WriteOptionsInput & { readonly force?: boolean }, applyPatch: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (!applyPatch) {
    if (o.force !== undefined) errs.push(fieldError.forbidden(FieldPath.of('force'), 'may not be specified for non-apply patch'));
  } else if (!o.fieldManager) {
    errs.push(fieldError.required(FieldPath.of('fieldManager'), 'is required for apply patch'));
  }
  return [...errs, ...validateWriteOptions(o)];
}

/** ValidateDeleteOptions. */
export function validateDeleteOptions(o: DeleteOptions): FieldError[] {
  const errs: FieldError[] = [];
  const policy = FieldPath.of('propagationPolicy');
  if (o.orphanDependents !== undefined && o.propagationPolicy !== undefined) {
    errs.push(fieldError.invalid(policy, o.propagationPolicy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (o.propagationPolicy !== undefined && !['Foreground', 'Background', 'Orphan'].includes(o.propagationPolicy)) {
    errs.push(fieldError.notSupported(policy, o.propagationPolicy, ['Foreground', 'Background', 'Orphan', 'nil']));
  }
  return [...errs, ...validateDryRun(o.dryRun)];
}

/** The 422 for invalid options: `ListOptions.meta.k8s.io "" is invalid: …`. */
export function newOptionsInvalid(kind: 'ListOptions' | 'DeleteOptions' | 'CreateOptions' | 'UpdateOptions' | 'PatchOptions', errs: readonly FieldError[]): StatusError {
  return newInvalid({ group: 'meta.k8s.io', kind }, '', errs);
}

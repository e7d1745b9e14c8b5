import { describe, expect, it } from 'vitest';
import { fieldErrorString } from '../field.ts';
import { newOptionsInvalid, validateDeleteOptions, validateListOptions, validatePatchOptions, validateWriteOptions } from './options.ts';

describe('ListOptions', () => {
  // Texts from semantics.md D.1 / apimachinery internalversion/validation.
  it.each([
    [{ resourceVersionMatch: 'NotOlderThan' }, ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided']],
    [{ resourceVersion: '5', resourceVersionMatch: 'Exact', continue: 'tok' }, ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided']],
    [{ resourceVersion: '0', resourceVersionMatch: 'Exact' }, ['resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"']],
    [{ resourceVersion: '5', resourceVersionMatch: 'Newest' }, ['resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""']],
    [{ resourceVersion: '5', resourceVersionMatch: 'NotOlderThan' }, []],
    [{ watch: true, resourceVersionMatch: 'NotOlderThan' }, ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided']],
    [{ watch: true, sendInitialEvents: true }, [
      'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
      'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
    ]],
    [{ sendInitialEvents: false }, ['sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list']],
  ])('%j', (options, errors) => {
    expect(validateListOptions(options).map(fieldErrorString)).toEqual(errors);
  });

  it('builds the 422 the list handler answers', () => {
    expect(newOptionsInvalid('ListOptions', validateListOptions({ resourceVersionMatch: 'Exact' })).status).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
      reason: 'Invalid',
      details: { group: 'meta.k8s.io', kind: 'ListOptions', causes: [{ reason: 'FieldValueForbidden', message: 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided', field: 'resourceVersionMatch' }] },
      code: 422,
    });
  });
});

describe('write and delete options', () => {
  it('checks fieldManager, dryRun and fieldValidation', () => {
    expect(validateWriteOptions({ fieldManager: 'kubectl-create', fieldValidation: 'Strict' })).toEqual([]);
    expect(validateWriteOptions({ fieldManager: 'a\tb', dryRun: ['Some'], fieldValidation: 'Loose' }).map(fieldErrorString)).toEqual([
      'fieldManager: Invalid value: "a\\tb": invalid character U+0009 (at position 1)',
      'dryRun: Unsupported value: []string{"Some"}: supported values: "All"',
      'fieldValidation: Unsupported value: "Loose": supported values: "", "Ignore", "Strict", "Warn"',
    ]);
    expect(validateWriteOptions({ fieldManager: 'x'.repeat(129) }).map(fieldErrorString)).toEqual(['fieldManager: Too long: must have at most 128 bytes']);
  });

  it('requires a field manager for apply patches and forbids force elsewhere', () => {
    expect(validatePatchOptions({}, true).map(fieldErrorString)).toEqual(['fieldManager: Required value: is required for apply patch']);
    expect(validatePatchOptions({ force: false }, false).map(fieldErrorString)).toEqual(['force: Forbidden: may not be specified for non-apply patch']);
  });

  it('checks the propagation policy', () => {
    expect(validateDeleteOptions({ propagationPolicy: 'Background' })).toEqual([]);
    expect(validateDeleteOptions({ propagationPolicy: 'Later' as 'Orphan' }).map(fieldErrorString)).toEqual(['propagationPolicy: Unsupported value: "Later": supported values: "Foreground", "Background", "Orphan", "nil"']);
    expect(validateDeleteOptions({ propagationPolicy: 'Orphan', orphanDependents: true }).map(fieldErrorString)).toEqual(['propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set']);
  });
});

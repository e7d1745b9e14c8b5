import { describe, expect, it } from 'vitest';
import { aggregateFieldErrors, FieldPath, fieldError, fieldErrorBody, fieldErrorString, goStringSlice } from './field.ts';

describe('FieldPath', () => {
  // Expected strings from apimachinery util/validation/field/path_test.go.
  it('renders children, indexes and keys', () => {
    const root = FieldPath.of('root');
    const second = root.child('first').child('second');
    expect(root.toString()).toBe('root');
    expect(second.index(0).toString()).toBe('root.first.second[0]');
    expect(second.index(0).child('third').index(93).toString()).toBe('root.first.second[0].third[93]');
    expect(second.index(0).key('key').toString()).toBe('root.first.second[0][key]');
    expect(FieldPath.of('root', 'first').child('second', 'third').index(0).toString()).toBe('root.first.second.third[0]');
  });

  it('renders the paths Kubernetes prints for pods', () => {
    const p = FieldPath.of('spec', 'template', 'spec').child('containers').index(0).child('image');
    expect(p.toString()).toBe('spec.template.spec.containers[0].image');
    expect(FieldPath.of('metadata', 'labels').key('app').toString()).toBe('metadata.labels[app]');
  });
});

describe('field errors', () => {
  const f = FieldPath.of('f');
  it.each([
    [fieldError.invalid(f, 'v', 'd'), 'f: Invalid value: "v": d'],
    [fieldError.invalid(f, -1, 'must be greater than or equal to 0'), 'f: Invalid value: -1: must be greater than or equal to 0'],
    [fieldError.invalid(f, null, ''), 'f: Invalid value: null'],
    [fieldError.invalid(f, true, 'x'), 'f: Invalid value: true: x'],
    [fieldError.invalid(f, goStringSlice(['a', 'b']), 'x'), 'f: Invalid value: []string{"a", "b"}: x'],
    [fieldError.notSupported(f, 'v', []), 'f: Unsupported value: "v"'],
    // field/errors_test.go TestNotSupported
    [fieldError.notSupported(f, 'v', ['a', 'b', 'c']), 'f: Unsupported value: "v": supported values: "a", "b", "c"'],
    [fieldError.duplicate(f, 'v'), 'f: Duplicate value: "v"'],
    [fieldError.notFound(f, 'v'), 'f: Not found: "v"'],
    [fieldError.required(f), 'f: Required value'],
    [fieldError.required(f, 'd'), 'f: Required value: d'],
    [fieldError.forbidden(f, 'not allowed on this type'), 'f: Forbidden: not allowed on this type'],
    [fieldError.tooLong(f, 262144), 'f: Too long: must have at most 262144 bytes'],
    [fieldError.tooLongMaxLength(f, 63), 'f: Too long: may not be longer than 63'],
    [fieldError.tooMany(f, 5, 3), 'f: Too many: 5: must have at most 3 items'],
    [fieldError.tooMany(f, -1, 3), 'f: Too many: must have at most 3 items'],
    [fieldError.internal(f, 'e'), 'f: Internal error: e'],
  ])('%# renders as %s', (err, expected) => {
    expect(fieldErrorString(err)).toBe(expected);
    expect(`${err.field}: ${fieldErrorBody(err)}`).toBe(expected);
  });

  it('aggregates: one bare, several bracketed, duplicates dropped', () => {
    const a = fieldError.required(FieldPath.of('a'));
    const b = fieldError.invalid(FieldPath.of('b'), 1, 'x');
    expect(aggregateFieldErrors([])).toBeUndefined();
    expect(aggregateFieldErrors([a])).toBe('a: Required value');
    expect(aggregateFieldErrors([a, a])).toBe('a: Required value');
    expect(aggregateFieldErrors([a, b, a])).toBe('[a: Required value, b: Invalid value: 1: x]');
  });
});

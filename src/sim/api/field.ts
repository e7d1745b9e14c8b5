// Field paths and field-level validation errors: the vocabulary of every 422 Invalid.
// A path renders the way Kubernetes prints it (`spec.template.spec.containers[0].image`,
// `metadata.labels[app]`); an error renders as `<field>: <type text>[: <value>][: <detail>]`.
// Models k8s.io/apimachinery/pkg/util/validation/field/path.go and errors.go.

import { goQuote } from '../go/strconv.ts';

/** A path from an object's root to one field. Immutable: every step returns a new path. */
export class FieldPath {
  private constructor(
    private readonly name: string,
    /** For subscripts (`[0]`, `[app]`): the index or map key; `name` is then empty. */
    private readonly subscript: string,
    private readonly parent: FieldPath | undefined,
  ) {}

  /** `field.NewPath("spec", "template")`. */
  static of(name: string, ...more: string[]): FieldPath {
    let p = new FieldPath(name, '', undefined);
    for (const n of more) p = new FieldPath(n, '', p);
    return p;
  }

  child(name: string, ...more: string[]): FieldPath {
    let p = new FieldPath(name, '', this);
    for (const n of more) p = new FieldPath(n, '', p);
    return p;
  }

  index(i: number): FieldPath {
    return new FieldPath('', String(i), this);
  }

  key(k: string): FieldPath {
    return new FieldPath('', k, this);
  }

  toString(): string {
    const elems: FieldPath[] = [this];
    for (let p = this.parent; p !== undefined; p = p.parent) elems.push(p);
    let out = '';
    for (let i = elems.length - 1; i >= 0; i--) {
      const p = elems[i]!;
      if (p.name.length > 0) out += (p.parent !== undefined ? '.' : '') + p.name;
      else out += `[${p.subscript}]`;
    }
    return out;
  }
}

/** The field error types; each is also the `reason` of the matching StatusCause. */
export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

const typeText: Readonly<Record<FieldErrorType, string>> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/**
 * A value already rendered in Go's `%#v` syntax, for bad values that are neither strings, numbers,
 * booleans nor null (e.g. `[]string{"a", "b"}`, or `0x0` for a uint64 resourceVersion).
 */
export interface GoSyntax {
  readonly goSyntax: string;
}

/** The offending value as Kubernetes prints it: strings are `%q`-quoted, numbers and booleans bare. */
export type BadValue = string | number | boolean | null | GoSyntax;

/** `[]string{"a", "b"}`, the `%#v` of a Go string slice. */
export function goStringSlice(values: readonly string[]): GoSyntax {
  return { goSyntax: `[]string{${values.map(goQuote).join(', ')}}` };
}

export interface FieldError {
  readonly type: FieldErrorType;
  readonly field: string;
  /** `undefined` when the message leaves the value out (Required, Forbidden, TooLong, Internal, or omitted). */
  readonly badValue: BadValue | undefined;
  readonly detail: string;
}

function make(type: FieldErrorType, path: FieldPath, badValue: BadValue | undefined, detail: string): FieldError {
  return { type, field: path.toString(), badValue, detail };
}

export const fieldError = {
  notFound: (path: FieldPath, value: BadValue): FieldError => make('FieldValueNotFound', path, value, ''),
  required: (path: FieldPath, detail = ''): FieldError => make('FieldValueRequired', path, undefined, detail),
  duplicate: (path: FieldPath, value: BadValue): FieldError => make('FieldValueDuplicate', path, value, ''),
  invalid: (path: FieldPath, value: BadValue, detail: string): FieldError => make('FieldValueInvalid', path, value, detail),
  /** `supported values: "A", "B"`, with the valid values in the order given. */
  notSupported: (path: FieldPath, value: BadValue, validValues: readonly string[]): FieldError =>
    make('FieldValueNotSupported', path, value,
      validValues.length > 0 ? 'supported values: ' + validValues.map(goQuote).join(', ') : ''),
  forbidden: (path: FieldPath, detail: string): FieldError => make('FieldValueForbidden', path, undefined, detail),
  /** `must have at most N bytes` (field.TooLong). */
  tooLong: (path: FieldPath, maxLength: number): FieldError =>
    make('FieldValueTooLong', path, undefined, `must have at most ${maxLength} bytes`),
  /** `may not be longer than N` (field.TooLongMaxLength). */
  tooLongMaxLength: (path: FieldPath, maxLength: number): FieldError =>
    make('FieldValueTooLong', path, undefined, maxLength >= 0 ? `may not be longer than ${maxLength}` : 'value is too long'),
  tooMany: (path: FieldPath, actual: number, max: number): FieldError =>
    make('FieldValueTooMany', path, actual >= 0 ? actual : undefined,
      max >= 0 ? `must have at most ${max} items` : 'has too many items'),
  internal: (path: FieldPath, message: string): FieldError => make('InternalError', path, undefined, message),
  typeInvalid: (path: FieldPath, value: BadValue, detail: string): FieldError =>
    make('FieldValueTypeInvalid', path, value, detail),
};

function formatBadValue(value: BadValue): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value.goSyntax;
}

/** The message without the field name: `Invalid value: -1: must be greater than or equal to 0`. */
export function fieldErrorBody(e: FieldError): string {
  let s = typeText[e.type];
  if (e.badValue !== undefined && e.type !== 'FieldValueRequired' && e.type !== 'FieldValueForbidden'
    && e.type !== 'FieldValueTooLong' && e.type !== 'InternalError') {
    s += ': ' + formatBadValue(e.badValue);
  }
  if (e.detail.length > 0) s += ': ' + e.detail;
  return s;
}

/** `spec.replicas: Invalid value: -1: must be greater than or equal to 0`. */
export function fieldErrorString(e: FieldError): string {
  return `${e.field}: ${fieldErrorBody(e)}`;
}

/**
 * The aggregate message of a list (ErrorList.ToAggregate().Error()): duplicates dropped, one error
 * bare, several as `[a, b]`; `undefined` for an empty list.
 */
export function aggregateFieldErrors(errs: readonly FieldError[]): string | undefined {
  const msgs = [...new Set(errs.map(fieldErrorString))];
  if (msgs.length === 0) return undefined;
  return msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`;
}

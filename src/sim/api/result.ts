// The outcome of parsing or converting user input: a value, or the error text Kubernetes would
// report. Malformed input is an expected result here, never an exception.

export type Result<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: string };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(error: string): Result<T> {
  return { ok: false, error };
}

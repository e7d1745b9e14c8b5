// Decoding a JSON value into a kind the way kube-apiserver's Go decoder does: case-sensitive field
// names, unknown fields collected (reported as `unknown field "spec.foo"` under
// fieldValidation=Strict or Warn, dropped under Ignore), type mismatches reported with
// encoding/json's text (`json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas
// of type int32`), custom types parsed (quantities, timestamps, int-or-string, base64 bytes). The
// result is canonical: what a Go decode followed by an encode yields — fields in struct order,
// non-omitempty zero values written (`resources: {}`, `creationTimestamp: null`, `status: {}`), map
// keys sorted, quantities and timestamps re-printed.
// Models encoding/json (decode.go, encode.go) via sigs.k8s.io/json (case-sensitive, strict),
// k8s.io/apimachinery/pkg/runtime/serializer/json and the handlers' transformDecodeError.

import { newBadRequest, type StatusError } from './errors.ts';
import type { GroupVersionKind } from './gvk.ts';
import { parseQuantity, quantityString } from './quantity.ts';
import { fail, ok, type Result } from './result.ts';
import { goTypeName, hasStruct, isEmptyValue, structFields, structSlots, zeroValue, type TypeNode } from './schema.ts';
import { goQuote } from '../go/strconv.ts';
import { copyJson } from './json-copy.ts';
import { remembered } from './remembered.ts';
import { canonicalTimeText } from './time.ts';
import type { KubeObject } from './types/meta.ts';

export interface Decoded {
  /** The canonical object. */
  readonly object: Record<string, unknown>;
  /** Fields the schema does not know, as paths with list indexes (`spec.containers[0].foo`), in input order. */
  readonly unknownFields: readonly string[];
}

class DecodeError extends Error {}

/** encoding/json's description of a JSON value in type errors. */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string': return 'string';
    case 'number': return 'number';
    case 'boolean': return 'bool';
    default: return 'object';
  }
}

/**
 * Where the decoder is: a chain of steps from the root, turned into a path or field stack only when an
 * error or unknown field needs one (decoding valid data builds no strings).
 */
interface Context {
  /** The Go struct whose field is being decoded. */
  readonly struct: string;
  readonly parent: Context | null;
  /** A struct field's JSON name, or a list index / map key. */
  readonly step: string;
  readonly isField: boolean;
}

function rootContext(struct: string): Context {
  return { struct, parent: null, step: '', isField: false };
}

/** JSON field names from the root, without list indexes (Go's errorContext.FieldStack). */
function fieldStackOf(ctx: Context): string[] {
  const stack: string[] = [];
  for (let c: Context | null = ctx; c !== null && c.parent !== null; c = c.parent) if (c.isField) stack.push(c.step);
  return stack.reverse();
}

/** The path with list indexes and map keys, for unknown-field reports (`spec.containers[0].foo`). */
function pathOf(ctx: Context): string {
  if (ctx.parent === null) return '';
  const parent = pathOf(ctx.parent);
  if (!ctx.isField) return `${parent}[${ctx.step}]`;
  return parent === '' ? ctx.step : `${parent}.${ctx.step}`;
}

const rfc3339Layout = '2006-01-02T15:04:05Z07:00';

/** time.Parse(time.RFC3339, s)'s error text for a string that is not a timestamp. */
function timeParseError(s: string): string {
  const elements: readonly [string, RegExp][] = [['2006', /^\d{4}/], ['-', /^-/], ['01', /^\d{2}/], ['-', /^-/], ['02', /^\d{2}/], ['T', /^T/],
    ['15', /^\d{2}/], [':', /^:/], ['04', /^\d{2}/], [':', /^:/], ['05', /^\d{2}(\.\d+)?/], ['Z07:00', /^(Z|[+-]\d{2}:\d{2})/]];
  let rest = s;
  for (const [elem, re] of elements) {
    const m = re.exec(rest);
    if (m === null) return `parsing time ${goQuote(s)} as ${goQuote(rfc3339Layout)}: cannot parse ${goQuote(rest)} as ${goQuote(elem)}`;
    rest = rest.slice(m[0].length);
  }
  if (rest !== '') return `parsing time ${goQuote(s)}: extra text: ${goQuote(rest)}`;
  const [month, day, hour, minute, second] = [s.slice(5, 7), s.slice(8, 10), s.slice(11, 13), s.slice(14, 16), s.slice(17, 19)].map(Number) as [number, number, number, number, number];
  const range = month < 1 || month > 12 ? 'month' : day < 1 || day > 31 ? 'day' : hour > 23 ? 'hour' : minute > 59 ? 'minute' : second > 59 ? 'second' : 'day';
  return `parsing time ${goQuote(s)}: ${range} out of range`;
}

function isStdBase64(s: string): number | undefined {
  // Returns the offset of the first illegal byte, or undefined when valid.
  if (s.length % 4 !== 0) return Math.floor(s.length / 4) * 4;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const pad = c === '=' && (i >= s.length - 2) && s.slice(i).split('').every((x) => x === '=');
    if (!/[A-Za-z0-9+/]/.test(c) && !pad) return i;
  }
  return undefined;
}

class Decoder {
  readonly unknownFields: string[] = [];

  private typeError(value: unknown, t: TypeNode, ctx: Context, valueText = jsonKind(value)): never {
    const goType = goTypeName(t.kind === 'pointer' ? t.elem : t);
    const fieldStack = fieldStackOf(ctx);
    if (fieldStack.length === 0) throw new DecodeError(`json: cannot unmarshal ${valueText} into Go value of type ${goType}`);
    throw new DecodeError(`json: cannot unmarshal ${valueText} into Go struct field ${ctx.struct}.${fieldStack.join('.')} of type ${goType}`);
  }

  /** Decodes `value` as `t`; `undefined` stands for "leave the zero value". */
  value(value: unknown, t: TypeNode, ctx: Context): unknown {
    if (value === null) return t.kind === 'pointer' || t.kind === 'list' || t.kind === 'map' || t.kind === 'bytes' || t.kind === 'Raw' ? null : undefined;
    switch (t.kind) {
      case 'pointer': return this.value(value, t.elem, ctx);
      case 'string':
        if (typeof value !== 'string') this.typeError(value, t, ctx);
        return value;
      case 'bool':
        if (typeof value !== 'boolean') this.typeError(value, t, ctx);
        return value;
      case 'int32': case 'int64': {
        if (typeof value !== 'number') this.typeError(value, t, ctx);
        const bound = t.kind === 'int32' ? 2 ** 31 : 2 ** 63;
        if (!Number.isInteger(value) || value < -bound || value >= bound) this.typeError(value, t, ctx, `number ${value}`);
        return value;
      }
      case 'float64':
        if (typeof value !== 'number') this.typeError(value, t, ctx);
        return value;
      case 'Quantity': {
        const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : JSON.stringify(value);
        const q = parseQuantity(text);
        if (!q.ok) throw new DecodeError(q.error);
        return quantityString(q.value);
      }
      case 'IntOrString':
        if (typeof value === 'string') return value;
        if (typeof value !== 'number') throw new DecodeError(`json: cannot unmarshal ${jsonKind(value)} into Go value of type int32`);
        if (!Number.isInteger(value) || value < -(2 ** 31) || value >= 2 ** 31) throw new DecodeError(`json: cannot unmarshal number ${value} into Go value of type int32`);
        return value;
      case 'Time': case 'MicroTime': {
        if (typeof value !== 'string') throw new DecodeError(`json: cannot unmarshal ${jsonKind(value)} into Go value of type string`);
        const text = canonicalTimeText(value, t.kind === 'MicroTime');
        if (text === undefined) throw new DecodeError(timeParseError(value));
        return text;
      }
      case 'Raw': return value;
      case 'bytes': {
        if (typeof value !== 'string') this.typeError(value, t, ctx);
        const bad = isStdBase64(value);
        if (bad !== undefined) throw new DecodeError(`illegal base64 data at input byte ${bad}`);
        return value;
      }
      case 'list': {
        if (!Array.isArray(value)) this.typeError(value, t, ctx);
        return value.map((item, i) => (item !== null && decodesAsItself(item, t.elem) ? item
          : this.value(item, t.elem, { struct: ctx.struct, parent: ctx, step: String(i), isField: false }) ?? zero(t.elem)));
      }
      case 'map': {
        if (typeof value !== 'object' || Array.isArray(value)) this.typeError(value, t, ctx);
        const out: Record<string, unknown> = {};
        for (const key of Object.keys(value).sort()) {
          const v = (value as Record<string, unknown>)[key];
          out[key] = v !== null && decodesAsItself(v, t.elem) ? v : this.value(v, t.elem, { struct: ctx.struct, parent: ctx, step: key, isField: false }) ?? zero(t.elem);
        }
        return out;
      }
      case 'struct': {
        if (typeof value !== 'object' || Array.isArray(value)) this.typeError(value, t, ctx);
        return this.struct(value as Record<string, unknown>, t.name, ctx);
      }
    }
  }

  struct(value: Readonly<Record<string, unknown>>, name: string, ctx: Context): Record<string, unknown> {
    const fields = structFields(name);
    const { slotOf, slots } = structSlots(name);
    // Each field's decoded value at its slot (undefined: the zero value), keys read in input order.
    const decoded = new Array<unknown>(fields.length);
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const slot = slotOf.get(key);
      if (slot === undefined) {
        this.unknownFields.push(pathOf({ struct: name, parent: ctx, step: key, isField: true }));
        continue;
      }
      const f = fields[slot]!;
      const v = value[key];
      // A value that decodes as itself needs no context (no error, no unknown field below).
      decoded[slot] = decodesAsItself(v, f.type) ? v : this.value(v, f.type, { struct: f.declaredIn, parent: ctx, step: key, isField: true });
    }
    const out: Record<string, unknown> = {};
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      const d = decoded[slots[i]!];
      const v = d !== undefined ? d : zero(f.type);
      if (f.omitempty && isEmptyValue(v, f.type)) continue;
      out[f.json] = v;
    }
    return out;
  }
}

/**
 * Whether `value` decodes as `t` to itself, without an error: a string or bool of that type, a number for
 * a float64 or an integer in an int32's or int64's range, null for a pointer (or what its element takes).
 */
function decodesAsItself(value: unknown, t: TypeNode): boolean {
  switch (t.kind) {
    case 'string': return typeof value === 'string';
    case 'bool': return typeof value === 'boolean';
    case 'float64': return typeof value === 'number';
    case 'int32': return typeof value === 'number' && Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31;
    case 'int64': return typeof value === 'number' && Number.isInteger(value) && value >= -(2 ** 63) && value < 2 ** 63;
    case 'pointer': return value === null || decodesAsItself(value, t.elem);
    default: return false;
  }
}

/** The encoding of a Go zero value of this type. */
function zero(t: TypeNode): unknown {
  return zeroValue(t, zeroStruct);
}

const zeroStructOf = remembered((name: string) => new Decoder().struct({}, name, rootContext(name)));

/** A struct's zero value (the decode of `{}`): decoded once per struct, a copy handed out each time. */
function zeroStruct(name: string): unknown {
  return copyJson(zeroStructOf(name));
}

/**
 * Decodes a JSON value as the struct of a kind (`Deployment`, `Pod`…). The error is encoding/json's
 * (or a custom type's) text, which the apiserver wraps with `decodeErrorStatus`.
 */
export function decodeStruct(structName: string, value: unknown): Result<Decoded> {
  if (!hasStruct(structName)) throw new Error(`decode: no schema for ${structName}`);
  const decoder = new Decoder();
  try {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      if (value === null) return ok({ object: zero({ kind: 'struct', name: structName }) as Record<string, unknown>, unknownFields: [] });
      throw new DecodeError(`json: cannot unmarshal ${jsonKind(value)} into Go value of type v1.${structName}`);
    }
    const object = decoder.struct(value as Record<string, unknown>, structName, rootContext(structName));
    return ok({ object, unknownFields: decoder.unknownFields });
  } catch (e) {
    if (e instanceof DecodeError) return fail(e.message);
    throw e;
  }
}

/** Re-encodes an object of a kind in canonical form (a Go decode/encode round trip of valid data). */
export function canonicalize<T extends KubeObject>(kind: string, obj: T): T {
  const r = decodeStruct(kind, obj);
  if (!r.ok) throw new Error(`canonicalize ${kind}: ${r.error}`);
  return r.value.object as T;
}

/** `strict decoding error: unknown field "spec.foo", unknown field "bar"`. */
export function strictDecodingError(unknownFields: readonly string[]): string {
  return `strict decoding error: ${unknownFields.map((f) => `unknown field ${goQuote(f)}`).join(', ')}`;
}

/** The 400 for a body that does not decode: `Deployment in version "v1" cannot be handled as a Deployment: <err>`. */
export function decodeErrorStatus(gvk: GroupVersionKind, message: string): StatusError {
  return newBadRequest(`${gvk.kind} in version ${goQuote(gvk.version)} cannot be handled as a ${gvk.kind}: ${message}`);
}

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/**
 * A request body decoded for a kind under a fieldValidation directive: Strict turns unknown fields
 * into the 400, Warn returns them as `unknown field "…"` warnings (sent as `Warning: 299 - "…"`),
 * Ignore drops them.
 */
export function decodeForRequest(gvk: GroupVersionKind, value: unknown, fieldValidation: FieldValidation):
  { readonly ok: true; readonly object: KubeObject; readonly warnings: readonly string[] } | { readonly ok: false; readonly error: StatusError } {
  const r = decodeStruct(gvk.kind, value);
  if (!r.ok) return { ok: false, error: decodeErrorStatus(gvk, r.error) };
  const unknown = r.value.unknownFields;
  if (fieldValidation === 'Strict' && unknown.length > 0) return { ok: false, error: decodeErrorStatus(gvk, strictDecodingError(unknown)) };
  const warnings = fieldValidation === 'Warn' ? unknown.map((f) => `unknown field ${goQuote(f)}`) : [];
  return { ok: true, object: r.value.object as unknown as KubeObject, warnings };
}

// What decoding an object's protobuf encoding gives, computed from the object without the bytes:
// `protobufRoundTrip(obj)` deep-equals `decodeProtobuf(encodeProtobuf(obj)).object`, key order
// included (round-trip.property.test.ts checks it over random objects of every kind, canonical or not).
// kube-apiserver decodes the value it has just written to etcd (Go's structs normalize what they carry:
// an empty map or list is not encoded, a zero Time comes back null, a Time loses its fraction, a field
// the schema does not know is dropped); the storage codec uses this instead of decoding those bytes.
// Each step below mirrors one in encode.ts (what is written) followed by decode.ts (how it reads back),
// and the parts where a value changes (timestamps, quantities, UTF-8) call the codec's own functions.
// Models encode.ts + decode.ts (k8s.io/api's generated Marshal then Unmarshal, then encoding/json).

import { copyJson } from '../json-copy.ts';
import { isEmptyValue, type TypeNode } from '../schema.ts';
import type { KubeObject } from '../types/meta.ts';
import { quantityValue, timeValue, zero } from './decode.ts';
import { canonicalQuantity, parseTime } from './encode.ts';
import { hasProtobufKind, isRegistered } from './kinds.ts';
import { planOf, type OutField, type Plan } from './plan.ts';
import { remembered } from '../remembered.ts';
import { base64FromBytes, bytesFromBase64, utf8Decode, utf8Encode } from './wire.ts';

type Obj = Readonly<Record<string, unknown>>;

/** A value whose round trip this module does not mirror (the caller decodes the bytes instead). */
class NotMirrored extends Error {}

/** A struct's JSON fields in struct order, each with whether its message encodes it. */
interface MirrorField extends OutField {
  readonly encoded: boolean;
  /** What an unset field reads back as: left out (omitempty), a zero scalar, or a new zero struct. */
  readonly unset: 'omit' | 'struct' | { readonly zero: unknown };
}

function unsetOf(f: OutField): MirrorField['unset'] {
  const z = zero(f.type);
  if (f.omitempty && isEmptyValue(z, f.type)) return 'omit';
  return f.type.kind === 'struct' ? 'struct' : { zero: z };
}

const mirrorPlans = new Map<string, readonly MirrorField[]>();

function encodedNames(plan: Plan, into: Set<string>): Set<string> {
  for (const f of plan.fields) {
    if (f.inline) encodedNames(planOf((f.type as { name: string }).name), into);
    else into.add(f.name);
  }
  return into;
}

function mirrorPlanOf(name: string): readonly MirrorField[] {
  let fields = mirrorPlans.get(name);
  if (fields === undefined) {
    const plan = planOf(name);
    const encoded = encodedNames(plan, new Set());
    fields = plan.out.map((f) => ({ ...f, encoded: encoded.has(f.json), unset: unsetOf(f) }));
    mirrorPlans.set(name, fields);
  }
  return fields;
}

/**
 * `decodeProtobuf(encodeProtobuf(obj))`'s object without the bytes; undefined where that decode would
 * fail or where this mirror does not follow it exactly (a kind not registered for its apiVersion, a time
 * or quantity that does not read back, an integer beyond what a JS number holds, a map key that is not
 * valid UTF-16): the caller then decodes. `obj` must encode (encodeProtobuf(obj) did not throw). The
 * result shares nothing with `obj`.
 */
export function protobufRoundTrip(obj: KubeObject): KubeObject | undefined {
  const kind = wellFormed(obj.kind ?? '');
  const apiVersion = wellFormed(obj.apiVersion ?? '');
  if (kind === 'WatchEvent' || !hasProtobufKind(kind) || !isRegistered(kind, apiVersion)) return undefined;
  const slashes = apiVersion.split('/').length - 1;
  if (apiVersion === '' || slashes > 1 || apiVersion.endsWith('/')) return undefined;
  try {
    return struct(kind, obj as unknown as Obj, kind, apiVersion) as unknown as KubeObject;
  } catch (e) {
    if (e instanceof NotMirrored) return undefined;
    throw e;
  }
}

/** A struct message read back: fields in struct order, zero values filled in, omitempty applied. */
function struct(name: string, obj: Obj, kind?: string, apiVersion?: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of mirrorPlanOf(name)) {
    // At the top, kind and apiVersion are the envelope's (runtime.Unknown's TypeMeta).
    // An unset or null field reads back as its type's zero value (the encoding writes a zero or nothing).
    const given = f.encoded ? obj[f.json] : undefined;
    const v = kind !== undefined && f.json === 'kind' ? kind : apiVersion !== undefined && f.json === 'apiVersion' ? apiVersion
      : given === undefined || given === null ? undefined : field(f.type, given);
    if (v === undefined) {
      const unset = f.unset;
      if (unset === 'omit') continue;
      out[f.json] = unset === 'struct' ? zero(f.type) : unset.zero;
      continue;
    }
    if (f.omitempty && isEmptyValue(v, f.type)) continue;
    out[f.json] = v;
  }
  return out;
}

/** A field's value read back, or undefined when the encoding writes nothing for it. */
function field(t: TypeNode, v: unknown): unknown {
  switch (t.kind) {
    case 'pointer':
      return v === undefined || v === null ? undefined : field(t.elem, v);
    case 'list': {
      if (!Array.isArray(v) || v.length === 0) return undefined;
      const out: unknown[] = [];
      for (const x of v) {
        const item = field(t.elem, x);
        if (item !== undefined) out.push(item);
      }
      return out.length === 0 ? undefined : out;
    }
    case 'map': {
      if (v === undefined || v === null) return undefined;
      const m = v as Obj;
      const keys = Object.keys(m).sort();
      if (keys.length === 0) return undefined;
      const out: Record<string, unknown> = {};
      for (const key of keys) {
        if (wellFormed(key) !== key) throw new NotMirrored();
        out[key] = mapValue(t.elem, m[key]);
      }
      return out;
    }
    case 'bool': return v === true;
    case 'int32': case 'int64': return integer(t.kind, typeof v === 'number' ? Math.trunc(v) : 0);
    case 'float64': return typeof v === 'number' ? v : 0;
    case 'string': return v === undefined || v === null || v === '' ? '' : wellFormed(String(v));
    case 'bytes': {
      if (v === undefined || v === null) return undefined;
      const bytes = bytesFromBase64(String(v));
      if (bytes === undefined) throw new NotMirrored();
      return base64FromBytes(bytes);
    }
    case 'Time': case 'MicroTime':
      return typeof v === 'string' ? timeReadBack(v, t.kind === 'MicroTime') : null;
    case 'Quantity':
      return quantityReadBack(v === undefined || v === null ? '0' : String(v));
    case 'IntOrString':
      return typeof v === 'string' ? wellFormed(v) : integer('int32', typeof v === 'number' ? Math.trunc(v) : 0);
    case 'Raw':
      return v === undefined || v === null ? null : copyJson(v);
    case 'struct':
      return v === undefined || v === null ? zero(t) : struct(t.name, v as Obj);
  }
}

/** What the codec rejects (the memos below remember a rejection too). */
const notMirrored = Symbol('not mirrored');

/** `read()`, or `notMirrored` where it throws. */
function orNotMirrored<R>(read: () => R): R | typeof notMirrored {
  try {
    return read();
  } catch {
    return notMirrored;
  }
}

// Remembered by text: a cluster's objects share a few timestamps and quantities. Times by MicroTime or not.
const timeOf = ([false, true] as const).map((micro) => remembered((text: string) => {
  const [seconds, nanos] = parseTime(text, micro);
  return orNotMirrored(() => timeValue(seconds, nanos, micro));
}));
const quantityOf = remembered((text: string) => orNotMirrored(() => quantityValue(canonicalQuantity(text))));

/** A Time's or MicroTime's text read back (seconds, and microseconds for a MicroTime, in UTC). */
function timeReadBack(text: string, micro: boolean): string | null {
  const out = timeOf[micro ? 1 : 0]!(text);
  if (out === notMirrored) throw new NotMirrored();
  return out;
}

/** A Quantity's text read back: printed canonically, then parsed and printed again by the decoder. */
function quantityReadBack(text: string): string {
  const out = quantityOf(text);
  if (out === notMirrored) throw new NotMirrored();
  return out;
}

/** A map entry's value read back: the entry's value field, or Go's zero value when it writes none. */
function mapValue(t: TypeNode, v: unknown): unknown {
  // A named []string (ExtraValue) is a message {items}, always written; empty reads back as [].
  if (t.kind === 'list') return field(t, v) ?? [];
  const read = field(t, v);
  if (read !== undefined) return read;
  switch (t.kind) {
    case 'bytes': return '';
    case 'struct': return zero(t);
    default: return null;
  }
}

/** An integer as the varint's reader gives it back; beyond a safe JS integer or int32, not mirrored. */
function integer(kind: 'int32' | 'int64', n: number): number {
  if (kind === 'int32' ? n < -(2 ** 31) || n >= 2 ** 31 : !Number.isSafeInteger(n)) throw new NotMirrored();
  return n === 0 ? 0 : n;
}

const surrogate = /[\ud800-\udfff]/;

/** A string after UTF-8 encoding and decoding: a lone surrogate becomes U+FFFD. */
function wellFormed(s: string): string {
  return surrogate.test(s) ? utf8Decode(utf8Encode(s)) : s;
}

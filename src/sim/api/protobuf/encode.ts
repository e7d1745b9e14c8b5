// The Go-faithful protobuf encoding of each Go type, as the Marshal methods of k8s.io/api's
// generated.pb.go (gogo-protobuf, proto2, non-nullable embedded structs) write it.
// - fields in field-number order; a non-pointer string, bool or number is always written (`tag 00` for
//   the zero value), a pointer only when set, a non-pointer struct always (possibly empty);
// - repeated fields element by element, scalars unpacked (decoding accepts packed too);
// - maps as entries {key = 1, value = 2} sorted by key, both always written (a []byte value only when
//   non-nil);
// - []byte when non-nil; metav1.Time as Timestamp {seconds = 1, nanos = 2} with nanos 0, empty when
//   zero; MicroTime likewise with nanos truncated to microseconds; Quantity as {string = 1} in
//   canonical form; IntOrString as {type = 1, intVal = 2, strVal = 3}; FieldsV1 and RawExtension as
//   {raw = 1} holding JSON bytes; authentication/authorization ExtraValue ([]string) as {items = 1}.
// Decoding is decode.ts. With the read-back (writeStructReadBack) the same walk also builds what decoding
// the bytes gives (round-trip.ts says what that is), without the bytes.
// Models k8s.io/api/*/generated.pb.go, k8s.io/apimachinery/pkg/apis/meta/v1/{generated.pb.go,
// time_proto.go, micro_time_proto.go}, pkg/api/resource/quantity_proto.go, pkg/util/intstr.

import { copyJson } from '../json-copy.ts';
import { parseQuantity, quantityString } from '../quantity.ts';
import { isEmptyValue, type TypeNode } from '../schema.ts';
import { remembered } from '../remembered.ts';
import { parseTimestamp } from '../time.ts';
import { quantityValue, timeValue, zero } from './decode.ts';
import { planOf, type OutField, type Plan } from './plan.ts';
import { base64FromBytes, bytesFromBase64, utf8Decode, utf8Encode, wireBytes, wireFixed64, wireVarint, type BackWriter } from './wire.ts';

type Obj = Readonly<Record<string, unknown>>;

/** A value whose read-back the walk does not mirror (the caller decodes the bytes instead). */
export class NotMirrored extends Error {}

/**
 * One field as the encoder writes it, in writing order (descending field number). `slot`: the index of
 * its JSON field in the struct's read-back fields; an embedded struct (`inline`) is a nested message
 * whose fields are the parent's in JSON, so its steps' slots are the parent's.
 */
interface WriteStep {
  readonly number: number;
  readonly name: string;
  readonly type: TypeNode;
  readonly inline: readonly WriteStep[] | null;
  readonly slot: number;
}

/** A struct's JSON field in struct order, as it reads back. */
interface ReadBackField extends OutField {
  /** What an unset field reads back as: left out (omitempty), a zero scalar, or a new zero struct. */
  readonly unset: 'omit' | 'struct' | { readonly zero: unknown };
}

interface StructWriter {
  readonly steps: readonly WriteStep[];
  /** The read-back's fields (embedded structs flattened); a field no step writes reads back unset. */
  readonly out: readonly ReadBackField[];
}

function stepsOf(plan: Plan, slots: ReadonlyMap<string, number>): WriteStep[] {
  const steps: WriteStep[] = [];
  for (let i = plan.fields.length - 1; i >= 0; i--) {
    const f = plan.fields[i]!;
    const inline = f.inline ? stepsOf(planOf((f.type as { name: string }).name), slots) : null;
    steps.push({ number: f.number, name: f.name, type: f.type, inline, slot: inline === null ? slots.get(f.name)! : -1 });
  }
  return steps;
}

function unsetOf(f: OutField): ReadBackField['unset'] {
  const z = zero(f.type);
  if (f.omitempty && isEmptyValue(z, f.type)) return 'omit';
  return f.type.kind === 'struct' ? 'struct' : { zero: z };
}

const writers = new Map<string, StructWriter>();

function writerOf(name: string): StructWriter {
  let writer = writers.get(name);
  if (writer === undefined) {
    const plan = planOf(name);
    const steps = stepsOf(plan, new Map(plan.out.map((f, i) => [f.json, i])));
    writer = { steps, out: plan.out.map((f) => ({ ...f, unset: unsetOf(f) })) };
    writers.set(name, writer);
  }
  return writer;
}

/** Writes a struct's fields (backwards: last field first). */
export function writeStruct(w: BackWriter, name: string, obj: Obj): void {
  writeSteps(w, writerOf(name).steps, obj, null);
}

/**
 * Writes a struct's fields as writeStruct does and returns what decoding them gives: fields in struct
 * order, an unset or null field as its zero value (omitempty applied), the values as decode.ts reads them
 * back. At the top, `kind` and `apiVersion` are the envelope's. Throws NotMirrored where the read-back
 * is not followed exactly (the bytes are then incomplete: encode again without it).
 */
export function writeStructReadBack(w: BackWriter, name: string, obj: Obj, kind?: string, apiVersion?: string): Record<string, unknown> {
  const writer = writerOf(name);
  const slots: unknown[] = new Array<unknown>(writer.out.length).fill(undefined);
  writeSteps(w, writer.steps, obj, slots);
  const out: Record<string, unknown> = {};
  const fields = writer.out;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    const v = kind !== undefined && f.json === 'kind' ? kind : apiVersion !== undefined && f.json === 'apiVersion' ? apiVersion : slots[i];
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

/** Writes the steps' fields of `obj`; with `slots`, each field's read-back goes in its slot (unset: undefined). */
function writeSteps(w: BackWriter, steps: readonly WriteStep[], obj: Obj, slots: unknown[] | null): void {
  for (const step of steps) {
    if (step.inline !== null) {
      const start = w.length;
      writeSteps(w, step.inline, obj, slots);
      w.uvarint(w.length - start);
      w.tag(step.number, wireBytes);
      continue;
    }
    const given = obj[step.name];
    const read = writeField(w, step.number, step.type, given, slots !== null);
    if (slots !== null && given !== undefined && given !== null) slots[step.slot] = read;
  }
}

/** Writes a field; with `rb`, returns its read-back (undefined when the encoding writes nothing for it). */
function writeField(w: BackWriter, number: number, t: TypeNode, v: unknown, rb: boolean): unknown {
  switch (t.kind) {
    case 'pointer':
      if (v === undefined || v === null) return undefined;
      return writeField(w, number, t.elem, v, rb);
    case 'list': {
      if (!Array.isArray(v)) return undefined;
      const items: unknown[] = [];
      for (let i = v.length - 1; i >= 0; i--) {
        const item = writeField(w, number, t.elem, v[i], rb);
        if (rb && item !== undefined) items.push(item);
      }
      return rb && items.length > 0 ? items.reverse() : undefined;
    }
    case 'map': {
      if (v === undefined || v === null) return undefined;
      const m = v as Obj;
      const keys = Object.keys(m).sort();
      const values: unknown[] = [];
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const start = w.length;
        const value = writeMapValue(w, t.elem, m[key], rb);
        const keyStart = w.length;
        if (!w.utf8(key) && rb && wellFormed(key) !== key) throw new NotMirrored();
        w.uvarint(w.length - keyStart);
        w.byte(0x0a);
        w.uvarint(w.length - start);
        w.tag(number, wireBytes);
        if (rb) values.push(value);
      }
      if (!rb || keys.length === 0) return undefined;
      const out: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) out[keys[i]!] = values[keys.length - 1 - i];
      return out;
    }
    case 'bytes': {
      if (v === undefined || v === null) return undefined;
      const bytes = bytesFromBase64(String(v));
      if (bytes === undefined) throw new Error(`protobuf: illegal base64 data ${JSON.stringify(v)}`);
      w.raw(bytes);
      w.uvarint(bytes.length);
      w.tag(number, wireBytes);
      return rb ? base64FromBytes(bytes) : undefined;
    }
    case 'string': {
      const start = w.length;
      const s = v === undefined || v === null ? '' : String(v);
      const ascii = s === '' || w.utf8(s);
      w.uvarint(w.length - start);
      w.tag(number, wireBytes);
      return rb ? (ascii ? s : wellFormed(s)) : undefined;
    }
    case 'bool':
      w.byte(v === true ? 1 : 0);
      w.tag(number, wireVarint);
      return v === true;
    case 'int32': case 'int64': {
      const n = typeof v === 'number' ? Math.trunc(v) : 0;
      w.varint(n);
      w.tag(number, wireVarint);
      return rb ? integer(t.kind, n) : undefined;
    }
    case 'float64': {
      const d = typeof v === 'number' ? v : 0;
      w.double(d);
      w.tag(number, wireFixed64);
      return d;
    }
    default: {
      const start = w.length;
      const read = writeMessageValue(w, t, v, rb);
      w.uvarint(w.length - start);
      w.tag(number, wireBytes);
      return read;
    }
  }
}

/** A map entry's value (field 2) then nothing else: key is written by the caller. Read back as Go's zero when unwritten. */
function writeMapValue(w: BackWriter, t: TypeNode, v: unknown, rb: boolean): unknown {
  if (t.kind === 'bytes' && (v === undefined || v === null)) return rb ? '' : undefined;
  if (t.kind === 'list') {
    // A named []string (ExtraValue) is a message {items = 1}, always written; empty reads back as [].
    const start = w.length;
    const read = writeField(w, 1, t, v, rb);
    w.uvarint(w.length - start);
    w.tag(2, wireBytes);
    return rb ? read ?? [] : undefined;
  }
  const read = writeField(w, 2, t, v, rb);
  if (read !== undefined || !rb) return read;
  switch (t.kind) {
    case 'bytes': return '';
    case 'struct': return zero(t);
    default: return null;
  }
}

/** The payload of a message-typed value: Time, MicroTime, Quantity, IntOrString, Raw or a struct. */
function writeMessageValue(w: BackWriter, t: TypeNode, v: unknown, rb: boolean): unknown {
  switch (t.kind) {
    case 'Time': case 'MicroTime': {
      if (typeof v !== 'string') return null; // zero time: empty message
      const micro = t.kind === 'MicroTime';
      const [seconds, nanos] = parseTime(v, micro);
      w.varint(nanos);
      w.tag(2, wireVarint);
      w.varint(seconds);
      w.tag(1, wireVarint);
      return rb ? timeReadBack(v, micro) : undefined;
    }
    case 'Quantity': {
      const text = v === undefined || v === null ? '0' : String(v);
      writeField(w, 1, stringType, canonicalQuantity(text), false);
      return rb ? quantityReadBack(text) : undefined;
    }
    case 'IntOrString': {
      const isString = typeof v === 'string';
      const s = writeField(w, 3, stringType, isString ? v : '', rb);
      const n = writeField(w, 2, int32Type, isString ? 0 : v, rb);
      writeField(w, 1, int32Type, isString ? 1 : 0, false);
      return isString ? s : n;
    }
    case 'Raw': {
      if (v === undefined || v === null) return null;
      const start = w.length;
      w.utf8(JSON.stringify(v));
      w.uvarint(w.length - start);
      w.tag(1, wireBytes);
      return rb ? copyJson(v) : undefined;
    }
    case 'struct':
      if (v === undefined || v === null) {
        writeStruct(w, t.name, {});
        return rb ? zero(t) : undefined;
      }
      if (rb) return writeStructReadBack(w, t.name, v as Obj);
      writeStruct(w, t.name, v as Obj);
      return undefined;
    default:
      throw new Error(`protobuf: cannot write ${t.kind} as a message`);
  }
}

const timeRe = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/;

const stringType: TypeNode = { kind: 'string' };
const int32Type: TypeNode = { kind: 'int32' };

/** Quantity.String() of a quantity's text (the text itself when it does not parse). */
export const canonicalQuantity: (text: string) => string = remembered((text: string) => {
  const q = parseQuantity(text);
  return q.ok ? quantityString(q.value) : text;
});

const parseTimeOf = remembered((s: string) => parseTimeUncached(s, false));
const parseMicroTimeOf = remembered((s: string) => parseTimeUncached(s, true));

/** [seconds, nanos] of an RFC 3339 timestamp; nanos only for MicroTime (truncated to microseconds). */
export function parseTime(s: string, micro: boolean): readonly [number, number] {
  return micro ? parseMicroTimeOf(s) : parseTimeOf(s);
}

function parseTimeUncached(s: string, micro: boolean): [number, number] {
  const m = timeRe.exec(s);
  const ms = m === null ? undefined : parseTimestamp(`${m[1]!}${m[3]!}`);
  if (m === null || ms === undefined) throw new Error(`protobuf: bad timestamp ${JSON.stringify(s)}`);
  const seconds = Math.floor(ms / 1000);
  if (!micro || m[2] === undefined) return [seconds, 0];
  return [seconds, Number((m[2] + '000000').slice(0, 6)) * 1000];
}

/** What the decoder rejects (the memos below remember a rejection too). */
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

/** An integer as the varint's reader gives it back; beyond a safe JS integer or int32, not mirrored. */
function integer(kind: 'int32' | 'int64', n: number): number {
  if (kind === 'int32' ? n < -(2 ** 31) || n >= 2 ** 31 : !Number.isSafeInteger(n)) throw new NotMirrored();
  return n === 0 ? 0 : n;
}

const surrogate = /[\ud800-\udfff]/;

/** A string after UTF-8 encoding and decoding: a lone surrogate becomes U+FFFD. */
export function wellFormed(s: string): string {
  return surrogate.test(s) ? utf8Decode(utf8Encode(s)) : s;
}

// The Go-faithful protobuf decoding of each Go type, as the Unmarshal methods of k8s.io/api's
// generated.pb.go read it (the encoding is encode.ts, whose header lists how each type is written):
// unknown fields skipped, repeated and map fields merged, scalars packed or not. Decoding yields the
// JSON shape the model uses (JSON names, omitempty, what Go's JSON encoder would write for the decoded
// struct); errors are the texts the generated Unmarshal returns.
// Models k8s.io/api/*/generated.pb.go (Unmarshal), k8s.io/apimachinery/pkg/apis/meta/v1/{generated.pb.go,
// time_proto.go, micro_time_proto.go}, pkg/api/resource/quantity_proto.go, pkg/util/intstr.

import { copyJson } from '../json-copy.ts';
import { parseQuantity, quantityString } from '../quantity.ts';
import { isEmptyValue, zeroValue, type TypeNode } from '../schema.ts';
import { formatTimestamp } from '../time.ts';
import { planOf, type Plan } from './plan.ts';
import { base64FromBytes, ProtoError, Reader, utf8Decode, wireBytes, wireEndGroup, wireFixed64, wireVarint } from './wire.ts';

/** Go's time.Time{}.Unix(): a zero Time read back from its Timestamp. */
const zeroTimeSeconds = -62135596800;

function formatTime(seconds: number, nanos: number, micro: boolean): string {
  const whole = formatTimestamp(seconds * 1000);
  if (!micro) return whole;
  const micros = Math.floor(nanos / 1000);
  return `${whole.slice(0, -1)}.${String(micros).padStart(6, '0')}Z`;
}

/** A Time (nanos ignored) or MicroTime read from its Timestamp {seconds, nanos}: null when zero. */
export function timeValue(seconds: number, nanos: number, micro: boolean): string | null {
  if (!micro) nanos = 0;
  if (seconds === zeroTimeSeconds && nanos === 0) return null;
  if (nanos < 0 || nanos >= 1e9 || Math.abs(seconds) > 253402300799) {
    throw new ProtoError(`Time.MarshalJSON: year outside of range [0,9999]`);
  }
  return formatTime(seconds, nanos, micro);
}

/** A Quantity read from its string field: Quantity.String() of the parsed text. */
export function quantityValue(text: string): string {
  const q = parseQuantity(text);
  if (!q.ok) throw new ProtoError(q.error);
  return quantityString(q.value);
}

/** The Go field name a wrong-wireType error names (`Name`, `GenerateName`). */
const goField = (json: string): string => json.charAt(0).toUpperCase() + json.slice(1);

/** Reads a message's fields into `into` (by JSON name), merging as proto Unmarshal merges. */
export function readStruct(r: Reader, plan: Plan, into: Record<string, unknown>): void {
  while (r.pos < r.end) {
    const key = r.uvarint();
    const number = Math.floor(key / 8);
    const wire = key % 8;
    if (wire === wireEndGroup) throw new ProtoError(`proto: ${plan.name}: wiretype end group for non-group`);
    if (number <= 0) throw new ProtoError(`proto: ${plan.name}: illegal tag ${number} (wire type ${wire})`);
    const f = plan.byNumber.get(number);
    if (f === undefined) {
      r.skip(wire);
      continue;
    }
    if (f.inline) {
      expectWire(wire, wireBytes, f.name);
      const [start, end] = r.lengthDelimited();
      readStruct(new Reader(r.buf, start, end), planOf((f.type as { name: string }).name), into);
      continue;
    }
    readField(r, wire, f.name, f.type, into);
  }
}

function expectWire(wire: number, expected: number, name: string): void {
  if (wire !== expected) throw new ProtoError(`proto: wrong wireType = ${wire} for field ${goField(name)}`);
}

function readField(r: Reader, wire: number, name: string, t: TypeNode, into: Record<string, unknown>): void {
  switch (t.kind) {
    case 'pointer':
      readField(r, wire, name, t.elem, into);
      return;
    case 'list': {
      let list = into[name] as unknown[] | undefined;
      if (list === undefined || list === null) into[name] = list = [];
      const elem = t.elem;
      if (wire === wireBytes && (elem.kind === 'int32' || elem.kind === 'int64' || elem.kind === 'bool')) {
        // Packed: accepted as Go's generated Unmarshal accepts it.
        const [start, end] = r.lengthDelimited();
        const sub = new Reader(r.buf, start, end);
        while (sub.pos < sub.end) list.push(readScalar(sub, elem.kind));
        return;
      }
      const holder: Record<string, unknown> = {};
      readField(r, wire, name, elem, holder);
      list.push(holder[name]);
      return;
    }
    case 'map': {
      expectWire(wire, wireBytes, name);
      const [start, end] = r.lengthDelimited();
      let map = into[name] as Record<string, unknown> | undefined;
      if (map === undefined || map === null) into[name] = map = {};
      readMapEntry(new Reader(r.buf, start, end), t.elem, map);
      return;
    }
    case 'bool': case 'int32': case 'int64':
      expectWire(wire, wireVarint, name);
      into[name] = readScalar(r, t.kind);
      return;
    case 'float64':
      expectWire(wire, wireFixed64, name);
      into[name] = r.double();
      return;
    case 'string': {
      expectWire(wire, wireBytes, name);
      const [start, end] = r.lengthDelimited();
      into[name] = utf8Decode(r.buf, start, end);
      return;
    }
    case 'bytes': {
      expectWire(wire, wireBytes, name);
      const [start, end] = r.lengthDelimited();
      into[name] = base64FromBytes(r.buf, start, end);
      return;
    }
    default: {
      expectWire(wire, wireBytes, name);
      const [start, end] = r.lengthDelimited();
      const sub = new Reader(r.buf, start, end);
      if (t.kind === 'struct') {
        // A repeated occurrence of a message field merges into the first (proto merge semantics).
        const prev = into[name];
        const acc = typeof prev === 'object' && prev !== null && !Array.isArray(prev) && isPartial(prev) ? prev as Record<string, unknown> : partial();
        readStruct(sub, planOf(t.name), acc);
        into[name] = acc;
        return;
      }
      into[name] = readMessageValue(sub, t);
    }
  }
}

// Structs are read into "partial" records (decoded fields only) and completed at the end, when the
// zero values and omitempty of every level are applied.
const partialMark = Symbol('partial');
function partial(): Record<string, unknown> {
  const p: Record<string | symbol, unknown> = {};
  p[partialMark] = true;
  return p as Record<string, unknown>;
}
function isPartial(v: object): boolean {
  return (v as Record<symbol, unknown>)[partialMark] === true;
}

function readScalar(r: Reader, kind: 'bool' | 'int32' | 'int64'): number | boolean {
  if (kind === 'bool') return r.uvarint() !== 0;
  return kind === 'int32' ? r.int32() : r.int64();
}

function readMapEntry(r: Reader, elem: TypeNode, map: Record<string, unknown>): void {
  let key = '';
  const holder: Record<string, unknown> = {};
  let hasValue = false;
  while (r.pos < r.end) {
    const tag = r.uvarint();
    const number = Math.floor(tag / 8);
    const wire = tag % 8;
    if (number === 1) {
      expectWire(wire, wireBytes, 'key');
      const [start, end] = r.lengthDelimited();
      key = utf8Decode(r.buf, start, end);
    } else if (number === 2) {
      hasValue = true;
      if (elem.kind === 'list') {
        expectWire(wire, wireBytes, 'value');
        const [start, end] = r.lengthDelimited();
        const items: Record<string, unknown> = {};
        const sub = new Reader(r.buf, start, end);
        while (sub.pos < sub.end) {
          const t2 = sub.uvarint();
          if (Math.floor(t2 / 8) === 1) readField(sub, t2 % 8, 'items', elem, items);
          else sub.skip(t2 % 8);
        }
        holder.value = items.items ?? [];
      } else readField(r, wire, 'value', elem, holder);
    } else {
      if (wire === wireEndGroup || number <= 0) throw new ProtoError(`proto: illegal tag ${number} (wire type ${wire})`);
      r.skip(wire);
    }
  }
  map[key] = hasValue ? holder.value : mapZero(elem);
}

/** A map value whose entry has no value field: Go's generated code starts from these. */
function mapZero(t: TypeNode): unknown {
  switch (t.kind) {
    case 'string': return '';
    case 'bytes': return '';
    case 'Quantity': return '0';
    case 'list': return [];
    case 'struct': return partial();
    default: return null;
  }
}

function readMessageValue(r: Reader, t: TypeNode): unknown {
  switch (t.kind) {
    case 'Time': case 'MicroTime': {
      if (r.pos === r.end) return null;
      let seconds = 0;
      let nanos = 0;
      while (r.pos < r.end) {
        const tag = r.uvarint();
        const number = Math.floor(tag / 8);
        const wire = tag % 8;
        if (number === 1) { expectWire(wire, wireVarint, 'seconds'); seconds = r.int64(); }
        else if (number === 2) { expectWire(wire, wireVarint, 'nanos'); nanos = r.int32(); }
        else {
          if (wire === wireEndGroup || number <= 0) throw new ProtoError(`proto: Timestamp: illegal tag ${number} (wire type ${wire})`);
          r.skip(wire);
        }
      }
      return timeValue(seconds, nanos, t.kind === 'MicroTime');
    }
    case 'Quantity': {
      let text = '';
      let seen = false;
      while (r.pos < r.end) {
        const tag = r.uvarint();
        if (Math.floor(tag / 8) === 1) {
          expectWire(tag % 8, wireBytes, 'String_');
          const [start, end] = r.lengthDelimited();
          text = utf8Decode(r.buf, start, end);
          seen = true;
        } else {
          if (tag % 8 === wireEndGroup || tag < 8) throw new ProtoError(`proto: Quantity: illegal tag ${Math.floor(tag / 8)} (wire type ${tag % 8})`);
          r.skip(tag % 8);
        }
      }
      return seen ? quantityValue(text) : '0';
    }
    case 'IntOrString': {
      let type = 0;
      let intVal = 0;
      let strVal = '';
      while (r.pos < r.end) {
        const tag = r.uvarint();
        const number = Math.floor(tag / 8);
        const wire = tag % 8;
        if (number === 1) { expectWire(wire, wireVarint, 'Type'); type = r.int64(); }
        else if (number === 2) { expectWire(wire, wireVarint, 'IntVal'); intVal = r.int32(); }
        else if (number === 3) {
          expectWire(wire, wireBytes, 'StrVal');
          const [start, end] = r.lengthDelimited();
          strVal = utf8Decode(r.buf, start, end);
        } else {
          if (wire === wireEndGroup || number <= 0) throw new ProtoError(`proto: IntOrString: illegal tag ${number} (wire type ${wire})`);
          r.skip(wire);
        }
      }
      if (type === 0) return intVal;
      if (type === 1) return strVal;
      throw new ProtoError('impossible IntOrString.Type');
    }
    case 'Raw': {
      let raw: string | undefined;
      while (r.pos < r.end) {
        const tag = r.uvarint();
        if (Math.floor(tag / 8) === 1) {
          expectWire(tag % 8, wireBytes, 'Raw');
          const [start, end] = r.lengthDelimited();
          raw = utf8Decode(r.buf, start, end);
        } else {
          if (tag % 8 === wireEndGroup || tag < 8) throw new ProtoError(`proto: FieldsV1: illegal tag ${Math.floor(tag / 8)} (wire type ${tag % 8})`);
          r.skip(tag % 8);
        }
      }
      if (raw === undefined) return null;
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        throw new ProtoError(`json: error calling MarshalJSON for type *v1.FieldsV1: invalid JSON ${JSON.stringify(raw.slice(0, 40))}`);
      }
    }
    default:
      throw new Error(`protobuf: cannot read ${t.kind} as a message`);
  }
}

/** Completes a decoded struct: fields in struct order, zero values filled in, omitempty applied. */
export function complete(plan: Plan, fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of plan.out) {
    const raw = fields[f.json];
    const v = raw === undefined ? zero(f.type) : completeValue(f.type, raw);
    if (f.omitempty && isEmptyValue(v, f.type)) continue;
    out[f.json] = v;
  }
  return out;
}

function completeValue(t: TypeNode, v: unknown): unknown {
  switch (t.kind) {
    case 'pointer': return completeValue(t.elem, v);
    case 'struct': return complete(planOf(t.name), v as Record<string, unknown>);
    case 'list': {
      const elem = t.elem;
      if (elem.kind !== 'struct' && elem.kind !== 'list' && elem.kind !== 'map') return v;
      return (v as unknown[]).map((x) => completeValue(elem, x));
    }
    case 'map': {
      const m = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(m).sort()) out[key] = completeValue(t.elem, m[key]);
      return out;
    }
    default: return v;
  }
}

/** What Go's JSON encoder writes for a zero value of this type (nil slices, maps and pointers: null). */
export function zero(t: TypeNode): unknown {
  return zeroValue(t, zeroStruct);
}

const zeroStructs = new Map<string, unknown>();

/** A struct's zero value (complete of no fields): built once per struct, a copy handed out each time. */
function zeroStruct(name: string): unknown {
  let z = zeroStructs.get(name);
  if (z === undefined) {
    z = complete(planOf(name), {});
    zeroStructs.set(name, z);
  }
  return copyJson(z);
}

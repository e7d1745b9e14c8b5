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
// Decoding is decode.ts.
// Models k8s.io/api/*/generated.pb.go, k8s.io/apimachinery/pkg/apis/meta/v1/{generated.pb.go,
// time_proto.go, micro_time_proto.go}, pkg/api/resource/quantity_proto.go, pkg/util/intstr.

import { parseQuantity, quantityString } from '../quantity.ts';
import type { TypeNode } from '../schema.ts';
import { remembered } from '../remembered.ts';
import { parseTimestamp } from '../time.ts';
import { planOf, type Plan } from './plan.ts';
import { bytesFromBase64, wireBytes, wireFixed64, wireVarint, type BackWriter } from './wire.ts';

type Obj = Readonly<Record<string, unknown>>;

/** Writes a struct's fields (backwards: last field first). */
export function writeStruct(w: BackWriter, plan: Plan, obj: Obj): void {
  const fields = plan.fields;
  for (let i = fields.length - 1; i >= 0; i--) {
    const f = fields[i]!;
    if (f.inline) {
      const start = w.length;
      writeStruct(w, planOf((f.type as { name: string }).name), obj);
      w.uvarint(w.length - start);
      w.tag(f.number, wireBytes);
      continue;
    }
    writeField(w, f.number, f.type, obj[f.name]);
  }
}

function writeField(w: BackWriter, number: number, t: TypeNode, v: unknown): void {
  switch (t.kind) {
    case 'pointer':
      if (v === undefined || v === null) return;
      writeField(w, number, t.elem, v);
      return;
    case 'list': {
      if (!Array.isArray(v)) return;
      for (let i = v.length - 1; i >= 0; i--) writeField(w, number, t.elem, v[i]);
      return;
    }
    case 'map': {
      if (v === undefined || v === null) return;
      const m = v as Obj;
      const keys = Object.keys(m).sort();
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const start = w.length;
        writeMapValue(w, t.elem, m[key]);
        const keyStart = w.length;
        w.utf8(key);
        w.uvarint(w.length - keyStart);
        w.byte(0x0a);
        w.uvarint(w.length - start);
        w.tag(number, wireBytes);
      }
      return;
    }
    case 'bytes': {
      if (v === undefined || v === null) return;
      const bytes = bytesFromBase64(String(v));
      if (bytes === undefined) throw new Error(`protobuf: illegal base64 data ${JSON.stringify(v)}`);
      w.raw(bytes);
      w.uvarint(bytes.length);
      w.tag(number, wireBytes);
      return;
    }
    case 'string': {
      const start = w.length;
      if (v !== undefined && v !== null && v !== '') w.utf8(String(v));
      w.uvarint(w.length - start);
      w.tag(number, wireBytes);
      return;
    }
    case 'bool':
      w.byte(v === true ? 1 : 0);
      w.tag(number, wireVarint);
      return;
    case 'int32': case 'int64':
      w.varint(typeof v === 'number' ? Math.trunc(v) : 0);
      w.tag(number, wireVarint);
      return;
    case 'float64':
      w.double(typeof v === 'number' ? v : 0);
      w.tag(number, wireFixed64);
      return;
    default: {
      const start = w.length;
      writeMessageValue(w, t, v);
      w.uvarint(w.length - start);
      w.tag(number, wireBytes);
    }
  }
}

/** A map entry's value (field 2) then nothing else: key is written by the caller. */
function writeMapValue(w: BackWriter, t: TypeNode, v: unknown): void {
  if (t.kind === 'bytes') {
    if (v === undefined || v === null) return;
  }
  if (t.kind === 'list') {
    // A named []string (ExtraValue) is a message {items = 1}, always written.
    const start = w.length;
    writeField(w, 1, t, v);
    w.uvarint(w.length - start);
    w.tag(2, wireBytes);
    return;
  }
  writeField(w, 2, t, v);
}

/** The payload of a message-typed value: Time, MicroTime, Quantity, IntOrString, Raw or a struct. */
function writeMessageValue(w: BackWriter, t: TypeNode, v: unknown): void {
  switch (t.kind) {
    case 'Time': case 'MicroTime': {
      if (typeof v !== 'string') return; // zero time: empty message
      const [seconds, nanos] = parseTime(v, t.kind === 'MicroTime');
      w.varint(nanos);
      w.tag(2, wireVarint);
      w.varint(seconds);
      w.tag(1, wireVarint);
      return;
    }
    case 'Quantity': {
      writeField(w, 1, stringType, canonicalQuantity(v === undefined || v === null ? '0' : String(v)));
      return;
    }
    case 'IntOrString': {
      const isString = typeof v === 'string';
      writeField(w, 3, stringType, isString ? v : '');
      writeField(w, 2, int32Type, isString ? 0 : v);
      writeField(w, 1, int32Type, isString ? 1 : 0);
      return;
    }
    case 'Raw': {
      if (v === undefined || v === null) return;
      const start = w.length;
      w.utf8(JSON.stringify(v));
      w.uvarint(w.length - start);
      w.tag(1, wireBytes);
      return;
    }
    case 'struct':
      writeStruct(w, planOf(t.name), v === undefined || v === null ? {} : (v as Obj));
      return;
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

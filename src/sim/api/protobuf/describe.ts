// The field tree of an encoded value, for an auger-like view: each field with its number, name, wire
// type, offset and size in bytes (tag, length and payload), scalars with their value. Never throws: a
// malformed message stops its own list of fields at the bad byte.

import type { TypeNode } from '../schema.ts';
import { hasProtobufKind } from './kinds.ts';
import { planOf, type Plan } from './plan.ts';
import { base64FromBytes, Reader, utf8Decode, wireBytes, wireFixed32, wireFixed64, wireVarint } from './wire.ts';
import { formatTimestamp } from '../time.ts';

export interface ProtoField {
  /** `metadata.name`, `spec.template.spec.containers[0].image`, `metadata.labels[app]`. */
  path: string;
  number: number;
  name: string;
  wireType: number;
  /** Offset of the field's tag in the bytes described. */
  offset: number;
  /** Bytes of the whole field: tag, length and payload. */
  size: number;
  value?: string | number | boolean;
  children?: ProtoField[];
}

type Shape =
  | { readonly kind: 'plan'; readonly plan: Plan }
  | { readonly kind: 'fields'; readonly names: Readonly<Record<number, readonly [string, Shape | 'string' | 'bytes' | 'varint']>> }
  | { readonly kind: 'unknown' };

const joinPath = (prefix: string, name: string): string => (prefix === '' ? name : `${prefix}.${name}`);

function walk(r: Reader, shape: Shape, prefix: string): ProtoField[] {
  const out: ProtoField[] = [];
  try {
    const counts = new Map<number, number>();
    while (r.pos < r.end) {
      const offset = r.pos;
      const key = r.uvarint();
      const number = Math.floor(key / 8);
      const wireType = key % 8;
      if (number <= 0 || wireType === 4 || wireType === 3) break;
      let name = '';
      let type: TypeNode | undefined;
      let inline = false;
      let sub: Shape | 'string' | 'bytes' | 'varint' | undefined;
      if (shape.kind === 'plan') {
        const f = shape.plan.byNumber.get(number);
        if (f !== undefined) { name = f.name; type = f.type; inline = f.inline; }
      } else if (shape.kind === 'fields') {
        const f = shape.names[number];
        if (f !== undefined) { name = f[0]; sub = f[1]; }
      }
      const field: ProtoField = { path: '', number, name, wireType, offset, size: 0 };
      let path = joinPath(prefix, name === '' ? `#${number}` : name);
      if (type?.kind === 'pointer') type = type.elem;
      if (type?.kind === 'list') {
        const index = counts.get(number) ?? 0;
        counts.set(number, index + 1);
        path = `${path}[${index}]`;
        type = type.elem;
      }
      field.path = path;
      if (wireType === wireVarint) {
        const v = r.int64();
        field.value = type?.kind === 'bool' ? v !== 0 : v;
      } else if (wireType === wireFixed64 || wireType === wireFixed32) {
        if (wireType === wireFixed64) field.value = r.double();
        else r.skip(wireType);
      } else if (wireType === wireBytes) {
        const [start, end] = r.lengthDelimited();
        describePayload(r, field, start, end, type, inline, sub, prefix);
      } else break;
      field.size = r.pos - offset;
      out.push(field);
    }
  } catch {
    // A truncated or malformed message: the fields read so far.
  }
  return out;
}

function describePayload(r: Reader, field: ProtoField, start: number, end: number, type: TypeNode | undefined, inline: boolean,
  sub: Shape | 'string' | 'bytes' | 'varint' | undefined, prefix: string): void {
  const inner = new Reader(r.buf, start, end);
  if (sub === 'string') { field.value = utf8Decode(r.buf, start, end); return; }
  if (sub === 'bytes') { field.value = base64FromBytes(r.buf, start, end); return; }
  if (sub !== undefined && sub !== 'varint') { field.children = walk(inner, sub, field.path); return; }
  if (type === undefined) return;
  switch (type.kind) {
    case 'string': field.value = utf8Decode(r.buf, start, end); return;
    case 'bytes': field.value = base64FromBytes(r.buf, start, end); return;
    case 'struct': field.children = walk(inner, { kind: 'plan', plan: planOf(type.name) }, inline ? prefix : field.path); return;
    case 'map': {
      const entry = walk(inner, { kind: 'fields', names: { 1: ['key', 'string'], 2: ['value', mapValueShape(type.elem)] } }, field.path);
      const key = entry.find((e) => e.number === 1)?.value;
      const base = field.path;
      field.path = `${base}[${String(key ?? '')}]`;
      const value = entry.find((e) => e.number === 2);
      if (value !== undefined && value.value !== undefined) field.value = value.value;
      for (const e of entry) e.path = `${field.path}.${e.name}`;
      field.children = entry;
      if (type.elem.kind === 'Quantity' && value?.children?.[0]?.value !== undefined) field.value = value.children[0].value;
      return;
    }
    case 'Time': case 'MicroTime': {
      const parts = walk(inner, { kind: 'fields', names: { 1: ['seconds', 'varint'], 2: ['nanos', 'varint'] } }, field.path);
      field.children = parts;
      const seconds = parts.find((p) => p.number === 1)?.value;
      if (typeof seconds === 'number') field.value = formatTimestamp(seconds * 1000);
      else if (end === start) field.value = 'null';
      return;
    }
    case 'Quantity': case 'Raw': {
      const parts = walk(inner, { kind: 'fields', names: { 1: [type.kind === 'Quantity' ? 'string' : 'raw', 'string'] } }, field.path);
      field.children = parts;
      if (parts[0]?.value !== undefined) field.value = parts[0].value;
      return;
    }
    case 'IntOrString': {
      const parts = walk(inner, { kind: 'fields', names: { 1: ['type', 'varint'], 2: ['intVal', 'varint'], 3: ['strVal', 'string'] } }, field.path);
      field.children = parts;
      const isString = parts.find((p) => p.number === 1)?.value === 1;
      const v = parts.find((p) => p.number === (isString ? 3 : 2))?.value;
      if (v !== undefined) field.value = v;
      return;
    }
    default:
      return;
  }
}

function mapValueShape(t: TypeNode): Shape | 'string' | 'bytes' | 'varint' {
  switch (t.kind) {
    case 'string': return 'string';
    case 'bytes': return 'bytes';
    case 'Quantity': return { kind: 'fields', names: { 1: ['string', 'string'] } };
    case 'list': return { kind: 'fields', names: { 1: ['items', 'string'] } };
    case 'struct': return { kind: 'plan', plan: planOf(t.name) };
    default: return { kind: 'unknown' };
  }
}

/**
 * The field tree of `k8s\0`-prefixed bytes: the runtime.Unknown envelope's fields (typeMeta, raw,
 * contentEncoding, contentType), raw's children being the object's fields (paths from the object:
 * `metadata.name`). Offsets count from the first byte (the `k8s\0` magic takes 0–3). Without the
 * magic, the bytes are described as fields of unknown names.
 */
export function describeProtobuf(bytes: Uint8Array): ProtoField[] {
  const magic = bytes.length >= 4 && bytes[0] === 0x6b && bytes[1] === 0x38 && bytes[2] === 0x73 && bytes[3] === 0;
  if (!magic) return walk(new Reader(bytes, 0, bytes.length), { kind: 'unknown' }, '');
  const envelope = walk(new Reader(bytes, 4, bytes.length), {
    kind: 'fields', names: {
      1: ['typeMeta', { kind: 'fields', names: { 1: ['apiVersion', 'string'], 2: ['kind', 'string'] } }],
      2: ['raw', 'bytes'], 3: ['contentEncoding', 'string'], 4: ['contentType', 'string'],
    },
  }, '');
  const kind = envelope.find((f) => f.number === 1)?.children?.find((f) => f.number === 2)?.value;
  const raw = envelope.find((f) => f.number === 2);
  if (raw !== undefined) {
    delete raw.value;
    const r = new Reader(bytes, raw.offset, raw.offset + raw.size);
    try {
      r.uvarint();
      const [start, end] = r.lengthDelimited();
      const shape: Shape = typeof kind === 'string' && hasProtobufKind(kind) && kind !== 'WatchEvent' ? { kind: 'plan', plan: planOf(kind) } : { kind: 'unknown' };
      raw.children = walk(new Reader(bytes, start, end), shape, '');
    } catch {
      // raw's bounds were checked by the envelope walk; nothing to add.
    }
  }
  return envelope;
}

// The Kubernetes protobuf codec (application/vnd.kubernetes.protobuf): `k8s\0` + runtime.Unknown
// {typeMeta {apiVersion = 1, kind = 2} = 1, raw = 2, contentEncoding = 3, contentType = 4}, raw being
// the object's message without TypeMeta. Encoding writes exactly the bytes kube-apiserver writes;
// decoding never throws and returns the object in the model's JSON shape or Go's error text.
// Models k8s.io/apimachinery/pkg/runtime/serializer/protobuf/protobuf.go (Serializer, RawSerializer)
// and pkg/runtime/types_proto.go (Unknown.NestedMarshalTo).

import { goQuote } from '../../go/strconv.ts';
import type { KubeObject, WatchEventType } from '../types/meta.ts';
import { complete, readStruct } from './decode.ts';
import { writeStruct } from './encode.ts';
import { hasProtobufKind, isRegistered } from './kinds.ts';
import { planOf } from './plan.ts';
import { BackWriter, ProtoError, Reader, utf8Decode, wireBytes, wireEndGroup } from './wire.ts';

export { describeProtobuf, type ProtoField } from './describe.ts';

/** `k8s\0`. */
export const protobufPrefix: Uint8Array = new Uint8Array([0x6b, 0x38, 0x73, 0x00]);

export { hasProtobufKind };

type Obj = Readonly<Record<string, unknown>>;

function writeString(w: BackWriter, number: number, s: string): void {
  const start = w.length;
  w.utf8(s);
  w.uvarint(w.length - start);
  w.tag(number, wireBytes);
}

/** Writes `obj`'s message (the Unknown's raw) for its kind. */
function writeObject(w: BackWriter, kind: string, obj: Obj): void {
  if (kind === 'WatchEvent') {
    writeWatchEvent(w, String(obj.type ?? ''), obj.object as Obj);
    return;
  }
  writeStruct(w, kind, obj);
}

/** metav1.WatchEvent {type = 1, object = 2 (RawExtension {raw = 1}: the object's own `k8s\0` encoding)}. */
function writeWatchEvent(w: BackWriter, type: string, object: Obj | undefined): void {
  const start = w.length;
  if (object !== undefined && object !== null) {
    const embedded = encodeProtobuf(object as { apiVersion?: string; kind?: string });
    w.raw(embedded);
    w.uvarint(embedded.length);
    w.tag(1, wireBytes);
  }
  w.uvarint(w.length - start);
  w.tag(2, wireBytes);
  writeString(w, 1, type);
}

/**
 * `k8s\0` + runtime.Unknown{typeMeta{apiVersion, kind}, raw, contentEncoding "", contentType ""}.
 * `obj` must have apiVersion and kind of a kind the codec knows (hasProtobufKind); throws otherwise.
 */
export function encodeProtobuf(obj: { apiVersion?: string; kind?: string }): Uint8Array {
  const kind = obj.kind ?? '';
  if (!hasProtobufKind(kind)) throw new Error(`protobuf: object of kind ${JSON.stringify(kind)} does not implement the protobuf marshalling interface`);
  const w = new BackWriter(2048);
  const rawStart = beginEnvelope(w);
  writeObject(w, kind, obj as Obj);
  return endEnvelope(w, rawStart, kind, obj.apiVersion ?? '');
}

/** Writes the envelope's fields after raw (contentEncoding, contentType); returns where raw starts. */
export function beginEnvelope(w: BackWriter): number {
  writeString(w, 4, ''); // contentType
  writeString(w, 3, ''); // contentEncoding
  return w.length;
}

/** Ends the envelope once raw (the object's message) is written from `rawStart`: `k8s\0` + typeMeta + raw + …. */
export function endEnvelope(w: BackWriter, rawStart: number, kind: string, apiVersion: string): Uint8Array {
  w.uvarint(w.length - rawStart);
  w.tag(2, wireBytes);
  const metaStart = w.length;
  writeString(w, 2, kind);
  writeString(w, 1, apiVersion);
  w.uvarint(w.length - metaStart);
  w.tag(1, wireBytes);
  w.raw(protobufPrefix);
  return w.finish();
}

/**
 * A watch event as the protobuf stream serializer writes one frame's payload: the WatchEvent message
 * with no prefix or envelope (RawSerializer); the object inside is `k8s\0`-encoded.
 */
export function encodeWatchEvent(type: WatchEventType | string, object: { apiVersion?: string; kind?: string }): Uint8Array {
  const w = new BackWriter(2048);
  writeWatchEvent(w, type, object as Obj);
  return w.finish();
}

/** One frame of a protobuf watch stream: 4-byte big-endian length, then encodeWatchEvent's bytes. */
export function encodeWatchEventFrame(type: WatchEventType | string, object: { apiVersion?: string; kind?: string }): Uint8Array {
  const event = encodeWatchEvent(type, object);
  const out = new Uint8Array(4 + event.length);
  new DataView(out.buffer).setUint32(0, event.length, false);
  out.set(event, 4);
  return out;
}

export type DecodeResult<T = KubeObject> = { ok: true; object: T } | { ok: false; error: string };

/** runtime.Unknown's fields. */
interface Unknown {
  apiVersion: string;
  kind: string;
  raw: [number, number] | undefined;
}

function readString(r: Reader): string {
  const [start, end] = r.lengthDelimited();
  return utf8Decode(r.buf, start, end);
}

function wrongWire(wire: number, field: string): ProtoError {
  return new ProtoError(`proto: wrong wireType = ${wire} for field ${field}`);
}

function readTag(r: Reader, message: string): [number, number] {
  const key = r.uvarint();
  const number = Math.floor(key / 8);
  const wire = key % 8;
  if (wire === wireEndGroup) throw new ProtoError(`proto: ${message}: wiretype end group for non-group`);
  if (number <= 0) throw new ProtoError(`proto: ${message}: illegal tag ${number} (wire type ${wire})`);
  return [number, wire];
}

function readUnknown(r: Reader): Unknown {
  const unk: Unknown = { apiVersion: '', kind: '', raw: undefined };
  while (r.pos < r.end) {
    const [number, wire] = readTag(r, 'Unknown');
    if (number === 1) {
      if (wire !== wireBytes) throw wrongWire(wire, 'TypeMeta');
      const [start, end] = r.lengthDelimited();
      const sub = new Reader(r.buf, start, end);
      while (sub.pos < sub.end) {
        const [n, w] = readTag(sub, 'TypeMeta');
        if (n === 1 || n === 2) {
          if (w !== wireBytes) throw wrongWire(w, n === 1 ? 'APIVersion' : 'Kind');
          if (n === 1) unk.apiVersion = readString(sub);
          else unk.kind = readString(sub);
        } else sub.skip(w);
      }
    } else if (number === 2) {
      if (wire !== wireBytes) throw wrongWire(wire, 'Raw');
      unk.raw = r.lengthDelimited();
    } else if (number === 3 || number === 4) {
      if (wire !== wireBytes) throw wrongWire(wire, number === 3 ? 'ContentEncoding' : 'ContentType');
      r.lengthDelimited();
    } else r.skip(wire);
  }
  return unk;
}


/** The group/version/kind a request's URL implies, filled into a body that leaves them out. */
export interface KindDefaults {
  readonly apiVersion: string;
  readonly kind: string;
}

/** copyKindDefaults: a missing kind takes the default's; a missing version takes the default's group and version. */
function applyDefaults(unk: Unknown, defaults: KindDefaults | undefined): void {
  if (defaults === undefined) return;
  if (unk.kind === '') unk.kind = defaults.kind;
  const slash = unk.apiVersion.lastIndexOf('/');
  const version = slash < 0 ? unk.apiVersion : unk.apiVersion.slice(slash + 1);
  if (version === '' && defaults.apiVersion !== '') unk.apiVersion = defaults.apiVersion;
}

function decodeBody(bytes: Uint8Array, defaults?: KindDefaults): KubeObject {
  if (bytes.length === 0) throw new ProtoError('empty data');
  if (bytes.length < 4 || bytes[0] !== 0x6b || bytes[1] !== 0x38 || bytes[2] !== 0x73 || bytes[3] !== 0) {
    throw new ProtoError('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  }
  if (bytes.length === 4) throw new ProtoError('empty body');
  const unk = readUnknown(new Reader(bytes, 4, bytes.length));
  applyDefaults(unk, defaults);
  const typeMeta = `runtime.TypeMeta{APIVersion:${goQuote(unk.apiVersion)}, Kind:${goQuote(unk.kind)}}`;
  if (unk.kind === '') throw new ProtoError(`Object 'Kind' is missing in '${typeMeta}'`);
  const slashes = unk.apiVersion.split('/').length - 1;
  if (unk.apiVersion === '' || slashes > 1 || unk.apiVersion.endsWith('/')) throw new ProtoError(`Object 'apiVersion' is missing in '${typeMeta}'`);
  if (!hasProtobufKind(unk.kind) || !isRegistered(unk.kind, unk.apiVersion)) {
    throw new ProtoError(`no kind ${goQuote(unk.kind)} is registered for version ${goQuote(unk.apiVersion)} in scheme "pkg/api/legacyscheme/scheme.go:30"`);
  }
  const [start, end] = unk.raw ?? [4, 4];
  const r = new Reader(bytes, start, end);
  if (unk.kind === 'WatchEvent') return { kind: unk.kind, apiVersion: unk.apiVersion, ...readWatchEvent(r) } as unknown as KubeObject;
  const plan = planOf(unk.kind);
  const fields: Record<string, unknown> = {};
  readStruct(r, plan, fields);
  fields.kind = unk.kind;
  fields.apiVersion = unk.apiVersion;
  return complete(plan, fields) as unknown as KubeObject;
}

function readWatchEvent(r: Reader): { type: string; object: KubeObject | null } {
  let type = '';
  let object: KubeObject | null = null;
  while (r.pos < r.end) {
    const [number, wire] = readTag(r, 'WatchEvent');
    if (number === 1) {
      if (wire !== wireBytes) throw wrongWire(wire, 'Type');
      type = readString(r);
    } else if (number === 2) {
      if (wire !== wireBytes) throw wrongWire(wire, 'Object');
      const [start, end] = r.lengthDelimited();
      const sub = new Reader(r.buf, start, end);
      let raw: Uint8Array | undefined;
      while (sub.pos < sub.end) {
        const [n, w] = readTag(sub, 'RawExtension');
        if (n === 1) {
          if (w !== wireBytes) throw wrongWire(w, 'Raw');
          const [s, e] = sub.lengthDelimited();
          raw = r.buf.subarray(s, e);
        } else sub.skip(w);
      }
      object = raw === undefined ? null : decodeBody(raw);
    } else r.skip(wire);
  }
  return { type, object };
}

function failure(e: unknown): { ok: false; error: string } {
  if (e instanceof ProtoError) return { ok: false, error: e.message };
  // Anything else (a stack overflow on hostile nesting, say) is still a clean failure, never a throw.
  return { ok: false, error: e instanceof Error ? `proto: ${e.message}` : 'proto: cannot decode' };
}

/**
 * Decodes `k8s\0`-prefixed bytes. Never throws: bad, truncated or unknown bytes give Go's error text.
 * `defaults` (the kind a request's URL implies) fills a kind or apiVersion the envelope leaves empty,
 * as the apiserver's decoder does.
 */
export function decodeProtobuf(bytes: Uint8Array, defaults?: KindDefaults): DecodeResult {
  try {
    return { ok: true, object: decodeBody(bytes, defaults) };
  } catch (e) {
    return failure(e);
  }
}

/** Decodes one watch frame's payload (encodeWatchEvent's bytes). Never throws. */
export function decodeWatchEvent(bytes: Uint8Array): DecodeResult<{ type: string; object: KubeObject | null }> {
  try {
    return { ok: true, object: readWatchEvent(new Reader(bytes, 0, bytes.length)) };
  } catch (e) {
    return failure(e);
  }
}

/**
 * Splits a protobuf watch stream (4-byte big-endian length, then a WatchEvent message) into decoded
 * events; `rest` is an incomplete frame at the end (wait for more bytes), `error` the first frame that
 * did not decode.
 */
export function readWatchFrames(bytes: Uint8Array): { events: { type: string; object: KubeObject | null }[]; rest: Uint8Array; error?: string } {
  const events: { type: string; object: KubeObject | null }[] = [];
  let at = 0;
  while (bytes.length - at >= 4) {
    const length = ((bytes[at]! << 24) >>> 0) + (bytes[at + 1]! << 16) + (bytes[at + 2]! << 8) + bytes[at + 3]!;
    if (bytes.length - at - 4 < length) break;
    const event = decodeWatchEvent(bytes.subarray(at + 4, at + 4 + length));
    if (!event.ok) return { events, rest: bytes.subarray(at), error: event.error };
    events.push(event.object);
    at += 4 + length;
  }
  return { events, rest: bytes.subarray(at) };
}

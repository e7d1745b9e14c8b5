// An object's protobuf encoding and, in the same walk, what decoding those bytes gives:
// `encodeProtobufReadBack(obj)` is `{ bytes: encodeProtobuf(obj), readBack: decodeProtobuf(bytes).object }`
// without the decode, key order included (round-trip.property.test.ts checks both over random objects of
// every kind, canonical or not). kube-apiserver decodes the value it has just written to etcd (Go's
// structs normalize what they carry: an empty map or list is not encoded, a zero Time comes back null, a
// Time loses its fraction, a field the schema does not know is dropped); the storage codec uses the
// read-back instead of decoding those bytes.
// What the read-back mirrors (encode.ts's writeField, field by field, followed by decode.ts): an unset or
// null field reads back as its zero value (a non-pointer struct as its zero struct, a Time as null, a
// Quantity as "0", a string as ""); empty lists and maps are not encoded and read back null (then
// omitempty leaves them out); map keys sorted; a Time loses its fraction and its offset (UTC), the zero
// time reads back null, a MicroTime keeps microseconds; quantities are re-printed canonically; `-0`
// becomes `0` for integers (not for float64); FieldsV1 is a JSON round trip; strings lose lone
// surrogates (UTF-8); fields in struct order. The parts where a value changes call the codec's own
// functions (`parseTime` then `timeValue`, `canonicalQuantity` then `quantityValue`).
// Models encode.ts + decode.ts (k8s.io/api's generated Marshal then Unmarshal, then encoding/json).

import type { KubeObject } from '../types/meta.ts';
import { NotMirrored, wellFormed, writeStructReadBack } from './encode.ts';
import { beginEnvelope, encodeProtobuf, endEnvelope } from './index.ts';
import { hasProtobufKind, isRegistered } from './kinds.ts';
import { BackWriter } from './wire.ts';

type Obj = Readonly<Record<string, unknown>>;

export interface EncodedWithReadBack {
  /** encodeProtobuf(obj). */
  readonly bytes: Uint8Array;
  /**
   * decodeProtobuf(bytes)'s object; undefined where that decode would fail or where the walk does not
   * follow it exactly (a kind not registered for its apiVersion, a time or quantity that does not read
   * back, an integer beyond what a JS number holds, a map key that is not valid UTF-16): the caller then
   * decodes. It shares nothing with `obj`.
   */
  readonly readBack: KubeObject | undefined;
}

/** encodeProtobuf(obj) and its read-back in one walk; throws where encodeProtobuf throws. */
export function encodeProtobufReadBack(obj: KubeObject): EncodedWithReadBack {
  const kind = wellFormed(obj.kind ?? '');
  const apiVersion = wellFormed(obj.apiVersion ?? '');
  if (!mirrored(kind, apiVersion)) return { bytes: encodeProtobuf(obj), readBack: undefined };
  const w = new BackWriter(2048);
  const rawStart = beginEnvelope(w);
  try {
    const readBack = writeStructReadBack(w, kind, obj as unknown as Obj, kind, apiVersion) as unknown as KubeObject;
    return { bytes: endEnvelope(w, rawStart, obj.kind ?? '', obj.apiVersion ?? ''), readBack };
  } catch (e) {
    if (e instanceof NotMirrored) return { bytes: encodeProtobuf(obj), readBack: undefined };
    throw e;
  }
}

/** mirrored's answers by kind, then apiVersion: asked at every write, of a handful of pairs. */
const mirroredPairs = new Map<string, Map<string, boolean>>();

/** Whether the read-back follows the decode for an object of this kind and apiVersion (as the envelope gives them). */
function mirrored(kind: string, apiVersion: string): boolean {
  // Only the codec's kinds are kept: requests may name any.
  if (kind === 'WatchEvent' || !hasProtobufKind(kind)) return false;
  let byVersion = mirroredPairs.get(kind);
  if (byVersion === undefined) mirroredPairs.set(kind, (byVersion = new Map()));
  let answer = byVersion.get(apiVersion);
  if (answer === undefined) {
    answer = isRegistered(kind, apiVersion) && apiVersion !== '' && apiVersion.split('/').length <= 2 && !apiVersion.endsWith('/');
    // Pairs from requests are unbounded in number: keep only the registered ones' (and a few others).
    if (answer || byVersion.size < 8) byVersion.set(apiVersion, answer);
  }
  return answer;
}

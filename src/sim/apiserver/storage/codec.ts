// How objects are stored: kube-apiserver's storage codec. With `--storage-media-type` protobuf (the
// default) the value is Kubernetes protobuf — `k8s\0` and a runtime.Unknown envelope around the
// object's fields — and with json it is the object's JSON; either way without metadata.resourceVersion.
// Reading recognizes the bytes (protobuf by its magic, JSON otherwise), as the apiserver's recognizing
// decoder does, so a value reads back whatever media type wrote it. On the way out the object's
// resourceVersion is the key's mod_revision, as the etcd3 store's versioner sets it. Values are etcd
// byte strings (src/sim/etcd/bytes.ts).
// Models k8s.io/apiserver/pkg/storage/api_object_versioner.go, etcd3/store.go decode and
// k8s.io/apimachinery/pkg/runtime/serializer/recognizer (protobuf's RecognizesData: the `k8s\0` prefix).

import type { KubeObject } from '../../api/types/meta.ts';
import { decodeProtobuf, hasProtobufKind } from '../../api/protobuf/index.ts';
import { encodeProtobufReadBack } from '../../api/protobuf/round-trip.ts';
import { bytesToByteString, byteStringToBytes, byteStringToUtf8, utf8ToByteString } from '../../etcd/bytes.ts';
import { InvalidResourceVersion } from './errors.ts';
import { copyJson } from '../../api/json-copy.ts';

/** kube-apiserver's `--storage-media-type`. */
export type StorageMediaType = 'protobuf' | 'json';

/** The magic every Kubernetes protobuf value starts with. */
export const protobufMagic = 'k8s\0';

function withoutResourceVersion(obj: KubeObject): KubeObject {
  const source = obj.metadata as Record<string, unknown>;
  const metadata: Record<string, unknown> = {};
  for (const k of Object.keys(source)) {
    if (k !== 'resourceVersion' && k !== 'selfLink') metadata[k] = source[k];
  }
  return withDeprecatedServiceAccount({ ...obj, metadata: metadata as KubeObject['metadata'] });
}

type PodSpecLike = { serviceAccountName?: string; serviceAccount?: string };

/** A PodSpec with `serviceAccount` = `serviceAccountName`, placed after it as Go's v1 struct orders them. */
function convertPodSpec(spec: PodSpecLike): PodSpecLike {
  if (!spec.serviceAccountName || spec.serviceAccount === spec.serviceAccountName) return spec;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(spec)) {
    if (k === 'serviceAccount') continue;
    out[k] = v;
    if (k === 'serviceAccountName') out.serviceAccount = v;
  }
  return out as PodSpecLike;
}

/**
 * The conversion to the v1 storage version: a v1 PodSpec's deprecated `serviceAccount` is set from
 * `serviceAccountName` (Convert_core_PodSpec_To_v1_PodSpec), so every stored Pod — and every pod
 * template that names a service account — carries both, as a real 1.28 cluster's do.
 * Models pkg/apis/core/v1/conversion.go (Convert_core_PodSpec_To_v1_PodSpec).
 */
function withDeprecatedServiceAccount(obj: KubeObject): KubeObject {
  const o = obj as KubeObject & { spec?: PodSpecLike & { template?: { spec?: PodSpecLike } }; template?: { spec?: PodSpecLike } };
  if (o.kind === 'Pod' && o.spec) {
    const spec = convertPodSpec(o.spec);
    return spec === o.spec ? obj : ({ ...o, spec } as KubeObject);
  }
  if (o.spec?.template?.spec) {
    const spec = convertPodSpec(o.spec.template.spec);
    return spec === o.spec.template.spec ? obj : ({ ...o, spec: { ...o.spec, template: { ...o.spec.template, spec } } } as KubeObject);
  }
  if (o.kind === 'PodTemplate' && o.template?.spec) {
    const spec = convertPodSpec(o.template.spec);
    return spec === o.template.spec ? obj : ({ ...o, template: { ...o.template, spec } } as KubeObject);
  }
  return obj;
}

/**
 * The bytes to store (a byte string): the object without its resourceVersion (and without selfLink).
 * Kinds without a protobuf encoding are stored as JSON, as kube-apiserver stores custom resources.
 */
export function encodeObject(obj: KubeObject, mediaType: StorageMediaType = 'protobuf'): string {
  if (Object.isFrozen(obj)) {
    const known = encodedValues.get(obj);
    if (known !== undefined && known.mediaType === mediaType) return known.value;
  }
  const stored = withoutResourceVersion(obj);
  if (mediaType === 'json' || !hasProtobufKind(obj.kind ?? '')) return utf8ToByteString(JSON.stringify(stored));
  const { bytes, readBack } = encodeProtobufReadBack(stored);
  const value = bytesToByteString(bytes);
  const written = writtenObjects.get(value);
  if (written === undefined) rememberWritten(value, readBack ?? null);
  else if (written.readBack === null && written.kept === null) written.readBack = readBack ?? null;
  return value;
}

/**
 * The value each object decoded from a value this codec encoded was decoded from: encoding such an
 * object gives that value again (the protobuf encoding is a function of the object, and a decoded
 * object encodes as the value it came from; protobuf.property.test.ts), so encodeObject of it, once it
 * is frozen and can no longer change, is that value without encoding. Only frozen objects are looked up:
 * an object handed out mutable may have been changed. Contract: whoever freezes a decoded object has not
 * changed it (the watch cache freezes what the etcd watcher decoded, after swapping in equal parts only).
 */
const encodedValues = new WeakMap<KubeObject, { readonly value: string; readonly mediaType: StorageMediaType }>();

/**
 * Forgets the value a decoded object came from, once a newer revision of its key has replaced it (the
 * watch cache calls this): etcd keeps a superseded value as a delta (src/sim/etcd/backend.ts), and this
 * entry would otherwise keep the whole value alive as long as the watch cache's window keeps the object.
 * Encoding the object later still gives the same value, by encoding it.
 */
export function forgetEncoding(obj: KubeObject): void {
  encodedValues.delete(obj);
}

/** Whether a stored value is Kubernetes protobuf. */
export function isProtobufValue(value: string): boolean {
  return value.startsWith(protobufMagic);
}

/**
 * What decodeObject(value, rev) will give once the revision is known, for the `value` just encoded from
 * `obj`: a JSON value is not parsed again but copied (copyJson gives exactly the JSON round trip). A
 * protobuf value is what decoding it gives, since Go's structs normalize what they carry (an empty map is
 * not encoded, a zero creationTimestamp comes back null): encodeObject computed the object read back in
 * the same walk as the bytes, without decoding them (encodeProtobufReadBack, equal to the decode:
 * round-trip.property.test.ts), and the first reader of the value takes it — the etcd watcher or this
 * write's response. Call `at(rev)` once.
 */
export function storedCopy(obj: KubeObject, value?: string): { at(modRevision: number): KubeObject } {
  if (value !== undefined && isProtobufValue(value)) {
    return {
      at(modRevision) {
        return decodeObject(value, modRevision);
      },
    };
  }
  const copy = copyJson(withoutResourceVersion(obj));
  return {
    at(modRevision) {
      copy.metadata = withResourceVersion(copy.metadata, String(modRevision));
      return copy;
    },
  };
}

/** The object a stored value holds; throws when the bytes are neither protobuf nor JSON of an object. */
export function decodeStored(value: string): KubeObject {
  if (isProtobufValue(value)) {
    const decoded = decodeProtobuf(byteStringToBytes(value));
    if (!decoded.ok) throw new Error(`unable to decode the stored protobuf value: ${decoded.error}`);
    return decoded.object;
  }
  return JSON.parse(byteStringToUtf8(value)) as KubeObject;
}

/**
 * A protobuf value encoded by this process's apiservers, and what its readers may have without decoding
 * it. `readBack`: the object decoding it gives (without resourceVersion), computed when it was encoded
 * and held by no one yet; the first reader takes it. `kept`: the object the etcd watcher took for the
 * watch cache (null until then). etcd's watch event usually reaches the watcher before the Txn's response
 * reaches the handler (in a 300-pod rollout: every update), and the response then copies the watch
 * cache's object (about a tenth of a decode) once the watch cache has frozen it; a value always decodes to
 * the same object, so the copy is what decoding it again would give. A reader that comes first (most
 * creates: no watcher reads an Event) takes `readBack` and keeps it; a later watcher then decodes.
 */
interface WrittenValue {
  readBack: KubeObject | null;
  kept: KubeObject | null;
}

/** The values encoded last (256 kept). */
const writtenObjects = new Map<string, WrittenValue>();
const writtenObjectsKept = 256;

function rememberWritten(value: string, readBack: KubeObject | null): void {
  if (writtenObjects.size >= writtenObjectsKept) writtenObjects.delete(writtenObjects.keys().next().value!);
  writtenObjects.set(value, { readBack, kept: null });
}

/** The written value's read-back object, which the caller now owns; or its bytes decoded. */
function takeReadBack(written: WrittenValue, value: string): KubeObject {
  const obj = written.readBack;
  if (obj === null) return decodeStored(value);
  written.readBack = null;
  return obj;
}

function withRevision(obj: KubeObject, modRevision: number): KubeObject {
  obj.metadata = withResourceVersion(obj.metadata ?? {}, String(modRevision));
  return obj;
}

/**
 * The stored object, with resourceVersion set to the revision that last wrote it; the caller may change it.
 * `cached` (the watch cache's object of the key, frozen): when it was decoded from this very value at this
 * revision, it is what decoding the value gives, and a copy of it is (a copy costs about a quarter of a
 * protobuf decode; a quorum GET of a key written more than 256 values ago reads it so).
 */
export function decodeObject(value: string, modRevision: number, cached?: KubeObject): KubeObject {
  if (cached !== undefined && Object.isFrozen(cached) && isDecodedFrom(cached, value, modRevision)) {
    const obj = copyJson(cached);
    encodedValues.set(obj, { value, mediaType: 'protobuf' });
    return obj;
  }
  const written = writtenObjects.get(value);
  if (written === undefined) return withRevision(decodeStored(value), modRevision);
  // Before the watch cache has frozen its object, that object may still change: it is not copied.
  const kept = written.kept;
  const obj = withRevision(kept !== null && Object.isFrozen(kept) ? copyJson(kept) : takeReadBack(written, value), modRevision);
  encodedValues.set(obj, { value, mediaType: 'protobuf' });
  return obj;
}

/** Whether the frozen `obj` is what decodeObject(value, modRevision) gave (its resourceVersion that revision). */
function isDecodedFrom(obj: KubeObject, value: string, modRevision: number): boolean {
  const known = encodedValues.get(obj);
  return known !== undefined && known.mediaType === 'protobuf' && known.value === value && obj.metadata.resourceVersion === String(modRevision);
}

/**
 * decodeObject for a reader that freezes the object (deepFreeze) without changing it — the watch cache,
 * through the etcd watcher, which may first swap in equal parts only. Its object of a value just written
 * is not copied but kept for later readers, who copy it once it is frozen.
 */
export function decodeToFreeze(value: string, modRevision: number): KubeObject {
  const written = writtenObjects.get(value);
  if (written === undefined || written.kept !== null) return decodeObject(value, modRevision);
  const obj = withRevision(takeReadBack(written, value), modRevision);
  written.kept = obj;
  encodedValues.set(obj, { value, mediaType: 'protobuf' });
  return obj;
}

/**
 * Freezes `obj` and everything under it, and returns it. The watch cache freezes the objects it keeps so
 * that every watch event can hand out the same object (decoded once per change, not copied once per
 * watcher); a receiver that tried to change one would throw instead of corrupting the others' view.
 */
export function deepFreeze<T>(obj: T): T {
  if (typeof obj !== 'object' || obj === null || Object.isFrozen(obj)) return obj;
  for (const value of Object.values(obj)) deepFreeze(value);
  return Object.freeze(obj);
}

/** A deep copy of `obj`, for handing a cached object to a caller that may change it. */
export function copyObject(obj: KubeObject): KubeObject {
  return copyJson(obj);
}

/** A deep copy of `obj` whose resourceVersion is `rv` (the versioner's UpdateObject). */
export function copyWithResourceVersion(obj: KubeObject, rv: number): KubeObject {
  const copy = copyObject(obj);
  copy.metadata = withResourceVersion(copy.metadata, String(rv));
  return copy;
}

/** ObjectMeta's fields before resourceVersion, in Go's field order. */
const fieldsBeforeResourceVersion: ReadonlySet<string> = new Set(['name', 'generateName', 'namespace', 'selfLink', 'uid']);

/** Puts resourceVersion where Go's ObjectMeta field order puts it (after uid), for faithful JSON output. */
function withResourceVersion(meta: KubeObject['metadata'], rv: string): KubeObject['metadata'] {
  const out: Record<string, unknown> = {};
  const source = meta as Record<string, unknown>;
  let placed = false;
  for (const k of Object.keys(source)) {
    if (k === 'resourceVersion') continue;
    if (!placed && !fieldsBeforeResourceVersion.has(k)) {
      out.resourceVersion = rv;
      placed = true;
    }
    out[k] = source[k];
  }
  if (!placed) out.resourceVersion = rv;
  return out as KubeObject['metadata'];
}

/** "" and "0" mean "no minimum"; anything else must be a decimal uint64. */
export function parseResourceVersion(rv: string): number {
  if (rv === '' || rv === '0') return 0;
  if (!/^[0-9]+$/.test(rv)) throw new InvalidResourceVersion(rv);
  const n = Number(rv);
  if (!Number.isSafeInteger(n)) throw new InvalidResourceVersion(rv);
  return n;
}

// How objects are stored: JSON text with metadata.resourceVersion removed (the real kube-apiserver
// stores protobuf; the UI says so). On the way out the object's resourceVersion is the key's
// mod_revision, as the etcd3 store's versioner sets it.
// Models k8s.io/apiserver/pkg/storage/api_object_versioner.go and etcd3/store.go decode.

import type { KubeObject } from '../../api/types/meta.ts';
import { InvalidResourceVersion } from './errors.ts';
import { copyJson } from '../../api/json-copy.ts';

/** The bytes to store: the object without its resourceVersion (and without selfLink). */
export function encodeObject(obj: KubeObject): string {
  const { resourceVersion: _rv, selfLink: _selfLink, ...metadata } = obj.metadata;
  return JSON.stringify({ ...obj, metadata });
}

/**
 * What decodeObject(encodeObject(obj), rev) will give once the revision is known, taken now by copying
 * instead of parsing the bytes again (copyJson gives exactly the JSON round trip): call `at(rev)` once.
 */
export function storedCopy(obj: KubeObject): { at(modRevision: number): KubeObject } {
  const { resourceVersion: _rv, selfLink: _selfLink, ...metadata } = obj.metadata;
  const copy = copyJson({ ...obj, metadata });
  return {
    at(modRevision) {
      copy.metadata = withResourceVersion(copy.metadata, String(modRevision));
      return copy;
    },
  };
}

/** The stored object, with resourceVersion set to the revision that last wrote it. */
export function decodeObject(value: string, modRevision: number): KubeObject {
  const obj = JSON.parse(value) as KubeObject;
  obj.metadata = withResourceVersion(obj.metadata, String(modRevision));
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
  let placed = false;
  for (const [k, v] of Object.entries(meta)) {
    if (k === 'resourceVersion') continue;
    if (!placed && !fieldsBeforeResourceVersion.has(k)) {
      out.resourceVersion = rv;
      placed = true;
    }
    out[k] = v;
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

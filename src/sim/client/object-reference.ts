// The reference an event names its object by (involvedObject): ref.GetReference, and the kind an
// object listed without one is known by.
// Models k8s.io/client-go/tools/reference/ref.go (GetReference).

import type { ObjectReference } from '../api/types/core.ts';
import type { KubeObject } from '../api/types/meta.ts';

/** An object with its kind and apiVersion set: what an event may be recorded about. */
export type Typed<T extends KubeObject = KubeObject> = T & { kind: string; apiVersion: string };

/**
 * `obj` with its kind and apiVersion: as it is when it has them, else a shallow copy with `type`'s.
 * Go's ref.GetReference takes them from the scheme by the object's Go type when its TypeMeta is empty
 * (an informer's listed items carry none); a plain object has no Go type, so the caller names it.
 */
export function typed<T extends KubeObject>(obj: T, type: { kind: string; apiVersion: string }): Typed<T> {
  return obj.kind && obj.apiVersion ? obj as Typed<T> : { ...obj, kind: type.kind, apiVersion: type.apiVersion };
}

export const podType = { apiVersion: 'v1', kind: 'Pod' } as const;

/** ref.GetReference for an object carrying its TypeMeta. */
export function getReference(obj: Typed): ObjectReference {
  const ref: ObjectReference = { kind: obj.kind, namespace: obj.metadata.namespace, name: obj.metadata.name, uid: obj.metadata.uid, apiVersion: obj.apiVersion, resourceVersion: obj.metadata.resourceVersion };
  for (const k of Object.keys(ref) as (keyof ObjectReference)[]) if (!ref[k]) delete ref[k];
  return ref;
}

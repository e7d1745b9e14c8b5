// Building blocks shared by the per-resource strategies.

import { lookupResource, type ResourceInfo } from '../../api/resources.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import { canonicalize } from '../../api/decode.ts';
import { validateCreate, validateUpdate } from '../../api/validation/index.ts';
import type { Strategy } from './strategy.ts';

export function resourceInfo(group: string, resource: string): ResourceInfo {
  const r = lookupResource(group, resource);
  if (!r) throw new Error(`no served resource ${resource}.${group}`);
  return r;
}

/** A strategy with the generic behaviour; resources override what differs. Validation is the kind's own (src/sim/api/validation). */
export function strategy(resource: ResourceInfo, overrides: Partial<Strategy> = {}): Strategy {
  const gvk = { group: resource.group, version: resource.version, kind: resource.kind };
  const base: Strategy = {
    resource,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    returnDeletedObject: false,
    defaultGarbageCollectionPolicy: 'DeleteDependents',
    prepareForCreate: () => undefined,
    prepareForUpdate: () => undefined,
    validate: (obj) => validateCreate(gvk, obj),
    validateUpdate: (obj, old) => validateUpdate(gvk, obj, old),
    canonicalize: (obj) => replaceContents(obj, canonicalize(resource.kind, obj)),
    ttlSeconds: 0,
  };
  return { ...base, ...overrides };
}

/**
 * Puts `next`'s fields into `obj` (same identity, new contents): the object as a Go decode/encode round
 * trip leaves it, in struct field order with zero values written (`status: {}`, `creationTimestamp: null`).
 */
function replaceContents(obj: KubeObject, next: KubeObject): void {
  const target = obj as unknown as Record<string, unknown>;
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, next);
}

/** Reads a top-level field of an object known only as KubeObject. */
export function field<T>(obj: KubeObject, name: string): T | undefined {
  return (obj as unknown as Record<string, T | undefined>)[name];
}

export function setField(obj: KubeObject, name: string, value: unknown): void {
  (obj as unknown as Record<string, unknown>)[name] = value;
}

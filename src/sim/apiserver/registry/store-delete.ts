// The delete half of the generic registry store: how a delete that must wait (a grace period, finalizers)
// marks the object instead of removing it, which finalizers a propagation policy asks for, and when an
// update that removes the last finalizer deletes the object.
// Models k8s.io/apiserver/pkg/registry/generic/registry/store.go (ShouldDeleteDuringUpdate, markAsDeleting,
// errAlreadyDeleting, errDeleteNow, shouldOrphanDependents, shouldDeleteDependents,
// deletionFinalizersForGarbageCollection).

import { formatTimestamp } from '../../api/time.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import { parseTimestampMs } from './rest-delete.ts';
import type { DeleteOptions, Strategy } from './strategy.ts';

/**
 * Models ShouldDeleteDuringUpdate: no finalizers left, the existing object was marked for deletion, and
 * with no grace period or a zero one (a strategy may add its own condition: namespaces' spec.finalizers).
 */
export function shouldDeleteDuringUpdate(obj: KubeObject, existing: KubeObject): boolean {
  if ((obj.metadata.finalizers ?? []).length > 0) return false;
  if (existing.metadata.deletionTimestamp === undefined || existing.metadata.deletionTimestamp === null) return false;
  const grace = existing.metadata.deletionGracePeriodSeconds;
  return grace === undefined || grace === null || grace === 0;
}

/** Thrown inside the marking update: a graceful deletion is already pending (errAlreadyDeleting). */
export class AlreadyDeleting extends Error {}
/** Thrown inside the marking update: nothing to wait for, delete now (errDeleteNow). */
export class DeleteNow extends Error {}

/** markAsDeleting: grace period 0, deletionTimestamp now (or kept when earlier), generation bumped on the first mark. */
export function markAsDeleting(obj: KubeObject, nowMs: number): void {
  const meta = obj.metadata;
  if ((meta.deletionTimestamp === undefined || meta.deletionTimestamp === null) && (meta.generation ?? 0) > 0) meta.generation = (meta.generation ?? 0) + 1;
  if (meta.deletionTimestamp === undefined || meta.deletionTimestamp === null || parseTimestampMs(meta.deletionTimestamp) > nowMs) {
    meta.deletionTimestamp = formatTimestamp(nowMs);
  }
  meta.deletionGracePeriodSeconds = 0;
}

function shouldOrphanDependents(s: Strategy, obj: KubeObject, options: DeleteOptions): boolean {
  if (s.defaultGarbageCollectionPolicy === 'Unsupported') return false;
  if (options.orphanDependents !== undefined) return options.orphanDependents;
  if (options.propagationPolicy !== undefined) return options.propagationPolicy === 'Orphan';
  for (const f of obj.metadata.finalizers ?? []) {
    if (f === 'orphan') return true;
    if (f === 'foregroundDeletion') return false;
  }
  return s.defaultGarbageCollectionPolicy === 'OrphanDependents';
}

function shouldDeleteDependents(s: Strategy, obj: KubeObject, options: DeleteOptions): boolean {
  if (s.defaultGarbageCollectionPolicy === 'Unsupported') return false;
  if (options.orphanDependents !== undefined) return false;
  if (options.propagationPolicy !== undefined) return options.propagationPolicy === 'Foreground';
  for (const f of obj.metadata.finalizers ?? []) {
    if (f === 'foregroundDeletion') return true;
    if (f === 'orphan') return false;
  }
  return false;
}

/** The finalizers a propagation policy asks for (orphan, foregroundDeletion), and whether the set changes. */
// Models Store deletionFinalizersForGarbageCollection.
export function deletionFinalizersForGarbageCollection(s: Strategy, obj: KubeObject, options: DeleteOptions): { changed: boolean; finalizers: string[] } {
  const old = obj.metadata.finalizers ?? [];
  const next = old.filter((f) => f !== 'orphan' && f !== 'foregroundDeletion');
  if (shouldOrphanDependents(s, obj, options)) next.push('orphan');
  if (shouldDeleteDependents(s, obj, options)) next.push('foregroundDeletion');
  const a = new Set(old);
  const b = new Set(next);
  const same = a.size === b.size && [...a].every((f) => b.has(f));
  return same ? { changed: false, finalizers: [...old] } : { changed: true, finalizers: next };
}

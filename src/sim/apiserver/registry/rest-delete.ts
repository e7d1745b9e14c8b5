// rest.BeforeDelete: the delete options' preconditions (with the registry's own 409 texts) and the
// grace-period rules that decide whether a delete marks the object (graceful) or removes it.
// Models k8s.io/apiserver/pkg/registry/rest/delete.go (BeforeDelete), 1.28.

import { newDeletePreconditionConflict } from '../../api/errors.ts';
import { formatTimestamp, parseTimestamp } from '../../api/time.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import type { DeleteOptions, Strategy } from './strategy.ts';

/** The delete options' preconditions (UID, resourceVersion) against the stored object. */
export function checkDeletePreconditions(s: Strategy, name: string, current: KubeObject, options: DeleteOptions): void {
  const p = options.preconditions;
  if (!p) return;
  const gk = { group: s.resource.group, kind: s.resource.kind };
  if (p.uid !== undefined && p.uid !== current.metadata.uid) {
    throw newDeletePreconditionConflict(gk, name, 'UID', p.uid, current.metadata.uid ?? '');
  }
  if (p.resourceVersion !== undefined && p.resourceVersion !== current.metadata.resourceVersion) {
    throw newDeletePreconditionConflict(gk, name, 'ResourceVersion', p.resourceVersion, current.metadata.resourceVersion ?? '');
  }
}

/**
 * rest.BeforeDelete's grace-period rules on `obj` (changed in place). `graceful`: the object is marked
 * with a grace period (`gracePeriodSeconds`, possibly 0); `pendingGraceful`: it already is, and this
 * delete would not shorten it.
 */
export function beforeDelete(s: Strategy, obj: KubeObject, options: { gracePeriodSeconds?: number }, nowMs: number): { graceful: boolean; pendingGraceful: boolean; gracePeriodSeconds: number } {
  const meta = obj.metadata;
  const none = { graceful: false, pendingGraceful: false, gracePeriodSeconds: 0 };
  if (options.gracePeriodSeconds !== undefined && options.gracePeriodSeconds < 0) options.gracePeriodSeconds = 1;
  if (meta.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds !== null && meta.deletionGracePeriodSeconds < 0) meta.deletionGracePeriodSeconds = 1;
  if (!s.gracePeriod) return none;
  if (meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null) {
    const existing = meta.deletionGracePeriodSeconds;
    if (existing === undefined || existing === null || existing === 0) return none;
    if (options.gracePeriodSeconds !== undefined) {
      const period = options.gracePeriodSeconds;
      if (period >= existing) return { graceful: false, pendingGraceful: true, gracePeriodSeconds: existing };
      meta.deletionTimestamp = formatTimestamp(parseTimestampMs(meta.deletionTimestamp) - existing * 1000 + period * 1000);
      meta.deletionGracePeriodSeconds = period;
      return { graceful: true, pendingGraceful: false, gracePeriodSeconds: period };
    }
    return { graceful: false, pendingGraceful: true, gracePeriodSeconds: existing };
  }
  const period = s.gracePeriod(obj, options.gracePeriodSeconds);
  if (period === undefined) return none;
  meta.deletionTimestamp = formatTimestamp(nowMs + period * 1000);
  meta.deletionGracePeriodSeconds = period;
  if ((meta.generation ?? 0) > 0) meta.generation = (meta.generation ?? 0) + 1;
  return { graceful: true, pendingGraceful: false, gracePeriodSeconds: period };
}

/** A stored timestamp in ms since the Unix epoch (0 when it does not parse). */
export function parseTimestampMs(t: string): number {
  return parseTimestamp(t) ?? 0;
}

// managedFields on every write, as kube-apiserver 1.28 records them for Update operations (create,
// update, patch): the writer's manager name (`?fieldManager=`, else the User-Agent up to its first `/`),
// the fields it added or changed, time, apiVersion and subresource. Fields a writer changes are taken
// from every other manager; a manager left with no fields disappears; a write that changes nothing
// leaves managedFields as they were. Server-side apply (operation Apply) is apply.ts.
// Models k8s.io/apimachinery/pkg/util/managedfields/internal (fieldmanager.go, structuredmerge.go
// Update, stripmeta.go, managedfieldsupdater.go, manager ordering in managedfields.go) and
// k8s.io/apiserver/pkg/endpoints/handlers/create.go (managerOrUserAgent).

import { canonicalize } from '../../api/decode.ts';
import { deepFreeze } from '../storage/codec.ts';
import type { KubeObject, ManagedFieldsEntry } from '../../api/types/meta.ts';
import {
  changedFields, emptyNode, fromFieldsV1, isCanonicalFieldsV1, subtract, subtractChanges, toFieldsV1, union, unionChanges, type FieldSetNode,
} from './field-set.ts';

export interface WriteAttribution {
  readonly manager: string;
  readonly apiVersion: string;
  /** RFC 3339, seconds. */
  readonly time: string;
  /** `status` or `scale` for subresource writes. */
  readonly subresource?: string;
}

/** `?fieldManager=` when given, else the User-Agent's first segment (`kubectl/v1.32.4 (…)` → `kubectl`). */
export function managerOrUserAgent(fieldManager: string | undefined, userAgent: string | undefined): string {
  if (fieldManager) return fieldManager;
  const prefix = (userAgent ?? '').split('/')[0] ?? '';
  return [...prefix].filter((c) => c >= ' ' && c <= '~').join('').slice(0, 128);
}

const strippedMeta = new Set(['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'selfLink', 'managedFields', 'deletionTimestamp', 'deletionGracePeriodSeconds']);
const notOwnable = new Set(['apiVersion', 'kind', 'metadata', 'status']);

/**
 * The part of an object a manager can own: no type meta or system metadata; status only for status writes.
 * Built key by key in the object's order (copying and then deleting would leave slow dictionary objects to walk).
 */
function ownable(obj: KubeObject, subresource: string | undefined): Record<string, unknown> {
  const o = obj as KubeObject & Record<string, unknown>;
  if (subresource === 'status') return { status: o.status };
  return { metadata: ownFieldsExcept(o.metadata as Record<string, unknown>, strippedMeta), ...ownFieldsExcept(o, notOwnable) };
}

function ownFieldsExcept(source: Record<string, unknown>, except: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in source) {
    if (!Object.hasOwn(source, k) || except.has(k)) continue;
    if (k === '__proto__') Object.defineProperty(out, k, { value: source[k], enumerable: true, writable: true, configurable: true });
    else out[k] = source[k];
  }
  return out;
}

/**
 * The manager name a server-side apply writes under: apply.ts has already set the object's managedFields
 * (operation Apply), so the write is not recorded again as an Update. No client can send this name
 * (managerOrUserAgent keeps printable characters only).
 */
export const appliedByServerSideApply = '\u0000server-side-apply';

/** Sets `obj.metadata.managedFields` for a write of `obj` over `old` (null for a create). */
export function recordWrite(kind: string, obj: KubeObject, old: KubeObject | null, who: WriteAttribution): void {
  if (who.manager === appliedByServerSideApply) return;
  const entries: ManagedFieldsEntry[] = (old?.metadata.managedFields ?? []).map((e) => ({ ...e }));
  const before = old ?? zeroObject(kind);
  const changed = changedFields(ownable(obj, who.subresource), ownable(before, who.subresource), { kind: 'struct', name: kind }, '');
  if (changed === null || who.manager === '') {
    setManagedFields(obj, entries);
    return;
  }
  changed.member = false;
  const kept: ManagedFieldsEntry[] = [];
  let mine: ManagedFieldsEntry | null = null;
  for (const entry of entries) {
    if (entry.manager === who.manager && entry.operation === 'Update' && entry.apiVersion === who.apiVersion && (entry.subresource ?? '') === (who.subresource ?? '')) {
      mine = entry;
      continue;
    }
    // Most writes take nothing from the other managers: their FieldsV1 stays as it is, not parsed and written again.
    if (isCanonicalFieldsV1(entry.fieldsV1) && !subtractChanges(entry.fieldsV1, changed)) {
      kept.push(entry);
      continue;
    }
    const set = fromFieldsV1(entry.fieldsV1);
    set.member = false;
    if (subtract(set, changed)) kept.push({ ...entry, fieldsV1: toFieldsV1(set) });
  }
  kept.push({
    manager: who.manager,
    operation: 'Update',
    apiVersion: who.apiVersion,
    time: who.time,
    fieldsType: 'FieldsV1',
    fieldsV1: ownedAfter(mine?.fieldsV1, changed),
    ...(who.subresource ? { subresource: who.subresource } : {}),
  });
  setManagedFields(obj, kept);
}

/** The writer's FieldsV1 after the write: what it owned (`owned`, if any) and what it changed. */
function ownedAfter(owned: unknown, changed: FieldSetNode): Record<string, unknown> {
  // A writer that sets again the fields it owns (a status writer, most often) keeps its FieldsV1 as it is.
  if (owned !== undefined && isCanonicalFieldsV1(owned) && !unionChanges(owned, changed)) return owned;
  const set = owned === undefined ? emptyNode() : fromFieldsV1(owned);
  set.member = false;
  union(set, changed);
  set.member = false;
  return toFieldsV1(set);
}

/** What a create is compared with, the kind's Go zero value: the same for every create, so made once per kind (frozen: only read). */
const zeroObjects = new Map<string, KubeObject>();

function zeroObject(kind: string): KubeObject {
  let zero = zeroObjects.get(kind);
  if (zero === undefined) zeroObjects.set(kind, (zero = deepFreeze(canonicalize(kind, { metadata: {} } as KubeObject))));
  return zero;
}

/** Entries ordered as the apiserver encodes them: by operation, then time, then manager. */
function setManagedFields(obj: KubeObject, entries: ManagedFieldsEntry[]): void {
  if (entries.length === 0) {
    delete obj.metadata.managedFields;
    return;
  }
  entries.sort((a, b) => cmp(a.operation ?? '', b.operation ?? '') || cmp(a.time ?? '', b.time ?? '') || cmp(a.manager ?? '', b.manager ?? ''));
  obj.metadata.managedFields = entries;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

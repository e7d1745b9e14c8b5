// Server-side apply (PATCH with `application/apply-patch+yaml`): the applier's configuration is merged
// into the live object, and the applier becomes the owner of exactly the fields its configuration sets.
//   * Conflicts: a field the apply would change that another manager owns is a conflict (409, one
//     cause per field) unless `force=true`, which takes the field away from that manager. Setting a
//     field to the value it already has is no conflict: the ownership is then shared.
//   * Merge: structs and maps field by field; associative lists (containers by name, ports by
//     containerPort and protocol, …) item by item by their keys; every other list and value is atomic.
//   * Removal: a field the applier set last time, leaves out now, and nobody else owns is removed.
// Managed fields: the applier's entry has operation Apply and the applied field set; other entries keep
// theirs minus what a forced apply took.
// Models sigs.k8s.io/structured-merge-diff/v4/merge/update.go (Updater.Apply, prune, conflicts),
// k8s.io/apimachinery/pkg/util/managedfields/internal (structuredmerge.go Apply, conflict.go messages,
// manager identifiers without time and, for appliers, without apiVersion).

import { newBadRequest, StatusError } from '../../api/errors.ts';
import { structField, type TypeNode } from '../../api/schema.ts';
import type { KubeObject, ManagedFieldsEntry } from '../../api/types/meta.ts';
import { fromFieldsV1, listMapKeys, setLists, subtract, toFieldsV1, type FieldSetNode } from './field-set.ts';
import { isObject } from '../../api/json.ts';

export interface ApplyRequest {
  readonly kind: string;
  /** The live object with kind and apiVersion, or null when apply creates it. */
  readonly live: KubeObject | null;
  /** The configuration as the applier sent it (decoded YAML/JSON). */
  readonly config: Record<string, unknown>;
  readonly manager: string;
  readonly apiVersion: string;
  /** RFC 3339, seconds. */
  readonly time: string;
  readonly force: boolean;
}

type Json = Record<string, unknown>;

/** Ownable part of an object: no type meta, no system metadata, no status. */
const systemMeta = ['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'selfLink', 'managedFields', 'deletionTimestamp', 'deletionGracePeriodSeconds'];

function ownable(obj: Json): Json {
  const { apiVersion: _v, kind: _k, status: _s, metadata, ...rest } = obj;
  const meta: Json = isObject(metadata) ? { ...metadata } : {};
  for (const f of systemMeta) delete meta[f];
  return Object.keys(meta).length > 0 ? { metadata: meta, ...rest } : rest;
}

/** Schema defaults of list-map key fields: an applied port without a protocol is the TCP port. */
const keyDefaults: Readonly<Record<string, unknown>> = { protocol: 'TCP' };

function keyString(item: Json, keys: readonly string[]): string {
  return `k:{${[...keys].sort().map((k) => `${JSON.stringify(k)}:${JSON.stringify(item[k] ?? keyDefaults[k] ?? null)}`).join(',')}}`;
}

interface Slot {
  readonly type: TypeNode | null;
  readonly owner: string;
}

function fieldSlot(type: TypeNode | null, key: string): Slot {
  const t = type?.kind === 'pointer' ? type.elem : type;
  if (t?.kind === 'struct') {
    const f = structField(t.name, key);
    return { type: f?.type ?? null, owner: `${t.name}.${key}` };
  }
  if (t?.kind === 'map') return { type: t.elem, owner: '' };
  return { type: null, owner: '' };
}

function unwrap(type: TypeNode | null): TypeNode | null {
  return type?.kind === 'pointer' ? type.elem : type;
}

/** The field set a configuration sets: its leaves, list items (members with their fields), empty objects. */
export function fieldSetOf(value: unknown, type: TypeNode | null, owner: string): FieldSetNode {
  const node: FieldSetNode = { member: false, children: new Map() };
  const t = unwrap(type);
  if (isObject(value) && (t === null || t.kind === 'struct' || t.kind === 'map') && !(t?.kind === 'struct' && atomicStructs.has(t.name))) {
    if (Object.keys(value).length === 0) node.member = true;
    for (const [k, v] of Object.entries(value)) {
      if (v === null) continue;
      const slot = fieldSlot(t, k);
      node.children.set(`f:${k}`, fieldSetOf(v, slot.type, slot.owner));
    }
    return node;
  }
  if (Array.isArray(value) && t?.kind === 'list') {
    const keys = listMapKeys[owner];
    if (keys) {
      for (const item of value) {
        if (!isObject(item)) continue;
        const child = fieldSetOf(item, t.elem, '');
        child.member = true;
        node.children.set(keyString(item, keys), child);
      }
      return node;
    }
    if (setLists.has(owner)) {
      for (const v of value) node.children.set(`v:${JSON.stringify(v)}`, { member: true, children: new Map() });
      return node;
    }
  }
  node.member = true;
  return node;
}

const atomicStructs = new Set(['LabelSelector', 'NodeSelector', 'ObjectReference', 'LocalObjectReference']);

/** The value at a field-set path in `obj` (undefined when absent). */
function valueAt(obj: unknown, path: readonly string[]): unknown {
  let cur: unknown = obj;
  for (const step of path) {
    if (step.startsWith('f:')) {
      if (!isObject(cur)) return undefined;
      cur = cur[step.slice(2)];
    } else if (step.startsWith('k:')) {
      if (!Array.isArray(cur)) return undefined;
      const want = JSON.parse(step.slice(2)) as Json;
      cur = cur.find((item) => isObject(item) && Object.entries(want).every(([k, v]) => JSON.stringify(item[k] ?? keyDefaults[k] ?? null) === JSON.stringify(v)));
    } else if (step.startsWith('v:')) {
      if (!Array.isArray(cur)) return undefined;
      const want = step.slice(2);
      cur = cur.find((v) => JSON.stringify(v) === want);
    } else {
      return undefined;
    }
  }
  return cur;
}

/** Every member path of a set (leaves, and list items that are members themselves). */
function memberPaths(node: FieldSetNode, prefix: string[] = [], out: string[][] = []): string[][] {
  if (node.member) out.push(prefix);
  for (const [k, child] of node.children) memberPaths(child, [...prefix, k], out);
  return out;
}

/** `.spec.replicas`, `.spec.template.spec.containers[name="nginx"].image`: fieldpath.Path.String(). */
function pathString(path: readonly string[]): string {
  return path.map((step) => {
    if (step.startsWith('f:')) return `.${step.slice(2)}`;
    if (step.startsWith('k:')) {
      const keys = JSON.parse(step.slice(2)) as Json;
      return `[${Object.entries(keys).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}]`;
    }
    return `[=${step.slice(2)}]`;
  }).join('');
}

function nodeAt(node: FieldSetNode, path: readonly string[]): FieldSetNode | undefined {
  let cur: FieldSetNode | undefined = node;
  for (const step of path) cur = cur?.children.get(step);
  return cur;
}

function hasPath(node: FieldSetNode, path: readonly string[]): boolean {
  let cur: FieldSetNode | undefined = node;
  for (const step of path) {
    cur = cur.children.get(step);
    if (!cur) return false;
  }
  return cur.member;
}

function setOfPaths(paths: readonly (readonly string[])[]): FieldSetNode {
  const root: FieldSetNode = { member: false, children: new Map() };
  for (const path of paths) {
    let cur = root;
    for (const step of path) {
      let next = cur.children.get(step);
      if (!next) {
        next = { member: false, children: new Map() };
        cur.children.set(step, next);
      }
      cur = next;
    }
    cur.member = true;
  }
  return root;
}

/** Merges `config` into `live` (both ownable values of `type`). */
function merge(live: unknown, config: unknown, type: TypeNode | null, owner: string): unknown {
  const t = unwrap(type);
  if (isObject(config) && isObject(live) && (t === null || t.kind === 'struct' || t.kind === 'map') && !(t?.kind === 'struct' && atomicStructs.has(t.name))) {
    const out: Json = { ...live };
    for (const [k, v] of Object.entries(config)) {
      if (v === null) continue;
      const slot = fieldSlot(t, k);
      out[k] = merge(live[k], v, slot.type, slot.owner);
    }
    return out;
  }
  if (Array.isArray(config) && Array.isArray(live) && t?.kind === 'list') {
    const keys = listMapKeys[owner];
    if (keys) {
      const out = live.map((item) => item as unknown);
      for (const item of config) {
        if (!isObject(item)) continue;
        const k = keyString(item, keys);
        const i = out.findIndex((o) => isObject(o) && keyString(o, keys) === k);
        if (i >= 0) out[i] = merge(out[i], item, t.elem, '');
        else out.push(item);
      }
      return out;
    }
    if (setLists.has(owner)) {
      const seen = new Set(live.map((v) => JSON.stringify(v)));
      return [...live, ...config.filter((v) => !seen.has(JSON.stringify(v)))];
    }
  }
  return config === undefined ? live : JSON.parse(JSON.stringify(config)) as unknown;
}

/** Removes the value at `path` from `obj` (a field, a list item by key, a set value). */
function removeAt(obj: unknown, path: readonly string[]): void {
  if (path.length === 0) return;
  const parent = valueAt(obj, path.slice(0, -1));
  const last = path[path.length - 1]!;
  if (last.startsWith('f:') && isObject(parent)) {
    delete parent[last.slice(2)];
  } else if (Array.isArray(parent)) {
    const target = valueAt(obj, path);
    const i = parent.indexOf(target);
    if (i >= 0) parent.splice(i, 1);
  }
}

function managerIdentity(e: ManagedFieldsEntry): string {
  return JSON.stringify([e.manager ?? '', e.operation ?? '', e.operation === 'Apply' ? '' : e.apiVersion ?? '', e.subresource ?? '']);
}

/** `"kubectl-client-side-apply" using apps/v1`, `"kubectl"`: conflict.go printManager without time. */
function printManager(e: ManagedFieldsEntry): string {
  let s = JSON.stringify(e.manager ?? '');
  if (e.subresource) s = `${s} with subresource ${JSON.stringify(e.subresource)}`;
  return e.operation === 'Update' ? `${s} using ${e.apiVersion ?? ''}` : s;
}

function conflictError(conflicts: ReadonlyArray<{ entry: ManagedFieldsEntry; path: readonly string[] }>): StatusError {
  const causes = conflicts.map((c) => ({ type: 'FieldManagerConflict', message: `conflict with ${printManager(c.entry)}`, field: pathString(c.path) }));
  let message: string;
  if (conflicts.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0]!.entry)}: ${pathString(conflicts[0]!.path)}`;
  } else {
    const byManager = new Map<string, { printed: string; paths: string[] }>();
    for (const c of conflicts) {
      const id = c.entry.manager ?? '';
      const group = byManager.get(id) ?? { printed: printManager(c.entry), paths: [] };
      group.paths.push(pathString(c.path));
      byManager.set(id, group);
    }
    const lines: string[] = [];
    for (const id of [...byManager.keys()].sort()) {
      const group = byManager.get(id)!;
      lines.push(`conflicts with ${group.printed}:`, ...group.paths.map((p) => `- ${p}`));
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new StatusError({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Conflict',
    details: { causes }, code: 409,
  });
}

/**
 * Applies a configuration: returns the merged object (with type meta and the live system metadata) with
 * its managedFields set, or throws the 409 conflict.
 */
export function applyConfiguration(req: ApplyRequest): KubeObject {
  if (req.manager === '') throw newBadRequest('fieldManager is required for apply requests');
  const rootType: TypeNode = { kind: 'struct', name: req.kind };
  const live = (req.live ? JSON.parse(JSON.stringify(req.live)) : { metadata: {} }) as Json;
  const config = ownable(req.config);
  const applied = fieldSetOf(config, rootType, '');
  applied.member = false;
  const liveOwnable = ownable(live);
  const mergedOwnable = merge(liveOwnable, config, rootType, '') as Json;

  const entries = ((live.metadata as KubeObject['metadata']).managedFields ?? []).map((e) => ({ ...e }));
  const mineId = managerIdentity({ manager: req.manager, operation: 'Apply', apiVersion: req.apiVersion });
  const previous = entries.find((e) => managerIdentity(e) === mineId);
  const others = entries.filter((e) => managerIdentity(e) !== mineId).map((e) => ({ entry: e, set: fromFieldsV1(e.fieldsV1) }));

  // Conflicts: fields this apply changes that someone else owns.
  // A leaf changes when its value does; a list item (a member with fields) only when it is new.
  const changedPaths = memberPaths(applied).filter((p) => {
    const before = valueAt(liveOwnable, p);
    if (nodeAt(applied, p)!.children.size > 0) return before === undefined;
    return JSON.stringify(valueAt(mergedOwnable, p)) !== JSON.stringify(before);
  });
  const conflicts: Array<{ entry: ManagedFieldsEntry; path: readonly string[] }> = [];
  for (const other of others) {
    for (const path of changedPaths) if (hasPath(other.set, path)) conflicts.push({ entry: other.entry, path });
  }
  if (conflicts.length > 0) {
    if (!req.force) throw conflictError(conflicts);
    const taken = setOfPaths(conflicts.map((c) => c.path));
    for (const other of others) subtract(other.set, taken);
  }

  // Removal: what this applier owned before, no longer applies, and nobody else owns.
  if (previous) {
    const before = fromFieldsV1(previous.fieldsV1);
    for (const path of memberPaths(before)) {
      if (path.length === 0 || hasPath(applied, path)) continue;
      if (others.some((o) => hasPath(o.set, path))) continue;
      removeAt(mergedOwnable, path);
    }
  }

  const liveMeta = live.metadata as Json;
  const mergedMeta = isObject(mergedOwnable.metadata) ? mergedOwnable.metadata : {};
  const metadata: Json = { ...mergedMeta };
  for (const f of systemMeta) if (liveMeta[f] !== undefined) metadata[f] = liveMeta[f];
  if (metadata.name === undefined && isObject(req.config.metadata) && req.config.metadata.name !== undefined) metadata.name = req.config.metadata.name;

  const kept: ManagedFieldsEntry[] = [];
  for (const other of others) {
    other.set.member = false;
    if (other.set.children.size > 0) kept.push({ ...other.entry, fieldsV1: toFieldsV1(other.set) });
  }
  kept.push({ manager: req.manager, operation: 'Apply', apiVersion: req.apiVersion, time: req.time, fieldsType: 'FieldsV1', fieldsV1: toFieldsV1(applied) });
  kept.sort((a, b) => cmp(a.operation ?? '', b.operation ?? '') || cmp(a.time ?? '', b.time ?? '') || cmp(a.manager ?? '', b.manager ?? ''));
  metadata.managedFields = kept;

  const { metadata: _m, ...body } = mergedOwnable;
  const status = live.status;
  return { apiVersion: req.config.apiVersion, kind: req.config.kind, metadata, ...body, ...(status !== undefined ? { status } : {}) } as KubeObject;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

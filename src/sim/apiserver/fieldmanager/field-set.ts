// Field sets in FieldsV1 form: which fields of an object a manager set. A write's field set is the set of
// paths it added or changed relative to the object before it (for a create: the Go zero value of the
// kind, so `spec`, `template` and the like, which the zero value already has, are never "added"):
//   f:<field>   a struct field or map entry      k:{"name":"nginx"}   an associative-list item by its keys
//   v:<json>    an item of a set-list            .                    the node itself is in the set
// A node is itself a member ("." when it also has children) when it was absent before; list items that
// are new are always members. Atomic values (label selectors, lists without keys) are leaves.
// Models sigs.k8s.io/structured-merge-diff/v4 (fieldpath.Set, typed comparison, serialize-pe.go) over
// the list-map keys of the 1.28 OpenAPI schema.

import { structField, type TypeNode } from '../../api/schema.ts';
import { isObject } from '../../api/json.ts';

export interface FieldSetNode {
  member: boolean;
  readonly children: Map<string, FieldSetNode>;
}

export function emptyNode(): FieldSetNode {
  return { member: false, children: new Map() };
}

/** x-kubernetes-list-map-keys of the associative lists Podflow's kinds use, by struct.field. */
export const listMapKeys: Readonly<Record<string, readonly string[]>> = {
  'PodSpec.containers': ['name'],
  'PodSpec.initContainers': ['name'],
  'PodSpec.ephemeralContainers': ['name'],
  'PodSpec.volumes': ['name'],
  'PodSpec.hostAliases': ['ip'],
  'PodSpec.imagePullSecrets': ['name'],
  'PodSpec.topologySpreadConstraints': ['topologyKey', 'whenUnsatisfiable'],
  'Container.ports': ['containerPort', 'protocol'],
  'Container.env': ['name'],
  'Container.volumeMounts': ['mountPath'],
  'Container.volumeDevices': ['devicePath'],
  'ObjectMeta.ownerReferences': ['uid'],
  'PodStatus.conditions': ['type'],
  'DeploymentStatus.conditions': ['type'],
  'ReplicaSetStatus.conditions': ['type'],
  'NodeStatus.conditions': ['type'],
  'NodeStatus.addresses': ['type'],
  'NamespaceStatus.conditions': ['type'],
};

/** x-kubernetes-list-type: set. */
export const setLists = new Set(['ObjectMeta.finalizers', 'NamespaceSpec.finalizers']);

/** x-kubernetes-map-type: atomic. */
const atomicStructs = new Set(['LabelSelector', 'NodeSelector', 'ObjectReference', 'LocalObjectReference']);

function isAbsent(v: unknown): boolean {
  return v === undefined;
}

/** Equal JSON text; the same value, or two different strings, are told without printing them. */
function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'string' && typeof b === 'string') return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

interface FieldType {
  readonly type: TypeNode;
  /** `Struct.field`, the key of listMapKeys and setLists. */
  readonly owner: string;
}

/** Each struct's fields as changedFields looks them up, built once per struct and field name (null: not a field). */
const fieldTypes = new Map<string, Map<string, FieldType | null>>();

function structFieldType(struct: string, key: string): FieldType | null {
  let fields = fieldTypes.get(struct);
  if (fields === undefined) fieldTypes.set(struct, (fields = new Map()));
  let t = fields.get(key);
  if (t === undefined) {
    const f = structField(struct, key);
    t = f ? { type: f.type, owner: `${struct}.${key}` } : null;
    fields.set(key, t);
  }
  return t;
}

/** Canonical JSON of a list item's keys, fields sorted as SMD writes them. */
function keyOf(item: Record<string, unknown>, keys: readonly string[]): string {
  const parts = [...keys].sort().map((k) => `${JSON.stringify(k)}:${JSON.stringify(item[k] ?? null)}`);
  return `k:{${parts.join(',')}}`;
}

/**
 * The field set of `next` relative to `prev` for a value of `type` (`owner` names the struct and field
 * the value sits in, for list semantics). Null when nothing was added or changed.
 */
export function changedFields(next: unknown, prev: unknown, type: TypeNode, owner: string): FieldSetNode | null {
  if (isAbsent(next)) return null;
  const t = type.kind === 'pointer' ? type.elem : type;
  if (t.kind === 'struct' && !atomicStructs.has(t.name) && isObject(next)) {
    return mapLike(next, isObject(prev) ? prev : undefined, isAbsent(prev), t.name, null);
  }
  if (t.kind === 'map' && isObject(next)) {
    return mapLike(next, isObject(prev) ? prev : undefined, isAbsent(prev), null, { type: t.elem, owner: '' });
  }
  if (t.kind === 'list' && Array.isArray(next)) {
    const keys = listMapKeys[owner];
    if (keys) return associativeList(next, Array.isArray(prev) ? prev : [], isAbsent(prev), keys, t.elem);
    if (setLists.has(owner)) {
      const node = emptyNode();
      const before = new Set((Array.isArray(prev) ? prev : []).map((v) => JSON.stringify(v)));
      for (const v of next) if (!before.has(JSON.stringify(v))) node.children.set(`v:${JSON.stringify(v)}`, { member: true, children: new Map() });
      node.member = isAbsent(prev);
      return node.member || node.children.size > 0 ? node : null;
    }
  }
  return deepEqual(next, prev) ? null : { member: true, children: new Map() };
}

/**
 * A struct's fields (`struct`) or a map's entries (`elem`). The node's children are made only once one
 * of them changed: most of an object is as it was.
 */
function mapLike(next: Record<string, unknown>, prev: Record<string, unknown> | undefined, wasAbsent: boolean,
  struct: string | null, elem: FieldType | null): FieldSetNode | null {
  let children: Map<string, FieldSetNode> | null = null;
  for (const key in next) {
    if (!Object.hasOwn(next, key)) continue;
    const value = next[key];
    const t = struct !== null ? structFieldType(struct, key) : elem;
    const child = t ? changedFields(value, prev?.[key], t.type, t.owner) : deepEqual(value, prev?.[key]) ? null : { member: true, children: new Map() };
    if (child) (children ??= new Map()).set(`f:${key}`, child);
  }
  return wasAbsent || children !== null ? { member: wasAbsent, children: children ?? new Map() } : null;
}

function associativeList(next: unknown[], prev: unknown[], wasAbsent: boolean, keys: readonly string[], elem: TypeNode): FieldSetNode | null {
  const node = emptyNode();
  const before = new Map(prev.filter(isObject).map((item) => [keyOf(item, keys), item]));
  for (const item of next) {
    if (!isObject(item)) continue;
    const k = keyOf(item, keys);
    const old = before.get(k);
    const child = changedFields(item, old, elem, '') ?? null;
    if (child) {
      if (old === undefined) child.member = true;
      node.children.set(k, child);
    }
  }
  node.member = wasAbsent && next.length > 0;
  return node.member || node.children.size > 0 ? node : null;
}

/** The FieldsV1 JSON of a node: its children, with `.` first when it is a member with children. */
export function toFieldsV1(node: FieldSetNode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (node.member && node.children.size > 0) out['.'] = {};
  for (const key of [...node.children.keys()].sort()) out[key] = toFieldsV1(node.children.get(key)!);
  return out;
}

export function fromFieldsV1(json: unknown): FieldSetNode {
  const node = emptyNode();
  if (!isObject(json)) return node;
  const keys = Object.keys(json);
  if (keys.length === 0) node.member = true;
  for (const key of keys) {
    if (key === '.') node.member = true;
    else node.children.set(key, fromFieldsV1(json[key]));
  }
  return node;
}

/** Removes from `set` every path that `remove` names as a member. Returns whether anything is left. */
export function subtract(set: FieldSetNode, remove: FieldSetNode): boolean {
  if (remove.member && remove.children.size === 0) {
    set.member = false;
    set.children.clear();
    return false;
  }
  if (remove.member) set.member = false;
  for (const [key, child] of remove.children) {
    const mine = set.children.get(key);
    if (mine && !subtract(mine, child)) set.children.delete(key);
  }
  return set.member || set.children.size > 0;
}

/** Adds every path of `add` to `set`. */
export function union(set: FieldSetNode, add: FieldSetNode): void {
  if (add.member) set.member = true;
  for (const [key, child] of add.children) {
    let mine = set.children.get(key);
    if (!mine) {
      mine = emptyNode();
      set.children.set(key, mine);
    }
    union(mine, child);
  }
}

/**
 * Whether a manager's FieldsV1 is already what toFieldsV1 writes for the set fromFieldsV1 reads from it
 * (with the root's own membership dropped, as recordWrite reads entries): every value an object, keys
 * in sorted order, `.` first and only beside children, and at least one field. Then a write that neither
 * takes a field from it (`subtractChanges`) nor adds one (`unionChanges`) leaves that very JSON. Only
 * frozen JSON is answered (remembered per object: the watch cache's revisions share an unchanged entry's
 * FieldsV1); anything else is false, and the caller parses and writes it again.
 */
export function isCanonicalFieldsV1(json: unknown): json is Record<string, unknown> {
  if (!isObject(json) || !Object.isFrozen(json)) return false;
  let canonical = canonicalRoots.get(json);
  if (canonical === undefined) {
    const keys = Object.keys(json);
    canonical = keys.length > 0 && keys[0] !== '.' && canonicalChildren(json, keys, 0);
    canonicalRoots.set(json, canonical);
  }
  return canonical;
}

const canonicalRoots = new WeakMap<object, boolean>();

function canonicalNode(json: unknown): boolean {
  if (!isObject(json)) return false;
  const keys = Object.keys(json);
  if (keys.length === 0) return true;
  if (keys[0] !== '.') return canonicalChildren(json, keys, 0);
  const dot = json['.'];
  return keys.length > 1 && isObject(dot) && Object.keys(dot).length === 0 && canonicalChildren(json, keys, 1);
}

function canonicalChildren(json: Record<string, unknown>, keys: readonly string[], from: number): boolean {
  for (let i = from; i < keys.length; i++) {
    const k = keys[i]!;
    if (k === '.' || (i > from && !(keys[i - 1]! < k)) || !canonicalNode(json[k])) return false;
  }
  return true;
}

function isMemberJson(json: Record<string, unknown>): boolean {
  for (const k in json) if (Object.hasOwn(json, k)) return Object.hasOwn(json, '.');
  return true;
}

/** Whether subtract(fromFieldsV1(json), remove) would change the set (`json` canonical). */
export function subtractChanges(json: Record<string, unknown>, remove: FieldSetNode): boolean {
  if (remove.member && (remove.children.size === 0 || isMemberJson(json))) return true;
  for (const [key, child] of remove.children) {
    if (key === '.') return true;
    const sub = Object.hasOwn(json, key) ? json[key] : undefined;
    if (sub !== undefined && subtractChanges(sub as Record<string, unknown>, child)) return true;
  }
  return false;
}

/** Whether union(fromFieldsV1(json), add) would change the set (`json` canonical). */
export function unionChanges(json: Record<string, unknown>, add: FieldSetNode): boolean {
  if (add.member && !isMemberJson(json)) return true;
  for (const [key, child] of add.children) {
    const sub = key !== '.' && Object.hasOwn(json, key) ? json[key] : undefined;
    if (sub === undefined || unionChanges(sub as Record<string, unknown>, child)) return true;
  }
  return false;
}

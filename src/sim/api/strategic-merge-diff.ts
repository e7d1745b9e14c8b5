// Computing strategic merge patches: the difference between two JSON objects as upstream's
// strategicpatch writes it. Changed and added fields are set, fields that went away are `null`; lists
// whose schema names a merge key are diffed element by element (changed elements carry their merge key,
// removed ones become `{"$patch": "delete", <key>}`) with `$setElementOrder/<list>` giving the new
// order; other lists are replaced whole. Used by `kubectl apply` (the three-way patch) and the kubelet's
// status updates (the two-way patch).
// Models k8s.io/apimachinery/pkg/util/strategicpatch/patch.go (CreateTwoWayMergePatch,
// CreateThreeWayMergePatch, diffMaps, diffLists). Merge keys come from the wire schema's
// `patchStrategy`/`patchMergeKey` tags (schema-data.ts, generated from the Go types), walked from the
// object's kind as upstream's PatchMetaFromStruct walks them. Fields the schema does not know are
// diffed as plain JSON (their lists replaced whole), as are lists of scalars.

import { isObject } from './json.ts';
import { hasStruct, parseType, structField, type TypeNode } from './schema.ts';
import { lookupForSlice, patchStrategyOf } from './strategic-merge-meta.ts';

export type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };
export type JSONMap = { [key: string]: JSONValue };

const isMap = (v: unknown): v is JSONMap => isObject(v);

interface FieldDiffMeta {
  /** The schema of the field's value (of a list's elements). */
  readonly schema: TypeNode | undefined;
  /** The merge key when the field is a list that merges element by element; null when it is replaced whole. */
  readonly mergeKey: string | null;
}

/** The schema of an object of `kind`; undefined for a kind the schema does not know (diffed as plain JSON). */
function kindSchema(kind: string): TypeNode | undefined {
  return hasStruct(kind) ? parseType(kind) : undefined;
}

/** fieldMeta of a struct's fields, by struct and field name: a lookup depends on nothing else. */
const structFieldMeta = new Map<string, Map<string, FieldDiffMeta>>();

/** LookupPatchMetadataForSlice, for a field of a value of type `schema`; a field it does not know has no metadata. */
function fieldMeta(schema: TypeNode | undefined, key: string): FieldDiffMeta {
  if (schema?.kind !== 'struct') return lookupFieldMeta(schema, key);
  let fields = structFieldMeta.get(schema.name);
  if (fields === undefined) structFieldMeta.set(schema.name, (fields = new Map()));
  let meta = fields.get(key);
  if (meta === undefined) fields.set(key, (meta = lookupFieldMeta(schema, key)));
  return meta;
}

function lookupFieldMeta(schema: TypeNode | undefined, key: string): FieldDiffMeta {
  if (schema === undefined || (schema.kind === 'struct' && structField(schema.name, key) === undefined)) return { schema: undefined, mergeKey: null };
  const meta = lookupForSlice(schema, key);
  return { schema: meta.schema, mergeKey: patchStrategyOf(meta.strategies) === 'merge' && meta.mergeKey !== '' ? meta.mergeKey : null };
}

/** Compact JSON with map keys sorted, as Go marshals a map. */
export function sortedJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJSON).join(',')}]`;
  if (isMap(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${sortedJSON(value[k])}`).join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

const isEnumerableOwn = (o: object, key: string): boolean => Object.prototype.propertyIsEnumerable.call(o, key);

/**
 * Whether two JSON values have the same `sortedJSON` text, without building it: lists element by element,
 * maps by their key sets and values, other values by their JSON text (so `-0` equals `0`). The same value
 * twice (subtrees the two sides share) is equal at once.
 */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
    return true;
  }
  if (isMap(a)) {
    if (!isMap(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (const key of keys) if (!isEnumerableOwn(b, key) || !equal(a[key], b[key])) return false;
    return true;
  }
  if (Array.isArray(b) || isMap(b) || (typeof a === 'string' && typeof b === 'string')) return false;
  return (JSON.stringify(a) ?? 'null') === (JSON.stringify(b) ?? 'null');
}

/** Which half of a diff to compute (upstream's DiffOptions). */
interface DiffMode {
  readonly ignoreDeletions: boolean;
  readonly ignoreChangesAndAdditions: boolean;
}

function diffMaps(schema: TypeNode | undefined, from: JSONMap, to: JSONMap, mode: DiffMode): JSONMap {
  const patch: JSONMap = {};
  for (const [key, toValue] of Object.entries(to)) {
    if (!(key in from)) {
      if (!mode.ignoreChangesAndAdditions) patch[key] = toValue;
      continue;
    }
    const fromValue = from[key]!;
    if (equal(fromValue, toValue)) continue;
    const meta = fieldMeta(schema, key);
    if (isMap(fromValue) && isMap(toValue)) {
      const sub = diffMaps(meta.schema, fromValue, toValue, mode);
      if (Object.keys(sub).length > 0) patch[key] = sub;
      continue;
    }
    const mergeKey = meta.mergeKey;
    if (mergeKey !== null && Array.isArray(fromValue) && Array.isArray(toValue) && [...fromValue, ...toValue].every(isMap)) {
      const list = diffLists(meta.schema, fromValue as JSONMap[], toValue as JSONMap[], mergeKey, mode);
      if (list.length > 0) {
        patch[key] = list;
        if (!mode.ignoreChangesAndAdditions) patch[`$setElementOrder/${key}`] = (toValue as JSONMap[]).map((e) => ({ [mergeKey]: e[mergeKey] ?? null }));
      }
      continue;
    }
    if (!mode.ignoreChangesAndAdditions) patch[key] = toValue;
  }
  if (!mode.ignoreDeletions) {
    for (const key of Object.keys(from)) if (!(key in to)) patch[key] = null;
  }
  return patch;
}

function diffLists(schema: TypeNode | undefined, from: JSONMap[], to: JSONMap[], mergeKey: string, mode: DiffMode): JSONMap[] {
  const out: JSONMap[] = [];
  const keyOf = (e: JSONMap): string => sortedJSON(e[mergeKey] ?? null);
  const fromByKey = new Map(from.map((e) => [keyOf(e), e]));
  const toKeys = new Set(to.map(keyOf));
  for (const element of to) {
    const previous = fromByKey.get(keyOf(element));
    if (previous === undefined) {
      if (!mode.ignoreChangesAndAdditions) out.push(element);
      continue;
    }
    const sub = diffMaps(schema, previous, element, mode);
    if (Object.keys(sub).length > 0) out.push({ ...sub, [mergeKey]: element[mergeKey] ?? null });
  }
  if (!mode.ignoreDeletions) {
    for (const element of from) if (!toKeys.has(keyOf(element))) out.push({ $patch: 'delete', [mergeKey]: element[mergeKey] ?? null });
  }
  return out;
}

/** Merges two patches: maps key by key, merged lists element by element (by merge key). */
function mergePatches(schema: TypeNode | undefined, a: JSONMap, b: JSONMap): JSONMap {
  const out: JSONMap = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const existing = out[key];
    const meta = key.startsWith('$') ? { schema: undefined, mergeKey: null } : fieldMeta(schema, key);
    const mk = meta.mergeKey;
    if (isMap(existing) && isMap(value)) {
      out[key] = mergePatches(meta.schema, existing, value);
    } else if (Array.isArray(existing) && Array.isArray(value) && mk !== null) {
      const merged = [...(existing as JSONMap[])];
      for (const element of value as JSONMap[]) {
        const i = merged.findIndex((e) => equal(e[mk], element[mk]) && e.$patch === undefined && element.$patch === undefined);
        if (i >= 0) merged[i] = mergePatches(meta.schema, merged[i]!, element);
        else merged.push(element);
      }
      out[key] = merged;
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** CreateTwoWayMergePatch: what turns `original` into `modified`. */
export function twoWayMergePatch(kind: string, original: JSONMap, modified: JSONMap): JSONMap {
  return diffMaps(kindSchema(kind), original, modified, { ignoreDeletions: false, ignoreChangesAndAdditions: false });
}

/**
 * CreateThreeWayMergePatch: the deletions from `original` (what was applied last; null if nothing) to
 * `modified`, with the changes and additions from `current` (the live object) to `modified`; fields the
 * server added to `current` are left alone.
 */
export function threeWayMergePatch(kind: string, original: JSONMap | null, modified: JSONMap, current: JSONMap): JSONMap {
  const schema = kindSchema(kind);
  const delta = diffMaps(schema, current, modified, { ignoreDeletions: true, ignoreChangesAndAdditions: false });
  const deletions = diffMaps(schema, original ?? {}, modified, { ignoreDeletions: false, ignoreChangesAndAdditions: true });
  return mergePatches(schema, deletions, delta);
}

// Strategic merge patch (`application/strategic-merge-patch+json`), what `kubectl apply` and
// `kubectl set image` send: lists whose schema says `patchStrategy: merge` merge item by item on
// their merge key (containers and env by `name`, ports by `containerPort`, volumeMounts by
// `mountPath`…) or as sets (finalizers); other lists and `patchStrategy: replace` values are
// replaced; `null` deletes. Directives: `$patch: replace|delete` (maps and list items),
// `$retainKeys`, `$setElementOrder/<list>`, `$deleteFromPrimitiveList/<list>`. Item order follows
// upstream's merge of server-only and patched items. Errors carry upstream's texts and the status
// the apiserver gives them (400, 422 or 500; strategicMergeErrorStatus in strategic-merge-meta.ts).
// Models k8s.io/apimachinery/pkg/util/strategicpatch/patch.go (mergeMap, mergeSlice,
// normalizeElementOrder; the schema lookups and errors are strategic-merge-meta.ts).

import { goSliceStable } from '../go/sort.ts';
import { isObject } from './json.ts';
import { parseType, type TypeNode } from './schema.ts';
import { copyJson } from './json-copy.ts';
import {
  errBadPatchFormatForPrimitiveList, errBadPatchFormatForRetainKeys, errBadPatchFormatForSetElementOrderList, errBadPatchType, errNoMergeKey, goV, internal, kindOf, lookupForSlice, lookupForStruct, PatchError, patchStrategyOf, schemaName, type PatchFailureCode,
} from './strategic-merge-meta.ts';

type JSONMap = Record<string, unknown>;

const directiveMarker = '$patch';
const retainKeysDirective = '$retainKeys';
const setElementOrderPrefix = '$setElementOrder';
const deleteFromPrimitiveListPrefix = '$deleteFromPrimitiveList';

/** removeDirectives: a value as stored, `$patch` maps and list items dropped (`keep` false for a `$patch` map). */
function removeDirectives(obj: unknown): [unknown, boolean] {
  if (isObject(obj)) {
    if (directiveMarker in obj) return [undefined, false];
    const out: JSONMap = {};
    for (const [k, v] of Object.entries(obj)) {
      const [nv, keep] = removeDirectives(v);
      if (keep) out[k] = nv;
    }
    return [out, true];
  }
  if (Array.isArray(obj)) {
    const out: unknown[] = [];
    for (const v of obj) {
      const [nv, keep] = removeDirectives(v);
      if (keep) out.push(nv);
    }
    return [out, true];
  }
  return [obj, true];
}

function discardNulls(v: unknown): unknown {
  if (isObject(v)) {
    const out: JSONMap = {};
    for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = discardNulls(x);
    return out;
  }
  if (Array.isArray(v)) return v.map(discardNulls);
  return v;
}

function mergeKeyValue(item: unknown, mergeKey: string): unknown {
  return isObject(item) ? item[mergeKey] : undefined;
}

/** The position of a value in a list, by merge key for maps, by value for scalars; −1 when absent. */
function indexOf(list: readonly unknown[], item: unknown, mergeKey: string, kind: string): number {
  const val = kind === 'map' ? mergeKeyValue(item, mergeKey) : item;
  return list.findIndex((x) => (kind === 'map' ? mergeKeyValue(x, mergeKey) : x) === val);
}

function validateMergeKeyInLists(mergeKey: string, ...lists: (readonly unknown[])[]): void {
  if (mergeKey === '') return;
  for (const list of lists) {
    for (const item of list) {
      if (!isObject(item)) throw internal(`expected a map, but received a ${kindOf(item)}`);
      if (!(mergeKey in item)) throw errNoMergeKey(item, mergeKey);
    }
  }
}

/** normalizeSliceOrder: `toSort` ordered as in `order` (items absent from it keep upstream's quirky placement), deletions last. */
function normalizeSliceOrder(toSort: unknown[], order: readonly unknown[], mergeKey: string, kind: string): unknown[] {
  let toDelete: unknown[] = [];
  let items = toSort;
  if (kind === 'map') {
    validateMergeKeyInLists(mergeKey, toSort, order);
    items = toSort.filter((v) => !(isObject(v) && v[directiveMarker] === 'delete'));
    toDelete = toSort.filter((v) => isObject(v) && v[directiveMarker] === 'delete');
  }
  const sorted = [...items];
  goSliceStable(sorted, (x, y) => {
    const ix = indexOf(order, x, mergeKey, kind);
    if (ix < 0) return true;
    const iy = indexOf(order, y, mergeKey, kind);
    return iy < 0 ? true : ix < iy;
  });
  return [...sorted, ...toDelete];
}

/** mergeSortedSlice: interleaves server-only and patched items by their position in the server's list. */
function mergeSortedSlice(left: readonly unknown[], right: readonly unknown[], serverOrder: readonly unknown[], mergeKey: string, kind: string): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexOf(serverOrder, left[i], mergeKey, kind);
      const ri = indexOf(serverOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

function normalizeElementOrder(patch: unknown[], serverOnly: unknown[], patchOrder: readonly unknown[], serverOrder: readonly unknown[], mergeKey: string, kind: string): unknown[] {
  const p = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const s = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(s, p, serverOrder, mergeKey, kind);
}

/** Splits a merged list into items named by `by` (patch items) and the rest (server-only items). */
function partition(merged: readonly unknown[], by: readonly unknown[], mergeKey: string): [unknown[], unknown[]] {
  const patchItems: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of merged) {
    if (mergeKey === '') {
      (by.includes(v) ? patchItems : serverOnly).push(v);
      continue;
    }
    if (!isObject(v)) throw internal(`expected a map, but received a ${kindOf(v)}`);
    if (!(mergeKey in v)) throw errNoMergeKey(v, mergeKey);
    const found = by.some((x) => {
      if (!isObject(x)) throw internal(`value for key ${mergeKey} is not a map`);
      return mergeKey in x && x[mergeKey] === v[mergeKey];
    });
    (found ? patchItems : serverOnly).push(v);
  }
  return [patchItems, serverOnly];
}

/** The common element kind of lists; errors on mixed kinds, lists of lists and empty lists. */
function sliceElementKind(...lists: (readonly unknown[])[]): string {
  let kind: string | undefined;
  for (const list of lists) {
    for (const v of list) {
      const k = kindOf(v);
      if (kind === undefined) {
        if (k === 'slice') throw new PatchError('lists of lists are not supported', 422);
        kind = k;
      } else if (k !== kind) {
        throw internal(`list element types are not identical: ${goV(lists)}`);
      }
    }
  }
  if (kind === undefined) throw internal('no elements in any of the given slices');
  return kind;
}

/** Upstream's in-place deduplication, which moves the last element into each duplicate's place. */
function deduplicateScalars(s: unknown[]): unknown[] {
  let length = s.length - 1;
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j <= length; j++) {
      if (s[i] === s[j]) {
        s[j] = s[length];
        s.length = length;
        length--;
        j--;
      }
    }
  }
  return s;
}

function mergeSlice(original: unknown[], patch: unknown[], schema: TypeNode | undefined, mergeKey: string, isDeleteList: boolean): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementKind(original, patch);
  let merged: unknown[];
  let orig = original;
  let pat = patch;
  if (kind !== 'map') {
    if (isDeleteList) return original.filter((v) => !patch.includes(v));
    merged = deduplicateScalars([...original, ...patch]);
  } else {
    if (mergeKey === '') throw internal(`cannot merge lists without merge key for ${schemaName(schema)}`);
    [orig, pat] = mergeSliceWithSpecialElements(original, patch, mergeKey);
    merged = mergeSliceWithoutSpecialElements(orig, pat, mergeKey, schema);
  }
  const [patchItems, serverOnly] = partition(merged, pat, kind === 'map' ? mergeKey : '');
  return normalizeElementOrder(patchItems, serverOnly, pat, orig, kind === 'map' ? mergeKey : '', kind);
}

function mergeSliceWithSpecialElements(original: unknown[], patch: unknown[], mergeKey: string): [unknown[], unknown[]] {
  let orig = [...original];
  const rest: unknown[] = [];
  let replace = false;
  for (const v of patch) {
    const item = v as JSONMap;
    if (!(directiveMarker in item)) {
      rest.push(v);
      continue;
    }
    switch (item[directiveMarker]) {
      case 'delete':
        if (!(mergeKey in item)) throw errNoMergeKey(item, mergeKey);
        orig = orig.filter((x) => !(isObject(x) && mergeKey in x && x[mergeKey] === item[mergeKey]));
        break;
      case 'replace':
        replace = true;
        break;
      case 'merge':
        throw internal('merging lists cannot yet be specified in the patch');
      default:
        throw errBadPatchType(item[directiveMarker], item);
    }
  }
  return replace ? [rest, []] : [orig, rest];
}

function mergeSliceWithoutSpecialElements(original: unknown[], patch: unknown[], mergeKey: string, schema: TypeNode | undefined): unknown[] {
  const out = [...original];
  for (const v of patch) {
    const item = v as JSONMap;
    if (!(mergeKey in item)) throw errNoMergeKey(item, mergeKey);
    const idx = out.findIndex((x) => {
      if (!isObject(x)) throw internal('value for key is not a map');
      return mergeKey in x && x[mergeKey] === item[mergeKey];
    });
    if (idx >= 0) out[idx] = mergeMap(out[idx] as JSONMap, item, schema);
    else out.push(v);
  }
  return out;
}

function applyRetainKeys(original: JSONMap, patch: JSONMap): void {
  if (!(retainKeysDirective in patch)) return;
  const list = patch[retainKeysDirective];
  delete patch[retainKeysDirective];
  if (!Array.isArray(list)) throw errBadPatchFormatForRetainKeys();
  const keep = new Set(list);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(deleteFromPrimitiveListPrefix) || k.startsWith(setElementOrderPrefix)) continue;
    if (!keep.has(k)) throw errBadPatchFormatForRetainKeys();
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}

function extractKey(s: string, prefix: string): string {
  const slash = s.indexOf('/');
  if (slash < 0 || s.slice(0, slash) !== prefix) {
    throw prefix === deleteFromPrimitiveListPrefix ? errBadPatchFormatForPrimitiveList() : errBadPatchFormatForSetElementOrderList();
  }
  return s.slice(slash + 1);
}

function validatePatchWithSetOrderList(patchList: unknown[] | undefined, setOrder: unknown[], mergeKey: string): void {
  if (setOrder.length === 0 || patchList === undefined || patchList.length === 0) return;
  const nonDelete = mergeKey === '' ? patchList : patchList.filter((v) => {
    if (!isObject(v)) throw internal(`expected a map, but received a ${kindOf(v)}`);
    return v[directiveMarker] !== 'delete';
  });
  let p = 0;
  let s = 0;
  while (p < nonDelete.length && s < setOrder.length) {
    const item = nonDelete[p];
    if (isObject(item) && directiveMarker in item) {
      p++;
      continue;
    }
    let equal: boolean;
    if (mergeKey === '') equal = item === setOrder[s];
    else {
      const order = setOrder[s];
      if (!isObject(item) || !isObject(order)) throw internal('expected a map, but received a non-map');
      if (!(mergeKey in item)) throw errNoMergeKey(item, mergeKey);
      if (!(mergeKey in order)) throw errNoMergeKey(order, mergeKey);
      equal = item[mergeKey] === order[mergeKey];
    }
    if (equal) p++;
    s++;
  }
  if (p < nonDelete.length && s >= setOrder.length) {
    throw internal(`The order in patch list:\n${goV(patchList)}\n doesn't match ${setElementOrderPrefix} list:\n${goV(setOrder)}\n`);
  }
}

/** mergePatchIntoOriginal: lists named by `$setElementOrder/<list>` are merged and put in that order. */
function applySetElementOrder(original: JSONMap, patch: JSONMap, schema: TypeNode | undefined): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(setElementOrderPrefix)) continue;
    const order = patch[key];
    delete patch[key];
    if (!Array.isArray(order)) throw internal(`expected a slice, but received a ${kindOf(order)}`);
    const listKey = extractKey(key, setElementOrderPrefix);
    const originalList = original[listKey];
    const patchList = patch[listKey];
    if (originalList !== undefined && !Array.isArray(originalList)) throw internal(`expected a slice, but received a ${kindOf(originalList)}`);
    if (patchList !== undefined && !Array.isArray(patchList)) throw internal(`expected a slice, but received a ${kindOf(patchList)}`);
    const meta = lookupForSlice(schema, listKey);
    const strategy = patchStrategyOf(meta.strategies);
    validatePatchWithSetOrderList(patchList, order, meta.mergeKey);
    let merged: unknown[];
    if (originalList !== undefined && patchList === undefined) merged = originalList;
    else if (originalList === undefined && patchList !== undefined) {
      const [v, keep] = removeDirectives(patchList);
      if (!keep) continue;
      merged = v as unknown[];
    } else if (originalList !== undefined && patchList !== undefined) {
      merged = strategy === 'merge' ? mergeSlice(originalList, patchList, meta.schema, meta.mergeKey, false) : patchList;
    } else {
      continue;
    }
    const kind = sliceElementKind(originalList ?? [], patchList ?? []);
    const [patchItems, serverOnly] = partition(merged, order, meta.mergeKey);
    original[listKey] = normalizeElementOrder(patchItems, serverOnly, order, originalList ?? [], meta.mergeKey, kind);
    delete patch[listKey];
  }
}

function mergeMap(originalIn: JSONMap | undefined, patchIn: JSONMap, schema: TypeNode | undefined): JSONMap {
  const patch: JSONMap = { ...patchIn };
  if (directiveMarker in patch) {
    const directive = patch[directiveMarker];
    if (directive === 'replace') {
      delete patch[directiveMarker];
      return patch;
    }
    if (directive === 'delete') return {};
    throw errBadPatchType(directive, patch);
  }
  const original: JSONMap = { ...(originalIn ?? {}) };
  applyRetainKeys(original, patch);
  applySetElementOrder(original, patch, schema);

  for (const [rawKey, patchV] of Object.entries(patch)) {
    let k = rawKey;
    const isDeleteList = rawKey.startsWith(deleteFromPrimitiveListPrefix);
    if (isDeleteList) k = extractKey(rawKey, deleteFromPrimitiveListPrefix);
    if (patchV === null) {
      delete original[k];
      continue;
    }
    if (!(k in original)) {
      if (!isDeleteList) {
        const [v, keep] = removeDirectives(discardNulls(patchV));
        if (keep) original[k] = v;
      }
      continue;
    }
    const origKind = kindOf(original[k]);
    if (origKind !== kindOf(patchV)) {
      if (!isDeleteList) {
        const [v, keep] = removeDirectives(discardNulls(patchV));
        if (keep) original[k] = v;
        else delete original[k];
      }
      continue;
    }
    if (origKind === 'map') {
      const meta = lookupForStruct(schema, k);
      original[k] = patchStrategyOf(meta.strategies) === 'replace' ? patchV : mergeMap(original[k] as JSONMap, patchV as JSONMap, meta.schema);
    } else if (origKind === 'slice') {
      const meta = lookupForSlice(schema, k);
      const strategy = patchStrategyOf(meta.strategies);
      original[k] = strategy === 'merge' || isDeleteList
        ? mergeSlice(original[k] as unknown[], patchV as unknown[], meta.schema, meta.mergeKey, isDeleteList)
        : patchV;
    } else {
      const [v, keep] = removeDirectives(patchV);
      if (keep) original[k] = v;
      else delete original[k];
    }
  }
  return original;
}

export type StrategicMergeResult =
  | { readonly ok: true; readonly value: JSONMap }
  | { readonly ok: false; readonly code: PatchFailureCode; readonly error: string };

/**
 * Applies a strategic merge patch to an object of a kind (`Deployment`, `Pod`…); both are parsed
 * JSON. The patch must be a JSON object; the apiserver rejects anything else with 400 before this.
 */
export function applyStrategicMergePatch(kind: string, original: JSONMap, patch: JSONMap): StrategicMergeResult {
  try {
    return { ok: true, value: mergeMap(copyJson(original) as JSONMap, copyJson(patch) as JSONMap, parseType(kind)) };
  } catch (e) {
    if (e instanceof PatchError) return { ok: false, code: e.code, error: e.message };
    throw e;
  }
}

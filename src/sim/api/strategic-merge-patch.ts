// Strategic merge patch (`application/strategic-merge-patch+json`), what `kubectl apply` and
// `kubectl set image` send: lists whose schema says `patchStrategy: merge` merge item by item on
// their merge key (containers and env by `name`, ports by `containerPort`, volumeMounts by
// `mountPath`…) or as sets (finalizers); other lists and `patchStrategy: replace` values are
// replaced; `null` deletes. Directives: `$patch: replace|delete` (maps and list items),
// `$retainKeys`, `$setElementOrder/<list>`, `$deleteFromPrimitiveList/<list>`. Item order follows
// upstream's merge of server-only and patched items. Errors carry upstream's texts and the status
// the apiserver gives them (400, 422 or 500).
// Models k8s.io/apimachinery/pkg/util/strategicpatch/patch.go (mergeMap, mergeSlice,
// normalizeElementOrder) and k8s.io/apiserver/pkg/endpoints/handlers/patch.go
// (interpretStrategicMergePatchError).

import { newBadRequest, newGenericServerResponse, newInternalError, type StatusError } from './errors.ts';
import { parseType, structField, type TypeNode } from './schema.ts';
import { copyJson } from './json-copy.ts';

type JSONMap = Record<string, unknown>;

const directiveMarker = '$patch';
const retainKeysDirective = '$retainKeys';
const setElementOrderPrefix = '$setElementOrder';
const deleteFromPrimitiveListPrefix = '$deleteFromPrimitiveList';

/** How the apiserver answers a strategic-merge failure. */
export type PatchFailureCode = 400 | 422 | 500;

class PatchError extends Error {
  constructor(message: string, readonly code: PatchFailureCode) {
    super(message);
  }
}

const badRequest = (m: string): PatchError => new PatchError(m, 400);
const internal = (m: string): PatchError => new PatchError(m, 500);
const errBadPatchFormatForPrimitiveList = (): PatchError => badRequest('invalid patch format of primitive list');
const errBadPatchFormatForRetainKeys = (): PatchError => badRequest('invalid patch format of retainKeys');
const errBadPatchFormatForSetElementOrderList = (): PatchError => badRequest('invalid patch format of setElementOrder list');

const isMapValue = (v: unknown): v is JSONMap => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Go's `%v` of decoded JSON, for the messages that print patch content (`map[name:a]`, `[a b]`). */
function goV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goV).join(' ')}]`;
  if (isMapValue(v)) return `map[${Object.keys(v).sort().map((k) => `${k}:${goV(v[k])}`).join(' ')}]`;
  return String(v);
}

/** reflect.Kind of a decoded JSON value. */
function kindOf(v: unknown): 'map' | 'slice' | 'string' | 'float64' | 'bool' | 'nil' {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'slice';
  if (isMapValue(v)) return 'map';
  return typeof v === 'string' ? 'string' : typeof v === 'number' ? 'float64' : 'bool';
}

interface PatchMeta {
  /** The schema of the value (struct, map, list element…), undefined when the schema has no such field. */
  readonly schema: TypeNode | undefined;
  readonly strategies: readonly string[];
  readonly mergeKey: string;
}

function schemaName(schema: TypeNode | undefined): string {
  return schema?.kind === 'struct' ? schema.name : '';
}

function unwrap(t: TypeNode): TypeNode {
  return t.kind === 'pointer' ? unwrap(t.elem) : t;
}

/** LookupPatchMetadataForStruct: the field's type and patch tags. */
function lookupForStruct(schema: TypeNode | undefined, key: string): PatchMeta {
  if (schema === undefined) return { schema: undefined, strategies: [], mergeKey: '' };
  if (schema.kind === 'map') return { schema: unwrap(schema.elem), strategies: [], mergeKey: '' };
  if (schema.kind !== 'struct') return { schema: undefined, strategies: [], mergeKey: '' };
  const field = structField(schema.name, key);
  if (field === undefined) throw internal(`unable to find api field in struct ${schema.name} for the json field ${JSON.stringify(key)}`);
  return { schema: unwrap(field.type), strategies: field.patchStrategy === '' ? [] : field.patchStrategy.split(','), mergeKey: field.patchMergeKey };
}

/** LookupPatchMetadataForSlice: like the struct lookup, with the schema of the list's elements. */
function lookupForSlice(schema: TypeNode | undefined, key: string): PatchMeta {
  const meta = lookupForStruct(schema, key);
  const t = meta.schema;
  return { ...meta, schema: t?.kind === 'list' ? unwrap(t.elem) : t };
}

/** extractRetainKeysPatchStrategy: the strategy other than retainKeys. */
function patchStrategyOf(strategies: readonly string[]): string {
  if (strategies.length === 0) return '';
  if (strategies.length === 1) return strategies[0] === 'retainKeys' ? '' : strategies[0]!;
  if (strategies.length === 2 && strategies.includes('retainKeys')) return strategies.find((s) => s !== 'retainKeys')!;
  throw internal(`unexpected patch strategy: ${strategies.join(',')}`);
}

function errNoMergeKey(m: unknown, key: string): PatchError {
  return internal(`map: ${goV(m)} does not contain declared merge key: ${key}`);
}

function errBadPatchType(t: unknown, m: unknown): PatchError {
  return internal(`unknown patch type: ${goV(t)} in map: ${goV(m)}`);
}

/** removeDirectives: a value as stored, `$patch` maps and list items dropped (`keep` false for a `$patch` map). */
function removeDirectives(obj: unknown): [unknown, boolean] {
  if (isMapValue(obj)) {
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
  if (isMapValue(v)) {
    const out: JSONMap = {};
    for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = discardNulls(x);
    return out;
  }
  if (Array.isArray(v)) return v.map(discardNulls);
  return v;
}

function mergeKeyValue(item: unknown, mergeKey: string): unknown {
  return isMapValue(item) ? item[mergeKey] : undefined;
}

/** The position of a value in a list, by merge key for maps, by value for scalars; −1 when absent. */
function indexOf(list: readonly unknown[], item: unknown, mergeKey: string, kind: string): number {
  const val = kind === 'map' ? mergeKeyValue(item, mergeKey) : item;
  return list.findIndex((x) => (kind === 'map' ? mergeKeyValue(x, mergeKey) : x) === val);
}

/** Go's sort.SliceStable: insertion sort in blocks of 20, then symmetric merges. */
function goSliceStable<T>(data: T[], less: (a: T, b: T) => boolean): void {
  const n = data.length;
  const insertionSort = (a: number, b: number): void => {
    for (let i = a + 1; i < b; i++) for (let j = i; j > a && less(data[j]!, data[j - 1]!); j--) [data[j], data[j - 1]] = [data[j - 1]!, data[j]!];
  };
  const swapRange = (a: number, b: number, len: number): void => {
    for (let i = 0; i < len; i++) [data[a + i], data[b + i]] = [data[b + i]!, data[a + i]!];
  };
  const rotate = (a: number, m: number, b: number): void => {
    let i = m - a;
    let j = b - m;
    while (i !== j) {
      if (i > j) {
        swapRange(m - i, m, j);
        i -= j;
      } else {
        swapRange(m - i, m + j - i, i);
        j -= i;
      }
    }
    swapRange(m - i, m, i);
  };
  const symMerge = (a: number, m: number, b: number): void => {
    if (m - a === 1) {
      let i = m;
      let j = b;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (less(data[h]!, data[a]!)) i = h + 1;
        else j = h;
      }
      for (let k = a; k < i - 1; k++) [data[k], data[k + 1]] = [data[k + 1]!, data[k]!];
      return;
    }
    if (b - m === 1) {
      let i = a;
      let j = m;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (!less(data[m]!, data[h]!)) i = h + 1;
        else j = h;
      }
      for (let k = m; k > i; k--) [data[k], data[k - 1]] = [data[k - 1]!, data[k]!];
      return;
    }
    const mid = (a + b) >>> 1;
    const nn = mid + m;
    let start: number;
    let r: number;
    if (m > mid) {
      start = nn - b;
      r = mid;
    } else {
      start = a;
      r = m;
    }
    const p = nn - 1;
    while (start < r) {
      const c = (start + r) >>> 1;
      if (!less(data[p - c]!, data[c]!)) start = c + 1;
      else r = c;
    }
    const end = nn - start;
    if (start < m && m < end) rotate(start, m, end);
    if (a < start && start < mid) symMerge(a, start, mid);
    if (mid < end && end < b) symMerge(mid, end, b);
  };
  let blockSize = 20;
  let a = 0;
  let b = blockSize;
  while (b <= n) {
    insertionSort(a, b);
    a = b;
    b += blockSize;
  }
  insertionSort(a, n);
  while (blockSize < n) {
    a = 0;
    b = 2 * blockSize;
    while (b <= n) {
      symMerge(a, a + blockSize, b);
      a = b;
      b += 2 * blockSize;
    }
    const m = a + blockSize;
    if (m < n) symMerge(a, m, n);
    blockSize *= 2;
  }
}

function validateMergeKeyInLists(mergeKey: string, ...lists: (readonly unknown[])[]): void {
  if (mergeKey === '') return;
  for (const list of lists) {
    for (const item of list) {
      if (!isMapValue(item)) throw internal(`expected a map, but received a ${kindOf(item)}`);
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
    items = toSort.filter((v) => !(isMapValue(v) && v[directiveMarker] === 'delete'));
    toDelete = toSort.filter((v) => isMapValue(v) && v[directiveMarker] === 'delete');
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
    if (!isMapValue(v)) throw internal(`expected a map, but received a ${kindOf(v)}`);
    if (!(mergeKey in v)) throw errNoMergeKey(v, mergeKey);
    const found = by.some((x) => {
      if (!isMapValue(x)) throw internal(`value for key ${mergeKey} is not a map`);
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
        orig = orig.filter((x) => !(isMapValue(x) && mergeKey in x && x[mergeKey] === item[mergeKey]));
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
      if (!isMapValue(x)) throw internal('value for key is not a map');
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
    if (!isMapValue(v)) throw internal(`expected a map, but received a ${kindOf(v)}`);
    return v[directiveMarker] !== 'delete';
  });
  let p = 0;
  let s = 0;
  while (p < nonDelete.length && s < setOrder.length) {
    const item = nonDelete[p];
    if (isMapValue(item) && directiveMarker in item) {
      p++;
      continue;
    }
    let equal: boolean;
    if (mergeKey === '') equal = item === setOrder[s];
    else {
      const order = setOrder[s];
      if (!isMapValue(item) || !isMapValue(order)) throw internal('expected a map, but received a non-map');
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

/** The Status for a failed strategic merge: 400 BadRequest, a generic 422, or 500 `Internal error occurred: …`. */
export function strategicMergeErrorStatus(failure: Extract<StrategicMergeResult, { ok: false }>): StatusError {
  switch (failure.code) {
    case 400: return newBadRequest(failure.error);
    case 422: return newGenericServerResponse(422, failure.error);
    default: return newInternalError(failure.error);
  }
}

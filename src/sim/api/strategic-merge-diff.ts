// Computing strategic merge patches: the difference between two JSON objects as upstream's
// strategicpatch writes it. Changed and added fields are set, fields that went away are `null`; lists
// whose schema names a merge key are diffed element by element (changed elements carry their merge key,
// removed ones become `{"$patch": "delete", <key>}`) with `$setElementOrder/<list>` giving the new
// order; other lists are replaced whole. Used by `kubectl apply` (the three-way patch) and the kubelet's
// status updates (the two-way patch).
// Models k8s.io/apimachinery/pkg/util/strategicpatch/patch.go (CreateTwoWayMergePatch,
// CreateThreeWayMergePatch, diffMaps, diffLists). Merge keys come from a table of the fields Podflow
// serves (upstream reads them from the Go types' `patchMergeKey` tags).

import { isObject } from './json.ts';

export type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };
export type JSONMap = { [key: string]: JSONValue };

const isMap = (v: unknown): v is JSONMap => isObject(v);

/** The merge key of a list field (by its name and, for ports, the object kind), or null for atomic lists. */
export function mergeKeyOf(kind: string, field: string): string | null {
  switch (field) {
    case 'containers': case 'initContainers': case 'ephemeralContainers': case 'env': case 'volumes':
    case 'imagePullSecrets': return 'name';
    case 'readinessGates': return 'conditionType';
    case 'ports': return kind === 'Service' ? 'port' : 'containerPort';
    case 'volumeMounts': return 'mountPath';
    case 'volumeDevices': return 'devicePath';
    case 'ownerReferences': return 'uid';
    case 'hostAliases': case 'podIPs': case 'hostIPs': return 'ip';
    case 'conditions': return 'type';
    default: return null;
  }
}

/** Compact JSON with map keys sorted, as Go marshals a map. */
export function sortedJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJSON).join(',')}]`;
  if (isMap(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${sortedJSON(value[k])}`).join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

function equal(a: unknown, b: unknown): boolean {
  return sortedJSON(a) === sortedJSON(b);
}

/** Which half of a diff to compute (upstream's DiffOptions). */
export interface DiffMode {
  readonly ignoreDeletions: boolean;
  readonly ignoreChangesAndAdditions: boolean;
}

export function diffMaps(kind: string, from: JSONMap, to: JSONMap, mode: DiffMode): JSONMap {
  const patch: JSONMap = {};
  for (const [key, toValue] of Object.entries(to)) {
    if (!(key in from)) {
      if (!mode.ignoreChangesAndAdditions) patch[key] = toValue;
      continue;
    }
    const fromValue = from[key]!;
    if (equal(fromValue, toValue)) continue;
    if (isMap(fromValue) && isMap(toValue)) {
      const sub = diffMaps(kind, fromValue, toValue, mode);
      if (Object.keys(sub).length > 0) patch[key] = sub;
      continue;
    }
    const mergeKey = mergeKeyOf(kind, key);
    if (mergeKey !== null && Array.isArray(fromValue) && Array.isArray(toValue) && [...fromValue, ...toValue].every(isMap)) {
      const list = diffLists(kind, fromValue as JSONMap[], toValue as JSONMap[], mergeKey, mode);
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

function diffLists(kind: string, from: JSONMap[], to: JSONMap[], mergeKey: string, mode: DiffMode): JSONMap[] {
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
    const sub = diffMaps(kind, previous, element, mode);
    if (Object.keys(sub).length > 0) out.push({ ...sub, [mergeKey]: element[mergeKey] ?? null });
  }
  if (!mode.ignoreDeletions) {
    for (const element of from) if (!toKeys.has(keyOf(element))) out.push({ $patch: 'delete', [mergeKey]: element[mergeKey] ?? null });
  }
  return out;
}

/** Merges two patches: maps key by key, merged lists element by element (by merge key). */
function mergePatches(kind: string, a: JSONMap, b: JSONMap): JSONMap {
  const out: JSONMap = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const existing = out[key];
    const mk = key.startsWith('$') ? null : mergeKeyOf(kind, key);
    if (isMap(existing) && isMap(value)) {
      out[key] = mergePatches(kind, existing, value);
    } else if (Array.isArray(existing) && Array.isArray(value) && mk !== null) {
      const merged = [...(existing as JSONMap[])];
      for (const element of value as JSONMap[]) {
        const i = merged.findIndex((e) => equal(e[mk], element[mk]) && e.$patch === undefined && element.$patch === undefined);
        if (i >= 0) merged[i] = mergePatches(kind, merged[i]!, element);
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
  return diffMaps(kind, original, modified, { ignoreDeletions: false, ignoreChangesAndAdditions: false });
}

/**
 * CreateThreeWayMergePatch: the deletions from `original` (what was applied last; null if nothing) to
 * `modified`, with the changes and additions from `current` (the live object) to `modified`; fields the
 * server added to `current` are left alone.
 */
export function threeWayMergePatch(kind: string, original: JSONMap | null, modified: JSONMap, current: JSONMap): JSONMap {
  const delta = diffMaps(kind, current, modified, { ignoreDeletions: true, ignoreChangesAndAdditions: false });
  const deletions = diffMaps(kind, original ?? {}, modified, { ignoreDeletions: false, ignoreChangesAndAdditions: true });
  return mergePatches(kind, deletions, delta);
}

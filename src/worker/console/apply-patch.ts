// `kubectl apply` (client-side): the last-applied-configuration annotation and the three-way strategic
// merge patch kubectl sends. The patch is the union of
//   deletions: what the last applied configuration had and the new manifest drops (set to null, or a
//              `{"$patch":"delete", <mergeKey>}` entry in a merged list), and
//   delta:     what the new manifest sets differently from the live object (fields the server added,
//              such as defaults and status, are left alone),
// with `$setElementOrder/<list>` naming the manifest's order of every merged list the patch touches.
// Models k8s.io/apimachinery/pkg/util/strategicpatch/patch.go (CreateThreeWayMergePatch, diffMaps,
// diffLists with merge keys) and k8s.io/kubectl/pkg/util/apply.go (GetModifiedConfiguration).
// Merge keys come from a table of the fields Podflow serves (upstream reads them from the Go types'
// `patchMergeKey` tags); lists not in the table are replaced whole, as upstream does for atomic lists.

export const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };
type JSONMap = { [key: string]: JSONValue };

const isMap = (v: unknown): v is JSONMap => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The merge key of a list field (by its name and, for ports, the object kind), or null for atomic lists. */
export function mergeKeyOf(kind: string, field: string): string | null {
  switch (field) {
    case 'containers': case 'initContainers': case 'ephemeralContainers': case 'env': case 'volumes':
    case 'imagePullSecrets': case 'readinessGates': return field === 'readinessGates' ? 'conditionType' : 'name';
    case 'ports': return kind === 'Service' ? 'port' : 'containerPort';
    case 'volumeMounts': return 'mountPath';
    case 'volumeDevices': return 'devicePath';
    case 'ownerReferences': return 'uid';
    case 'hostAliases': return 'ip';
    default: return null;
  }
}

function sortedJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJSON).join(',')}]`;
  if (isMap(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${sortedJSON(value[k])}`).join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

function equal(a: unknown, b: unknown): boolean {
  return sortedJSON(a) === sortedJSON(b);
}

/**
 * The manifest as kubectl sends it on apply: namespace filled in and the annotation holding the
 * compact JSON (keys sorted, as Go marshals a map) of the manifest with `annotations` present.
 */
export function modifiedConfiguration(manifest: Record<string, unknown>, namespace: string | null): JSONMap {
  const copy = JSON.parse(JSON.stringify(manifest)) as JSONMap;
  const meta = (isMap(copy.metadata) ? copy.metadata : {});
  if (namespace !== null && meta.namespace === undefined) meta.namespace = namespace;
  const annotations = isMap(meta.annotations) ? meta.annotations : {};
  delete annotations[lastAppliedAnnotation];
  meta.annotations = annotations;
  copy.metadata = meta;
  const applied = `${sortedJSON(copy)}\n`;
  const modified = JSON.parse(JSON.stringify(copy)) as JSONMap;
  (modified.metadata as JSONMap).annotations = { ...annotations, [lastAppliedAnnotation]: applied };
  return modified;
}

interface DiffMode {
  readonly ignoreDeletions: boolean;
  readonly ignoreChangesAndAdditions: boolean;
}

function diffMaps(kind: string, from: JSONMap, to: JSONMap, mode: DiffMode): JSONMap {
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
    if (isMap(existing) && isMap(value)) {
      out[key] = mergePatches(kind, existing, value);
    } else if (Array.isArray(existing) && Array.isArray(value) && mergeKeyOf(kind, key) !== null && !key.startsWith('$')) {
      const mk = mergeKeyOf(kind, key)!;
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

/**
 * The patch `kubectl apply` sends: `original` is the live object's last-applied configuration (null
 * if it has none), `modified` the manifest with the new annotation, `current` the live object.
 */
export function threeWayMergePatch(kind: string, original: JSONMap | null, modified: JSONMap, current: JSONMap): JSONMap {
  const delta = diffMaps(kind, current, modified, { ignoreDeletions: true, ignoreChangesAndAdditions: false });
  const deletions = diffMaps(kind, original ?? {}, modified, { ignoreDeletions: false, ignoreChangesAndAdditions: true });
  return mergePatches(kind, deletions, delta);
}

/** The last-applied configuration stored on a live object, or null. */
export function lastApplied(current: JSONMap): JSONMap | null {
  const meta = current.metadata;
  const annotations = isMap(meta) ? meta.annotations : undefined;
  const text = isMap(annotations) ? annotations[lastAppliedAnnotation] : undefined;
  if (typeof text !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return isMap(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export type { JSONMap };

// `kubectl apply` (client-side): the last-applied-configuration annotation and the three-way strategic
// merge patch kubectl sends. The patch is the union of
//   deletions: what the last applied configuration had and the new manifest drops (set to null, or a
//              `{"$patch":"delete", <mergeKey>}` entry in a merged list), and
//   delta:     what the new manifest sets differently from the live object (fields the server added,
//              such as defaults and status, are left alone),
// with `$setElementOrder/<list>` naming the manifest's order of every merged list the patch touches
// (the diff itself is src/sim/api/strategic-merge-diff.ts).
// Models k8s.io/kubectl/pkg/util/apply.go (GetModifiedConfiguration) and kubectl apply's patcher.

import { sortedJSON, threeWayMergePatch, type JSONMap } from '../../sim/api/strategic-merge-diff.ts';

export const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

const isMap = (v: unknown): v is JSONMap => typeof v === 'object' && v !== null && !Array.isArray(v);

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

export { threeWayMergePatch, type JSONMap };

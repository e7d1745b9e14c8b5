// The kubelet's pod status update: the status it computed is merged with the pod's status as the
// apiserver has it (conditions other components own, such as DisruptionTarget, are kept), and the
// difference is sent as a two-way strategic merge patch of `{metadata: {uid}, status}`: changed fields,
// `null` for fields that went away (a Ready condition that turns True loses its reason and message),
// conditions and pod IPs merged by their keys with `$setElementOrder`, container statuses replaced whole.
// No request at all when nothing changed.
// Models pkg/kubelet/status/status_manager.go (mergePodStatus) and pkg/util/pod/pod.go PatchPodStatus
// with k8s.io/apimachinery/pkg/util/strategicpatch CreateTwoWayMergePatch (diffMaps, diffLists).

import type { PodCondition, PodStatus } from '../api/types/core.ts';

type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };
type JSONMap = { [key: string]: JSONValue };

/** The conditions the kubelet owns (kubetypes.PodConditionsByKubelet); it keeps the others as they are. */
const kubeletConditions: ReadonlySet<string> = new Set(['PodScheduled', 'Ready', 'Initialized', 'ContainersReady']);

/** PodStatus lists merged by key (patchMergeKey with patchStrategy merge); other lists are atomic. */
const statusMergeKeys: Readonly<Record<string, string>> = { conditions: 'type', podIPs: 'ip', hostIPs: 'ip' };

/** mergePodStatus: the old status's conditions not owned by the kubelet, then the kubelet's own. */
export function mergePodStatus(old: PodStatus | undefined, computed: PodStatus): PodStatus {
  const kept: PodCondition[] = (old?.conditions ?? []).filter((c) => !kubeletConditions.has(c.type));
  const own = (computed.conditions ?? []).filter((c) => kubeletConditions.has(c.type));
  return { ...computed, conditions: [...kept, ...own] };
}

const isMap = (v: unknown): v is JSONMap => typeof v === 'object' && v !== null && !Array.isArray(v);

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isMap(value)) return `{${Object.keys(value).sort().filter((k) => value[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** Plain JSON of a value (drops undefined fields, as encoding does). */
function json(value: unknown): JSONValue {
  return JSON.parse(JSON.stringify(value ?? null)) as JSONValue;
}

function diffMaps(from: JSONMap, to: JSONMap, mergeKeys: Readonly<Record<string, string>>): JSONMap {
  const patch: JSONMap = {};
  for (const [key, toValue] of Object.entries(to)) {
    if (!(key in from)) {
      patch[key] = toValue;
      continue;
    }
    const fromValue = from[key]!;
    if (canonical(fromValue) === canonical(toValue)) continue;
    if (isMap(fromValue) && isMap(toValue)) {
      const sub = diffMaps(fromValue, toValue, {});
      if (Object.keys(sub).length > 0) patch[key] = sub;
      continue;
    }
    const mergeKey = mergeKeys[key];
    if (mergeKey !== undefined && Array.isArray(fromValue) && Array.isArray(toValue) && [...fromValue, ...toValue].every(isMap)) {
      const list = diffLists(fromValue as JSONMap[], toValue as JSONMap[], mergeKey);
      if (list.length > 0) {
        patch[key] = list;
        patch[`$setElementOrder/${key}`] = (toValue as JSONMap[]).map((e) => ({ [mergeKey]: e[mergeKey] ?? null }));
      }
      continue;
    }
    patch[key] = toValue;
  }
  for (const key of Object.keys(from)) if (!(key in to)) patch[key] = null;
  return patch;
}

function diffLists(from: JSONMap[], to: JSONMap[], mergeKey: string): JSONMap[] {
  const out: JSONMap[] = [];
  const keyOf = (e: JSONMap) => canonical(e[mergeKey] ?? null);
  const before = new Map(from.map((e) => [keyOf(e), e]));
  const after = new Set(to.map(keyOf));
  for (const element of to) {
    const previous = before.get(keyOf(element));
    if (previous === undefined) {
      out.push(element);
      continue;
    }
    const sub = diffMaps(previous, element, {});
    if (Object.keys(sub).length > 0) out.push({ ...sub, [mergeKey]: element[mergeKey] ?? null });
  }
  for (const element of from) if (!after.has(keyOf(element))) out.push({ $patch: 'delete', [mergeKey]: element[mergeKey] ?? null });
  return out;
}

/** Keys in Go's encoding order (a map marshals with sorted keys). */
function sortedKeys(value: JSONValue): JSONValue {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (isMap(value)) return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortedKeys(value[k]!)]));
  return value;
}

/**
 * The patch PatchPodStatus sends to move the pod's status from `old` to `updated`, or null when they
 * are equal (PatchPodStatus then sends nothing).
 */
export function podStatusPatch(uid: string, old: PodStatus | undefined, updated: PodStatus): JSONMap | null {
  const status = diffMaps((json(old ?? {}) ?? {}) as JSONMap, json(updated) as JSONMap, statusMergeKeys);
  if (Object.keys(status).length === 0) return null;
  return sortedKeys({ metadata: { uid }, status }) as JSONMap;
}

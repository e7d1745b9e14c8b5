// The kubelet's pod status update: the status it computed is merged with the pod's status as the
// apiserver has it (conditions other components own, such as DisruptionTarget, are kept), and the
// difference is sent as a two-way strategic merge patch of `{metadata: {uid}, status}`: changed fields,
// `null` for fields that went away (a Ready condition that turns True loses its reason and message),
// conditions and pod IPs merged by their keys with `$setElementOrder`, container statuses replaced whole.
// No request at all when nothing changed.
// Models pkg/kubelet/status/status_manager.go (mergePodStatus) and pkg/util/pod/pod.go PatchPodStatus
// (the diff is api/strategic-merge-diff.ts, upstream's CreateTwoWayMergePatch).

import { copyJson } from '../api/json-copy.ts';
import { twoWayMergePatch, type JSONMap, type JSONValue } from '../api/strategic-merge-diff.ts';
import type { PodCondition, PodStatus } from '../api/types/core.ts';

/** The conditions the kubelet owns (kubetypes.PodConditionsByKubelet); it keeps the others as they are. */
const kubeletConditions: ReadonlySet<string> = new Set(['PodScheduled', 'Ready', 'Initialized', 'ContainersReady']);

/** mergePodStatus: the old status's conditions not owned by the kubelet, then the kubelet's own. */
export function mergePodStatus(old: PodStatus | undefined, computed: PodStatus): PodStatus {
  const kept: PodCondition[] = (old?.conditions ?? []).filter((c) => !kubeletConditions.has(c.type));
  const own = (computed.conditions ?? []).filter((c) => kubeletConditions.has(c.type));
  return { ...computed, conditions: [...kept, ...own] };
}

const isMap = (v: JSONValue): v is JSONMap => typeof v === 'object' && v !== null && !Array.isArray(v);

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
  const { status } = twoWayMergePatch('Pod', { status: copyJson(old ?? {}) as JSONMap }, { status: copyJson(updated) as JSONMap });
  if (status === undefined) return null;
  return sortedKeys({ metadata: { uid }, status }) as JSONMap;
}

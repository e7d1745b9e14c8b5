// The pods the graph draws on their nodes, derived from the keyspace events the worker already sends:
// a `keyspaceDiff`'s changes under /registry/pods/ become a `pods` diff, a current `keyspaceSnapshot` (a
// new cluster, a seek into the past, a restore) a `pods` replacement. So the chips show exactly what
// etcd held at the step shown, through the same MVCC history as the keyspace panel. Each pod is decoded
// as the apiserver decodes it and its STATUS is the server's Table printer's, as the objects panel prints it.

import type { KeyChange, KeyEntry, KeyspaceDiffEvent, KeyspaceSnapshotEvent, PodChip, PodsEvent, WorkerEvent } from '../protocol/index.ts';
import { tableColumns, tableRowCells } from '../sim/api/printers.ts';
import { servedResources } from '../sim/api/resources.ts';
import type { Pod } from '../sim/api/types/core.ts';
import { decodeObject } from '../sim/apiserver/storage/codec.ts';

const podPrefix = '/registry/pods/';
const podsResource = servedResources.find((r) => r.group === '' && r.resource === 'pods')!;
const statusColumn = tableColumns(podsResource).findIndex((c) => c.name === 'Status');

/** The chip of the pod stored at `entry` (null if the value is not a pod). */
export function podChip(entry: Pick<KeyEntry, 'key' | 'value' | 'modRevision' | 'createRevision'>): PodChip | null {
  let pod: Pod;
  try {
    pod = decodeObject(entry.value, entry.modRevision) as Pod;
  } catch {
    return null;
  }
  if (pod.kind !== undefined && pod.kind !== 'Pod') return null;
  const ready = pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
  // The STATUS column does not depend on the clock (only AGE does).
  const status = String(tableRowCells(podsResource, pod, 0).cells[statusColumn] ?? pod.status?.phase ?? 'Pending');
  return {
    key: entry.key,
    namespace: pod.metadata.namespace ?? 'default',
    name: pod.metadata.name ?? '',
    node: pod.spec?.nodeName ? pod.spec.nodeName : null,
    phase: pod.status?.phase ?? 'Pending',
    status,
    ready,
    deleting: pod.metadata.deletionTimestamp !== undefined,
    createRevision: entry.createRevision,
  };
}

/** The `pods` diff of a keyspace diff; null when it touches no pod. */
export function podsOfDiff(diff: Pick<KeyspaceDiffEvent, 'changes'>): PodsEvent | null {
  const latest = new Map<string, KeyChange>();
  for (const change of diff.changes) if (change.key.startsWith(podPrefix)) latest.set(change.key, change);
  if (latest.size === 0) return null;
  const upserted: PodChip[] = [];
  const removed: string[] = [];
  for (const change of latest.values()) {
    const chip = change.deleted ? null : podChip(change);
    if (chip) upserted.push(chip);
    else removed.push(change.key);
  }
  return { type: 'pods', replace: false, upserted, removed };
}

/** Every pod of a keyspace snapshot, replacing what the UI holds. */
export function podsOfSnapshot(snapshot: Pick<KeyspaceSnapshotEvent, 'entries'>): PodsEvent {
  const upserted: PodChip[] = [];
  for (const entry of snapshot.entries) {
    if (!entry.key.startsWith(podPrefix)) continue;
    const chip = podChip(entry);
    if (chip) upserted.push(chip);
  }
  return { type: 'pods', replace: true, upserted, removed: [] };
}

/**
 * Wraps the worker's `post` so every keyspace change the UI gets is followed by the pods it implies:
 * a diff by a `pods` diff, a current snapshot by a `pods` replacement (a snapshot answering a revision
 * picked in the keyspace panel is not the step shown, and changes no chip).
 */
export function withPods(post: (event: WorkerEvent) => void): (event: WorkerEvent) => void {
  return (event) => {
    post(event);
    if (event.type === 'keyspaceDiff') {
      const pods = podsOfDiff(event);
      if (pods) post(pods);
    } else if (event.type === 'keyspaceSnapshot' && event.current) {
      post(podsOfSnapshot(event));
    }
  };
}

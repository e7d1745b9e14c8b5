// The pods the graph draws on their nodes, derived from the keyspace events the worker already sends:
// a `keyspaceDiff`'s changes under /registry/pods/ become a `pods` diff, a current `keyspaceSnapshot` (a
// new cluster, a seek into the past) a `pods` replacement read from the keyspace tracker (a snapshot
// ships no values; a restore's saved view posts its own, `podsOfSnapshot`). So the chips show exactly what
// etcd held at the step shown, through the same MVCC history as the keyspace panel. Each pod is decoded
// as the apiserver decodes it and its STATUS is the server's Table printer's, as the objects panel prints it.
// The keyspace tracker's `PodHistory` (pod-history.ts) keeps the pod versions written since the keyspace
// was mirrored, so a snapshot's or a move's pods come from it, and a revision etcd has compacted still
// shows its pods.

import { keysUnder, type KeyChange, type KeyEntry, type KeyspaceDiffEvent, type KeyspaceMoveEvent, type PodChip, type PodsEvent, type WorkerEvent } from '../protocol/index.ts';
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

/** The `pods` diff of a keyspace diff (each version's chip from `chipOf`); null when it touches no pod. */
export function podsOfDiff(diff: Pick<KeyspaceDiffEvent, 'changes'>, chipOf: (entry: KeyEntry) => PodChip | null = podChip): PodsEvent | null {
  const latest = new Map<string, KeyChange>();
  for (const change of diff.changes) if (change.key.startsWith(podPrefix)) latest.set(change.key, change);
  if (latest.size === 0) return null;
  const upserted: PodChip[] = [];
  const removed: string[] = [];
  for (const change of latest.values()) {
    const chip = change.deleted ? null : chipOf(change);
    if (chip) upserted.push(chip);
    else removed.push(change.key);
  }
  return { type: 'pods', replace: false, upserted, removed };
}

/** Every pod of a keyspace with values (a saved one), replacing what the UI holds. */
export function podsOfSnapshot(snapshot: { readonly entries: readonly KeyEntry[] }): PodsEvent {
  const upserted: PodChip[] = [];
  for (const entry of snapshot.entries) {
    if (!entry.key.startsWith(podPrefix)) continue;
    const chip = podChip(entry);
    if (chip) upserted.push(chip);
  }
  return { type: 'pods', replace: true, upserted, removed: [] };
}

/**
 * Where a current snapshot's pods come from: the keyspace tracker of the cluster the snapshot is of, whose
 * pod history also gives a diff's chips (each version decoded once, however often a seek ships it again).
 */
export interface PodSource {
  podsAt(revision: number): PodChip[];
  /** The oldest revision whose pods are known, when `revision` is older (its pods unknown); else null. */
  podsKeptFrom(revision: number): number | null;
  /** The chip of the pod `key` at `revision`; null when there is none then. */
  chipAt(key: string, revision: number): PodChip | null;
  /** The chip of the version a diff carries, decoded once for all the diffs and moves that show it. */
  chipOfVersion(entry: KeyEntry): PodChip | null;
}

/** The `pods` diff of a keyspace move: each pod key it names as it is at the move's revision. */
export function podsOfMove(
  move: Pick<KeyspaceMoveEvent, 'revision' | 'removed' | 'set'>,
  source: Pick<PodSource, 'chipAt'>,
): PodsEvent | null {
  const upserted: PodChip[] = [];
  const removed: string[] = [];
  for (const key of keysUnder(move.set, podPrefix)) {
    const chip = source.chipAt(key, move.revision);
    if (chip) upserted.push(chip);
    else removed.push(key);
  }
  for (const key of move.removed) if (key.startsWith(podPrefix)) removed.push(key);
  return upserted.length + removed.length === 0 ? null : { type: 'pods', replace: false, upserted, removed };
}

/**
 * Wraps the worker's `post` so every keyspace change the UI gets is followed by the pods it implies:
 * a diff or a move by a `pods` diff, a current snapshot by a `pods` replacement from `source` (a snapshot
 * answering a revision picked in the keyspace panel is not the step shown, and changes no chip). With no
 * source (a saved view shown before its cluster is live) the sender posts the pods itself.
 */
export function withPods(post: (event: WorkerEvent) => void, source: () => PodSource | null): (event: WorkerEvent) => void {
  return (event) => {
    post(event);
    if (event.type === 'keyspaceDiff') {
      const into = source();
      const pods = podsOfDiff(event, into ? (entry) => into.chipOfVersion(entry) : undefined);
      if (pods) post(pods);
    } else if (event.type === 'keyspaceMove') {
      const into = source();
      const pods = into && podsOfMove(event, into);
      if (pods) post(pods);
    } else if (event.type === 'keyspaceSnapshot' && event.current) {
      const into = source();
      if (!into) return;
      const upserted = into.podsAt(event.revision);
      const keptFrom = into.podsKeptFrom(event.revision);
      post({ type: 'pods', replace: true, upserted, removed: [], ...(keptFrom === null ? {} : { keptFrom }) });
    }
  };
}

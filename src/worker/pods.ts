// The pods the graph draws on their nodes, derived from the keyspace events the worker already sends:
// a `keyspaceDiff`'s changes under /registry/pods/ become a `pods` diff, a current `keyspaceSnapshot` (a
// new cluster, a seek into the past) a `pods` replacement read from the keyspace tracker (a snapshot
// ships no values; a restore's saved view posts its own, `podsOfSnapshot`). So the chips show exactly what
// etcd held at the step shown, through the same MVCC history as the keyspace panel. Each pod is decoded
// as the apiserver decodes it and its STATUS is the server's Table printer's, as the objects panel prints it.
// A `PodHistory` keeps the pod versions written since the keyspace was mirrored, so a snapshot's or a move's
// pods come from it, each version decoded once, and a revision etcd has compacted still shows its pods: the
// versions the trace still retains with their values, older ones as their chips only (decoded when they age
// out), up to `agedVersionLimit` of those (past it the oldest half are forgotten, and a replacement of pods
// it no longer knows says so: `keptFrom`).

import { keysOfColumns, type KeyChange, type KeyEntry, type KeyspaceDiffEvent, type KeyspaceMoveEvent, type PodChip, type PodsEvent, type WorkerEvent } from '../protocol/index.ts';
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

/** The `pods` diff of a keyspace diff; null when it touches no pod. `decoded` is told each version's chip made. */
export function podsOfDiff(diff: Pick<KeyspaceDiffEvent, 'changes'>, decoded?: PodSource['decoded']): PodsEvent | null {
  const latest = new Map<string, KeyChange>();
  for (const change of diff.changes) if (change.key.startsWith(podPrefix)) latest.set(change.key, change);
  if (latest.size === 0) return null;
  const upserted: PodChip[] = [];
  const removed: string[] = [];
  for (const change of latest.values()) {
    const chip = change.deleted ? null : podChip(change);
    if (!change.deleted) decoded?.(change.key, change.modRevision, chip);
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
 * One version of a pod's key: its value (null: deleted, or dropped once the chip is known) and, once asked
 * for or aged out, its chip.
 */
interface PodVersion {
  readonly revision: number;
  readonly createRevision: number;
  value: string | null;
  chip?: PodChip | null;
}

/** Versions between prunes (a prune turns those no retained revision reads into chips). */
export const podPruneEvery = 4096;

/**
 * Versions older than the retained steps kept at most (each a chip, ~250 B): past it a prune forgets the
 * oldest half of them, and the history answers from a later revision on (`from`). A seek before that shows
 * the pods etcd still holds then, or none where it has compacted them (the page says so: PodsEvent.keptFrom).
 */
export const agedVersionLimit = 60_000;

export class PodHistory {
  /** Per pod key its versions in revision order. */
  private readonly versions = new Map<string, PodVersion[]>();
  private added = 0;
  /** Versions before the one in place at this revision keep their chips only. */
  private retainedFrom: number;
  /** The oldest revision answered: what etcd held at it is noted first, or where forgetting left it. */
  private oldest: number;

  /**
   * `from`: the oldest revision answered (what etcd held at it is noted first). `limit`: agedVersionLimit;
   * `pruneEvery`: versions noted between prunes (both smaller in tests: host/bounds.ts).
   */
  constructor(from: number, private readonly limit = agedVersionLimit, private readonly pruneEvery = podPruneEvery) {
    this.oldest = from;
    this.retainedFrom = from;
  }

  /** The oldest revision whose pods the history answers. */
  get from(): number {
    return this.oldest;
  }

  /** Notes a write (of any key: other keys are ignored); writes come in revision order. */
  note(change: KeyChange): void {
    if (!change.key.startsWith(podPrefix)) return;
    let list = this.versions.get(change.key);
    if (!list) this.versions.set(change.key, (list = []));
    list.push(change.deleted
      ? { revision: change.modRevision, createRevision: 0, value: null }
      : { revision: change.modRevision, createRevision: change.createRevision, value: change.value });
    this.added++;
  }

  /** Keeps a chip decoded elsewhere (for a diff) as the chip of the version of `key` written at `revision`. */
  remember(key: string, revision: number, chip: PodChip | null): void {
    const list = this.versions.get(key);
    const version = list && versionAt(list, revision);
    if (version?.revision === revision && version.chip === undefined) version.chip = chip;
  }

  /** The pods at `revision`; null below the oldest revision kept. */
  at(revision: number): PodChip[] | null {
    if (revision < this.oldest) return null;
    const chips: PodChip[] = [];
    for (const [key, list] of this.versions) {
      const version = versionAt(list, revision);
      const chip = version && chipOf(key, version);
      if (chip) chips.push(chip);
    }
    // In key order, as a snapshot's entries are.
    return chips.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /**
   * The chip of `key` at `revision` (null: no pod then, or not a pod); undefined below the oldest revision
   * kept, where the history cannot say.
   */
  chipAt(key: string, revision: number): PodChip | null | undefined {
    if (revision < this.oldest) return undefined;
    const list = this.versions.get(key);
    const version = list && versionAt(list, revision);
    return version ? chipOf(key, version) : null;
  }

  /**
   * Keeps only the chip of each version no revision from `revision` on reads (each key keeps its version
   * in place at it whole), now and then: after `podPruneEvery` notes since the last prune. A chip is what an
   * older revision's pods need; the value is what etcd may have compacted and the trace no longer shows.
   */
  prune(revision: number): void {
    if (this.added < this.pruneEvery || revision <= this.retainedFrom) return;
    this.added = 0;
    this.retainedFrom = revision;
    let aged = 0;
    for (const [key, list] of this.versions) {
      let i = 0;
      for (; i + 1 < list.length && list[i + 1]!.revision <= revision; i++) {
        const version = list[i]!;
        if (version.value === null) continue;
        version.chip = chipOf(key, version);
        version.value = null;
      }
      aged += i;
    }
    if (aged > this.limit) this.forget(aged);
  }

  /**
   * Forgets the oldest half of the `aged` versions (those before each key's version in place at the
   * retained steps): the history then answers from the revision that splits them, each key keeping its
   * version in place there, and a pod deleted by then not at all.
   */
  private forget(aged: number): void {
    const revisions: number[] = [];
    for (const list of this.versions.values()) {
      for (let i = 0; i + 1 < list.length && list[i + 1]!.revision <= this.retainedFrom; i++) revisions.push(list[i]!.revision);
    }
    revisions.sort((a, b) => a - b);
    const from = revisions[Math.floor(aged / 2)] ?? this.oldest;
    if (from <= this.oldest) return;
    this.oldest = from;
    for (const [key, list] of this.versions) {
      // The version in place at `from` (the last at or before it) stays; older ones go.
      let first = 0;
      while (first + 1 < list.length && list[first + 1]!.revision <= from) first++;
      if (first > 0) list.splice(0, first);
      const only = list[0]!;
      if (list.length === 1 && only.createRevision === 0 && only.revision <= from) this.versions.delete(key);
    }
  }
}

/** The version of a key in place at `revision` (binary search), or undefined before its first. */
function versionAt(list: readonly PodVersion[], revision: number): PodVersion | undefined {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.revision <= revision) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? undefined : list[lo - 1];
}

function chipOf(key: string, version: PodVersion): PodChip | null {
  if (version.chip !== undefined) return version.chip;
  if (version.value === null) return null;
  version.chip = podChip({ key, value: version.value, modRevision: version.revision, createRevision: version.createRevision });
  return version.chip;
}

/**
 * Where a current snapshot's pods come from: the keyspace tracker of the cluster the snapshot is of, which
 * also keeps the chips decoded for diffs (so a later snapshot does not decode those versions again).
 */
export interface PodSource {
  podsAt(revision: number): PodChip[];
  /** The oldest revision whose pods are known, when `revision` is older (its pods unknown); else null. */
  podsKeptFrom(revision: number): number | null;
  /** The chip of the pod `key` at `revision`; null when there is none then. */
  chipAt(key: string, revision: number): PodChip | null;
  decoded(key: string, modRevision: number, chip: PodChip | null): void;
}

/** The `pods` diff of a keyspace move: each pod key it names as it is at the move's revision. */
export function podsOfMove(
  move: Pick<KeyspaceMoveEvent, 'revision' | 'removed' | 'set'>,
  source: Pick<PodSource, 'chipAt'>,
): PodsEvent | null {
  const upserted: PodChip[] = [];
  const removed: string[] = [];
  for (const key of keysOfColumns(move.set)) {
    if (!key.startsWith(podPrefix)) continue;
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
      const pods = podsOfDiff(event, into ? (key, modRevision, chip) => into.decoded(key, modRevision, chip) : undefined);
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

// The etcd keyspace as the UI mirrors it. The worker reads its etcd member's MVCC store directly and
// ships what changed as batched diffs (at most one `keyspaceDiff` per command, play tick or run chunk),
// and answers `keyspaceAt` with a whole snapshot at a past revision (what etcd's own MVCC history
// still holds: nothing below the compacted revision).

/** One key as etcd stores it (mvccpb.KeyValue; the value is the stored string, JSON in this model). */
export interface KeyEntry {
  readonly key: string;
  readonly createRevision: number;
  readonly modRevision: number;
  readonly version: number;
  /** Decimal lease ID; '0' for none. */
  readonly lease: string;
  readonly value: string;
}

/** A change to one key: its new state, or its deletion at `modRevision`. */
export type KeyChange =
  | (KeyEntry & { readonly deleted: false; readonly step: number })
  | { readonly key: string; readonly modRevision: number; readonly deleted: true; readonly step: number };

export interface KeyspaceDiffEvent {
  readonly type: 'keyspaceDiff';
  /** The store revision after these changes. */
  readonly revision: number;
  /** Changes in revision order; `step` is the delivery that made each one. */
  readonly changes: readonly KeyChange[];
  /** etcd's compacted revision (-1 before the first compaction): older revisions are unavailable. */
  readonly compactRevision: number;
}

/**
 * Every live key at `revision`, sorted by key. `current` snapshots (after `ready`) replace the mirror;
 * the others answer `keyspaceAt`. A compacted revision comes back `compacted` with no keys.
 */
export interface KeyspaceSnapshotEvent {
  readonly type: 'keyspaceSnapshot';
  readonly revision: number;
  readonly current: boolean;
  readonly compacted: boolean;
  readonly compactRevision: number;
  readonly entries: readonly KeyEntry[];
}

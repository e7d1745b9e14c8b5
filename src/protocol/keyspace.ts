// The etcd keyspace as the UI mirrors it. The worker reads its etcd member's MVCC store directly and
// ships what changed as batched diffs (at most one `keyspaceDiff` per command, play tick or run chunk),
// and answers `keyspaceAt` with a whole snapshot at a past revision (what etcd's own MVCC history
// still holds: nothing below the compacted revision). Diffs carry the values they wrote; a snapshot
// carries every key without its value (its size only): the page asks for the value of a key it shows
// (`describeValue` with no value), so a seek costs the keys, not the bytes they hold.

import type { KeyMetaColumns } from './key-columns.ts';

/**
 * One key as etcd stores it (mvccpb.KeyValue). Key and value are byte strings: one char per byte (0–255),
 * so a value's size is its `.length`; values are Kubernetes protobuf (`k8s\0…`) or JSON's UTF-8 bytes.
 */
export interface KeyEntry {
  readonly key: string;
  readonly createRevision: number;
  readonly modRevision: number;
  readonly version: number;
  /** Decimal lease ID; '0' for none. */
  readonly lease: string;
  readonly value: string;
}

/** One key without its value, as a snapshot ships it. */
export interface KeyMeta {
  readonly key: string;
  readonly createRevision: number;
  readonly modRevision: number;
  readonly version: number;
  /** Decimal lease ID; '0' for none. */
  readonly lease: string;
  /** The value's size in bytes. */
  readonly size: number;
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
 * The page's mirror moved to `revision` from a revision far from it (a seek, a long Step back): every key
 * written between the two, as it is at `revision` — without its value and its previous version, as a
 * snapshot gives it — or gone then. Keys nobody wrote between them stay as the page holds them, so a seek
 * ships what changed, not the whole keyspace.
 */
export interface KeyspaceMoveEvent {
  readonly type: 'keyspaceMove';
  /** The store revision the mirror shows after the move. */
  readonly revision: number;
  readonly compactRevision: number;
  /** Keys present at `revision`, sorted by key, with the delivery that wrote each one's version: in columns (key-columns.ts). */
  readonly set: KeyMetaColumns;
  /** Keys absent at `revision`, sorted. */
  readonly removed: readonly string[];
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
  /** The keys in columns (key-columns.ts; no steps). */
  readonly entries: KeyMetaColumns;
}

/**
 * Asks the worker to describe the version of `key` written at `modRevision` (answered by a
 * `valueDescription`). A value the page does not hold (it came with a snapshot) is read from etcd's MVCC
 * history; one superseded before the compacted revision is gone (answered by an `error`, or for the
 * previous version by no change shown).
 */
export interface DescribeValueCommand {
  readonly type: 'describeValue';
  readonly key: string;
  readonly modRevision: number;
  /** The value, a byte string, when the page holds it; null: read it. */
  readonly value: string | null;
  /** The previous version (for the change): its value when held, else its mod revision; null: none. */
  readonly previous: { readonly value: string } | { readonly modRevision: number } | null;
}

/** One field of a protobuf value as `auger`-like views show it: its path, number, wire type, byte offset and size. */
export interface ValueField {
  readonly path: string;
  readonly number: number;
  readonly name: string;
  readonly wireType: number;
  readonly offset: number;
  /** Bytes the field takes, tag and length prefix included. */
  readonly size: number;
  readonly value?: string | number | boolean;
  readonly children?: readonly ValueField[];
}

/** A stored value three ways: as `etcdctl get` prints it, as `-w json` prints it (base64), and decoded. */
export interface ValueDescriptionEvent {
  readonly type: 'valueDescription';
  readonly key: string;
  readonly modRevision: number;
  /** What the bytes are: Kubernetes protobuf, JSON, or other bytes (e.g. an etcdctl put). */
  readonly mediaType: 'protobuf' | 'json' | 'bytes';
  /** Bytes. */
  readonly size: number;
  /** As a terminal shows etcdctl's simple output: text as is, other bytes as `\xNN`. */
  readonly printed: string;
  readonly base64: string;
  /** The decoded object as JSON (pretty); null when not an object. */
  readonly json: string | null;
  /** What the change from the previous version compares: the decoded JSON, or the printed bytes of other values; null without a previous version. */
  readonly previousText: string | null;
  readonly text: string;
  /** The protobuf field tree, with each field's byte size; null for other media types. */
  readonly fields: readonly ValueField[] | null;
  /** Why the value could not be decoded, if it could not. */
  readonly error: string | null;
}

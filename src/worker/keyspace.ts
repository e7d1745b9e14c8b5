// Mirrors the hosted etcd member's keyspace for the UI. After each delivery the tracker compares the
// store's revision with the last one it saw and, if writes happened, reads the committed changes of the
// new revisions from the backend (tagged with the delivering step); `flush` ships them as one
// `keyspaceDiff`. Past revisions are answered from etcd's own MVCC history with a Range at that
// revision, so nothing is copied here; below the compacted revision the answer is "compacted". Moving the
// page's mirror from one revision to another ships the keys written between them (`move`: a diff, or for
// a long jump a `keyspaceMove` of their metas), so its cost follows what changed; a snapshot serves only a
// compacted revision. A snapshot or a jump ships keys without values (the page asks for one it shows:
// `describeValue`, `valueAt`).

import {
  KeyMetaColumnsBuilder, packKeyMetas,
  type DescribeValueCommand, type KeyChange, type KeyEntry, type KeyMeta, type KeyspaceDiffEvent, type KeyspaceMoveEvent, type KeyspaceSnapshotEvent, type PodChip,
  type ValueDescriptionEvent, type ValueField,
} from '../protocol/index.ts';
import { describeProtobuf, type ProtoField } from '../sim/api/protobuf/index.ts';
import { decodeStored, isProtobufValue } from '../sim/apiserver/storage/codec.ts';
import { base64Encode, byteStringToBytes, terminalText, type KeyValue, type RangeRequest, type RangeResponse } from '../sim/etcd/index.ts';
import { PodHistory } from './pod-history.ts';
import { podChip } from './pods.ts';

/** What the tracker reads of an etcd member (`EtcdServer` is one). */
export interface KeyspaceSource {
  readonly store: {
    readonly currentRev: number;
    readonly compactMainRev: number;
    readonly backend: { rangeRevisions(minMain: number, maxMain: number, f: (kv: KeyValue) => void, wants?: (key: string) => boolean): void };
    /** Keys at a revision without their values, one at a time in key order (KVStore.forEachMeta). */
    forEachMeta(key: string, end: string | undefined, rev: number, f: (meta: KeyMeta) => void): void;
  };
  readonly kv: { range(request: RangeRequest): RangeResponse };
}

const podPrefix = '/registry/pods/';
/** The end of the range of keys under `prefix` (etcd's prefix range: the last byte plus one). */
export const prefixEnd = (prefix: string) => prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
/** Every key: etcd's `key = range_end = "\0"`. */
const everyKey: RangeRequest = { key: '\0', rangeEnd: '\0' };
/**
 * A move spans at most this many revisions as a diff, as steps ship it (values, and the previous version of
 * each key the last step wrote). Past that a jump costs less: it reads the keys written between, without
 * their values, where a diff rebuilds every version's value from its delta and ships it. (It was a quarter of
 * the live keys when that was more, from when a long move was a snapshot: at 10,000 Pods on 500 nodes a
 * seek across a minute of lease renewals was then a diff of ~10,000 values, 1.6 MiB.)
 */
const maxDiffRevisions = 256;

export class KeyspaceTracker {
  private seenRevision: number;
  private sentCompactRevision: number;
  private changes: KeyChange[] = [];
  /** Live keys at `seenRevision`, followed through each write as etcd's keys_total is. */
  private liveKeys: number;
  /** Every pod version from the oldest revision etcd held when mirroring began (the stage prunes it). */
  readonly pods: PodHistory;

  /** `pods`: the pod history's bounds (aged versions kept, versions between prunes; PodHistory's defaults without). */
  constructor(private readonly source: KeyspaceSource, pods: { readonly agedPodVersions?: number; readonly podPruneEvery?: number } = {}) {
    const { store, kv } = source;
    this.seenRevision = store.currentRev;
    this.sentCompactRevision = store.compactMainRev;
    this.liveKeys = this.countKeys();
    const oldest = Math.max(1, store.compactMainRev);
    this.pods = new PodHistory(oldest, pods.agedPodVersions, pods.podPruneEvery);
    for (const held of kv.range({ key: podPrefix, rangeEnd: prefixEnd(podPrefix), revision: oldest }).kvs) this.pods.note(toChange(held, 0));
    store.backend.rangeRevisions(oldest + 1, this.seenRevision + 1, (written) => this.pods.note(toChange(written, 0)));
  }

  /** Records the changes committed since the last call, as made by `step`. */
  observe(step: number): void {
    const { store } = this.source;
    const revision = store.currentRev;
    if (revision === this.seenRevision) return;
    store.backend.rangeRevisions(this.seenRevision + 1, revision + 1, (kv) => {
      // A tombstone removes a key; version 1 creates one.
      if (kv.createRevision === 0) this.liveKeys--;
      else if (kv.version === 1) this.liveKeys++;
      const change = toChange(kv, step);
      this.pods.note(change);
      this.changes.push(change);
    });
    this.seenRevision = revision;
  }

  /** etcd's compacted revision now (-1 before the first compaction). */
  get compactRevision(): number {
    return this.source.store.compactMainRev;
  }

  /** The changes since the last flush (null when nothing changed, compaction included). */
  flush(): KeyspaceDiffEvent | null {
    const compactRevision = this.source.store.compactMainRev;
    if (this.changes.length === 0 && compactRevision === this.sentCompactRevision) return null;
    const event: KeyspaceDiffEvent = { type: 'keyspaceDiff', revision: this.seenRevision, changes: this.changes, compactRevision };
    this.changes = [];
    this.sentCompactRevision = compactRevision;
    return event;
  }

  /** The whole keyspace now (resets the diff stream: pending changes are included in it). */
  current(): KeyspaceSnapshotEvent {
    this.changes = [];
    this.seenRevision = this.source.store.currentRev;
    this.sentCompactRevision = this.source.store.compactMainRev;
    this.liveKeys = this.countKeys();
    return { ...this.at(this.seenRevision), current: true };
  }

  /**
   * What moves a mirror holding revision `from` to revision `to`, either way; null when a snapshot of `to`
   * serves instead: either revision is compacted (a compacted mirror holds no keys). A short move (at most
   * `maxDiffRevisions` revisions) is a diff, as steps ship it: forward it is `between`; backward every key
   * written after `to` is removed, and the version it had at `to` (if any) added again, so the mirror takes
   * it as a snapshot gives it (no previous version). A longer one is
   * a `keyspaceMove` (`jump`): each key written between the two as it is at `to`, without values. Either
   * way a mirror still short of `from` (the head's writes not shipped yet) comes out at `to` all the same.
   * Restored versions are tagged by `stepOf` with the step that wrote them; removals with `toStep`.
   */
  move(from: number, to: number, toStep: number, stepOf: (revision: number) => number): KeyspaceDiffEvent | KeyspaceMoveEvent | null {
    const { store, kv } = this.source;
    const compactRevision = store.compactMainRev;
    if (Math.min(from, to) < Math.max(1, compactRevision)) return null;
    if (Math.abs(to - from) > maxDiffRevisions) return this.jump(from, to, stepOf);
    if (to >= from) return this.between(from, to, stepOf);
    const written = this.writtenBetween(to, from);
    const removals: KeyChange[] = [];
    const restored: KeyValue[] = [];
    for (const key of written) {
      removals.push({ key, modRevision: from, deleted: true, step: toStep });
      const kept = kv.range({ key, revision: to }).kvs[0];
      if (kept) restored.push(kept);
    }
    restored.sort((a, b) => a.modRevision - b.modRevision);
    const changes = [...removals, ...restored.map((k) => toChange(k, stepOf(k.modRevision)))];
    return { type: 'keyspaceDiff', revision: to, changes, compactRevision };
  }

  /**
   * A long move of a mirror from `from` to `to` (neither compacted): the keys written between them (read
   * from the backend by revision, which costs little per revision), each read at `to`. Its size follows
   * the keys that changed, at most the keyspace, and it carries no values.
   */
  private jump(from: number, to: number, stepOf: (revision: number) => number): KeyspaceMoveEvent {
    const { store } = this.source;
    const written = this.writtenBetween(Math.min(from, to), Math.max(from, to));
    // Straight into columns, with no list of metas between (at 30,000 Pods two lists of 170,000 objects,
    // outliving young GCs, were most of a long seek's garbage collection in the page's worker).
    const set = new KeyMetaColumnsBuilder();
    let removed: string[] = [];
    const add = (found: KeyMeta) => set.add(found, stepOf(found.modRevision));
    // Keys without values: a value superseded since, kept as a delta, is not rebuilt (that rebuild was most
    // of a long seek's worker time at 30,000 Pods).
    if (written.size > this.liveKeys / 4) {
      // Most keys changed (a jump across a rollout): one read of every key at `to` (in key order) picks
      // them, cheaper than one per key and than sorting them; the written keys it lacks are removed.
      store.forEachMeta(everyKey.key, '', to, (found) => {
        if (written.delete(found.key)) add(found);
      });
      // Not push(...): a seek back across 60,000 Pods removes more keys than a call takes arguments.
      removed = [...written].sort(byteOrder);
    } else {
      for (const key of [...written].sort(byteOrder)) {
        let found = false;
        store.forEachMeta(key, undefined, to, (meta) => {
          found = true;
          add(meta);
        });
        if (!found) removed.push(key);
      }
    }
    return { type: 'keyspaceMove', revision: to, compactRevision: this.source.store.compactMainRev, set: set.build(), removed };
  }

  /**
   * The keys written after revision `low` up to `high` (inclusive), in the order first written. Only the
   * keys are read: the backend's filter sees each change's key and is told no, so no superseded value is
   * rebuilt from its deltas (that rebuild was most of a long seek's worker time at 1,000 Pods).
   */
  private writtenBetween(low: number, high: number): Set<string> {
    const written = new Set<string>();
    this.source.store.backend.rangeRevisions(low + 1, high + 1, () => undefined, (key) => {
      written.add(key);
      return false;
    });
    return written;
  }

  /**
   * The changes between two past revisions (`from` exclusive, `to` inclusive), each tagged by `stepOf` with
   * the step that wrote it: the diff the UI gets when it steps forward through recorded history.
   */
  between(from: number, to: number, stepOf: (revision: number) => number): KeyspaceDiffEvent {
    const changes: KeyChange[] = [];
    this.source.store.backend.rangeRevisions(from + 1, to + 1, (kv) => changes.push(toChange(kv, stepOf(kv.modRevision))));
    return { type: 'keyspaceDiff', revision: to, changes, compactRevision: this.source.store.compactMainRev };
  }

  /** The keyspace as it was at `revision`, keys without values (a compacted or future revision has no keys). */
  at(revision: number): KeyspaceSnapshotEvent {
    const compactRevision = this.source.store.compactMainRev;
    const base = { type: 'keyspaceSnapshot', revision, current: false, compactRevision } as const;
    if (this.compacted(revision)) return { ...base, compacted: true, entries: packKeyMetas([]) };
    const entries = new KeyMetaColumnsBuilder();
    this.source.store.forEachMeta(everyKey.key, '', revision, (meta) => entries.add(meta, -1));
    return { ...base, compacted: false, entries: entries.build() };
  }

  /** Every key at `revision` with its value, in key order (a compacted revision has none): what a save keeps. */
  entriesAt(revision: number): KeyEntry[] {
    return this.compacted(revision) ? [] : this.source.kv.range({ ...everyKey, revision }).kvs.map(toEntry);
  }

  /** The pods at `revision`: from the pod history where it reaches, else decoded from etcd (none if compacted). */
  podsAt(revision: number): PodChip[] {
    const held = this.pods.at(revision);
    if (held) return held;
    if (this.compacted(revision)) return [];
    const chips: PodChip[] = [];
    for (const kv of this.source.kv.range({ key: podPrefix, rangeEnd: prefixEnd(podPrefix), revision }).kvs) {
      const chip = podChip(kv);
      if (chip) chips.push(chip);
    }
    return chips;
  }

  /** The oldest revision whose pods are known, when the pods at `revision` are not (PodSource). */
  podsKeptFrom(revision: number): number | null {
    return revision < this.pods.from && this.compacted(revision) ? this.pods.from : null;
  }

  /** The chip of the pod `key` at `revision`: from the pod history where it reaches, else decoded from etcd. */
  chipAt(key: string, revision: number): PodChip | null {
    const held = this.pods.chipAt(key, revision);
    if (held !== undefined) return held;
    const found = this.compacted(revision) ? undefined : this.source.kv.range({ key, revision }).kvs[0];
    return found ? podChip(found) : null;
  }

  /** The chip of the version a diff carries: the pod history's where it holds it, else decoded (PodSource). */
  chipOfVersion(entry: KeyEntry): PodChip | null {
    const held = this.pods.versionChip(entry.key, entry.modRevision);
    return held === undefined ? podChip(entry) : held;
  }

  /**
   * The value `key` was given at `modRevision`, read at that revision or, if compacted since, at the
   * compacted revision (where the version survives if nothing superseded it by then); null when gone.
   */
  valueAt(key: string, modRevision: number): string | null {
    const { store, kv } = this.source;
    const revision = Math.max(modRevision, store.compactMainRev);
    if (!Number.isInteger(modRevision) || modRevision < 1 || revision > store.currentRev) return null;
    const found = kv.range({ key, revision }).kvs[0];
    return found && found.modRevision === modRevision ? found.value : null;
  }

  /** Throws for a revision that never was; true for one below the compacted revision. */
  private compacted(revision: number): boolean {
    const { store } = this.source;
    if (!Number.isInteger(revision) || revision < 1 || revision > store.currentRev) {
      throw new RangeError(`revision must be an integer from 1 to ${store.currentRev}, got ${revision}`);
    }
    return revision < store.compactMainRev;
  }

  private countKeys(): number {
    return this.source.kv.range({ ...everyKey, countOnly: true }).count;
  }
}

/** etcd's key order (bytes; keys are byte strings, one char per byte). */
function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function toEntry(kv: KeyValue): KeyEntry {
  return { key: kv.key, createRevision: kv.createRevision, modRevision: kv.modRevision, version: kv.version, lease: kv.lease, value: kv.value };
}

/** A key without its value, as a snapshot ships it. */
export function metaOf(entry: KeyEntry | KeyValue): KeyMeta {
  return { key: entry.key, createRevision: entry.createRevision, modRevision: entry.modRevision, version: entry.version, lease: entry.lease, size: entry.value.length };
}

function toChange(kv: KeyValue, step: number): KeyChange {
  // A tombstone (createRevision 0) is the key's deletion at modRevision.
  if (kv.createRevision === 0) return { key: kv.key, modRevision: kv.modRevision, deleted: true, step };
  return { ...toEntry(kv), deleted: false, step };
}

/** Pretty JSON of the object a stored value holds, or null with why. */
function objectJson(value: string): { json: string | null; error: string | null } {
  if (value === '') return { json: null, error: null };
  try {
    const obj = decodeStored(value);
    if (typeof obj !== 'object' || obj === null) return { json: null, error: null };
    return { json: JSON.stringify(obj, null, 2), error: null };
  } catch (e) {
    return { json: null, error: e instanceof Error ? e.message : String(e) };
  }
}

function toField(f: ProtoField): ValueField {
  return {
    path: f.path, number: f.number, name: f.name, wireType: f.wireType, offset: f.offset, size: f.size,
    ...(f.value !== undefined ? { value: f.value } : {}), ...(f.children ? { children: f.children.map(toField) } : {}),
  };
}

/**
 * A stored value as etcdctl prints it (simple and `-w json`), decoded, and — for protobuf — field by
 * field with each field's byte size, as the `auger` tool shows etcd values. A value the command does not
 * carry is read with `read` (a previous version that is gone shows no change).
 */
export function describeValue(command: DescribeValueCommand, read: (key: string, modRevision: number) => string | null): ValueDescriptionEvent {
  const { key, modRevision } = command;
  const value = command.value ?? read(key, modRevision);
  if (value === null) throw new Error(`the value of ${terminalText(key)} at revision ${modRevision} is compacted`);
  const previous = command.previous === null ? null : 'value' in command.previous ? command.previous.value : read(key, command.previous.modRevision);
  const protobuf = isProtobufValue(value);
  const current = objectJson(value);
  const mediaType = protobuf ? 'protobuf' : current.json !== null ? 'json' : 'bytes';
  let fields: ValueField[] | null = null;
  let error = mediaType === 'bytes' ? null : current.error;
  if (protobuf) {
    try {
      fields = describeProtobuf(byteStringToBytes(value)).map(toField);
    } catch (e) {
      error ??= e instanceof Error ? e.message : String(e);
    }
  }
  return {
    type: 'valueDescription', key, modRevision, mediaType, size: value.length, printed: terminalText(value), base64: base64Encode(value),
    json: current.json, text: current.json ?? terminalText(value),
    previousText: previous === null ? null : objectJson(previous).json ?? terminalText(previous), fields, error,
  };
}

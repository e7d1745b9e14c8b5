// The UI's mirror of etcd's keyspace: the live keys (kept sorted, with the step that last changed each
// and its previous version when the UI saw the change), and optionally a snapshot at a past revision the
// user picked. Reducers over worker events. One exception to purity, for 100,000 keys: a diff updates
// the live `entries` map in place (copying it would cost tens of ms per diff) and returns a new
// `LiveKeyspace` around it, so subscribers still see a new state; the sorted key list is copied (cheap)
// only when keys appear or go. Nothing keeps an older LiveKeyspace to read. A key holds its value only
// when a diff brought it (a snapshot ships none), and only while it is among the `valuesHeld` keys written
// last: the key details ask the worker for one it lacks.

import { forEachKeyFields, type KeyEntry, type KeyMeta, type KeyspaceDiffEvent, type KeyspaceMoveEvent, type KeyspaceSnapshotEvent } from '../../protocol/index.ts';
import { lowerBound } from '../keyspace/key-tree.ts';

/** A version of a key as the page holds it: its value when a diff brought it, absent when a snapshot did. */
export type HeldVersion = KeyMeta & { readonly value?: string };

export interface KeyRecord extends KeyMeta {
  readonly value?: string;
  /** The step whose delivery wrote this version; null when it came with a snapshot. */
  readonly step: number | null;
  /** The version before this one, when the UI received the change (null on create or if unseen). */
  readonly previous: HeldVersion | null;
}

export interface LiveKeyspace {
  readonly revision: number;
  /** Revisions below this one are compacted (-1: none yet). */
  readonly compactRevision: number;
  /** Live keys in etcd's (byte) order. */
  readonly keys: readonly string[];
  readonly entries: ReadonlyMap<string, KeyRecord>;
  /** Keys written by the newest step of the last diff (deleted ones included), in change order. */
  readonly lastChanged: readonly string[];
}

/** The keyspace at a revision the user picked: loading, compacted, or its keys. */
export interface PastKeyspace {
  readonly revision: number;
  readonly status: 'loading' | 'compacted' | 'ready';
  readonly keys: readonly string[];
  readonly entries: ReadonlyMap<string, KeyMeta>;
}

export interface KeyspaceState {
  readonly live: LiveKeyspace;
  /** Null: the live keyspace is shown. */
  readonly past: PastKeyspace | null;
  readonly selectedKey: string | null;
}

export const emptyKeyspace: KeyspaceState = {
  live: { revision: 0, compactRevision: -1, keys: [], entries: new Map(), lastChanged: [] },
  past: null,
  selectedKey: null,
};

/**
 * How many of the keys written last hold their values (and their previous version's) on the page; the
 * others keep their metas only, as a snapshot gives them. Holding every value shipped made the page grow
 * with the cluster: a Pod's stored bytes and its previous version's are ~4 KB, and its Events as much
 * again. A 3-node cluster writes a few hundred keys, so there every key keeps its value; past the bound
 * the worker reads a value at its revision when the details show it (a previous version compacted since
 * then shows no change).
 */
export const valuesHeld = 4_096;

/** Per live entries map, its keys that hold a value, the one written longest ago first (a Map keeps insertion order). */
const valued = new WeakMap<Map<string, KeyRecord>, Map<string, true>>();

function withoutValues(record: KeyRecord): KeyRecord {
  const { key, createRevision, modRevision, version, lease, size, step, previous } = record;
  const before = previous && { key: previous.key, createRevision: previous.createRevision, modRevision: previous.modRevision, version: previous.version, lease: previous.lease, size: previous.size };
  return { key, createRevision, modRevision, version, lease, size, step, previous: before };
}

/** Records that `key` now holds its value; the key written longest ago past `valuesHeld` lets go of its own. */
function holdValue(entries: Map<string, KeyRecord>, key: string): void {
  let order = valued.get(entries);
  if (!order) valued.set(entries, (order = new Map()));
  order.delete(key);
  order.set(key, true);
  if (order.size <= valuesHeld) return;
  const oldest = order.keys().next().value!;
  order.delete(oldest);
  const record = entries.get(oldest);
  if (record) entries.set(oldest, withoutValues(record));
}

function versionOf(record: KeyRecord): HeldVersion {
  const { key, createRevision, modRevision, version, lease, size, value } = record;
  return value === undefined ? { key, createRevision, modRevision, version, lease, size } : { key, createRevision, modRevision, version, lease, size, value };
}

function recordOf(entry: KeyEntry, step: number, previous: HeldVersion | null): KeyRecord {
  const { key, createRevision, modRevision, version, lease, value } = entry;
  return { key, createRevision, modRevision, version, lease, size: value.length, value, step, previous };
}

export function applySnapshot(state: KeyspaceState, event: KeyspaceSnapshotEvent): KeyspaceState {
  const keys: string[] = [];
  if (event.current) {
    const entries = new Map<string, KeyRecord>();
    forEachKeyFields(event.entries, (key, createRevision, modRevision, version, lease, size) => {
      keys.push(key);
      entries.set(key, { key, createRevision, modRevision, version, lease, size, step: null, previous: null });
    });
    return { live: { revision: event.revision, compactRevision: event.compactRevision, keys, entries, lastChanged: [] }, past: null, selectedKey: null };
  }
  // Only the answer to the revision still wanted counts.
  if (state.past?.revision !== event.revision) return state;
  const live = { ...state.live, compactRevision: Math.max(state.live.compactRevision, event.compactRevision) };
  const entries = new Map<string, KeyMeta>();
  forEachKeyFields(event.entries, (key, createRevision, modRevision, version, lease, size) => {
    keys.push(key);
    entries.set(key, { key, createRevision, modRevision, version, lease, size });
  });
  const past: PastKeyspace = { revision: event.revision, status: event.compacted ? 'compacted' : 'ready', keys, entries };
  return { ...state, live, past };
}

export function applyDiff(state: KeyspaceState, event: KeyspaceDiffEvent): KeyspaceState {
  const entries = state.live === emptyKeyspace.live ? new Map<string, KeyRecord>() : state.live.entries as Map<string, KeyRecord>;
  let keys = state.live.keys;
  let copied = false;
  const writableKeys = (): string[] => {
    if (!copied) {
      keys = [...keys];
      copied = true;
    }
    return keys as string[];
  };
  for (const change of event.changes) {
    const old = entries.get(change.key);
    if (change.deleted) {
      if (!old) continue;
      entries.delete(change.key);
      valued.get(entries)?.delete(change.key);
      const at = lowerBound(keys, change.key);
      writableKeys().splice(at, 1);
      continue;
    }
    entries.set(change.key, recordOf(change, change.step, old && old.createRevision === change.createRevision ? versionOf(old) : null));
    holdValue(entries, change.key);
    if (!old) {
      const at = lowerBound(keys, change.key);
      writableKeys().splice(at, 0, change.key);
    }
  }
  const newest = event.changes.at(-1)?.step;
  const lastChanged = newest === undefined ? state.live.lastChanged : event.changes.filter((c) => c.step === newest).map((c) => c.key);
  return { ...state, live: { revision: event.revision, compactRevision: event.compactRevision, keys, entries, lastChanged } };
}

/**
 * A long move of the live mirror (a seek): the keys it names take their metas (no value, no previous
 * version, as a snapshot gives them) or go; the others stay as held. The entries map is updated in place,
 * as a diff does; the sorted key list is merged once, not spliced key by key.
 */
export function applyMove(state: KeyspaceState, event: KeyspaceMoveEvent): KeyspaceState {
  const entries = state.live === emptyKeyspace.live ? new Map<string, KeyRecord>() : state.live.entries as Map<string, KeyRecord>;
  const gone = new Set<string>();
  const order = valued.get(entries);
  for (const key of event.removed) {
    if (entries.delete(key)) gone.add(key);
    order?.delete(key);
  }
  const added: string[] = [];
  // One object per key, straight from the columns (a seek's 170,000 at 30,000 Pods).
  forEachKeyFields(event.set, (key, createRevision, modRevision, version, lease, size, step) => {
    if (!entries.has(key)) added.push(key);
    order?.delete(key);
    entries.set(key, { key, createRevision, modRevision, version, lease, size, step, previous: null });
  });
  const keys = gone.size === 0 && added.length === 0 ? state.live.keys : mergeSorted(state.live.keys.filter((key) => !gone.has(key)), added);
  return { ...state, live: { revision: event.revision, compactRevision: event.compactRevision, keys, entries, lastChanged: [] } };
}

/** Two lists of keys, each sorted in byte order, as one sorted list. */
function mergeSorted(a: readonly string[], b: readonly string[]): string[] {
  if (b.length === 0) return [...a];
  const merged: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]! < b[j]!)) merged.push(a[i++]!);
    else merged.push(b[j++]!);
  }
  return merged;
}

/** Asks for a past revision (null: back to live). */
export function pickRevision(state: KeyspaceState, revision: number | null): KeyspaceState {
  if (revision === null) return { ...state, past: null };
  return { ...state, past: { revision, status: 'loading', keys: [], entries: new Map() } };
}

export function selectKey(state: KeyspaceState, key: string | null): KeyspaceState {
  return { ...state, selectedKey: key };
}

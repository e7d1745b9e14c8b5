// The UI's mirror of etcd's keyspace: the live keys (kept sorted, with the step that last changed each
// and its previous version when the UI saw the change), and optionally a snapshot at a past revision the
// user picked. Reducers over worker events. One exception to purity, for 100,000 keys: a diff updates
// the live `entries` table (store/key-table.ts, in columns) in place (copying it would cost tens of ms per diff) and returns a new
// `LiveKeyspace` around it, so subscribers still see a new state; the sorted key list is copied (cheap)
// only when keys appear or go. Nothing keeps an older LiveKeyspace to read. A key holds its value only
// when a diff brought it (a snapshot ships none), and only while it is among the `valuesHeld` keys written
// last: the key details ask the worker for one it lacks.

import { forEachKeyFields, type KeyMeta, type KeyspaceDiffEvent, type KeyspaceMoveEvent, type KeyspaceSnapshotEvent } from '../../protocol/index.ts';
import { lowerBound } from '../keyspace/key-tree.ts';
import { KeyTable, type KeyRecords } from './key-table.ts';

export interface LiveKeyspace {
  readonly revision: number;
  /** Revisions below this one are compacted (-1: none yet). */
  readonly compactRevision: number;
  /** Live keys in etcd's (byte) order. */
  readonly keys: readonly string[];
  readonly entries: KeyRecords;
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
  live: { revision: 0, compactRevision: -1, keys: [], entries: new KeyTable(), lastChanged: [] },
  past: null,
  selectedKey: null,
};

export function applySnapshot(state: KeyspaceState, event: KeyspaceSnapshotEvent): KeyspaceState {
  const keys: string[] = [];
  if (event.current) {
    const entries = new KeyTable();
    forEachKeyFields(event.entries, (key, createRevision, modRevision, version, lease, size) => {
      keys.push(key);
      entries.set({ key, createRevision, modRevision, version, lease, size }, null);
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
  const entries = liveTable(state);
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
    if (change.deleted) {
      if (!entries.delete(change.key)) continue;
      const at = lowerBound(keys, change.key);
      writableKeys().splice(at, 1);
      continue;
    }
    const { key, createRevision, modRevision, version, lease, value } = change;
    if (entries.write({ key, createRevision, modRevision, version, lease, size: value.length }, value, change.step)) {
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
  const entries = liveTable(state);
  const gone = new Set<string>();
  for (const key of event.removed) if (entries.delete(key)) gone.add(key);
  const added: string[] = [];
  // Straight from the shipped columns into the table's (a seek's 170,000 keys at 30,000 Pods).
  forEachKeyFields(event.set, (key, createRevision, modRevision, version, lease, size, step) => {
    if (entries.set({ key, createRevision, modRevision, version, lease, size }, step)) added.push(key);
  });
  const keys = gone.size === 0 && added.length === 0 ? state.live.keys : mergeSorted(state.live.keys.filter((key) => !gone.has(key)), added);
  return { ...state, live: { revision: event.revision, compactRevision: event.compactRevision, keys, entries, lastChanged: [] } };
}

/** The live table a diff or move writes into: the state's own, or a new one for the empty keyspace (shared, never written). */
function liveTable(state: KeyspaceState): KeyTable {
  return state.live === emptyKeyspace.live ? new KeyTable() : state.live.entries as KeyTable;
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

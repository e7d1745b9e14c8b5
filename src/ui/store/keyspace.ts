// The UI's mirror of etcd's keyspace: the live keys (kept sorted, with the step that last changed each
// and its previous version when the UI saw the change), and optionally a snapshot at a past revision the
// user picked. Pure reducers over worker events; each diff copies the index once (not per change).

import type { KeyEntry, KeyspaceDiffEvent, KeyspaceSnapshotEvent } from '../../protocol/index.ts';

export interface KeyRecord extends KeyEntry {
  /** The step whose delivery wrote this version; null when it came with a snapshot. */
  readonly step: number | null;
  /** The version before this one, when the UI received the change (null on create or if unseen). */
  readonly previous: KeyEntry | null;
}

export interface LiveKeyspace {
  readonly revision: number;
  /** Revisions below this one are compacted (-1: none yet). */
  readonly compactRevision: number;
  /** Live keys in etcd's (byte) order. */
  readonly keys: readonly string[];
  readonly entries: ReadonlyMap<string, KeyRecord>;
}

/** The keyspace at a revision the user picked: loading, compacted, or its keys. */
export interface PastKeyspace {
  readonly revision: number;
  readonly status: 'loading' | 'compacted' | 'ready';
  readonly keys: readonly string[];
  readonly entries: ReadonlyMap<string, KeyEntry>;
}

export interface KeyspaceState {
  readonly live: LiveKeyspace;
  /** Null: the live keyspace is shown. */
  readonly past: PastKeyspace | null;
  readonly selectedKey: string | null;
}

export const emptyKeyspace: KeyspaceState = {
  live: { revision: 0, compactRevision: -1, keys: [], entries: new Map() },
  past: null,
  selectedKey: null,
};

/** etcd orders keys by their bytes; for the UTF-16 strings of the model that is code point order. */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(keys[mid]!, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function entryOf(record: KeyEntry): KeyEntry {
  const { key, createRevision, modRevision, version, lease, value } = record;
  return { key, createRevision, modRevision, version, lease, value };
}

export function applySnapshot(state: KeyspaceState, event: KeyspaceSnapshotEvent): KeyspaceState {
  const keys = event.entries.map((e) => e.key);
  if (event.current) {
    const entries = new Map(event.entries.map((e): [string, KeyRecord] => [e.key, { ...e, step: null, previous: null }]));
    return { live: { revision: event.revision, compactRevision: event.compactRevision, keys, entries }, past: null, selectedKey: null };
  }
  // Only the answer to the revision still wanted counts.
  if (state.past?.revision !== event.revision) return state;
  const live = { ...state.live, compactRevision: Math.max(state.live.compactRevision, event.compactRevision) };
  const past: PastKeyspace = {
    revision: event.revision,
    status: event.compacted ? 'compacted' : 'ready',
    keys,
    entries: new Map(event.entries.map((e) => [e.key, e])),
  };
  return { ...state, live, past };
}

export function applyDiff(state: KeyspaceState, event: KeyspaceDiffEvent): KeyspaceState {
  const entries = new Map(state.live.entries);
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
      const at = lowerBound(keys, change.key);
      writableKeys().splice(at, 1);
      continue;
    }
    const { step, deleted: _deleted, ...entry } = change;
    entries.set(change.key, { ...entry, step, previous: old && old.createRevision === entry.createRevision ? entryOf(old) : null });
    if (!old) {
      const at = lowerBound(keys, change.key);
      writableKeys().splice(at, 0, change.key);
    }
  }
  return { ...state, live: { revision: event.revision, compactRevision: event.compactRevision, keys, entries } };
}

/** Asks for a past revision (null: back to live). */
export function pickRevision(state: KeyspaceState, revision: number | null): KeyspaceState {
  if (revision === null) return { ...state, past: null };
  return { ...state, past: { revision, status: 'loading', keys: [], entries: new Map() } };
}

export function selectKey(state: KeyspaceState, key: string | null): KeyspaceState {
  return { ...state, selectedKey: key };
}

/** Where a key sits in the /registry tree: `<prefix>/<resource>/<namespace>/<name>` or cluster-scoped. */
export interface KeyPlace {
  /** e.g. `deployments`, or `(outside /registry)`. */
  readonly resource: string;
  /** The namespace; null for cluster-scoped objects and other keys. */
  readonly namespace: string | null;
  readonly name: string;
}

const registryPrefix = '/registry/';

export function placeOf(key: string): KeyPlace {
  if (!key.startsWith(registryPrefix)) return { resource: '(outside /registry)', namespace: null, name: key };
  const parts = key.slice(registryPrefix.length).split('/');
  if (parts.length >= 3) return { resource: parts[0]!, namespace: parts[1]!, name: parts.slice(2).join('/') };
  if (parts.length === 2) return { resource: parts[0]!, namespace: null, name: parts[1]! };
  return { resource: parts[0]!, namespace: null, name: '' };
}

export type KeyspaceRow =
  | { readonly type: 'resource'; readonly id: string; readonly label: string; readonly count: number; readonly collapsed: boolean }
  | { readonly type: 'namespace'; readonly id: string; readonly label: string; readonly count: number; readonly collapsed: boolean }
  | { readonly type: 'key'; readonly id: string; readonly key: string; readonly name: string; readonly nested: boolean };

/**
 * The rows of the tree for sorted `keys`: a header per resource, one per namespace inside it, then the
 * keys. Groups whose id is in `collapsed` show their header only. `filter` keeps keys containing it.
 */
export function keyspaceRows(keys: readonly string[], collapsed: ReadonlySet<string>, filter = ''): KeyspaceRow[] {
  const rows: KeyspaceRow[] = [];
  const counts = new Map<string, number>();
  let resourceRow = -1;
  let namespaceRow = -1;
  let resourceId = '';
  let namespaceId = '';
  const bump = (index: number) => {
    const row = rows[index]!;
    if (row.type !== 'key') counts.set(row.id, (counts.get(row.id) ?? 0) + 1);
  };
  for (const key of keys) {
    if (filter !== '' && !key.includes(filter)) continue;
    const place = placeOf(key);
    const rid = place.resource;
    if (rid !== resourceId || resourceRow < 0) {
      resourceId = rid;
      namespaceId = '';
      namespaceRow = -1;
      resourceRow = rows.length;
      rows.push({ type: 'resource', id: rid, label: rid, count: 0, collapsed: collapsed.has(rid) });
    }
    bump(resourceRow);
    if (collapsed.has(rid)) continue;
    if (place.namespace !== null) {
      const nid = `${rid}/${place.namespace}`;
      if (nid !== namespaceId) {
        namespaceId = nid;
        namespaceRow = rows.length;
        rows.push({ type: 'namespace', id: nid, label: place.namespace, count: 0, collapsed: collapsed.has(nid) });
      }
      bump(namespaceRow);
      if (collapsed.has(nid)) continue;
    } else {
      namespaceId = '';
      namespaceRow = -1;
    }
    rows.push({ type: 'key', id: key, key, name: place.name, nested: place.namespace !== null });
  }
  return rows.map((row) => (row.type === 'key' ? row : { ...row, count: counts.get(row.id) ?? 0 }));
}

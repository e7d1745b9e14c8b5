// The IndexedDB store's keyspace base in parts: a base too large for one value (a browser refuses a single
// value past ~128 MiB; 30,000 Pods with their Events make ~180 MB) is written in parts of about
// `keyspacePartBytes`, read back whole, replaced without stale parts, copied and deleted with its cluster;
// a database of schema version 1 opens upgraded with its cluster intact.

import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import type { KeyEntry } from '../protocol/index.ts';
import { ClusterStore, databaseName, keyspacePartBytes, keyspaceParts, type ClusterRecord, type HeadRecord, type SaveBatch } from './persistence.ts';

const cluster: ClusterRecord = { id: 'c1', name: 'big', seed: 'podflow', nodes: 3, created: 1, updated: 2, headStep: 10, commands: 0 };
const head: HeadRecord = { clusterId: 'c1', step: 10, bootSteps: 5, sample: { now: 0, pending: 0, idle: true, revision: 9 }, compactRevision: 0, markers: [], traceTail: [] };

function entries(n: number, valueChars: number, prefix = '/registry/pods/default/p'): KeyEntry[] {
  return Array.from({ length: n }, (_, i) => ({
    key: `${prefix}${String(i).padStart(4, '0')}`, createRevision: i + 2, modRevision: i + 2, version: 1, lease: '0', value: `${i}:`.padEnd(valueChars, 'x'),
  }));
}

function batch(keyspace: KeyEntry[] | null): SaveBatch {
  return { cluster, truncateCommandsFrom: null, newCommands: [], head, keyspace: keyspace && { clusterId: 'c1', revision: 9, entries: keyspace }, kvChanges: [] };
}

/** The records of the keyspaceParts store, read with IndexedDB itself. */
async function storedParts(): Promise<number> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(databaseName);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const count = await new Promise<number>((resolve, reject) => {
    const request = db.transaction('keyspaceParts').objectStore('keyspaceParts').count();
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  db.close();
  return count;
}

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

describe('the keyspace base in parts', () => {
  it('cuts entries at about keyspacePartBytes, in order, each part at least one entry', () => {
    const big = entries(40, 1 << 20);
    const parts = keyspaceParts(big);
    expect(parts.length).toBe(Math.ceil((40 * 2 * (1 << 20)) / keyspacePartBytes) + 1);
    expect(parts.flat()).toEqual(big);
    for (const part of parts) expect(part.length).toBeGreaterThan(0);
    expect(keyspaceParts([])).toEqual([[]]);
    // An entry larger than a part is a part of its own.
    expect(keyspaceParts(entries(2, keyspacePartBytes)).map((p) => p.length)).toEqual([1, 1]);
  });

  it('saves a base of many parts and loads it whole; a smaller base later leaves no stale part; copies and deletes take the parts', async () => {
    const store = await ClusterStore.open();
    const big = entries(40, 1 << 20);
    await store.save(batch(big));
    expect((await store.load('c1'))!.keyspace).toEqual({ revision: 9, entries: big });
    expect(await storedParts()).toBe(keyspaceParts(big).length - 1);

    const small = entries(3, 100, '/registry/configmaps/default/c');
    await store.save(batch(small));
    expect((await store.load('c1'))!.keyspace!.entries).toEqual(small);
    expect(await storedParts()).toBe(0);

    await store.save(batch(big));
    const copy = await store.duplicate('c1', { id: 'c2', name: 'copy', now: 3 });
    expect((await store.load(copy.id))!.keyspace!.entries).toEqual(big);
    await store.delete('c1');
    expect(await store.load('c1')).toBeNull();
    expect((await store.load('c2'))!.keyspace!.entries).toHaveLength(40);
    store.close();
  });

  it('opens a version 1 database upgraded, its saved cluster and one-part base intact', async () => {
    const v1 = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open(databaseName, 1);
      open.onupgradeneeded = () => {
        const db = open.result;
        db.createObjectStore('clusters', { keyPath: 'id' }).put(cluster);
        db.createObjectStore('commands', { keyPath: ['clusterId', 'index'] });
        db.createObjectStore('heads', { keyPath: 'clusterId' }).put(head);
        db.createObjectStore('keyspaces', { keyPath: 'clusterId' }).put({ clusterId: 'c1', revision: 9, entries: entries(2, 10) });
        db.createObjectStore('kvChanges', { keyPath: ['clusterId', 'seq'] });
        db.createObjectStore('meta', { keyPath: 'key' });
      };
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    v1.close();
    const store = await ClusterStore.open();
    expect((await store.load('c1'))!.keyspace).toEqual({ revision: 9, entries: entries(2, 10) });
    await store.save(batch(entries(40, 1 << 20)));
    expect((await store.load('c1'))!.keyspace!.entries).toHaveLength(40);
    store.close();
  });
});

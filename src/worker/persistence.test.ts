// The IndexedDB store's keyspace, one record per key (schema version 3): a save writes the keys changed
// since the previous one (or, when `whole`, the whole keyspace, leaving no stale key); a load reads them
// back in key order at the saved revision; copies and deletes take the keys with their cluster. The trace
// tail likewise, one record per delivery: each save adds its new ones and drops the oldest. A save of
// version 1 (one base) or version 2 (a base in parts, and changes after it) opens upgraded, loads folded
// and marked `legacy`, and the next whole save leaves none of its records behind.

import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import type { KeyEntry, TraceRecord } from '../protocol/index.ts';
import { ClusterStore, databaseName, type ClusterRecord, type HeadRecord, type KeysBatch, type SaveBatch } from './persistence.ts';

const cluster: ClusterRecord = { id: 'c1', name: 'big', seed: 'podflow', nodes: 3, created: 1, updated: 2, headStep: 10, commands: 0 };
const head: HeadRecord = { clusterId: 'c1', step: 10, bootSteps: 5, sample: { now: 0, pending: 0, idle: true, revision: 9 }, compactRevision: 0, markers: [], traceTail: [] };

function entries(n: number, valueChars: number, prefix = '/registry/pods/default/p'): KeyEntry[] {
  return Array.from({ length: n }, (_, i) => ({
    key: `${prefix}${String(i).padStart(4, '0')}`, createRevision: i + 2, modRevision: i + 2, version: 1, lease: '0', value: `${i}:`.padEnd(valueChars, 'x'),
  }));
}

function batch(keyspace: KeysBatch | null): SaveBatch {
  return { cluster, truncateCommandsFrom: null, newCommands: [], head, traceTail: null, keyspace };
}

const whole = (put: KeyEntry[], revision = 9): KeysBatch => ({ revision, whole: true, put, deleted: [] });

/** How many records a store holds, read with IndexedDB itself. */
async function stored(name: string): Promise<number> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(databaseName);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const count = await new Promise<number>((resolve, reject) => {
    const request = db.transaction(name).objectStore(name).count();
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  db.close();
  return count;
}

/** A database at an older schema version, made as that version's code made it. */
async function olderDatabase(version: 1 | 2, fill: (tx: IDBTransaction) => void): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(databaseName, version);
    open.onupgradeneeded = () => {
      const created = open.result;
      created.createObjectStore('clusters', { keyPath: 'id' }).put(cluster);
      created.createObjectStore('commands', { keyPath: ['clusterId', 'index'] });
      created.createObjectStore('heads', { keyPath: 'clusterId' }).put(head);
      created.createObjectStore('keyspaces', { keyPath: 'clusterId' });
      created.createObjectStore('kvChanges', { keyPath: ['clusterId', 'seq'] });
      created.createObjectStore('meta', { keyPath: 'key' });
      if (version === 2) created.createObjectStore('keyspaceParts', { keyPath: ['clusterId', 'part'] });
      fill(open.transaction!);
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  db.close();
}

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

describe('the keyspace, one record per key', () => {
  it('loads a whole save back in key order at its revision, whatever order the keys were given in', async () => {
    const store = await ClusterStore.open();
    const keys = [...entries(3, 10, '/registry/pods/default/p'), ...entries(2, 10, '/registry/configmaps/default/c'), ...entries(1, 10, '/registry/leases/n')];
    await store.save(batch(whole([...keys].reverse())));
    const loaded = (await store.load('c1'))!.keyspace!;
    expect(loaded.revision).toBe(9);
    expect(loaded.legacy).toBeUndefined();
    expect(loaded.entries.map((e) => e.key)).toEqual(keys.map((e) => e.key).sort());
    expect(loaded.entries.find((e) => e.key === '/registry/leases/n0000')).toEqual(keys.at(-1));
    store.close();
  });

  it('writes only what changed: new and changed keys put, deleted keys removed, the others kept as they were', async () => {
    const store = await ClusterStore.open();
    const first = entries(5, 20);
    await store.save(batch(whole(first)));
    const changed = { ...first[1]!, modRevision: 20, version: 2, value: 'changed' };
    const added = { ...entries(1, 20, '/registry/services/default/s')[0]!, createRevision: 21, modRevision: 21 };
    await store.save(batch({ revision: 22, whole: false, put: [changed, added], deleted: [first[3]!.key] }));
    const loaded = (await store.load('c1'))!.keyspace!;
    expect(loaded.revision).toBe(22);
    expect(loaded.entries).toEqual([first[0], changed, first[2], first[4], added]);
    expect(await stored('keys')).toBe(5);
    // A save without keyspace changes leaves the keyspace and its revision alone.
    await store.save(batch(null));
    expect((await store.load('c1'))!.keyspace).toEqual(loaded);
    store.close();
  });

  it('replaces every key on a whole save (no stale key); copies and deletes take the keys with the cluster', async () => {
    const store = await ClusterStore.open();
    await store.save(batch(whole(entries(40, 100))));
    const small = entries(3, 100, '/registry/configmaps/default/c');
    await store.save(batch(whole(small, 12)));
    expect((await store.load('c1'))!.keyspace).toEqual({ revision: 12, entries: small });
    expect(await stored('keys')).toBe(3);

    const copy = await store.duplicate('c1', { id: 'c2', name: 'copy', now: 3 });
    expect((await store.load(copy.id))!.keyspace).toEqual({ revision: 12, entries: small });
    expect(await stored('keys')).toBe(6);
    await store.delete('c1');
    expect(await store.load('c1')).toBeNull();
    expect(await stored('keys')).toBe(3);
    expect((await store.load('c2'))!.keyspace!.entries).toEqual(small);
    store.close();
  });

  it('keeps one cluster\'s keys apart from another\'s whose id begins the same', async () => {
    const store = await ClusterStore.open();
    await store.save(batch(whole(entries(2, 10))));
    await store.save({ ...batch(whole(entries(4, 10), 5)), cluster: { ...cluster, id: 'c10' }, head: { ...head, clusterId: 'c10' } });
    await store.save(batch(whole(entries(1, 10))));
    expect((await store.load('c1'))!.keyspace!.entries).toHaveLength(1);
    expect((await store.load('c10'))!.keyspace!.entries).toHaveLength(4);
    store.close();
  });
});

describe('the trace tail, one record per delivery', () => {
  const record = (step: number) => ({ step, id: step, from: 'a', to: 'b', kind: 'timer', payload: { n: step }, sentAt: 0, deliverAt: 0, cause: null, replyTo: null, background: false }) as unknown as TraceRecord;
  const steps = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => record(from + i));

  it('adds each save\'s new deliveries and drops those before keepFrom; a whole tail replaces what was kept', async () => {
    const store = await ClusterStore.open();
    await store.save({ ...batch(null), traceTail: { whole: true, records: steps(1, 5), keepFrom: 1 } });
    await store.save({ ...batch(null), traceTail: { whole: false, records: steps(6, 8), keepFrom: 4 } });
    expect((await store.load('c1'))!.head!.traceTail.map((r) => r.step)).toEqual([4, 5, 6, 7, 8]);
    expect((await store.load('c1'))!.head!.traceTail[0]).toEqual(record(4));
    await store.save({ ...batch(null), traceTail: { whole: true, records: steps(2, 3), keepFrom: 2 } });
    expect((await store.load('c1'))!.head!.traceTail.map((r) => r.step)).toEqual([2, 3]);
    await store.duplicate('c1', { id: 'c2', name: 'copy', now: 3 });
    await store.delete('c1');
    expect(await stored('traceTail')).toBe(2);
    expect((await store.load('c2'))!.head!.traceTail.map((r) => r.step)).toEqual([2, 3]);
    store.close();
  });

  it('loads a version 2 head\'s own tail', async () => {
    await olderDatabase(2, (tx) => tx.objectStore('heads').put({ ...head, traceTail: steps(7, 9) }));
    const store = await ClusterStore.open();
    expect((await store.load('c1'))!.head!.traceTail).toEqual(steps(7, 9));
    store.close();
  });
});

describe('a save of an older schema version', () => {
  it('opens a version 1 database upgraded: its one-record base loads as legacy, and a whole save replaces it', async () => {
    await olderDatabase(1, (tx) => tx.objectStore('keyspaces').put({ clusterId: 'c1', revision: 9, entries: entries(2, 10) }));
    const store = await ClusterStore.open();
    expect((await store.load('c1'))!.keyspace).toEqual({ revision: 9, entries: entries(2, 10), legacy: true });
    await store.save(batch(whole(entries(3, 10), 11)));
    expect((await store.load('c1'))!.keyspace).toEqual({ revision: 11, entries: entries(3, 10) });
    store.close();
  });

  it('folds a version 2 base in parts with the changes after it, and a whole save leaves none of their records', async () => {
    const base = entries(4, 10);
    const changed = { ...base[0]!, modRevision: 30, version: 2, value: 'new' };
    await olderDatabase(2, (tx) => {
      tx.objectStore('keyspaces').put({ clusterId: 'c1', revision: 9, entries: base.slice(0, 2), parts: 2 });
      tx.objectStore('keyspaceParts').put({ clusterId: 'c1', part: 1, entries: base.slice(2) });
      tx.objectStore('kvChanges').put({ clusterId: 'c1', seq: 0, change: { ...changed, deleted: false, step: 3 } });
      tx.objectStore('kvChanges').put({ clusterId: 'c1', seq: 1, change: { key: base[2]!.key, modRevision: 31, deleted: true, step: 4 } });
    });
    const store = await ClusterStore.open();
    expect((await store.load('c1'))!.keyspace).toEqual({ revision: 31, entries: [changed, base[1], base[3]], legacy: true });
    await store.save(batch(whole([changed], 32)));
    expect(await stored('keyspaceParts')).toBe(0);
    expect(await stored('kvChanges')).toBe(0);
    expect((await store.load('c1'))!.keyspace).toEqual({ revision: 32, entries: [changed] });
    store.close();
  });
});

// A superseded revision's value is kept as a delta against the key's next revision (backend.ts) and
// rebuilt on read: for random histories of puts (of random byte strings, often small edits of the key's
// previous value, as an object's revisions are), deletes and compactions, every read at every revision
// the store still has, and every stored change visited by range, gives exactly the value written. A value its
// key has not replaced is kept as a delta against a recent value of another key (an Event against a similar
// Event): the same holds, whatever happens to the base's own key.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxDeltaRun } from './backend.ts';
import { KVStore } from './kv-store.ts';
import { noLease, type KeyValue, type StoredMeta } from './kv.ts';

interface Written {
  readonly key: string;
  readonly main: number;
  readonly value: string | null;
}

const byteString = fc.uint8Array({ minLength: 64, maxLength: 300 }).map((b) => String.fromCharCode(...b));
const op = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('put' as const), key: fc.constantFrom('a', 'a', 'b', 'c', 'e/1', 'e/2', 'e/3'), edit: fc.nat(4).map((n) => n > 0), at: fc.nat(), text: byteString, leased: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), key: fc.constantFrom('a', 'b', 'c', 'e/1', 'e/2') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('compact' as const), back: fc.nat(20) }) },
);

/** `value` with `text` put in at `at` and as many bytes removed there: a small edit, as a status patch is. */
function edited(value: string, at: number, text: string): string {
  const i = value.length === 0 ? 0 : at % value.length;
  const piece = text.slice(0, 12);
  return value.slice(0, i) + piece + value.slice(i + piece.length);
}

function checkAll(store: KVStore, history: readonly Written[]): void {
  for (let rev = Math.max(store.compactMainRev, 1); rev <= store.rev(); rev++) {
    const expected = new Map<string, string>();
    for (const w of history) {
      if (w.main > rev) break;
      if (w.value === null) expected.delete(w.key);
      else expected.set(w.key, w.value);
    }
    const { kvs } = store.read().range('a', 'z', { rev });
    expect(kvs.every((kv) => typeof kv.value === 'string')).toBe(true);
    expect(kvs.map((kv) => [kv.key, kv.value])).toEqual([...expected].sort(([a], [b]) => (a < b ? -1 : 1)));
    // Keys without values (what the page's keyspace lists), read without rebuilding: the same keys,
    // revisions and leases, and each value's size.
    const metas: StoredMeta[] = [];
    store.forEachMeta('a', 'z', rev, (meta) => metas.push(meta));
    const metaOf = (kv: KeyValue) => ({ key: kv.key, createRevision: kv.createRevision, modRevision: kv.modRevision, version: kv.version, lease: kv.lease, size: kv.value.length });
    expect(metas).toEqual(kvs.map(metaOf));
    // One key alone, as the page's seek reads a few.
    for (const kv of kvs.slice(0, 3)) {
      const one: StoredMeta[] = [];
      store.forEachMeta(kv.key, undefined, rev, (meta) => one.push(meta));
      expect(one).toEqual([metaOf(kv)]);
    }
  }
  const byMain = new Map(history.map((w) => [w.main, w]));
  const stored: Array<[string, number]> = [];
  store.backend.rangeRevisions(0, Number.MAX_SAFE_INTEGER, (kv, rev) => {
    const w = byMain.get(rev.main)!;
    expect([kv.key, kv.value]).toEqual([w.key, w.value ?? '']);
    stored.push([kv.key, kv.value.length]);
  });
  // The sizes Status's dbSize counts, read without rebuilding, are the stored values' lengths.
  const sizes: Array<[string, number]> = [];
  store.backend.sizes((key, length) => sizes.push([key, length]));
  expect(sizes).toEqual(stored);
}

describe('etcd backend: superseded values kept as deltas', () => {
  it('reads back every value at every revision, through compactions and deletes, whenever values become deltas', () => {
    fc.assert(fc.property(fc.nat(4), fc.array(op, { maxLength: 100 }), (lag, ops) => {
      const store = new KVStore();
      store.backend.supersedeLag = lag;
      store.lessor.grant('7', 3600, 0);
      const history: Written[] = [];
      const last = new Map<string, string>();
      // The value written last, of any key: a new key's value is often an edit of it (Events of one reason).
      let lastAny: string | undefined;
      for (const o of ops) {
        if (o.kind === 'compact') {
          const rev = store.rev() - o.back;
          if (rev > store.compactMainRev && rev >= 1) store.compact(rev);
          continue;
        }
        const txn = store.write();
        if (o.kind === 'put') {
          const from = last.get(o.key) ?? lastAny;
          const value = o.edit && from !== undefined ? edited(from, o.at, o.text) : o.text;
          txn.put(o.key, value, o.leased ? '7' : noLease);
          last.set(o.key, value);
          lastAny = value;
          history.push({ key: o.key, main: txn.beginRev + 1, value });
        } else if (txn.deleteRange(o.key, undefined)[0] > 0) {
          last.delete(o.key);
          history.push({ key: o.key, main: txn.beginRev + 1, value: null });
        }
        txn.end();
      }
      checkAll(store, history);
      expect(store.verify()).toBeUndefined();
    }), { numRuns: 300 });
  });

  it('keeps a long run of revisions of one key as deltas, every 17th whole, and rebuilds the oldest exactly', () => {
    const store = new KVStore();
    // Lag 1: the newest value is not yet kept against a base (lag 0 would do so at once, before its key replaces it).
    store.backend.supersedeLag = 1;
    const history: Written[] = [];
    let value = 'x'.repeat(2000);
    for (let i = 0; i < 100; i++) {
      value = edited(value, i * 37, `status ${i}`);
      const txn = store.write();
      txn.put('a', value, noLease);
      history.push({ key: 'a', main: txn.beginRev + 1, value });
      txn.end();
    }
    // 99 superseded revisions, 98 past the lag: runs of maxDeltaRun deltas, each followed by one value kept whole.
    const whole = Math.floor(98 / (maxDeltaRun + 1));
    expect(store.backend.packed().deltas).toBe(98 - whole);
    expect(store.backend.packed().sharedBases).toBe(0);
    expect(store.backend.size).toBe(100);
    checkAll(store, history);
    store.compact(50);
    checkAll(store, history.filter((w) => w.main >= 50));
  });
});

describe('etcd backend: the newest superseded values stay whole', () => {
  it('makes a value a delta only supersedeLag supersessions after it was superseded', () => {
    const store = new KVStore();
    store.backend.supersedeLag = 3;
    for (let i = 0; i < 8; i++) {
      const txn = store.write();
      txn.put('a', `${'x'.repeat(200)}${i}`, noLease);
      txn.end();
    }
    // 7 superseded revisions, the newest 3 still whole.
    expect(store.backend.packed().deltas).toBe(4);
    expect(store.read().range('a', undefined, { rev: 2 }).kvs[0]!.value).toBe(`${'x'.repeat(200)}0`);
  });
});

describe('etcd backend: values kept against a base', () => {
  it('keeps similar values of other keys as deltas and reads them back after their base is deleted and compacted', () => {
    const store = new KVStore();
    store.backend.supersedeLag = 0;
    store.lessor.grant('7', 3600, 0);
    const event = (i: number): string => `Event pod-${i} Scheduled ${'x'.repeat(400)} uid-${1000 + i} at ${i}s`;
    for (let i = 0; i < 20; i++) {
      const txn = store.write();
      txn.put(`/registry/events/default/e${i}`, event(i), '7');
      txn.end();
    }
    // A key of another parent never serves as a base for these.
    const txn = store.write();
    txn.put('/registry/other/x', event(99), '7');
    txn.end();
    // The first value is the base; the 19 after it are deltas against it; the other parent's is its own base.
    expect(store.backend.packed().sharedBases).toBe(19);
    const del = store.write();
    del.deleteRange('/registry/events/default/e0', undefined);
    del.end();
    store.compact(store.rev());
    expect(store.read().range('/registry/events/default/e0', undefined, {}).kvs).toEqual([]);
    const { kvs } = store.read().range('/registry/events/default/', '/registry/events/default0', {});
    expect(kvs.map((kv) => kv.value)).toEqual(Array.from({ length: 19 }, (_, i) => event(i + 1)).sort((a, b) => (a < b ? -1 : 1)).map((v) => v));
    expect(store.verify()).toBeUndefined();
  });

  it('keeps a value its key replaces as a delta against its next revision, and the last one against a base', () => {
    const store = new KVStore();
    store.backend.supersedeLag = 2;
    const pod = (name: string, i: number): string => `Pod ${name} ${'x'.repeat(400)} status ${i}`;
    const written: Array<[string, string]> = [];
    const put = (key: string, value: string): void => {
      const txn = store.write();
      txn.put(key, value, noLease);
      txn.end();
      written.push([key, value]);
    };
    for (let i = 0; i < 6; i++) put('x/a', pod('a', i));
    for (const name of ['b', 'c', 'd', 'e']) put(`x/${name}`, pod(name, 0));
    // Three of a's five replaced values are deltas against their next revision (two supersessions are
    // still within the lag); its last value becomes the parent's base, and b and c are kept against it.
    expect(store.backend.packed().deltas).toBe(3);
    expect(store.backend.packed().sharedBases).toBe(2);
    const read: Array<[string, string]> = [];
    store.backend.rangeRevisions(0, Number.MAX_SAFE_INTEGER, (kv) => read.push([kv.key, kv.value]));
    expect(read).toEqual(written);
  });
});

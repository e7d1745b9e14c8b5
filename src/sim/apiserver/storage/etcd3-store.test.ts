import { describe, expect, it } from 'vitest';
import { newTooLargeResourceVersion } from '../../api/errors.ts';
import type { Status } from '../../api/types/meta.ts';
import type { WatchStreamRequest } from '../../etcd/index.ts';
import type { Etcd3Store } from './etcd3-store.ts';
import type { StorageError } from './errors.ts';
import {
  caught, pod, podKey, podResource, setLabels, watchOptions, WatchRecorder,
} from './contract-fixtures.ts';
import { describeStorageContract } from './storage-contract.ts';
import { StorageBench } from './testing.ts';

describeStorageContract('Etcd3Store', (bench) => bench.etcd3Store(podResource));

function setup(): { bench: StorageBench; store: Etcd3Store } {
  const bench = new StorageBench();
  return { bench, store: bench.etcd3Store(podResource) };
}

describe('Etcd3Store (etcd only)', () => {
  it('fails a get at once with 504 Too large resource version, without Retry-After, for a future RV', () => {
    const { bench, store } = setup();
    bench.run(store.create(podKey('x'), pod('x'), 0));
    const err = caught(() => bench.run(store.get(podKey('x'), { resourceVersion: '99' })));
    expect(err).toEqual(newTooLargeResourceVersion(99, 2, 0));
    expect((err as { status: { message: string } }).status.message).toBe('Timeout: Too large resource version: 99, current: 2');
    expect(bench.sim.now).toBe(4);
  });

  describe('writes given a cached object (what the watch cache passes)', () => {
    it('without one, an update reads the key first; with one, it sends its Txn at once', () => {
      const { bench, store } = setup();
      const created = bench.run(store.create(podKey('x'), pod('x'), 0));
      let mark = bench.etcdLog().length;
      bench.run(store.guaranteedUpdate(podKey('x'), { ignoreNotFound: false }, setLabels({ v: '1' })));
      expect(bench.etcdLog().slice(mark).map((l) => l.slice(0, 12))).toEqual(['key:"/regist', 'compare:<tar']);
      const current = bench.run(store.get(podKey('x'), { resourceVersion: '' }))!;
      mark = bench.etcdLog().length;
      bench.run(store.guaranteedUpdate(podKey('x'), { ignoreNotFound: false }, setLabels({ v: '2' }), 0, current));
      const log = bench.etcdLog().slice(mark);
      expect(log).toHaveLength(1);
      expect(log[0]).toContain(`compare:<target:MOD key:"${podKey('x')}" mod_revision:3 >`);
      expect(created.metadata.resourceVersion).toBe('2');
    });

    it('gives tryUpdate a copy of the cached object, or the frozen object itself when tryUpdate only reads it', () => {
      const { bench, store } = setup();
      bench.run(store.create(podKey('x'), pod('x'), 0));
      const cached = Object.freeze(bench.run(store.get(podKey('x'), { resourceVersion: '' }))!);
      const given: unknown[] = [];
      const update = (v: string) => function* (cur: typeof cached) {
        given.push(cur);
        return { ...cur, metadata: { ...cur.metadata, labels: { v } } };
      };
      bench.run(store.guaranteedUpdate(podKey('x'), { ignoreNotFound: false }, update('1'), 0, cached));
      const next = Object.freeze(bench.run(store.get(podKey('x'), { resourceVersion: '' }))!);
      bench.run(store.guaranteedUpdate(podKey('x'), { ignoreNotFound: false, readsCurrentOnly: true }, update('2'), 0, next));
      expect(given[0]).not.toBe(cached);
      expect(given[0]).toEqual(cached);
      expect(given[1]).toBe(next);
      expect(bench.run(store.get(podKey('x'), { resourceVersion: '' }))!.metadata.labels).toEqual({ v: '2' });
    });

    it('a stale cached object costs one failed Txn, whose else-branch read feeds the retry', () => {
      const { bench, store } = setup();
      const stale = bench.run(store.create(podKey('x'), pod('x'), 0));
      bench.run(store.guaranteedUpdate(podKey('x'), { ignoreNotFound: false }, setLabels({ by: 'other' })));
      const seen: Array<Record<string, string> | undefined> = [];
      const updated = bench.run(store.guaranteedUpdate(podKey('x'), { ignoreNotFound: false }, function* (cur) {
        seen.push(cur.metadata.labels);
        return { ...cur, metadata: { ...cur.metadata, annotations: { a: 'b' } } };
      }, 0, stale));
      // The empty labels map was not stored (protobuf omits it), so the stale copy has none.
      expect(seen).toEqual([undefined, { by: 'other' }]);
      expect(updated.metadata.resourceVersion).toBe('4');
      const txns = bench.sim.trace.all().filter((m) => m.kind === 'etcd.TxnResponse');
      expect(txns.map((m) => (m.payload as { response: { succeeded: boolean } }).response.succeeded)).toEqual([true, true, false, true]);
    });

    it('a precondition failing on cached data is checked against etcd before it is reported', () => {
      const { bench, store } = setup();
      const stale = bench.run(store.create(podKey('x'), pod('x'), 0));
      // The cached copy says uid-x; etcd has the object re-created with another uid.
      bench.etcdServer.kv.put({ key: podKey('x'), value: JSON.stringify({ ...pod('x'), metadata: { ...pod('x').metadata, uid: 'uid-new' } }) });
      const updated = bench.run(store.guaranteedUpdate(podKey('x'), { ignoreNotFound: false, preconditions: { uid: 'uid-new' } },
        setLabels({ ok: 'yes' }), 0, stale));
      expect(updated.metadata.uid).toBe('uid-new');
      const current = bench.run(store.get(podKey('x'), { resourceVersion: '' }))!;
      const mark = bench.etcdLog().length;
      const err = caught(() => bench.run(store.guaranteedUpdate(podKey('x'), { ignoreNotFound: false, preconditions: { uid: 'uid-x' } },
        setLabels({}), 0, current)));
      expect((err as StorageError).code).toBe('InvalidObj');
      // The cached copy was current: one read to confirm, no Txn.
      expect(bench.etcdLog().slice(mark)).toEqual([`key:"${podKey('x')}" `]);
    });

    it('a delete with a cached object sends its Txn at once', () => {
      const { bench, store } = setup();
      const created = bench.run(store.create(podKey('x'), pod('x'), 0));
      const mark = bench.etcdLog().length;
      const deleted = bench.run(store.delete(podKey('x'), undefined, () => undefined, created));
      expect(deleted.metadata.resourceVersion).toBe('3');
      expect(bench.etcdLog().slice(mark)).toHaveLength(1);
    });
  });

  describe('watch (the uncached path, as for events)', () => {
    it('RV "": one Range, then an etcd watch from its header revision + 1 with prev_kv', () => {
      const { bench, store } = setup();
      bench.run(store.create(podKey('a'), pod('a'), 0));
      const rec = new WatchRecorder(bench);
      bench.run(store.watch('/registry/pods', watchOptions({ resourceVersion: '' }), rec));
      expect(bench.etcdLog().at(-1)).toBe('key:"/registry/pods/" range_end:"/registry/pods0" ');
      const create = bench.sim.trace.all().filter((m) => m.kind === 'etcd.Watch').map((m) => (m.payload as WatchStreamRequest).request.createRequest);
      expect(create).toEqual([{ key: '/registry/pods/', rangeEnd: '/registry/pods0', startRevision: 3, prevKv: true }]);
      expect(rec.summary()).toEqual(['ADDED a@2']);
    });

    it('RV N below the compaction: one ERROR event, 410 Expired with the etcd-path text, then the end', () => {
      const { bench, store } = setup();
      for (const name of ['a', 'b', 'c']) bench.run(store.create(podKey(name), pod(name), 0));
      bench.etcdServer.kv.compact({ revision: 3 });
      const rec = new WatchRecorder(bench);
      bench.run(store.watch('/registry/pods', watchOptions({ resourceVersion: '1' }), rec));
      expect(rec.events.map((e) => [e.type, e.object])).toEqual([['ERROR', {
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
        message: 'The resourceVersion for the provided watch is too old.', reason: 'Expired', code: 410,
      } satisfies Status]]);
      expect(rec.ended).toBe(true);
      // Watching from the compaction revision itself still works.
      const ok = new WatchRecorder(bench);
      bench.run(store.watch('/registry/pods', watchOptions({ resourceVersion: '2' }), ok));
      expect(ok.summary()).toEqual(['ADDED b@3', 'ADDED c@4']);
    });

    it('sends no bookmarks to clients, and refuses sendInitialEvents it cannot honour with 422', () => {
      const { bench, store } = setup();
      const rec = new WatchRecorder(bench);
      bench.run(store.watch('/registry/pods', watchOptions({ allowWatchBookmarks: true }), rec));
      bench.run(store.create(podKey('a'), pod('a'), 0));
      bench.sim.runFor(15 * 60_000);
      expect(rec.summary()).toEqual(['ADDED a@2']);
      const err = caught(() => bench.run(store.watch('/registry/pods', watchOptions({ allowWatchBookmarks: true, sendInitialEvents: true }), rec)));
      expect((err as { status: Status }).status).toMatchObject({
        code: 422, reason: 'Invalid', message: 'pods "" is invalid: sendInitialEvents: Forbidden: for watch is unsupported by an etcd cluster',
      });
      const legacy = new WatchRecorder(bench);
      bench.run(store.watch('/registry/pods', watchOptions({ sendInitialEvents: true }), legacy));
      expect(legacy.summary()).toEqual(['ADDED a@2']);
    });

    it('with progressNotify, etcd progress notifications become BOOKMARK events carrying the revision', () => {
      const { bench, store } = setup();
      bench.run(store.create(podKey('a'), pod('a'), 0));
      bench.run(store.create('/registry/other/x', pod('x'), 0));
      const rec = new WatchRecorder(bench);
      bench.run(store.watch('/registry/pods', watchOptions({ resourceVersion: '2', progressNotify: true }), rec));
      bench.sim.runFor(11 * 60_000);
      expect(rec.summary()).toEqual(['BOOKMARK @3']);
      expect(rec.events[0]!.object).toEqual({ kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: '3' } });
    });

    it('rejects a resourceVersion that is not a number before anything is sent', () => {
      const { bench, store } = setup();
      const err = caught(() => bench.run(store.watch('/registry/pods', watchOptions({ resourceVersion: 'abc' }), new WatchRecorder(bench))));
      expect((err as Error).message).toBe('resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax');
      expect(bench.sim.trace.all()).toHaveLength(0);
    });
  });
});

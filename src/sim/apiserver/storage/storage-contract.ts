// The storage contract: one suite that every Storage implementation must pass, run by
// etcd3-store.test.ts against the etcd store and by cacher.test.ts against the watch cache in front of
// it; its fixtures are in contract-fixtures.ts. Test-only: nothing in the simulation imports it.
// Models the shared suites of k8s.io/apiserver/pkg/storage/testing/store_tests.go (RunTestCreate,
// RunTestGet, RunTestList, RunTestGuaranteedUpdate, RunTestDelete, RunTestWatch...).

import { describe, expect, it } from 'vitest';
import { everything } from '../../api/labels.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import { interpretStorageError, StorageError } from './errors.ts';
import type { Storage } from './interface.ts';
import { StorageBench } from './testing.ts';
import { decodeStored } from './codec.ts';
import {
  caught, fieldSelector, labelSelector, listOptions, pod, podKey, pods, predicate, setLabels, watchOptions, WatchRecorder,
} from './contract-fixtures.ts';

/** Runs the contract against the storage `make` builds on a fresh bench (after it has settled). */
export function describeStorageContract(name: string, make: (bench: StorageBench) => Storage): void {
  function setup(): { bench: StorageBench; store: Storage } {
    const bench = new StorageBench();
    const store = make(bench);
    bench.settle();
    return { bench, store };
  }

  function seeded(n: number): { bench: StorageBench; store: Storage } {
    const { bench, store } = setup();
    for (let i = 0; i < n; i++) {
      const podName = `p${String(i).padStart(3, '0')}`;
      bench.run(store.create(podKey(podName), pod(podName, { app: i % 10 === 0 ? 'nginx' : 'other' }), 0));
    }
    bench.run(store.create(podKey('sys', 'kube-system'), pod('sys', {}, 'kube-system'), 0));
    return { bench, store };
  }

  describe(`${name}: the storage contract`, () => {
    describe('create', () => {
      it('writes with one create-if-absent Txn and returns the txn revision as resourceVersion', () => {
        const { bench, store } = setup();
        const mark = bench.etcdLog().length;
        const created = bench.run(store.create(podKey('x'), pod('x'), 0));
        const rev = bench.etcdServer.kv.range({ key: podKey('x') });
        expect(created.metadata.resourceVersion).toBe(String(rev.kvs[0]!.modRevision));
        expect(created.metadata.resourceVersion).toBe(String(rev.header.revision));
        const stored = decodeStored(rev.kvs[0]!.value) as KubeObject;
        expect(stored.metadata.resourceVersion).toBeUndefined();
        const log = bench.etcdLog().slice(mark);
        expect(log).toHaveLength(1);
        expect(log[0]).toContain(
          `compare:<target:MOD key:"${podKey('x')}" mod_revision:0 > success:<request_put:<key:"${podKey('x')}" value_size:${rev.kvs[0]!.value.length} >> failure:<>`,
        );
      });

      it('answers an existing key with KeyExists, which the registry reports as AlreadyExists', () => {
        const { bench, store } = setup();
        bench.run(store.create(podKey('x'), pod('x'), 0));
        const err = caught(() => bench.run(store.create(podKey('x'), pod('x'), 0)));
        expect(err).toBeInstanceOf(StorageError);
        expect((err as StorageError).code).toBe('KeyExists');
        expect((interpretStorageError(err, pods, 'x') as { status: unknown }).status).toEqual({
          kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'pods "x" already exists',
          reason: 'AlreadyExists', details: { name: 'x', kind: 'pods' }, code: 409,
        });
      });

      it('attaches a lease for objects with a TTL, reusing it within the window', () => {
        const { bench, store } = setup();
        const a = bench.run(store.create('/registry/pods/default/a', pod('a'), 3600));
        const b = bench.run(store.create('/registry/pods/default/b', pod('b'), 3600));
        const kvA = bench.etcdServer.kv.range({ key: '/registry/pods/default/a' }).kvs[0]!;
        const kvB = bench.etcdServer.kv.range({ key: '/registry/pods/default/b' }).kvs[0]!;
        expect(kvA.lease).not.toBe('0');
        expect(kvB.lease).toBe(kvA.lease);
        expect(a.metadata.resourceVersion).not.toBe(b.metadata.resourceVersion);
        expect(bench.sim.trace.all().filter((m) => m.kind === 'etcd.LeaseGrant')).toHaveLength(1);
      });
    });

    describe('get', () => {
      it('returns the object with resourceVersion = mod_revision, or KeyNotFound', () => {
        const { bench, store } = setup();
        bench.run(store.create(podKey('x'), pod('x'), 0));
        bench.run(store.create('/registry/other/x', pod('x'), 0));
        for (const resourceVersion of ['', '0', '2']) {
          const got = bench.run(store.get(podKey('x'), { resourceVersion }))!;
          expect(got.metadata.resourceVersion).toBe('2');
          // As Go's ObjectMeta decodes: the empty labels map is not stored in protobuf, a zero creationTimestamp reads back null.
          expect(Object.keys(got.metadata)).toEqual(['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp']);
        }
        expect(bench.run(store.get(podKey('nope'), { resourceVersion: '', ignoreNotFound: true }))).toBeNull();
        expect(bench.run(store.get(podKey('nope'), { resourceVersion: '0', ignoreNotFound: true }))).toBeNull();
        expect((caught(() => bench.run(store.get(podKey('nope'), { resourceVersion: '' }))) as StorageError).code).toBe('KeyNotFound');
        expect((caught(() => bench.run(store.get(podKey('nope'), { resourceVersion: '0' }))) as StorageError).code).toBe('KeyNotFound');
      });

      it('hands out copies: changing a result changes nothing stored', () => {
        const { bench, store } = setup();
        bench.run(store.create(podKey('x'), pod('x', { app: 'a' }), 0));
        bench.run(store.get(podKey('x'), { resourceVersion: '0' }))!.metadata.labels!.app = 'changed';
        expect(bench.run(store.get(podKey('x'), { resourceVersion: '0' }))!.metadata.labels).toEqual({ app: 'a' });
      });
    });

    describe('guaranteedUpdate', () => {
      it('writes with a compare on the current mod_revision and returns the new revision', () => {
        const { bench, store } = setup();
        bench.run(store.create(podKey('x'), pod('x'), 0));
        const updated = bench.run(store.guaranteedUpdate(podKey('x'), { ignoreNotFound: false }, setLabels({ app: 'nginx' })));
        expect(updated.metadata.resourceVersion).toBe('3');
        expect(updated.metadata.labels).toEqual({ app: 'nginx' });
        const txnLine = bench.etcdLog().at(-1)!;
        expect(txnLine).toContain(`compare:<target:MOD key:"${podKey('x')}" mod_revision:2 > success:<request_put:<key:"${podKey('x')}"`);
        expect(txnLine).toContain(`failure:<request_range:<key:"${podKey('x')}" > >`);
      });

      it('writes nothing when the update changes nothing', () => {
        const { bench, store } = setup();
        bench.run(store.create(podKey('x'), pod('x'), 0));
        const before = bench.etcdServer.kv.range({ key: 'a' }).header.revision;
        const same = bench.run(store.guaranteedUpdate(podKey('x'), { ignoreNotFound: false }, function* (cur) {
          return cur;
        }));
        expect(same.metadata.resourceVersion).toBe('2');
        expect(bench.etcdServer.kv.range({ key: 'a' }).header.revision).toBe(before);
        expect(bench.sim.trace.all().filter((m) => m.kind === 'etcd.Txn')).toHaveLength(1);
      });

      it('retries on a concurrent write, re-running the update on the object from the failed txn', () => {
        const { bench, store } = setup();
        bench.run(store.create(podKey('x'), pod('x'), 0));
        let attempts = 0;
        const updated = bench.run(store.guaranteedUpdate(podKey('x'), { ignoreNotFound: false }, function* (cur) {
          attempts++;
          if (attempts === 1) {
            // Someone else writes between our read and our txn.
            bench.etcdServer.kv.put({ key: podKey('x'), value: JSON.stringify({ ...pod('x', { by: 'other' }) }) });
          }
          return { ...cur, metadata: { ...cur.metadata, annotations: { attempt: String(attempts) } } };
        }));
        expect(attempts).toBe(2);
        expect(updated.metadata.labels).toEqual({ by: 'other' });
        expect(updated.metadata.annotations).toEqual({ attempt: '2' });
        const txns = bench.sim.trace.all().filter((m) => m.kind === 'etcd.TxnResponse');
        expect(txns.map((m) => (m.payload as { response: { succeeded: boolean } }).response.succeeded)).toEqual([true, false, true]);
      });

      it('checks preconditions and reports a mismatch as the registry\'s 409', () => {
        const { bench, store } = setup();
        bench.run(store.create(podKey('x'), pod('x'), 0));
        const err = caught(() => bench.run(store.guaranteedUpdate(podKey('x'),
          { ignoreNotFound: false, preconditions: { uid: 'other-uid' } }, function* (cur) {
            return cur;
          })));
        const status = (interpretStorageError(err, pods, 'x') as { status: { message: string; code: number } }).status;
        expect(status.code).toBe(409);
        expect(status.message).toBe(`Operation cannot be fulfilled on pods "x": StorageError: invalid object, Code: 4, Key: ${podKey('x')}, `
          + 'ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: other-uid, UID in object meta: uid-x');
      });
    });

    describe('delete', () => {
      it('deletes with a compare on mod_revision and returns the object at the delete revision', () => {
        const { bench, store } = setup();
        bench.run(store.create(podKey('x'), pod('x'), 0));
        const deleted = bench.run(store.delete(podKey('x'), undefined, () => undefined));
        expect(deleted.metadata.resourceVersion).toBe('3');
        expect(bench.etcdServer.kv.range({ key: podKey('x') }).kvs).toHaveLength(0);
        expect(bench.etcdLog().at(-1)).toContain(`compare:<target:MOD key:"${podKey('x')}" mod_revision:2 > success:<request_delete_range:<key:"${podKey('x')}" > > failure:<request_range:<key:"${podKey('x')}" > >`);
        expect((caught(() => bench.run(store.delete(podKey('x'), undefined, () => undefined))) as StorageError).code).toBe('KeyNotFound');
      });

      it('runs the deletion check on the current object and deletes nothing when it refuses', () => {
        const { bench, store } = setup();
        bench.run(store.create(podKey('x'), pod('x'), 0));
        const err = caught(() => bench.run(store.delete(podKey('x'), undefined, () => {
          throw new StorageError('InvalidObj', podKey('x'), 0, 'refused');
        })));
        expect((err as StorageError).additional).toBe('refused');
        expect(bench.etcdServer.kv.range({ key: podKey('x') }).kvs).toHaveLength(1);
      });
    });

    describe('getList', () => {
      it('ranges over the namespace prefix and filters labels in the apiserver, reading every KV', () => {
        const { bench, store } = seeded(30);
        const list = bench.run(store.getList('/registry/pods/default', listOptions({ predicate: predicate(labelSelector('app=nginx')) })));
        expect(list.items.map((o) => o.metadata.name)).toEqual(['p000', 'p010', 'p020']);
        expect(list.resourceVersion).toBe(32);
        expect(list.cost.kvsRead).toBe(30);
        expect(bench.etcdLog().at(-1)).toContain('key:"/registry/pods/default/" range_end:"/registry/pods/default0"');
      });

      it('pages with limit and continue; remainingItemCount only without selectors', () => {
        const { bench, store } = seeded(12);
        const first = bench.run(store.getList('/registry/pods/default', listOptions({ predicate: predicate(everything, 5) })));
        expect(first.items.map((o) => o.metadata.name)).toEqual(['p000', 'p001', 'p002', 'p003', 'p004']);
        expect(first.remainingItemCount).toBe(7);
        expect(bench.etcdLog().at(-1)).toContain('range_end:"/registry/pods/default0" limit:5');
        bench.run(store.create(podKey('p999'), pod('p999'), 0));
        const second = bench.run(store.getList('/registry/pods/default', listOptions({ predicate: predicate(everything, 5, first.continueToken) })));
        expect(second.items.map((o) => o.metadata.name)).toEqual(['p005', 'p006', 'p007', 'p008', 'p009']);
        expect(second.resourceVersion).toBe(first.resourceVersion);
        const third = bench.run(store.getList('/registry/pods/default', listOptions({ predicate: predicate(everything, 5, second.continueToken) })));
        expect(third.items.map((o) => o.metadata.name)).toEqual(['p010', 'p011']);
        expect(third.continueToken).toBeUndefined();
      });

      it('keeps asking etcd, doubling its limit, until a filtered page is full', () => {
        const { bench, store } = seeded(40);
        const page = bench.run(store.getList('/registry/pods/default', listOptions({ predicate: predicate(labelSelector('app=nginx'), 2) })));
        expect(page.items.map((o) => o.metadata.name)).toEqual(['p000', 'p010']);
        expect(page.continueToken).toBeDefined();
        expect(page.remainingItemCount).toBeUndefined();
        // p000 matches in the first round (limit 2), none in the second (4), p010 fills the page in the third (8).
        const limits = bench.etcdLog().slice(-3).map((l) => /limit:(\d+)/.exec(l)?.[1]);
        expect(limits).toEqual(['2', '4', '8']);
      });

      it('serves Exact at the requested revision and answers a compacted one with 410', () => {
        const { bench, store } = seeded(3);
        bench.run(store.guaranteedUpdate(podKey('p000'), { ignoreNotFound: false }, setLabels({ changed: 'yes' })));
        const old = bench.run(store.getList('/registry/pods/default', listOptions({ resourceVersion: '3', resourceVersionMatch: 'Exact' })));
        expect(old.resourceVersion).toBe(3);
        expect(old.items.map((o) => o.metadata.name)).toEqual(['p000', 'p001']);
        expect(old.items[0]!.metadata.labels).toEqual({ app: 'nginx' });
        bench.etcdServer.kv.compact({ revision: 5 });
        const err = caught(() => bench.run(store.getList('/registry/pods/default', listOptions({ resourceVersion: '3', resourceVersionMatch: 'Exact' }))));
        expect((err as { status: unknown }).status).toEqual({
          kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
          message: 'The resourceVersion for the provided list is too old.', reason: 'Expired', code: 410,
        });
      });

      it('rejects a continue token combined with a resourceVersion', () => {
        const { bench, store } = seeded(6);
        const first = bench.run(store.getList('/registry/pods/default', listOptions({ predicate: predicate(everything, 2) })));
        const err = caught(() => bench.run(store.getList('/registry/pods/default', listOptions({ resourceVersion: '5', predicate: predicate(everything, 2, first.continueToken) }))));
        expect((err as { status: { message: string; code: number } }).status).toMatchObject({ code: 400, message: 'specifying resource version is not allowed when using continue' });
      });

      it('lists with RV "0" everything stored once the store has caught up', () => {
        const { bench, store } = seeded(4);
        const list = bench.run(store.getList('/registry/pods/', listOptions({ resourceVersion: '0' })));
        expect(list.items.map((o) => `${o.metadata.namespace}/${o.metadata.name}`)).toEqual(['default/p000', 'default/p001', 'default/p002', 'default/p003', 'kube-system/sys']);
        expect(list.resourceVersion).toBe(6);
      });
    });

    describe('watch', () => {
      it('RV "0": ADDED for every existing object (each at its own resourceVersion), then every change', () => {
        const { bench, store } = setup();
        bench.run(store.create(podKey('a'), pod('a'), 0));
        bench.run(store.create(podKey('b'), pod('b'), 0));
        bench.run(store.create(podKey('c', 'other'), pod('c', {}, 'other'), 0));
        const rec = new WatchRecorder(bench);
        bench.run(store.watch('/registry/pods/default', watchOptions(), rec));
        expect(rec.summary()).toEqual(['ADDED a@2', 'ADDED b@3']);
        bench.run(store.guaranteedUpdate(podKey('a'), { ignoreNotFound: false }, setLabels({ v: '2' })));
        bench.run(store.delete(podKey('b'), undefined, () => undefined));
        bench.run(store.create(podKey('d'), pod('d'), 0));
        bench.run(store.create(podKey('e', 'other'), pod('e', {}, 'other'), 0));
        expect(rec.summary()).toEqual(['ADDED a@2', 'ADDED b@3', 'MODIFIED a@5', 'DELETED b@6', 'ADDED d@7']);
        expect(rec.events[2]!.object.metadata.labels).toEqual({ v: '2' });
        expect(rec.events[3]!.object.metadata.uid).toBe('uid-b');
        expect(rec.ended).toBe(false);
      });

      it('RV N: only the changes after N', () => {
        const { bench, store } = setup();
        bench.run(store.create(podKey('a'), pod('a'), 0));
        bench.run(store.create(podKey('b'), pod('b'), 0));
        bench.run(store.guaranteedUpdate(podKey('a'), { ignoreNotFound: false }, setLabels({ v: '2' })));
        const rec = new WatchRecorder(bench);
        bench.run(store.watch('/registry/pods/default', watchOptions({ resourceVersion: '2' }), rec));
        expect(rec.summary()).toEqual(['ADDED b@3', 'MODIFIED a@4']);
        bench.run(store.delete(podKey('a'), undefined, () => undefined));
        expect(rec.summary()).toEqual(['ADDED b@3', 'MODIFIED a@4', 'DELETED a@5']);
      });

      it('a selector turns changes that make an object enter or leave it into ADDED and DELETED', () => {
        const { bench, store } = setup();
        bench.run(store.create(podKey('a'), pod('a', { app: 'nginx' }), 0));
        bench.run(store.create(podKey('b'), pod('b', { app: 'other' }), 0));
        const rec = new WatchRecorder(bench);
        bench.run(store.watch('/registry/pods/default', watchOptions({ predicate: predicate(labelSelector('app=nginx')) }), rec));
        bench.run(store.guaranteedUpdate(podKey('b'), { ignoreNotFound: false }, setLabels({ app: 'nginx' })));
        bench.run(store.guaranteedUpdate(podKey('a'), { ignoreNotFound: false }, setLabels({ app: 'other' })));
        bench.run(store.guaranteedUpdate(podKey('b'), { ignoreNotFound: false }, setLabels({ app: 'nginx', tier: 'web' })));
        bench.run(store.delete(podKey('a'), undefined, () => undefined));
        expect(rec.summary()).toEqual(['ADDED a@2', 'ADDED b@4', 'DELETED a@5', 'MODIFIED b@6']);
        // The DELETED object is the one the watcher last saw (still matching), at the revision that made it leave.
        expect(rec.events[2]!.object.metadata.labels).toEqual({ app: 'nginx' });
      });

      it('a field selector on the name watches one object', () => {
        const { bench, store } = setup();
        bench.run(store.create(podKey('a'), pod('a'), 0));
        const rec = new WatchRecorder(bench);
        bench.run(store.watch('/registry/pods/', watchOptions({ predicate: predicate(everything, 0, '', fieldSelector('metadata.name=b')) }), rec));
        bench.run(store.create(podKey('b'), pod('b'), 0));
        bench.run(store.create(podKey('b', 'other'), pod('b', {}, 'other'), 0));
        bench.run(store.create(podKey('c'), pod('c'), 0));
        expect(rec.summary()).toEqual(['ADDED b@3', 'ADDED b@4']);
      });

      it('stop ends the watch from the client side: nothing more is delivered', () => {
        const { bench, store } = setup();
        const rec = new WatchRecorder(bench);
        const w = bench.run(store.watch('/registry/pods/default', watchOptions(), rec));
        bench.run(store.create(podKey('a'), pod('a'), 0));
        w.stop();
        bench.run(store.create(podKey('b'), pod('b'), 0));
        expect(rec.summary()).toEqual(['ADDED a@2']);
        expect(rec.ended).toBe(false);
      });
    });
  });
}

import { describe, expect, it } from 'vitest';
import { newTooLargeResourceVersion } from '../../api/errors.ts';
import { everythingFields } from '../../api/fields.ts';
import { everything, parseLabelSelector, type Selector } from '../../api/labels.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import { utf8Length } from '../../etcd/index.ts';
import { Etcd3Store } from './etcd3-store.ts';
import { interpretStorageError, StorageError } from './errors.ts';
import type { ListOptions, SelectionPredicate } from './interface.ts';
import { StorageBench } from './testing.ts';

const pods = { group: '', resource: 'pods' };

function pod(name: string, labels: Record<string, string> = {}): KubeObject {
  return { kind: 'Pod', apiVersion: 'v1', metadata: { name, namespace: 'default', uid: `uid-${name}`, labels }, spec: { containers: [] } } as KubeObject;
}

function setup() {
  const bench = new StorageBench();
  const store = new Etcd3Store(bench.etcd, () => bench.sim.now);
  return { bench, store };
}

function predicate(label: Selector = everything, limit = 0, continueToken = ''): SelectionPredicate {
  return { label, field: everythingFields, limit, continueToken, getAttrs: (o) => ({ labels: o.metadata.labels ?? {}, fields: {} }) };
}

function listOptions(overrides: Partial<ListOptions> = {}): ListOptions {
  return { resourceVersion: '', resourceVersionMatch: '', predicate: predicate(), recursive: true, ...overrides };
}

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('Etcd3Store.create', () => {
  it('writes with one create-if-absent Txn and returns the txn revision as resourceVersion', () => {
    const { bench, store } = setup();
    const created = bench.run(store.create('/registry/pods/default/x', pod('x'), 0));
    const rev = bench.etcdServer.kv.range({ key: '/registry/pods/default/x' });
    expect(created.metadata.resourceVersion).toBe(String(rev.kvs[0]!.modRevision));
    expect(created.metadata.resourceVersion).toBe(String(rev.header.revision));
    const stored = JSON.parse(rev.kvs[0]!.value) as KubeObject;
    expect(stored.metadata.resourceVersion).toBeUndefined();
    const log = bench.etcdLog();
    expect(log).toHaveLength(1);
    const valueSize = utf8Length(rev.kvs[0]!.value);
    expect(log[0]).toContain(
      `compare:<target:MOD key:"/registry/pods/default/x" mod_revision:0 > success:<request_put:<key:"/registry/pods/default/x" value_size:${valueSize} >> failure:<>`,
    );
  });

  it('answers an existing key with KeyExists, which the registry reports as AlreadyExists', () => {
    const { bench, store } = setup();
    bench.run(store.create('/registry/pods/default/x', pod('x'), 0));
    const err = caught(() => bench.run(store.create('/registry/pods/default/x', pod('x'), 0)));
    expect(err).toBeInstanceOf(StorageError);
    expect((err as StorageError).code).toBe('KeyExists');
    const status = interpretStorageError(err, pods, 'x') as { status: unknown };
    expect(status.status).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'pods "x" already exists',
      reason: 'AlreadyExists', details: { name: 'x', kind: 'pods' }, code: 409,
    });
  });

  it('attaches a lease for objects with a TTL, reusing it within the window', () => {
    const { bench, store } = setup();
    const a = bench.run(store.create('/registry/events/default/a', pod('a'), 3600));
    const b = bench.run(store.create('/registry/events/default/b', pod('b'), 3600));
    const kvA = bench.etcdServer.kv.range({ key: '/registry/events/default/a' }).kvs[0]!;
    const kvB = bench.etcdServer.kv.range({ key: '/registry/events/default/b' }).kvs[0]!;
    expect(kvA.lease).not.toBe('0');
    expect(kvB.lease).toBe(kvA.lease);
    expect(a.metadata.resourceVersion).not.toBe(b.metadata.resourceVersion);
    expect(bench.sim.trace.all().filter((m) => m.kind === 'etcd.LeaseGrant')).toHaveLength(1);
  });
});

describe('Etcd3Store.get', () => {
  it('returns the object with resourceVersion = mod_revision, or KeyNotFound', () => {
    const { bench, store } = setup();
    bench.run(store.create('/registry/pods/default/x', pod('x'), 0));
    bench.etcdServer.kv.put({ key: '/registry/other', value: 'bump' });
    const got = bench.run(store.get('/registry/pods/default/x', { resourceVersion: '' }))!;
    expect(got.metadata.resourceVersion).toBe('2');
    expect(Object.keys(got.metadata)).toEqual(['name', 'namespace', 'uid', 'resourceVersion', 'labels']);
    expect(bench.run(store.get('/registry/pods/default/nope', { resourceVersion: '', ignoreNotFound: true }))).toBeNull();
    expect((caught(() => bench.run(store.get('/registry/pods/default/nope', { resourceVersion: '' }))) as StorageError).code).toBe('KeyNotFound');
  });

  it('fails at once with 504 Too large resource version, without Retry-After, for a future RV', () => {
    const { bench, store } = setup();
    bench.run(store.create('/registry/pods/default/x', pod('x'), 0));
    const err = caught(() => bench.run(store.get('/registry/pods/default/x', { resourceVersion: '99' })));
    expect(err).toEqual(newTooLargeResourceVersion(99, 2, 0));
    expect((err as { status: { message: string } }).status.message).toBe('Timeout: Too large resource version: 99, current: 2');
  });
});

describe('Etcd3Store.guaranteedUpdate', () => {
  it('writes with a compare on the read mod_revision and returns the new revision', () => {
    const { bench, store } = setup();
    bench.run(store.create('/registry/pods/default/x', pod('x'), 0));
    const updated = bench.run(store.guaranteedUpdate('/registry/pods/default/x', { ignoreNotFound: false }, function* (cur) {
      return { ...cur, metadata: { ...cur.metadata, labels: { app: 'nginx' } } };
    }));
    expect(updated.metadata.resourceVersion).toBe('3');
    expect(updated.metadata.labels).toEqual({ app: 'nginx' });
    const txnLine = bench.etcdLog().at(-1)!;
    expect(txnLine).toContain('compare:<target:MOD key:"/registry/pods/default/x" mod_revision:2 > success:<request_put:<key:"/registry/pods/default/x"');
    expect(txnLine).toContain('failure:<request_range:<key:"/registry/pods/default/x" > >');
  });

  it('writes nothing when the update changes nothing', () => {
    const { bench, store } = setup();
    bench.run(store.create('/registry/pods/default/x', pod('x'), 0));
    const before = bench.etcdServer.kv.range({ key: 'a' }).header.revision;
    const same = bench.run(store.guaranteedUpdate('/registry/pods/default/x', { ignoreNotFound: false }, function* (cur) {
      return cur;
    }));
    expect(same.metadata.resourceVersion).toBe('2');
    expect(bench.etcdServer.kv.range({ key: 'a' }).header.revision).toBe(before);
    expect(bench.sim.trace.all().filter((m) => m.kind === 'etcd.Txn')).toHaveLength(1);
  });

  it('retries on a concurrent write, re-running the update on the object from the failed txn', () => {
    const { bench, store } = setup();
    bench.run(store.create('/registry/pods/default/x', pod('x'), 0));
    let attempts = 0;
    const updated = bench.run(store.guaranteedUpdate('/registry/pods/default/x', { ignoreNotFound: false }, function* (cur) {
      attempts++;
      if (attempts === 1) {
        // Someone else writes between our read and our txn.
        bench.etcdServer.kv.put({ key: '/registry/pods/default/x', value: JSON.stringify({ ...pod('x', { by: 'other' }) }) });
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
    bench.run(store.create('/registry/pods/default/x', pod('x'), 0));
    const err = caught(() => bench.run(store.guaranteedUpdate('/registry/pods/default/x',
      { ignoreNotFound: false, preconditions: { uid: 'other-uid' } }, function* (cur) {
        return cur;
      })));
    const status = (interpretStorageError(err, pods, 'x') as { status: { message: string; code: number } }).status;
    expect(status.code).toBe(409);
    expect(status.message).toBe('Operation cannot be fulfilled on pods "x": StorageError: invalid object, Code: 4, Key: /registry/pods/default/x, '
      + 'ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: other-uid, UID in object meta: uid-x');
  });
});

describe('Etcd3Store.delete', () => {
  it('deletes with a compare on mod_revision and returns the object at the delete revision', () => {
    const { bench, store } = setup();
    bench.run(store.create('/registry/pods/default/x', pod('x'), 0));
    const deleted = bench.run(store.delete('/registry/pods/default/x', undefined, () => undefined));
    expect(deleted.metadata.resourceVersion).toBe('3');
    expect(bench.etcdServer.kv.range({ key: '/registry/pods/default/x' }).kvs).toHaveLength(0);
    expect(bench.etcdLog().at(-1)).toContain('compare:<target:MOD key:"/registry/pods/default/x" mod_revision:2 > success:<request_delete_range:<key:"/registry/pods/default/x" > > failure:<request_range:<key:"/registry/pods/default/x" > >');
    expect((caught(() => bench.run(store.delete('/registry/pods/default/x', undefined, () => undefined))) as StorageError).code).toBe('KeyNotFound');
  });
});

describe('Etcd3Store.getList', () => {
  function seeded(n: number) {
    const { bench, store } = setup();
    for (let i = 0; i < n; i++) {
      const name = `p${String(i).padStart(3, '0')}`;
      bench.run(store.create(`/registry/pods/default/${name}`, pod(name, { app: i % 10 === 0 ? 'nginx' : 'other' }), 0));
    }
    bench.run(store.create('/registry/pods/kube-system/sys', pod('sys'), 0));
    return { bench, store };
  }

  it('ranges over the namespace prefix and filters labels in the apiserver, reading every KV', () => {
    const { bench, store } = seeded(30);
    const selector = parseLabelSelector('app=nginx');
    if (!selector.ok) throw new Error(selector.error);
    const list = bench.run(store.getList('/registry/pods/default', listOptions({ predicate: predicate(selector.value) })));
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
    bench.run(store.create('/registry/pods/default/p999', pod('p999'), 0));
    const second = bench.run(store.getList('/registry/pods/default', listOptions({ predicate: predicate(everything, 5, first.continueToken) })));
    expect(second.items.map((o) => o.metadata.name)).toEqual(['p005', 'p006', 'p007', 'p008', 'p009']);
    expect(second.resourceVersion).toBe(first.resourceVersion);
    const third = bench.run(store.getList('/registry/pods/default', listOptions({ predicate: predicate(everything, 5, second.continueToken) })));
    expect(third.items.map((o) => o.metadata.name)).toEqual(['p010', 'p011']);
    expect(third.continueToken).toBeUndefined();
  });

  it('keeps asking etcd, doubling its limit, until a filtered page is full', () => {
    const { bench, store } = seeded(40);
    const selector = parseLabelSelector('app=nginx');
    if (!selector.ok) throw new Error(selector.error);
    const page = bench.run(store.getList('/registry/pods/default', listOptions({ predicate: predicate(selector.value, 2) })));
    expect(page.items.map((o) => o.metadata.name)).toEqual(['p000', 'p010']);
    expect(page.continueToken).toBeDefined();
    expect(page.remainingItemCount).toBeUndefined();
    // p000 matches in the first round (limit 2), none in the second (4), p010 fills the page in the third (8).
    const limits = bench.etcdLog().slice(-3).map((l) => /limit:(\d+)/.exec(l)?.[1]);
    expect(limits).toEqual(['2', '4', '8']);
  });

  it('serves Exact at the requested revision and answers a compacted one with 410', () => {
    const { bench, store } = seeded(3);
    bench.run(store.guaranteedUpdate('/registry/pods/default/p000', { ignoreNotFound: false }, function* (c) {
      return { ...c, metadata: { ...c.metadata, labels: { changed: 'yes' } } };
    }));
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
});

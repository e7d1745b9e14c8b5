import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newTooLargeResourceVersion } from '../../api/errors.ts';
import type { Status } from '../../api/types/meta.ts';
import type { WatchResponse, WatchStreamRequest, WatchStreamResponse } from '../../etcd/index.ts';
import { blockTimeout, cacherKinds, type WaitForCache } from './ready.ts';
import { initialEventsEndAnnotation } from './cache-watcher.ts';
import { StorageError } from './errors.ts';
import {
  caught, labelSelector, listOptions, pod, podKey, podResource, predicate, setLabels, settledCacher, watchOptions, WatchRecorder,
} from './contract-fixtures.ts';
import { describeStorageContract } from './storage-contract.ts';
import { StorageBench } from './testing.ts';

describeStorageContract('Cacher', (bench) => bench.cacher(podResource));


/** Writes straight into etcd, as another apiserver would: the cache learns of it one watch message later. */
function putBehindTheCache(bench: StorageBench, name: string, labels: Record<string, string> = {}): number {
  return bench.etcdServer.kv.put({ key: podKey(name), value: JSON.stringify(pod(name, labels)) }).header.revision;
}

function waitMessages(bench: StorageBench): string[] {
  return bench.sim.trace.all()
    .filter((m) => m.kind === cacherKinds.waitForCache || m.kind === cacherKinds.waitForCacheResponse)
    .map((m) => `${m.kind} ${(m.payload as WaitForCache).resourceVersion} @${m.deliverAt}`);
}

describe('Cacher: feeding the cache', () => {
  it('lists the resource prefix in pages of 10000, then watches etcd from the list revision + 1 with prev_kv and progress notifications', () => {
    const bench = new StorageBench();
    putBehindTheCache(bench, 'a');
    bench.cacher(podResource);
    bench.settle();
    expect(bench.etcdLog()).toEqual(['key:"/registry/pods/" range_end:"/registry/pods0" limit:10000 ']);
    const creates = bench.sim.trace.all().filter((m) => m.kind === 'etcd.Watch').map((m) => (m.payload as WatchStreamRequest).request.createRequest);
    expect(creates).toEqual([{ key: '/registry/pods/', rangeEnd: '/registry/pods0', startRevision: 3, prevKv: true, progressNotify: true }]);
  });

  it('keeps the state of the resource: one etcd watch event per change, none of its own etcd reads', () => {
    const { bench, cacher } = settledCacher();
    bench.run(cacher.create(podKey('a'), pod('a'), 0));
    bench.run(cacher.create(podKey('b'), pod('b'), 0));
    bench.run(cacher.guaranteedUpdate(podKey('a'), { ignoreNotFound: false }, setLabels({ v: '2' })));
    bench.run(cacher.delete(podKey('b'), undefined, () => undefined));
    expect(cacher.watchCache.list().map((e) => `${e.key}@${e.object.metadata.resourceVersion}`)).toEqual(['/registry/pods/default/a@4']);
    expect(cacher.watchCache.resourceVersion).toBe(5);
    // The list at start, then only the writes' Txns: updates and deletes compare against the cached mod_revision.
    expect(bench.etcdLog().map((l) => l.slice(0, 16))).toEqual(['key:"/registry/p', 'compare:<target:', 'compare:<target:', 'compare:<target:', 'compare:<target:']);
  });

  it('changes written by others, and etcd\'s progress notifications, move its resourceVersion', () => {
    const { bench, cacher } = settledCacher();
    putBehindTheCache(bench, 'a');
    bench.etcdServer.kv.put({ key: '/registry/other/x', value: '{}' });
    bench.settle();
    expect(cacher.watchCache.resourceVersion).toBe(2);
    // etcd notifies a watch that got no events for a whole interval (10 min + jitter): the second tick here.
    bench.sim.runFor(25 * 60_000);
    expect(cacher.watchCache.resourceVersion).toBe(3);
    expect(cacher.watchCache.bufferedEvents).toBe(1);
  });
});

describe('Cacher: Get', () => {
  it('RV "" reads etcd; RV "0" reads the cache, even when it lags behind etcd', () => {
    const { bench, cacher } = settledCacher();
    bench.run(cacher.create(podKey('a'), pod('a', { v: '1' }), 0));
    bench.etcdServer.kv.put({ key: podKey('a'), value: JSON.stringify(pod('a', { v: '2' })) });
    const fromCache = bench.begin(cacher.get(podKey('a'), { resourceVersion: '0' }));
    expect(fromCache.result()!.metadata.labels).toEqual({ v: '1' });
    expect(bench.run(cacher.get(podKey('a'), { resourceVersion: '' }))!.metadata.labels).toEqual({ v: '2' });
  });

  it('RV N waits, as a step of its own, until the cache has seen N, and answers from the cache', () => {
    const { bench, cacher } = settledCacher();
    const rev = putBehindTheCache(bench, 'a');
    const start = bench.sim.now;
    const got = bench.run(cacher.get(podKey('a'), { resourceVersion: String(rev) }));
    expect(got!.metadata.resourceVersion).toBe('2');
    expect(waitMessages(bench)).toEqual([`apiserver.waitForCache 2 @${start}`, `apiserver.waitForCacheResponse 2 @${start + 1}`]);
    expect(bench.etcdLog()).toHaveLength(1);
  });

  it('RV N the cache does not reach within 3 s: 504 Too large resource version with Retry-After 1', () => {
    const { bench, cacher } = settledCacher();
    bench.run(cacher.create(podKey('a'), pod('a'), 0));
    const start = bench.sim.now;
    const err = caught(() => bench.run(cacher.get(podKey('a'), { resourceVersion: '99' })));
    expect(bench.sim.now - start).toBe(blockTimeout);
    expect(err).toEqual(newTooLargeResourceVersion(99, 2, 1));
    expect((err as { status: Status }).status).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Timeout: Too large resource version: 99, current: 2',
      reason: 'Timeout', details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 }, code: 504,
    });
    // The wait is visible, and so is the timeout that ended it.
    expect(waitMessages(bench)).toEqual([`apiserver.waitForCache 99 @${start}`]);
    expect(bench.sim.trace.all().filter((m) => m.kind === 'timer' && m.deliverAt === start + blockTimeout)).toHaveLength(1);
  });

  it('not found in the cache: KeyNotFound at the cache\'s resourceVersion', () => {
    const { bench, cacher } = settledCacher();
    bench.run(cacher.create(podKey('a'), pod('a'), 0));
    const err = caught(() => bench.run(cacher.get(podKey('zz'), { resourceVersion: '1' })));
    expect((err as Error).message).toBe('StorageError: key not found, Code: 1, Key: /registry/pods/default/zz, ResourceVersion: 2, AdditionalErrorMsg: ');
  });

  it('before its first list: RV "0" goes to etcd, RV N waits for the cache to be ready', () => {
    const bench = new StorageBench();
    putBehindTheCache(bench, 'a');
    const cacher = bench.cacher(podResource);
    const any = bench.begin(cacher.get(podKey('a'), { resourceVersion: '0' }));
    const atLeast = bench.begin(cacher.get(podKey('a'), { resourceVersion: '2' }));
    bench.settle();
    expect(any.result()!.metadata.name).toBe('a');
    expect(atLeast.result()!.metadata.name).toBe('a');
    expect(bench.etcdLog()).toEqual(['key:"/registry/pods/" range_end:"/registry/pods0" limit:10000 ', `key:"${podKey('a')}" `]);
    expect(waitMessages(bench)).toEqual(['apiserver.waitForCache 0 @0', 'apiserver.waitForCacheResponse 2 @2']);
  });
});

describe('Cacher: GetList', () => {
  it('from the cache: limit ignored, no continue token, list RV = the cache\'s, no etcd request', () => {
    const { bench, cacher } = settledCacher();
    for (const name of ['a', 'b', 'c']) bench.run(cacher.create(podKey(name), pod(name), 0));
    const mark = bench.etcdLog().length;
    const list = bench.run(cacher.getList('/registry/pods/default', listOptions({ resourceVersion: '0', predicate: predicate(undefined, 2) })));
    expect(list.items.map((o) => o.metadata.name)).toEqual(['a', 'b', 'c']);
    expect(list.continueToken).toBeUndefined();
    expect(list.resourceVersion).toBe(4);
    expect(list.cost).toEqual({ etcdRequests: 0, kvsRead: 0, bytesRead: 0 });
    expect(bench.etcdLog()).toHaveLength(mark);
  });

  it('a non-recursive list reads one key', () => {
    const { bench, cacher } = settledCacher();
    for (const name of ['a', 'ab']) bench.run(cacher.create(podKey(name), pod(name), 0));
    const list = bench.run(cacher.getList(podKey('a'), listOptions({ resourceVersion: '0', recursive: false })));
    expect(list.items.map((o) => o.metadata.name)).toEqual(['a']);
  });
});

describe('Cacher: Watch', () => {
  it('from an RV older than its last list: one ERROR event, 410 Expired "too old resource version: N (listRV)"', () => {
    const bench = new StorageBench();
    for (const name of ['a', 'b']) putBehindTheCache(bench, name);
    const cacher = bench.cacher(podResource);
    bench.settle();
    const rec = new WatchRecorder(bench);
    bench.run(cacher.watch('/registry/pods', watchOptions({ resourceVersion: '2' }), rec));
    expect(rec.events.map((e) => e.object)).toEqual([{
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 2 (3)', reason: 'Expired', code: 410,
    } satisfies Status]);
    expect(rec.events[0]!.type).toBe('ERROR');
    expect(rec.ended).toBe(true);
    const fromList = new WatchRecorder(bench);
    bench.run(cacher.watch('/registry/pods', watchOptions({ resourceVersion: '3' }), fromList));
    putBehindTheCache(bench, 'c');
    bench.settle();
    expect(fromList.summary()).toEqual(['ADDED c@4']);
  });

  it('from an RV whose events left the window: 410 with the oldest buffered RV − 1', () => {
    const { bench, cacher } = settledCacher();
    // 101 changes a second apart: the window (100) does not grow, since its oldest event is over 75 s old.
    for (let i = 0; i < 101; i++) {
      putBehindTheCache(bench, 'a', { i: String(i) });
      bench.sim.runFor(1_000);
    }
    expect(cacher.watchCache.capacity).toBe(100);
    const rec = new WatchRecorder(bench);
    bench.run(cacher.watch('/registry/pods', watchOptions({ resourceVersion: '1' }), rec));
    expect((rec.events[0]!.object as Status).message).toBe('too old resource version: 1 (2)');
    const ok = new WatchRecorder(bench);
    bench.run(cacher.watch('/registry/pods', watchOptions({ resourceVersion: '100' }), ok));
    expect(ok.summary()).toEqual(['MODIFIED a@101', 'MODIFIED a@102']);
  });

  it('a watch asked for before the first list waits until the cache is ready', () => {
    const bench = new StorageBench();
    putBehindTheCache(bench, 'a');
    const cacher = bench.cacher(podResource);
    const rec = new WatchRecorder(bench);
    bench.begin(cacher.watch('/registry/pods', watchOptions(), rec));
    expect(rec.events).toHaveLength(0);
    bench.settle();
    expect(rec.summary()).toEqual(['ADDED a@2']);
    expect(waitMessages(bench)).toEqual(['apiserver.waitForCache 0 @0', 'apiserver.waitForCacheResponse 2 @2']);
  });

  it('RV "" is served by the cache; with WatchFromStorageWithoutResourceVersion it goes to etcd', () => {
    const cached = settledCacher();
    cached.bench.run(cached.cacher.create(podKey('a'), pod('a'), 0));
    const mark = cached.bench.etcdLog().length;
    const rec = new WatchRecorder(cached.bench);
    cached.bench.run(cached.cacher.watch('/registry/pods', watchOptions({ resourceVersion: '' }), rec));
    expect(rec.summary()).toEqual(['ADDED a@2']);
    expect(cached.bench.etcdLog()).toHaveLength(mark);

    const delegated = settledCacher({ watchFromStorageWithoutResourceVersion: true });
    delegated.bench.run(delegated.cacher.create(podKey('a'), pod('a'), 0));
    const fromEtcd = new WatchRecorder(delegated.bench);
    delegated.bench.run(delegated.cacher.watch('/registry/pods', watchOptions({ resourceVersion: '' }), fromEtcd));
    expect(fromEtcd.summary()).toEqual(['ADDED a@2']);
    expect(delegated.bench.etcdLog().at(-1)).toBe('key:"/registry/pods/" range_end:"/registry/pods0" ');
    expect(delegated.bench.sim.trace.all().filter((m) => m.kind === 'etcd.Watch')).toHaveLength(2);
  });
});

describe('Cacher: sendInitialEvents (WatchList)', () => {
  it('ADDED for the current state, then a BOOKMARK annotated k8s.io/initial-events-end at the next tick', () => {
    const { bench, cacher } = settledCacher({ watchList: true });
    bench.run(cacher.create(podKey('a'), pod('a'), 0));
    const rec = new WatchRecorder(bench);
    const start = bench.sim.now;
    bench.run(cacher.watch('/registry/pods', watchOptions({ resourceVersion: '', sendInitialEvents: true, allowWatchBookmarks: true }), rec));
    // RV "": the bookmark waits for etcd's current revision, read with a one-item list.
    expect(bench.etcdLog().at(-1)).toBe('key:"/registry/pods/" range_end:"/registry/pods0" limit:1 ');
    bench.sim.runFor(5_000);
    expect(rec.summary()).toEqual(['ADDED a@2', 'BOOKMARK @2']);
    expect(rec.events[1]!.object).toEqual({
      kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: '2', annotations: { [initialEventsEndAnnotation]: 'true' } },
    });
    expect(rec.events[1]!.at - start).toBeLessThanOrEqual(1_250 + 2);
    bench.run(cacher.create(podKey('b'), pod('b'), 0));
    bench.sim.runFor(70_000);
    expect(rec.summary()).toEqual(['ADDED a@2', 'BOOKMARK @2', 'ADDED b@3', 'BOOKMARK @3']);
    expect(rec.events[3]!.object.metadata.annotations).toBeUndefined();
  });

  it('waits up to 3 s for the cache to reach the requested RV, then fails the watch with the 504 as an ERROR event', () => {
    const { bench, cacher } = settledCacher({ watchList: true });
    const rec = new WatchRecorder(bench);
    bench.run(cacher.watch('/registry/pods', watchOptions({ resourceVersion: '9', sendInitialEvents: true, allowWatchBookmarks: true }), rec));
    expect(rec.events.map((e) => [e.type, (e.object as Status).code, (e.object as Status).message])).toEqual([
      ['ERROR', 504, 'Timeout: Too large resource version: 9, current: 1'],
    ]);
    expect(rec.ended).toBe(true);
  });

  it('is ignored while the WatchList gate is off (1.28 default)', () => {
    const { bench, cacher } = settledCacher();
    bench.run(cacher.create(podKey('a'), pod('a'), 0));
    const rec = new WatchRecorder(bench);
    bench.run(cacher.watch('/registry/pods', watchOptions({ resourceVersion: '1', sendInitialEvents: true, allowWatchBookmarks: true }), rec));
    bench.sim.runFor(5_000);
    expect(rec.summary()).toEqual(['ADDED a@2']);
  });
});

describe('Cacher: relist', () => {
  it('when its etcd watch is compacted it ends every watch, relists a second later and serves the new state', () => {
    const bench = new StorageBench();
    putBehindTheCache(bench, 'a');
    const cacher = bench.cacher(podResource);
    // Run until the list is in; its etcd watch (from revision 3) has not reached etcd yet.
    bench.stepUntil(() => cacher.ready);
    const client = new WatchRecorder(bench);
    bench.begin(cacher.watch('/registry/pods', watchOptions(), client));
    putBehindTheCache(bench, 'b');
    putBehindTheCache(bench, 'a', { v: '2' });
    bench.etcdServer.kv.compact({ revision: 4 });
    bench.settle();

    const compacted = bench.sim.trace.all().filter((m) => m.kind === 'etcd.WatchResponse' && (m.payload as WatchStreamResponse).response.compactRevision !== 0);
    expect(compacted.map((m) => (m.payload as { response: WatchResponse }).response.compactRevision)).toEqual([4]);
    expect(bench.etcdLog()).toEqual(['key:"/registry/pods/" range_end:"/registry/pods0" limit:10000 ', 'key:"/registry/pods/" range_end:"/registry/pods0" limit:10000 ']);
    const relistAt = bench.sim.trace.all().filter((m) => m.kind === 'etcd.Range')[1]!.sentAt;
    expect(relistAt - compacted[0]!.deliverAt).toBe(1_000);
    expect(client.summary()).toEqual(['ADDED a@2']);
    expect(client.ended).toBe(true);
    expect(cacher.ready).toBe(true);
    expect(cacher.watcherCount).toBe(0);

    const list = bench.run(cacher.getList('/registry/pods', listOptions({ resourceVersion: '0' })));
    expect(list.items.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`)).toEqual(['a@4', 'b@3']);
    expect(list.resourceVersion).toBe(4);
    const after = new WatchRecorder(bench);
    bench.run(cacher.watch('/registry/pods', watchOptions({ resourceVersion: '4' }), after));
    bench.run(cacher.delete(podKey('b'), undefined, () => undefined));
    expect(after.summary()).toEqual(['DELETED b@5']);
  });

  it('while it relists, RV "0" reads go to etcd', () => {
    const bench = new StorageBench();
    const cacher = bench.cacher(podResource);
    bench.stepUntil(() => cacher.ready);
    putBehindTheCache(bench, 'a');
    putBehindTheCache(bench, 'b');
    bench.etcdServer.kv.compact({ revision: 3 });
    bench.stepUntil(() => !cacher.ready);
    const mark = bench.etcdLog().length;
    const list = bench.begin(cacher.getList('/registry/pods', listOptions({ resourceVersion: '0' })));
    bench.stepUntil(() => list.result() !== undefined);
    expect(list.result()!.items.map((o) => o.metadata.name)).toEqual(['a', 'b']);
    expect(bench.etcdLog().slice(mark)).toEqual(['key:"/registry/pods/" range_end:"/registry/pods0" ']);
    expect(cacher.ready).toBe(false);
  });
});

describe('Cacher against the etcd path (seeded fuzz)', () => {
  type Op =
    | { readonly op: 'create'; readonly name: string; readonly namespace: string; readonly app: string }
    | { readonly op: 'update'; readonly name: string; readonly namespace: string; readonly app: string }
    | { readonly op: 'delete'; readonly name: string; readonly namespace: string }
    | { readonly op: 'watch' };
  // Names and namespaces that are prefixes of one another: a key prefix is a path, not a string prefix.
  const name = fc.constantFrom('a', 'ab', 'b');
  const namespace = fc.constantFrom('default', 'default-2');
  const app = fc.constantFrom('nginx', 'web');
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ op: fc.constant('create' as const), name, namespace, app }),
    fc.record({ op: fc.constant('update' as const), name, namespace, app }),
    fc.record({ op: fc.constant('delete' as const), name, namespace }),
    fc.record({ op: fc.constant('watch' as const) }),
  );

  const describeEvents = (rec: WatchRecorder) => rec.events.map((e) => `${e.type} ${e.object.metadata.namespace}/${e.object.metadata.name}@${e.object.metadata.resourceVersion} ${e.object.metadata.labels?.app}`);

  it('every watch (any key, selector, start) and every list gets from the cache what it gets from etcd', () => {
    fc.assert(fc.property(fc.array(opArb, { maxLength: 30 }), (ops) => {
      const bench = new StorageBench('fuzz');
      const cacher = bench.cacher(podResource);
      const etcd = bench.etcd3Store(podResource);
      bench.settle();
      const pairs: Array<[WatchRecorder, WatchRecorder]> = [];
      const watchBoth = (key: string, options: ReturnType<typeof watchOptions>) => {
        const pair: [WatchRecorder, WatchRecorder] = [new WatchRecorder(bench), new WatchRecorder(bench)];
        bench.run(cacher.watch(key, options, pair[0]));
        bench.run(etcd.watch(key, options, pair[1]));
        pairs.push(pair);
      };
      const nginx = predicate(labelSelector('app=nginx'));
      watchBoth('/registry/pods/default', watchOptions({ predicate: nginx }));
      watchBoth('/registry/pods', watchOptions());
      for (const o of ops) {
        try {
          if (o.op === 'create') bench.run(cacher.create(podKey(o.name, o.namespace), pod(o.name, { app: o.app }, o.namespace), 0));
          else if (o.op === 'update') bench.run(cacher.guaranteedUpdate(podKey(o.name, o.namespace), { ignoreNotFound: false }, setLabels({ app: o.app })));
          else if (o.op === 'delete') bench.run(cacher.delete(podKey(o.name, o.namespace), undefined, () => undefined));
          else {
            const rv = String(Math.max(1, cacher.watchCache.resourceVersion - 2));
            watchBoth('/registry/pods', watchOptions({ resourceVersion: rv, predicate: nginx }));
            watchBoth(podKey('a'), watchOptions({ resourceVersion: rv, recursive: false }));
          }
        } catch (err) {
          if (!(err instanceof StorageError)) throw err;
        }
      }
      bench.settle();
      for (const [fromCache, fromEtcd] of pairs) expect(describeEvents(fromCache)).toEqual(describeEvents(fromEtcd));
      for (const key of ['/registry/pods/', '/registry/pods/default']) {
        const cached = bench.run(cacher.getList(key, listOptions({ resourceVersion: '0', predicate: nginx })));
        const stored = bench.run(etcd.getList(key, listOptions({ predicate: nginx })));
        expect(cached.items).toEqual(stored.items);
        expect(cached.resourceVersion).toBe(stored.resourceVersion);
      }
    }), { seed: 20230815, numRuns: 60 });
  });
});

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types/meta.ts';
import { podNodeNameTrigger } from './cacher.ts';
import { fieldSelector, pod, podKey, podResource, predicate, watchOptions, WatchRecorder } from './contract-fixtures.ts';
import type { StorageWatchEvent } from './interface.ts';
import { StorageBench } from './testing.ts';

describe('Cacher: the pods trigger (spec.nodeName)', () => {
  const onNode = (nodeName: string) => function* (cur: KubeObject) {
    return { ...cur, spec: { ...(cur as KubeObject & { spec: object }).spec, nodeName } } as KubeObject;
  };
  const byNode = (selector: string) => ({
    ...predicate(undefined, 0, '', fieldSelector(selector)),
    getAttrs: (o: KubeObject) => ({ labels: o.metadata.labels ?? {}, fields: { 'spec.nodeName': (o as { spec?: { nodeName?: string } }).spec?.nodeName ?? '' } }),
  });

  it('node watchers get only their node\'s changes, the same as from etcd, dispatched in registration order', () => {
    const bench = new StorageBench('trigger');
    const cacher = bench.cacher(podResource, {}, podNodeNameTrigger);
    const etcd = bench.etcd3Store(podResource);
    bench.settle();
    const order: string[] = [];
    const selectors = ['spec.nodeName=a', '', 'spec.nodeName=b', 'spec.nodeName='];
    const pairs = selectors.map((selector) => {
      const fromCache = new WatchRecorder(bench);
      const record = fromCache.event.bind(fromCache);
      fromCache.event = (e: StorageWatchEvent) => {
        order.push(`${selector || 'all'} ${e.type}`);
        record(e);
      };
      const fromEtcd = new WatchRecorder(bench);
      const options = watchOptions(selector === '' ? {} : { predicate: byNode(selector) });
      bench.run(cacher.watch('/registry/pods', options, fromCache));
      bench.run(etcd.watch('/registry/pods', options, fromEtcd));
      return [fromCache, fromEtcd] as const;
    });
    bench.run(cacher.create(podKey('p'), pod('p'), 0));
    bench.run(cacher.guaranteedUpdate(podKey('p'), { ignoreNotFound: false }, onNode('a')));
    bench.run(cacher.guaranteedUpdate(podKey('p'), { ignoreNotFound: false }, onNode('b')));
    bench.run(cacher.delete(podKey('p'), undefined, () => undefined));
    bench.settle();
    for (const [fromCache, fromEtcd] of pairs) expect(fromCache.summary()).toEqual(fromEtcd.summary());
    expect(pairs.map(([fromCache]) => fromCache.summary())).toEqual([
      ['ADDED p@3', 'DELETED p@4'],
      ['ADDED p@2', 'MODIFIED p@3', 'MODIFIED p@4', 'DELETED p@5'],
      ['ADDED p@4', 'DELETED p@5'],
      ['ADDED p@2', 'DELETED p@3'],
    ]);
    expect(order).toEqual([
      'all ADDED', 'spec.nodeName= ADDED',
      'spec.nodeName=a ADDED', 'all MODIFIED', 'spec.nodeName= DELETED',
      'spec.nodeName=a DELETED', 'all MODIFIED', 'spec.nodeName=b ADDED',
      'all DELETED', 'spec.nodeName=b DELETED',
    ]);
  });

  it('hands every watcher the cache\'s own frozen object instead of a copy each', () => {
    const bench = new StorageBench('shared');
    const cacher = bench.cacher(podResource);
    bench.settle();
    const a = new WatchRecorder(bench);
    const b = new WatchRecorder(bench);
    bench.run(cacher.watch('/registry/pods', watchOptions(), a));
    bench.run(cacher.watch('/registry/pods', watchOptions(), b));
    bench.run(cacher.create(podKey('p'), pod('p'), 0));
    bench.settle();
    expect(a.events[0]!.object).toBe(b.events[0]!.object);
    expect(a.events[0]!.object).toBe(cacher.watchCache.getByKey(podKey('p')));
    expect(Object.isFrozen(a.events[0]!.object.metadata)).toBe(true);
    const got = bench.run(cacher.get(podKey('p'), { resourceVersion: '0' }))!;
    expect(Object.isFrozen(got)).toBe(false);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../api/types/core.ts';
import { Indexer } from '../../../client/store.ts';
import type { SharedIndexInformer } from '../../../client/index.ts';
import { SchedulerCache } from './cache.ts';

/** The part of an informer the cache reads: its indexer, get and list. */
function informer<T extends Pod | Node>(): SharedIndexInformer<T> & { indexer: Indexer<T> } {
  const indexer = new Indexer<T>();
  return {
    indexer,
    get: (namespace: string, name: string) => indexer.getByKey(namespace ? `${namespace}/${name}` : name),
    list: () => indexer.list(),
  } as unknown as SharedIndexInformer<T> & { indexer: Indexer<T> };
}

const node = (name: string, labels: Record<string, string> = {}): Node => ({
  apiVersion: 'v1', kind: 'Node', metadata: { name, labels }, spec: {},
  status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
} as Node);

const pod = (name: string, nodeName: string, cpu = '100m', phase = 'Pending'): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid: `uid-${name}` },
  spec: { nodeName, containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu } } }] },
  status: { phase },
} as Pod);

describe('the scheduler cache\'s snapshot', () => {
  it('gives a node\'s NodeInfo again while neither the node nor its pods changed, and a new one with the new sums after', () => {
    const pods = informer<Pod>();
    const nodes = informer<Node>();
    const cache = new SchedulerCache(pods, nodes);
    nodes.indexer.add(node('a'));
    nodes.indexer.add(node('b'));
    pods.indexer.add(pod('p1', 'a'));
    const first = cache.snapshot();
    expect(first.map((i) => [i.node.metadata.name, i.podCount, i.pods.length])).toEqual([['a', 1, 1], ['b', 0, 0]]);
    const second = cache.snapshot();
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toBe(first[1]);

    // A pod of node a changes (its status): a's NodeInfo is made again, b's stays.
    pods.indexer.update(pod('p1', 'a', '100m', 'Running'));
    const third = cache.snapshot();
    expect(third[0]).not.toBe(first[0]);
    expect(third[0]!.pods[0]!.status?.phase).toBe('Running');
    expect(third[1]).toBe(first[1]);

    // A pod joins node b; then node a itself changes.
    pods.indexer.add(pod('p2', 'b', '500m'));
    const fourth = cache.snapshot();
    expect(fourth[1]).not.toBe(first[1]);
    expect([fourth[1]!.podCount, fourth[1]!.pods.map((p) => p.metadata.name)]).toEqual([1, ['p2']]);
    expect(fourth[1]!.requested).not.toEqual(third[1]!.requested);
    nodes.indexer.update(node('a', { zone: 'z1' }));
    const fifth = cache.snapshot();
    expect(fifth[0]).not.toBe(fourth[0]);
    expect(fifth[0]!.node.metadata.labels).toEqual({ zone: 'z1' });
    expect(fifth[1]).toBe(fourth[1]);
  });

  it('a node with an assumed pod gets a NodeInfo of its own each time, counting the pod, until the informer shows it assigned', () => {
    const pods = informer<Pod>();
    const nodes = informer<Node>();
    const cache = new SchedulerCache(pods, nodes);
    nodes.indexer.add(node('a'));
    pods.indexer.add(pod('p1', ''));
    const before = cache.snapshot();
    expect(before[0]!.podCount).toBe(0);
    cache.assumePod('default/p1', pod('p1', 'a'));
    const assumed = cache.snapshot();
    expect(assumed[0]).not.toBe(before[0]);
    expect([assumed[0]!.podCount, assumed[0]!.pods.map((p) => p.metadata.name)]).toEqual([1, ['p1']]);
    expect(cache.snapshot()[0]).not.toBe(assumed[0]);
    pods.indexer.update(pod('p1', 'a'));
    cache.forgetPod('default/p1');
    const bound = cache.snapshot();
    expect([bound[0]!.podCount, bound[0]!.pods.map((p) => p.metadata.name)]).toEqual([1, ['p1']]);
    expect(cache.snapshot()[0]).toBe(bound[0]);
  });
});

describe('the scheduler cache\'s snapshot, made from the changes since the last one', () => {
  it('stops counting an assumed pod whose binding failed (forgotten, with no change in the informers)', () => {
    const pods = informer<Pod>();
    const nodes = informer<Node>();
    const cache = new SchedulerCache(pods, nodes);
    nodes.indexer.add(node('a'));
    nodes.indexer.add(node('b'));
    pods.indexer.add(pod('p1', ''));
    cache.snapshot();
    cache.assumePod('default/p1', pod('p1', 'b'));
    expect(cache.snapshot().map((i) => i.podCount)).toEqual([0, 1]);
    cache.forgetPod('default/p1');
    expect(cache.snapshot().map((i) => i.podCount)).toEqual([0, 0]);
  });

  /** What a snapshot must say, read from the informers and the assumed pods directly. */
  function expected(pods: Indexer<Pod>, nodes: Indexer<Node>, assumed: ReadonlyMap<string, Pod>) {
    return nodes.list()
      .map((n) => n.metadata.name!)
      .sort((a, b) => a.localeCompare(b))
      .map((name) => {
        const assigned = pods.list().filter((p) => p.spec.nodeName === name).map((p) => p.metadata.name!);
        const extra = [...assumed].filter(([key, p]) => p.spec.nodeName === name && !pods.getByKey(key)?.spec.nodeName).map(([, p]) => p.metadata.name!);
        return { name, labels: nodes.getByKey(name)!.metadata.labels, pods: [...assigned.sort(), ...extra] };
      });
  }

  const names = fc.constantFrom('node-a', 'node-b', 'node-c', 'node-d');
  const pods = fc.constantFrom('p1', 'p2', 'p3', 'p4', 'p5');
  const op = fc.oneof(
    fc.tuple(fc.constant('node' as const), names, fc.constantFrom('x', 'y')),
    fc.tuple(fc.constant('unnode' as const), names),
    fc.tuple(fc.constant('pod' as const), pods, fc.constantFrom('', 'node-a', 'node-b', 'node-c', 'node-d'), fc.constantFrom('Pending', 'Running')),
    fc.tuple(fc.constant('unpod' as const), pods),
    fc.tuple(fc.constant('assume' as const), pods, names),
    fc.tuple(fc.constant('forget' as const), pods),
    fc.constant(['snapshot' as const] as const),
  );

  it('says what a snapshot made from every node says, after any changes', () => {
    fc.assert(fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
      const podInformer = informer<Pod>();
      const nodeInformer = informer<Node>();
      const cache = new SchedulerCache(podInformer, nodeInformer);
      const assumed = new Map<string, Pod>();
      const check = () => {
        const infos = cache.snapshot();
        expect(infos.map((i) => ({ name: i.node.metadata.name, labels: i.node.metadata.labels, pods: i.pods.map((p) => p.metadata.name) })))
          .toEqual(expected(podInformer.indexer, nodeInformer.indexer, assumed));
        for (const info of infos) expect(info.podCount).toBe(info.pods.length);
      };
      for (const o of ops) {
        if (o[0] === 'node') nodeInformer.indexer.add(node(o[1], { v: o[2] }));
        else if (o[0] === 'unnode') nodeInformer.indexer.deleteKey(o[1]);
        else if (o[0] === 'pod') podInformer.indexer.add(pod(o[1], o[2], '100m', o[3]));
        else if (o[0] === 'unpod') podInformer.indexer.deleteKey(`default/${o[1]}`);
        else if (o[0] === 'assume') {
          assumed.set(`default/${o[1]}`, pod(o[1], o[2]));
          cache.assumePod(`default/${o[1]}`, pod(o[1], o[2]));
        } else if (o[0] === 'forget') {
          assumed.delete(`default/${o[1]}`);
          cache.forgetPod(`default/${o[1]}`);
        } else check();
      }
      check();
    }), { numRuns: 300, examples: [[[['node', 'node-a', 'x'], ['assume', 'p1', 'node-a'], ['snapshot'], ['forget', 'p1'], ['snapshot']]]] });
  });
});

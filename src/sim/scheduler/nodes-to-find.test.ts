import { describe, expect, it } from 'vitest';
import { createCluster } from '../cluster.ts';
import { adminCall } from '../testing/http.ts';
import { numFeasibleNodesToFind } from './nodes-to-find.ts';

describe('numFeasibleNodesToFind', () => {
  // Upstream's table (schedule_one_test.go TestNumFeasibleNodesToFind); a profile's percentage wins over the global one.
  it.each([
    { name: 'not set percentageOfNodesToScore and nodes number not more than 50', global: 0, profile: undefined, nodes: 10, want: 10 },
    { name: 'set percentageOfNodesToScore and nodes number not more than 50', global: 40, profile: undefined, nodes: 10, want: 10 },
    { name: 'set profile percentageOfNodesToScore and nodes number not more than 50', global: 0, profile: 40, nodes: 10, want: 10 },
    { name: 'not set percentageOfNodesToScore and nodes number more than 50', global: 0, profile: undefined, nodes: 1000, want: 420 },
    { name: 'set percentageOfNodesToScore and nodes number more than 50', global: 40, profile: undefined, nodes: 1000, want: 400 },
    { name: 'set profile percentageOfNodesToScore and nodes number more than 50', global: 0, profile: 40, nodes: 1000, want: 400 },
    { name: 'set global and profile percentageOfNodesToScore and nodes number more than 50', global: 100, profile: 40, nodes: 1000, want: 400 },
    { name: 'not set percentageOfNodesToScore and nodes number more than 50*125', global: 0, profile: undefined, nodes: 6000, want: 300 },
    { name: 'set percentageOfNodesToScore and nodes number more than 50*125', global: 40, profile: undefined, nodes: 6000, want: 2400 },
    { name: 'set profile percentageOfNodesToScore and nodes number more than 50*125', global: 0, profile: 40, nodes: 6000, want: 2400 },
  ])('$name', ({ global, profile, nodes, want }) => {
    expect(numFeasibleNodesToFind(global, nodes, profile)).toBe(want);
  });

  it('is never below 100 nodes from 100 nodes on, and the adaptive percentage never below 5', () => {
    expect(numFeasibleNodesToFind(0, 99)).toBe(99);
    expect(numFeasibleNodesToFind(0, 100)).toBe(100);
    expect(numFeasibleNodesToFind(0, 250)).toBe(120);
    expect(numFeasibleNodesToFind(0, 500)).toBe(230);
    expect(numFeasibleNodesToFind(0, 5000)).toBe(500);
    expect(numFeasibleNodesToFind(0, 10_000)).toBe(500);
    expect(numFeasibleNodesToFind(1, 5000)).toBe(100);
  });
});

describe('percentageOfNodesToScore in the Filter phase', () => {
  it('at 250 nodes examines 120 nodes per Pod, starting where the previous Pod stopped', () => {
    const cluster = createCluster({ seed: 'nodes-to-find', etcdMembers: 1, nodes: 250, components: { controllerManager: false } });
    cluster.boot();
    const scheduler = cluster.scheduler!;
    const order = scheduler.cache.snapshot().map((info) => info.node.metadata.name ?? '');
    expect(order).toHaveLength(250);
    const before = scheduler.attempts.length;
    for (const name of ['a', 'b', 'c']) {
      adminCall(cluster, 'POST', '/api/v1/namespaces/default/pods', {
        apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.14.2' }] },
      });
      const bound = () => scheduler.attempts.slice(before).some((a) => a.pod === `default/${name}` && a.bound);
      for (let i = 0; i < 1000 && !bound(); i++) cluster.engine.run({ maxSteps: 100 });
      expect(bound()).toBe(true);
    }
    const attempts = scheduler.attempts.slice(before);
    expect(attempts.map((a) => a.pod)).toEqual(['default/a', 'default/b', 'default/c']);
    const wrapped = [...order, ...order];
    [0, 120, 240].forEach((start, i) => {
      const nodes = attempts[i]!.nodes;
      expect(nodes.map((n) => n.node)).toEqual(wrapped.slice(start, start + 120));
      expect(nodes.every((n) => n.feasible && n.finalScore !== null)).toBe(true);
      expect(nodes.map((n) => n.node)).toContain(attempts[i]!.selected);
    });
    expect(scheduler.nextStartNodeIndex).toBe(110);
  }, 300_000);
});

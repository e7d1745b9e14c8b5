import { describe, expect, it } from 'vitest';
import type { Milestone } from '../../protocol/index.ts';
import { adminCall } from '../../sim/testing/http.ts';
import { createCluster } from '../../sim/cluster.ts';
import { StoryTap } from './record.ts';

describe('the story of a namespace deletion', () => {
  it('the namespace terminating, its content deleted, then the namespace deleted: milestones in that order', () => {
    const cluster = createCluster({ seed: 'ns-story' });
    const tap = new StoryTap(cluster);
    tap.quietly(() => cluster.boot());
    expect(adminCall(cluster, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } }).status).toBe(201);
    expect(adminCall(cluster, 'POST', '/api/v1/namespaces/shop/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }).status).toBe(201);
    expect(adminCall(cluster, 'DELETE', '/api/v1/namespaces/shop').status).toBe(200);
    cluster.engine.runFor(30_000);
    const about = (m: Milestone) => ('object' in m && m.object ? `${m.kind} ${m.object.kind}/${m.object.name}` : m.kind);
    const story = tap.record.milestones.map(about).filter((s) => /Namespace\/shop|ConfigMap\/a/.test(s));
    expect(story).toEqual([
      'userAction Namespace/shop', 'objectCreated Namespace/shop', 'userAction ConfigMap/a', 'objectCreated ConfigMap/a',
      'userAction Namespace/shop', 'terminating Namespace/shop', 'objectDeleted ConfigMap/a',
      // The controller's /finalize carries the namespace it read before its status write: 409, read again, finalize.
      'conflict Namespace/shop', 'objectDeleted Namespace/shop',
    ]);
  });
});

// The cluster invariants (src/sim/testing/invariants.ts) catch what they claim to: each is broken on
// purpose by writing straight to etcd behind kube-apiserver's back, as `etcdctl put` would.

import { describe, expect, it } from 'vitest';
import type { Pod } from '../api/types/core.ts';
import { createCluster } from '../cluster.ts';
import { podBoundOnce, podsOwnedByExistingReplicaSets, storedObjects } from '../testing/invariants.ts';
import { scenarioById } from './catalog.ts';
import { runScenario } from './runner.ts';

function settled(seed: string) {
  const cluster = createCluster({ seed });
  cluster.boot();
  runScenario(cluster, scenarioById('my-replicaset')!);
  return cluster;
}

/**
 * `etcdctl put` of a changed pod: the user writes etcd directly; the engine runs until etcd has applied
 * it, before the controllers can react (the garbage collector would soon delete a pod with a bogus owner).
 */
function rewritePod(cluster: ReturnType<typeof settled>, change: (p: Pod) => Pod): Pod {
  const [pod] = storedObjects<Pod>(cluster, 'pods');
  const changed = change(pod!);
  const put = cluster.user.request('etcd', 'etcd.Put', { key: `/registry/pods/default/${pod!.metadata.name}`, value: JSON.stringify(changed) });
  for (let m = cluster.engine.stepOnce(); m?.id !== put.id; m = cluster.engine.stepOnce()) {
    if (m === null) throw new Error('the put was never delivered');
  }
  return changed;
}

describe('cluster invariants', () => {
  it('pod bound once: a pod moved to another node is reported', () => {
    const cluster = settled('invariant-bound');
    const check = podBoundOnce(cluster);
    expect(check()).toBeUndefined();
    const moved = rewritePod(cluster, (p) => ({ ...p, spec: { ...p.spec, nodeName: p.spec.nodeName === 'node-1' ? 'node-2' : 'node-1' } }));
    expect(check()).toMatch(new RegExp(`^pod ${moved.metadata.name} moved from node node-\\d to ${moved.spec.nodeName}$`));
  });

  it('owners exist: a pod whose controller reference names an unknown uid is reported, even when deleted owners are allowed', () => {
    const cluster = settled('invariant-owner');
    const strict = podsOwnedByExistingReplicaSets(cluster);
    const lenient = podsOwnedByExistingReplicaSets(cluster, { ownersMayBeDeleted: true });
    expect(strict()).toBeUndefined();
    expect(lenient()).toBeUndefined();
    const stray = rewritePod(cluster, (p) => ({ ...p, metadata: { ...p.metadata, ownerReferences: [{ ...p.metadata.ownerReferences![0]!, uid: '00000000-0000-0000-0000-000000000000' }] } }));
    const message = `pod ${stray.metadata.name} is controlled by ReplicaSet my-replicaset (uid 00000000-0000-0000-0000-000000000000), which does not exist`;
    expect(strict()).toBe(message);
    expect(lenient()).toBe(message);
  });
});

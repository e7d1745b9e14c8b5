// With 3 etcd members, raft traffic between the members is inside etcd: a raft message is an
// internal-level step, while kube-apiserver's Txns to the members stay request-level, so playing at the
// Requests level folds a write's MsgApp/MsgAppResp into its Txn. The one exception is truthful: the raft
// message at whose delivery the first member applies a write (the commit) is that write's milestone.

import { describe, expect, it } from 'vitest';
import { createCluster } from '../../sim/cluster.ts';
import { scenarioById } from '../../sim/scenarios/catalog.ts';
import { runScenario } from '../../sim/scenarios/runner.ts';
import { traceRecords } from '../tour-locate.ts';
import { StoryTap } from './record.ts';

describe('story levels with 3 etcd members', () => {
  it('raft messages are internal (but the commit of a write, its milestone); Txns to the members are request-level or milestones', () => {
    const cluster = createCluster({ seed: 'raft-levels', nodes: 1, etcdMembers: 3 });
    const tap = new StoryTap(cluster);
    const bootSteps = tap.quietly(() => cluster.boot());
    runScenario(cluster, scenarioById('my-replicaset')!);
    const records = traceRecords(cluster.engine.trace).filter((r) => r.step > bootSteps);
    const raft = records.filter((r) => r.kind.startsWith('etcd.raft.'));
    const txns = records.filter((r) => r.kind === 'etcd.Txn' && r.from === 'kube-apiserver');
    expect(raft.some((r) => r.kind === 'etcd.raft.MsgApp')).toBe(true);
    expect(txns.length).toBeGreaterThan(0);
    const milestoneSteps = new Set(tap.record.milestones.map((m) => m.step));
    for (const r of raft) expect(tap.record.levelAt(r.step), `${r.kind} at step ${r.step}`).toBe(milestoneSteps.has(r.step) ? 'milestone' : 'internal');
    expect(raft.filter((r) => tap.record.levelAt(r.step) === 'internal').length).toBeGreaterThan(raft.length / 2);
    for (const r of txns) expect(tap.record.levelAt(r.step), `Txn at step ${r.step}`).not.toBe('internal');
    // The ReplicaSet's and its Pods' creation are still milestones with three members.
    expect(tap.record.milestones.filter((m) => m.kind === 'objectCreated' || m.kind === 'podCreated').length).toBeGreaterThanOrEqual(3);
  }, 120_000);
});

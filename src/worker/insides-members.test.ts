import { describe, expect, it } from 'vitest';
import type { EtcdInsides, EtcdMemberInsides } from '../protocol/index.ts';
import { createCluster, type Cluster } from '../sim/cluster.ts';
import { etcdKinds } from '../sim/etcd/server.ts';
import { InsidesRecorder } from './insides.ts';

const memberNames = ['etcd-1', 'etcd-2', 'etcd-3'];

function membersAt(recorder: InsidesRecorder, step: number): Record<string, EtcdMemberInsides> {
  const insides = recorder.at(step)!;
  return Object.fromEntries(memberNames.map((name) => [name, (insides[name] as EtcdInsides).member!]));
}

/** Each member's raft state read straight from the model. */
function truthOf(cluster: Cluster): Record<string, Pick<EtcdMemberInsides, 'state' | 'term' | 'commit' | 'applied'>> {
  return Object.fromEntries(cluster.etcdMembers.map((m) => [m.name, m.raft === null
    ? { state: 'stopped' as const, term: 0, commit: 0, applied: 0 }
    : { state: ({ StateLeader: 'leader', StateFollower: 'follower', StateCandidate: 'candidate', StatePreCandidate: 'pre-candidate' } as const)[m.raft.state], term: m.raft.term, commit: m.raft.log.committed, applied: m.raft.log.applied }]));
}

describe('InsidesRecorder with 3 etcd members', () => {
  const cluster = createCluster({ seed: 'members-insides', nodes: 1, etcdMembers: 3 });
  const recorder = new InsidesRecorder();
  recorder.begin(cluster);
  const truths = new Map<number, ReturnType<typeof truthOf>>();
  cluster.engine.onDelivery(() => truths.set(cluster.engine.step, truthOf(cluster)));
  cluster.boot();
  const booted = cluster.engine.step;

  it('reports every member at every step as the model held it: role, term, commit and applied index', () => {
    expect(truths.size).toBe(booted);
    for (const [step, truth] of truths) {
      const shown = membersAt(recorder, step);
      for (const name of memberNames) {
        const { state, term, commit, applied } = shown[name]!;
        expect({ state, term, commit, applied }, `${name} at step ${step}`).toEqual(truth[name]);
      }
    }
  });

  it('after boot: one leader, known to every member, all at one term, with commit = applied everywhere', () => {
    const shown = Object.values(membersAt(recorder, booted));
    const leaders = shown.filter((m) => m.state === 'leader');
    expect(leaders).toHaveLength(1);
    const leaderName = memberNames[shown.indexOf(leaders[0]!)]!;
    expect(shown.map((m) => m.lead)).toEqual([leaderName, leaderName, leaderName]);
    expect(new Set(shown.map((m) => m.term)).size).toBe(1);
    expect(shown[0]!.term).toBeGreaterThanOrEqual(2);
    for (const m of shown) expect(m.applied).toBe(m.commit);
    expect(shown.every((m) => m.unreachable.length === 0 && m.fsyncMs === 0)).toBe(true);
  });

  it('a write reaches each member\'s store on its own step: the box shows its key and revision from that step on', () => {
    const revisions = new Map<number, number[]>();
    const off = cluster.engine.onDelivery(() => revisions.set(cluster.engine.step, cluster.etcdMembers.map((m) => m.store.currentRev)));
    const from = cluster.engine.step;
    cluster.user.request('etcd-2', etcdKinds.put, { key: 'applied-one-by-one', value: 'v1' });
    cluster.engine.run({ until: cluster.engine.now + 500 });
    off();
    const revision = cluster.etcdMembers[0]!.store.currentRev;
    const appliedAt = memberNames.map((_, i) => [...revisions].find(([, revs]) => revs[i] === revision)![0]);
    expect(new Set(appliedAt).size).toBe(3);
    memberNames.forEach((name, i) => {
      const step = appliedAt[i]!;
      expect(membersAt(recorder, step)[name]!.appliedWrite, name).toEqual({ step, key: 'applied-one-by-one', revision });
      expect(membersAt(recorder, step - 1)[name]!.appliedWrite?.key, name).not.toBe('applied-one-by-one');
      expect(membersAt(recorder, cluster.engine.step)[name]!.appliedWrite, name).toEqual({ step, key: 'applied-one-by-one', revision });
    });
    expect(Math.min(...appliedAt)).toBeGreaterThan(from);
  });

  it('a write moves the commit index on every member; a killed leader shows stopped, and a new leader takes a higher term', () => {
    const before = membersAt(recorder, cluster.engine.step);
    const oldLeader = memberNames.find((n) => before[n]!.state === 'leader')!;
    cluster.user.request('etcd-2', etcdKinds.put, { key: 'moved', value: 'v1' });
    cluster.engine.run({ until: cluster.engine.now + 500 });
    const written = membersAt(recorder, cluster.engine.step);
    for (const name of memberNames) expect(written[name]!.commit, name).toBeGreaterThan(before[name]!.commit);

    cluster.faults.killEtcdLeader();
    cluster.engine.run({ until: cluster.engine.now + 5000 });
    const after = membersAt(recorder, cluster.engine.step);
    expect(after[oldLeader]!.state).toBe('stopped');
    const newLeader = memberNames.find((n) => after[n]!.state === 'leader');
    expect(newLeader).toBeDefined();
    expect(newLeader).not.toBe(oldLeader);
    expect(after[newLeader!]!.term).toBeGreaterThan(before[oldLeader]!.term);
    // The past is kept: the step before the kill still shows the old leader.
    expect(membersAt(recorder, booted)[oldLeader]!.state).toBe('leader');
  });

  it('a partition and a slow disk show on the member they hit', () => {
    cluster.faults.partitionEtcdMember('etcd-2');
    cluster.faults.slowEtcdDisk('etcd-3', 250);
    cluster.engine.run({ until: cluster.engine.now + 100 });
    const shown = membersAt(recorder, cluster.engine.step);
    expect(shown['etcd-2']!.unreachable).toEqual(['etcd-1', 'etcd-3']);
    expect(shown['etcd-1']!.unreachable).toEqual(['etcd-2']);
    expect(shown['etcd-3']!.fsyncMs).toBe(250);
  });

  it('a member\'s raft snapshot and the log it keeps show from the step it snapshots', () => {
    const small = createCluster({ seed: 'members-snapshot', nodes: 1, etcdMembers: 3, etcdSnapshot: { count: 60, catchUpEntries: 20 } });
    const r = new InsidesRecorder();
    r.begin(small);
    small.boot();
    const shown = membersAt(r, small.engine.step);
    for (const m of small.etcdMembers) {
      const log = m.raft!.log;
      expect(log.currentSnapshot.metadata.index).toBeGreaterThan(0);
      expect({ snapshot: shown[m.name]!.snapshot, firstIndex: shown[m.name]!.firstIndex })
        .toEqual({ snapshot: log.currentSnapshot.metadata.index, firstIndex: log.firstIndex });
      expect(shown[m.name]!.firstIndex).toBe(shown[m.name]!.snapshot - 20 + 1);
    }
    expect(membersAt(r, 1)['etcd-1']!.snapshot).toBe(0);
  });

  it('a single member reports no raft state', () => {
    const single = createCluster({ seed: 'members-insides', nodes: 1 });
    const r = new InsidesRecorder();
    r.begin(single);
    single.boot();
    expect((r.at(single.engine.step)!.etcd as EtcdInsides).member).toBeNull();
  });
});

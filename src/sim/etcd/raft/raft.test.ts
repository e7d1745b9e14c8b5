import { describe, expect, it } from 'vitest';
import { RaftNetwork } from './testing.ts';

describe('raft (etcd 3.4 configuration)', () => {
  it('a single member elects itself after its randomized election timeout, without messages', () => {
    const net = new RaftNetwork({ members: 1, seed: 1 });
    net.runUntil(900);
    expect(net.leader()).toBeUndefined();
    net.runUntil(2100);
    const leader = net.leader()!;
    expect(leader.raft.term).toBe(1);
    expect(leader.raft.log.committed).toBe(1); // the new leader's empty entry
  });

  it('three members elect one leader in term 1 and replicate a write to all', () => {
    const net = new RaftNetwork({ members: 3, seed: 7 });
    net.runUntil(3000);
    const leader = net.leader()!;
    expect(leader.raft.term).toBe(1);
    expect(net.members.filter((m) => m.raft.state === 'StateLeader')).toHaveLength(1);
    net.put(leader.id, 'k', 'v');
    net.runUntil(3100);
    for (const m of net.members) expect(m.kv.get('k')).toBe('v');
    expect(net.history).toEqual([expect.objectContaining({ kind: 'put', key: 'k', value: 'v' })]);
  });

  it('a follower forwards a proposal to the leader; a linearizable read on a follower sees it', () => {
    const net = new RaftNetwork({ members: 3, seed: 3 });
    net.runUntil(3000);
    const follower = net.members.find((m) => m.raft.state === 'StateFollower')!;
    net.put(follower.id, 'a', '1');
    net.runUntil(3050);
    net.get(follower.id, 'a', true);
    net.runUntil(3300);
    expect(net.history.map((o) => [o.kind, o.value])).toEqual([['put', '1'], ['get', '1']]);
  });

  it('check-quorum: an isolated leader steps down; the others elect a new one; without pre-vote (etcd 3.4\'s default) it disrupts them when healed', () => {
    const net = new RaftNetwork({ members: 3, seed: 11 });
    net.runUntil(3000);
    const old = net.leader()!;
    net.isolate(old.id);
    net.runUntil(6000);
    expect(old.raft.state).not.toBe('StateLeader');
    const now = net.leader()!;
    expect(now.id).not.toBe(old.id);
    // Cut off, the old leader campaigns at every election timeout and raises its term each time.
    const before = old.raft.term;
    net.runUntil(12000);
    expect(old.raft.term).toBeGreaterThan(before + 2);
    expect(old.raft.term).toBeGreaterThan(now.raft.term);
    // Healed, its higher term makes the leader step down; a leader is elected in a term above it.
    const high = old.raft.term;
    net.heal();
    net.runUntil(16000);
    expect(net.leader()!.raft.term).toBeGreaterThan(high);
  });

  it('with pre-vote (--pre-vote): an isolated leader steps down within two election timeouts and does not disrupt when healed', () => {
    const net = new RaftNetwork({ members: 3, seed: 11, preVote: true });
    net.runUntil(3000);
    const old = net.leader()!;
    net.isolate(old.id);
    net.runUntil(6000);
    expect(old.raft.state).not.toBe('StateLeader');
    const now = net.leader()!;
    expect(now.id).not.toBe(old.id);
    expect(now.raft.term).toBe(old.raft.term + 1);
    // Pre-vote: the isolated member's failed campaigns did not raise its term, so healing disrupts no one.
    net.heal();
    net.runUntil(8000);
    expect(net.leader()!.id).toBe(now.id);
    expect(old.raft.term).toBe(now.raft.term);
  });

  it('without a quorum a write is never committed and a linearizable read never answered; both go through once it returns', () => {
    const net = new RaftNetwork({ members: 3, seed: 5 });
    net.runUntil(3000);
    const leader = net.leader()!;
    const others = net.members.filter((m) => m !== leader);
    for (const m of others) net.stop(m.id);
    net.put(leader.id, 'x', '1');
    net.get(leader.id, 'x', true);
    net.runUntil(5000);
    expect(net.history).toEqual([]);
    expect(leader.raft.state).toBe('StateFollower'); // check-quorum
    net.start(others[0]!.id);
    net.runUntil(9000);
    const now = net.leader()!;
    expect(now).toBeDefined();
    expect(now.kv.get('x')).toBe('1');
  });

  it('a member that missed compacted entries catches up from a snapshot (MsgSnap)', () => {
    const net = new RaftNetwork({ members: 3, seed: 9, snapshotCount: 10, catchUpEntries: 2 });
    net.runUntil(3000);
    const leader = net.leader()!;
    const lagging = net.members.find((m) => m !== leader)!;
    net.stop(lagging.id);
    for (let i = 0; i < 30; i++) {
      net.put(leader.id, `k${i % 4}`, `v${i}`);
      net.runUntil(net.time + 20);
    }
    expect(leader.raft.log.firstIndex).toBeGreaterThan(lagging.raft.log.lastIndex + 1);
    net.start(lagging.id);
    net.runUntil(net.time + 2000);
    expect([...lagging.kv].sort()).toEqual([...leader.kv].sort());
    expect(lagging.raft.log.currentSnapshot.metadata.index).toBeGreaterThan(0);
  });
});

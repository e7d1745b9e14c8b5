// Raft under random fault schedules: members stop and restart, are isolated and healed, get slow
// disks, while clients write and read. RaftNetwork checks safety after every step (one leader per
// term, logs matching up to commit, committed entries never changing, applying in order); here each
// seed's run must also end with equal stores on every member and a linearizable client history, and
// serializable reads are shown to be allowed stale.

import { describe, expect, it } from 'vitest';
import { checkKvLinearizable, type KvOperation } from '../../testing/linearizability.ts';
import { RaftNetwork } from './testing.ts';

function randomRun(seed: number, members: number, preVote = false): RaftNetwork {
  const net = new RaftNetwork({ members, seed, snapshotCount: 25, catchUpEntries: 5, preVote });
  const { rng } = net;
  const keys = ['a', 'b', 'c'];
  let value = 0;
  for (let step = 0; step < 120; step++) {
    const id = 1 + rng.int(members);
    const roll = rng.int(100);
    if (roll < 5) net.stop(id);
    else if (roll < 20) net.start(id);
    else if (roll < 24) net.isolate(id);
    else if (roll < 29) net.heal();
    else if (roll < 32) net.slowDisk(id, rng.int(3) * 400);
    else if (net.member(id).up) {
      const key = keys[rng.int(keys.length)]!;
      if (roll < 70) net.put(id, key, `v${++value}`);
      else net.get(id, key, true);
    }
    net.runUntil(net.time + 50 + rng.int(400));
  }
  net.runUntil(net.time + 8000);
  net.abandonPending();
  net.quiesce();
  return net;
}

describe('raft safety and linearizability under random faults', () => {
  // etcd 3.4's default (pre-vote off) with 3 and 5 members, and 3 members with --pre-vote.
  for (const [members, preVote] of [[3, false], [5, false], [3, true]] as const) {
    it(`${members} members${preVote ? ', pre-vote' : ''}, 40 seeds`, () => {
      let completedAll = 0;
      let snapshotsSent = 0;
      for (let seed = 1; seed <= 40; seed++) {
        const net = randomRun(seed * 101 + members, members, preVote);
        const stores = net.members.map((m) => JSON.stringify([...m.kv].sort()));
        expect(new Set(stores).size, `seed ${seed}: stores differ`).toBe(1);
        const completed = net.history.filter((o) => o.returned !== Infinity);
        completedAll += completed.length;
        snapshotsSent += net.snapshotsSent;
        expect(checkKvLinearizable(net.history), `seed ${seed}`).toEqual({ ok: true });
      }
      // The schedules did exercise the protocol: many answered operations, and followers caught up by snapshot.
      expect(completedAll).toBeGreaterThan(40 * 20);
      expect(snapshotsSent).toBeGreaterThan(0);
    });
  }

  it('a serializable read on a member cut off from the leader is stale; a linearizable one there is never answered', () => {
    const net = new RaftNetwork({ members: 3, seed: 21 });
    net.runUntil(3000);
    const leader = net.leader()!;
    const follower = net.members.find((m) => m !== leader)!;
    net.put(leader.id, 'k', 'old');
    net.runUntil(3200);
    net.isolate(follower.id);
    net.put(leader.id, 'k', 'new');
    net.runUntil(3400);
    const stale = net.get(follower.id, 'k', true);
    expect(stale).toBeNull();
    const serializable = net.get(follower.id, 'k', false)!;
    expect(serializable.value).toBe('old');
    net.runUntil(12000);
    const history: KvOperation[] = [...net.history, serializable];
    expect(net.history.filter((o) => o.kind === 'get')).toEqual([]);
    expect(checkKvLinearizable(history)).toEqual({ ok: false, key: 'k' });
  });
});

// A member's logical clock: the host ticks it every 100 ms (etcd's --heartbeat-interval). A follower or
// candidate that hears from no leader for its randomized election timeout campaigns; a leader sends a
// heartbeat every heartbeatTick and, with check-quorum, steps down after an election timeout in which a
// quorum was not active.
// Models raft/raft.go (tickElection, tickHeartbeat, resetRandomizedElectionTimeout).

import type { Raft } from './raft.ts';
import { message } from './types.ts';

export class Ticks {
  /** Ticks since the last election timeout (leader) or since it last heard from a valid leader. */
  electionElapsed = 0;
  heartbeatElapsed = 0;
  /** In [electionTick, 2 × electionTick), drawn anew at every term change and state change. */
  randomizedElectionTimeout = 0;

  reset(electionTick: number, random: (n: number) => number): void {
    this.electionElapsed = 0;
    this.heartbeatElapsed = 0;
    this.randomizedElectionTimeout = electionTick + random(electionTick);
  }
}

export function tickElection(r: Raft): void {
  const t = r.ticks;
  t.electionElapsed++;
  if (t.electionElapsed >= t.randomizedElectionTimeout) {
    t.electionElapsed = 0;
    r.step(message({ type: 'MsgHup', from: r.id }));
  }
}

export function tickHeartbeat(r: Raft): void {
  const t = r.ticks;
  t.heartbeatElapsed++;
  t.electionElapsed++;
  if (t.electionElapsed >= r.config.electionTick) {
    t.electionElapsed = 0;
    if (r.config.checkQuorum) r.step(message({ type: 'MsgCheckQuorum', from: r.id }));
  }
  if (r.state !== 'StateLeader') return;
  if (t.heartbeatElapsed >= r.config.heartbeatTick) {
    t.heartbeatElapsed = 0;
    r.step(message({ type: 'MsgBeat', from: r.id }));
  }
}

// What a follower and a (pre-)candidate do with a message once its term checks are passed: a follower
// forwards proposals and ReadIndex requests to its leader and takes the leader's MsgApp, heartbeat and
// snapshot; a candidate counts its votes and becomes a follower of any leader of its term it hears from.
// Models raft/raft.go (stepFollower, stepCandidate, handleAppendEntries, handleHeartbeat, handleSnapshot).

import type { Raft } from './raft.ts';
import { contextOf } from './read-only.ts';
import { bcastAppend } from './replicate.ts';
import { message, none, type MessageType, type RaftMessage } from './types.ts';

/** What `step` returns when a proposal cannot be taken (no leader known): raft.ErrProposalDropped. */
const proposalDropped = 'raft proposal dropped';

export function stepCandidate(r: Raft, m: RaftMessage): string | null {
  const myVoteResp: MessageType = r.state === 'StatePreCandidate' ? 'MsgPreVoteResp' : 'MsgVoteResp';
  switch (m.type) {
    case 'MsgProp':
      return proposalDropped;
    case 'MsgApp':
      r.becomeFollower(m.term, m.from);
      handleAppendEntries(r, m);
      return null;
    case 'MsgHeartbeat':
      r.becomeFollower(m.term, m.from);
      handleHeartbeat(r, m);
      return null;
    case 'MsgSnap':
      r.becomeFollower(m.term, m.from);
      handleSnapshot(r, m);
      return null;
    default:
      if (m.type === myVoteResp) {
        const result = r.tracker.recordVote(m.from, !m.reject);
        if (result === 'won') {
          if (r.state === 'StatePreCandidate') r.campaign('election');
          else {
            r.becomeLeader();
            bcastAppend(r);
          }
        } else if (result === 'lost') {
          r.becomeFollower(r.term, none);
        }
      }
      return null;
  }
}

export function stepFollower(r: Raft, m: RaftMessage): string | null {
  switch (m.type) {
    case 'MsgProp':
      if (r.lead === none) return proposalDropped;
      r.send({ ...m, to: r.lead });
      return null;
    case 'MsgApp':
      r.ticks.electionElapsed = 0;
      r.lead = m.from;
      handleAppendEntries(r, m);
      return null;
    case 'MsgHeartbeat':
      r.ticks.electionElapsed = 0;
      r.lead = m.from;
      handleHeartbeat(r, m);
      return null;
    case 'MsgSnap':
      r.ticks.electionElapsed = 0;
      r.lead = m.from;
      handleSnapshot(r, m);
      return null;
    case 'MsgReadIndex':
      if (r.lead === none) return null;
      r.send({ ...m, to: r.lead });
      return null;
    case 'MsgReadIndexResp':
      if (m.entries.length !== 1) return null;
      r.readStates.push({ index: m.index, requestCtx: contextOf(m) });
      return null;
    default:
      return null;
  }
}

function handleAppendEntries(r: Raft, m: RaftMessage): void {
  if (m.index < r.log.committed) {
    r.send(message({ type: 'MsgAppResp', to: m.from, index: r.log.committed }));
    return;
  }
  const last = r.log.maybeAppend(m.index, m.logTerm, m.commit, m.entries);
  if (last !== null) r.send(message({ type: 'MsgAppResp', to: m.from, index: last }));
  else r.send(message({ type: 'MsgAppResp', to: m.from, index: m.index, reject: true, rejectHint: r.log.lastIndex }));
}

function handleHeartbeat(r: Raft, m: RaftMessage): void {
  r.log.commitTo(m.commit);
  r.send(message({ type: 'MsgHeartbeatResp', to: m.from, context: m.context }));
}

function handleSnapshot(r: Raft, m: RaftMessage): void {
  const snapshot = m.snapshot!;
  const { index, term } = snapshot.metadata;
  if (index > r.log.committed && !r.log.matchTerm(index, term)) {
    r.log.restore(snapshot);
    r.snapshotToApply = snapshot;
    r.send(message({ type: 'MsgAppResp', to: m.from, index: r.log.lastIndex }));
    return;
  }
  if (index > r.log.committed) r.log.commitTo(index);
  r.send(message({ type: 'MsgAppResp', to: m.from, index: r.log.committed }));
}

// What a leader does with a message once its term checks are passed: heartbeats and the check-quorum
// test on its own ticks, proposals appended and broadcast, ReadIndex requests confirmed by a heartbeat
// round (ReadOnlySafe), and its followers' answers moving their progress, the commit index and the
// pending reads.
// Models raft/raft.go (stepLeader).

import type { Raft } from './raft.ts';
import { contextOf } from './read-only.ts';
import { appendEntries, bcastAppend, bcastHeartbeat, maybeCommit, maybeSendAppend } from './replicate.ts';
import { message, none, type RaftMessage } from './types.ts';

export function stepLeader(r: Raft, m: RaftMessage): string | null {
  switch (m.type) {
    case 'MsgBeat':
      bcastHeartbeat(r, r.readOnly.lastPendingRequestCtx());
      return null;
    case 'MsgCheckQuorum':
      if (!r.tracker.checkQuorumActive(r.id)) r.becomeFollower(r.term, none);
      return null;
    case 'MsgProp':
      appendEntries(r, m.entries);
      bcastAppend(r);
      return null;
    case 'MsgReadIndex':
      readIndex(r, m);
      return null;
    default:
      break;
  }
  switch (m.type) {
    case 'MsgAppResp':
      appResp(r, m);
      return null;
    case 'MsgHeartbeatResp':
      heartbeatResp(r, m);
      return null;
    case 'MsgSnapStatus': {
      const pr = r.tracker.get(m.from);
      if (pr === undefined || pr.state !== 'StateSnapshot') return null;
      if (m.reject) pr.pendingSnapshot = 0;
      pr.becomeProbe();
      pr.probeSent = true;
      return null;
    }
    default:
      return null;
  }
}

function readIndex(r: Raft, m: RaftMessage): void {
  if (r.tracker.voters.length > 1) {
    // Until it commits an entry of its term, a new leader does not know the commit index.
    if (r.log.termOrZero(r.log.committed) !== r.term) return;
    const ctx = contextOf(m);
    r.readOnly.addRequest(r.log.committed, m);
    r.readOnly.recvAck(r.id, ctx);
    bcastHeartbeat(r, ctx);
  } else {
    r.readStates.push({ index: r.log.committed, requestCtx: contextOf(m) });
  }
}

function appResp(r: Raft, m: RaftMessage): void {
  const pr = r.tracker.get(m.from);
  if (pr === undefined) return;
  pr.recentActive = true;
  if (m.reject) {
    if (pr.maybeDecrTo(m.index, m.rejectHint)) {
      if (pr.state === 'StateReplicate') pr.becomeProbe();
      maybeSendAppend(r, m.from, true);
    }
    return;
  }
  const oldPaused = pr.isPaused();
  if (!pr.maybeUpdate(m.index)) return;
  if (pr.state === 'StateProbe') pr.becomeReplicate();
  else if (pr.state === 'StateSnapshot' && pr.match >= pr.pendingSnapshot) {
    pr.becomeProbe();
    pr.becomeReplicate();
  } else if (pr.state === 'StateReplicate') pr.freeInflightsTo(m.index);
  if (maybeCommit(r)) bcastAppend(r);
  else if (oldPaused) maybeSendAppend(r, m.from, true);
  while (maybeSendAppend(r, m.from, false));
}

function heartbeatResp(r: Raft, m: RaftMessage): void {
  const pr = r.tracker.get(m.from);
  if (pr === undefined) return;
  pr.recentActive = true;
  pr.probeSent = false;
  if (pr.state === 'StateReplicate' && pr.inflightFull) pr.freeFirstInflight();
  if (pr.match < r.log.lastIndex) maybeSendAppend(r, m.from, true);
  if (m.context === '') return;
  const acks = r.readOnly.recvAck(m.from, m.context);
  if (acks === null || acks.size < r.tracker.quorum) return;
  for (const rs of r.readOnly.advance(m.context)) {
    const ctx = contextOf(rs.request);
    if (rs.request.from === none || rs.request.from === r.id) r.readStates.push({ index: rs.index, requestCtx: ctx });
    else r.send(message({ type: 'MsgReadIndexResp', to: rs.request.from, index: rs.index, entries: rs.request.entries }));
  }
}

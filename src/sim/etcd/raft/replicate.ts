// How a leader moves its log to the followers: a MsgApp from each follower's `next` (batched up to
// maxSizePerMsg, paced by the follower's progress state), or the snapshot when that part of the log is
// compacted; heartbeats carrying the commit a follower can take and the newest ReadIndex context; and the
// commit rule (the index a quorum has, if it is of the leader's term).
// Models raft/raft.go (sendAppend/maybeSendAppend, bcastAppend, bcastHeartbeat, appendEntry, maybeCommit).

import type { Raft } from './raft.ts';
import { message, type Entry } from './types.ts';

/** Sends `to` what it lacks: a MsgApp from `next`, or the snapshot when that part of the log is compacted. */
export function maybeSendAppend(r: Raft, to: number, sendIfEmpty: boolean): boolean {
  const pr = r.tracker.get(to)!;
  if (pr.isPaused()) return false;
  const prevTerm = r.log.term(pr.next - 1);
  const entries = r.log.entriesFrom(pr.next, r.config.maxSizePerMsg);
  if (entries !== null && entries.length === 0 && !sendIfEmpty) return false;
  if (prevTerm < 0 || entries === null) {
    if (!pr.recentActive) return false;
    const snapshot = r.log.currentSnapshot;
    pr.becomeSnapshot(snapshot.metadata.index);
    r.send(message({ type: 'MsgSnap', to, snapshot }));
    return true;
  }
  const prevIndex = pr.next - 1;
  const n = entries.length;
  if (n !== 0) {
    if (pr.state === 'StateReplicate') {
      const last = entries[n - 1]!.index;
      pr.optimisticUpdate(last);
      pr.addInflight(last);
    } else if (pr.state === 'StateProbe') {
      pr.probeSent = true;
    }
  }
  r.send(message({ type: 'MsgApp', to, index: prevIndex, logTerm: prevTerm, entries, commit: r.log.committed }));
  return true;
}

export function bcastAppend(r: Raft): void {
  for (const id of r.tracker.others(r.id)) maybeSendAppend(r, id, true);
}

export function bcastHeartbeat(r: Raft, context: string): void {
  for (const id of r.tracker.others(r.id)) {
    const commit = Math.min(r.tracker.get(id)!.match, r.log.committed);
    r.send(message({ type: 'MsgHeartbeat', to: id, commit, context }));
  }
}

/** Appends `entries` to the leader's log, stamped with its term and the next indexes, and commits what it can. */
export function appendEntries(r: Raft, entries: readonly Entry[]): void {
  const last = r.log.lastIndex;
  const stamped = entries.map((e, i) => ({ ...e, term: r.term, index: last + 1 + i }));
  const li = r.log.append(stamped);
  r.tracker.get(r.id)!.maybeUpdate(li);
  maybeCommit(r);
}

/** Commits the highest index a quorum has (if it is of this term). */
export function maybeCommit(r: Raft): boolean {
  return r.log.maybeCommit(r.tracker.committed(), r.term);
}

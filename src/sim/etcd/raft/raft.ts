// One raft member's state machine, as etcd 3.4 runs it: check-quorum on, pre-vote as configured, ReadOnlySafe
// reads, election timeout randomized in [electionTick, 2 × electionTick) ticks. It is pure: `tick` and
// `step` change its state and queue the messages to send (`takeMessages`); the host persists nothing
// itself (the log is durable as soon as appended), delivers messages, applies committed entries and
// reports how far it applied (`appliedTo`). Conf changes and leadership transfer are not modelled (the
// membership is fixed at start).
// The package follows etcd's seams: this file holds the member's state, its role changes and the
// term checks every message passes (raft.go's Step); each role's handling is in step-leader.ts and
// step-follower.ts, the leader's sending in replicate.ts, the clock in ticks.ts, the membership's
// progress and votes in tracker.ts, the log in log.ts and pending reads in read-only.ts.
// Models raft/raft.go (Step, becomeFollower, becomeCandidate, becomePreCandidate, becomeLeader, campaign,
// send, reset) and raft/node.go (Ready).

import { RaftLog } from './log.ts';
import { ReadOnly } from './read-only.ts';
import { appendEntries } from './replicate.ts';
import { stepCandidate, stepFollower } from './step-follower.ts';
import { stepLeader } from './step-leader.ts';
import { tickElection, tickHeartbeat, Ticks } from './ticks.ts';
import { ProgressTracker } from './tracker.ts';
import {
  isVoteType, message, none, voteResponseType, type Entry, type HardState, type MessageType, type RaftMessage, type ReadState,
  type Snapshot, type StateType,
} from './types.ts';

export interface RaftConfig {
  readonly id: number;
  /** Every voting member's ID, this one included. */
  readonly peers: readonly number[];
  readonly electionTick: number;
  readonly heartbeatTick: number;
  readonly checkQuorum: boolean;
  readonly preVote: boolean;
  /** Bytes of entries per MsgApp (at least one entry goes). */
  readonly maxSizePerMsg: number;
  /** Unacknowledged MsgApps per follower in replicate state. */
  readonly maxInflightMsgs: number;
  /** An integer in [0, n): the seeded RNG. */
  readonly random: (n: number) => number;
}

/**
 * What etcdserver 3.4 gives raft by default (etcdserver/raft.go, embed/config.go): 100 ms ticks,
 * election after 10 ticks (1 s), a heartbeat every tick, 1 MiB per MsgApp, 512 MsgApps in flight,
 * check-quorum on and pre-vote off (`--pre-vote` defaults to false in 3.4; 3.5 turned it on): a member
 * cut off from the others raises its term at every election timeout, and disrupts the leader when it
 * comes back.
 */
export const etcdRaftDefaults = {
  tickMs: 100, electionTick: 10, heartbeatTick: 1, checkQuorum: true, preVote: false, maxSizePerMsg: 1024 * 1024, maxInflightMsgs: 4096 / 8,
} as const;

/**
 * One member's raft state. The fields and methods below the public API (`tracker` on) are the package's
 * own: the step, replicate and tick functions of the neighbouring files work on them, as etcd's functions
 * work on its `raft` struct; the host uses only the API above them.
 */
export class Raft {
  readonly id: number;
  term = 0;
  vote = none;
  lead = none;
  state: StateType = 'StateFollower';
  readonly log: RaftLog;

  /** A new member, or (with `log` and `hard`) one restarting from its disk. */
  constructor(readonly config: RaftConfig, log?: RaftLog, hard?: HardState) {
    this.id = config.id;
    this.tracker = new ProgressTracker(config.peers, config.maxInflightMsgs);
    this.log = log ?? new RaftLog();
    if (hard !== undefined) {
      this.log.commitTo(hard.commit);
      this.term = hard.term;
      this.vote = hard.vote;
    }
    this.becomeFollower(this.term, none);
  }

  /**
   * A new cluster's first state (raft.StartNode's Bootstrap): one committed ConfChangeAddNode entry per
   * member at term 1, and term 1; the first election then makes term 2.
   */
  bootstrap(ids: readonly number[]): void {
    if (this.log.lastIndex !== 0) throw new Error('raft: bootstrap of a non-empty log');
    this.log.append(ids.map((id, i) => ({ term: 1, index: i + 1, data: { type: 'ConfChangeAddNode', nodeID: id }, size: 16 })));
    this.log.commitTo(ids.length);
    this.becomeFollower(1, none);
  }

  get hardState(): HardState {
    return { term: this.term, vote: this.vote, commit: this.log.committed };
  }

  takeMessages(): RaftMessage[] {
    const out = this.msgs;
    this.msgs = [];
    return out;
  }

  takeReadStates(): ReadState[] {
    const out = this.readStates;
    this.readStates = [];
    return out;
  }

  /** A snapshot the application must load before applying anything else (then it is applied). */
  takeSnapshot(): Snapshot | null {
    const out = this.snapshotToApply;
    this.snapshotToApply = null;
    return out;
  }

  /** Committed entries not yet applied, in order. */
  committedEntries(): Entry[] {
    const { applied, committed } = this.log;
    return committed > applied ? this.log.slice(applied + 1, committed + 1) : [];
  }

  appliedTo(index: number): void {
    this.log.appliedTo(index);
  }

  tick(): void {
    if (this.state === 'StateLeader') tickHeartbeat(this);
    else tickElection(this);
  }

  /** Proposes `data` (of `size` bytes); raft.ErrProposalDropped's text when no leader can take it. */
  propose(data: unknown, size: number): string | null {
    return this.step(message({ type: 'MsgProp', from: this.id, entries: [{ term: 0, index: 0, data, size }] }));
  }

  /** Asks for a read index under `ctx`; the answer comes as a ReadState (or never, if the leader is lost). */
  readIndex(ctx: string): void {
    this.step(message({ type: 'MsgReadIndex', entries: [{ term: 0, index: 0, data: ctx, size: ctx.length }] }));
  }

  /** Steps a message into the state machine; raft.ErrProposalDropped's text for a proposal that cannot be taken. */
  step(m: RaftMessage): string | null {
    if (m.term > this.term && m.term !== 0) {
      if (isVoteType(m.type)) {
        const inLease = this.config.checkQuorum && this.lead !== none && this.ticks.electionElapsed < this.config.electionTick;
        // Heard from a leader within the election timeout: ignore a disruptive candidate.
        if (inLease) return null;
      }
      if (m.type === 'MsgPreVote' || (m.type === 'MsgPreVoteResp' && !m.reject)) {
        // A pre-vote never changes the term; a granted pre-vote carries the term we would campaign in.
      } else if (m.type === 'MsgApp' || m.type === 'MsgHeartbeat' || m.type === 'MsgSnap') {
        this.becomeFollower(m.term, m.from);
      } else {
        this.becomeFollower(m.term, none);
      }
    } else if (m.term < this.term && m.term !== 0) {
      if ((this.config.checkQuorum || this.config.preVote) && (m.type === 'MsgHeartbeat' || m.type === 'MsgApp')) {
        // A leader cut off from the cluster learns of the newer term and steps down.
        this.send(message({ type: 'MsgAppResp', to: m.from }));
      } else if (m.type === 'MsgPreVote') {
        this.send(message({ type: 'MsgPreVoteResp', to: m.from, term: this.term, reject: true }));
      }
      return null;
    }

    switch (m.type) {
      case 'MsgHup':
        if (this.state !== 'StateLeader') this.campaign(this.config.preVote ? 'pre-election' : 'election');
        return null;
      case 'MsgVote':
      case 'MsgPreVote': {
        const canVote = this.vote === m.from || (this.vote === none && this.lead === none) || (m.type === 'MsgPreVote' && m.term > this.term);
        if (canVote && this.log.isUpToDate(m.index, m.logTerm)) {
          this.send(message({ type: voteResponseType(m.type), to: m.from, term: m.term }));
          if (m.type === 'MsgVote') {
            this.ticks.electionElapsed = 0;
            this.vote = m.from;
          }
        } else {
          this.send(message({ type: voteResponseType(m.type), to: m.from, term: this.term, reject: true }));
        }
        return null;
      }
      default:
        switch (this.state) {
          case 'StateLeader': return stepLeader(this, m);
          case 'StateFollower': return stepFollower(this, m);
          default: return stepCandidate(this, m);
        }
    }
  }

  // --- the package's own (see the class comment) ---

  readonly tracker: ProgressTracker;
  readonly ticks = new Ticks();
  readOnly = new ReadOnly();
  /** Confirmed read indexes not yet taken by the host. */
  readStates: ReadState[] = [];
  /** A snapshot from the leader not yet handed to the application. */
  snapshotToApply: Snapshot | null = null;
  private msgs: RaftMessage[] = [];

  becomeFollower(term: number, lead: number): void {
    this.reset(term);
    this.lead = lead;
    this.state = 'StateFollower';
  }

  becomeLeader(): void {
    if (this.state === 'StateFollower') throw new Error('raft: invalid transition [follower -> leader]');
    this.reset(this.term);
    this.lead = this.id;
    this.state = 'StateLeader';
    this.tracker.get(this.id)!.becomeReplicate();
    // An empty entry of the new term: committing it commits everything before it (raft paper §5.4.2).
    appendEntries(this, [{ term: 0, index: 0, data: null, size: 0 }]);
  }

  /**
   * Becomes a pre-candidate (term and vote unchanged: a pre-vote disturbs no one) or a candidate (next
   * term, voting for itself), then asks every other member for its vote; a lone member wins at once.
   */
  campaign(kind: 'pre-election' | 'election'): void {
    if (this.state === 'StateLeader') throw new Error(`raft: invalid transition [leader -> ${kind === 'election' ? 'candidate' : 'pre-candidate'}]`);
    let term: number;
    let voteType: MessageType;
    if (kind === 'pre-election') {
      this.tracker.resetVotes();
      this.lead = none;
      this.state = 'StatePreCandidate';
      voteType = 'MsgPreVote';
      term = this.term + 1;
    } else {
      this.reset(this.term + 1);
      this.vote = this.id;
      this.state = 'StateCandidate';
      voteType = 'MsgVote';
      term = this.term;
    }
    if (this.tracker.recordVote(this.id, true) === 'won') {
      if (kind === 'pre-election') this.campaign('election');
      else this.becomeLeader();
      return;
    }
    for (const id of this.tracker.others(this.id)) {
      this.send(message({ type: voteType, to: id, term, index: this.log.lastIndex, logTerm: this.log.lastTerm }));
    }
  }

  send(m: RaftMessage): void {
    let term = m.term;
    if (isVoteType(m.type) || m.type === 'MsgVoteResp' || m.type === 'MsgPreVoteResp') {
      if (term === 0) throw new Error(`raft: term should be set when sending ${m.type}`);
    } else if (m.type !== 'MsgProp' && m.type !== 'MsgReadIndex') {
      term = this.term;
    }
    this.msgs.push({ ...m, from: this.id, term });
  }

  private reset(term: number): void {
    if (this.term !== term) {
      this.term = term;
      this.vote = none;
    }
    this.lead = none;
    this.ticks.reset(this.config.electionTick, this.config.random);
    this.tracker.reset(this.id, this.log.lastIndex);
    this.readOnly = new ReadOnly();
  }
}

// One raft member's state machine, as etcd 3.4 runs it: check-quorum on, pre-vote as configured, ReadOnlySafe
// reads, election timeout randomized in [electionTick, 2 × electionTick) ticks. It is pure: `tick` and
// `step` change its state and queue the messages to send (`takeMessages`); the host persists nothing
// itself (the log is durable as soon as appended), delivers messages, applies committed entries and
// reports how far it applied (`appliedTo`). Conf changes and leadership transfer are not modelled (the
// membership is fixed at start).
// Models raft/raft.go (Step, stepLeader, stepCandidate, stepFollower, campaign, sendAppend,
// bcastHeartbeat, handleAppendEntries, handleHeartbeat, handleSnapshot) and raft/node.go (Ready).

import { RaftLog } from './log.ts';
import { Progress } from './progress.ts';
import { contextOf, ReadOnly } from './read-only.ts';
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

/** What `step` returns when a proposal cannot be taken (no leader known): raft.ErrProposalDropped. */
export const proposalDropped = 'raft proposal dropped';

export class Raft {
  readonly id: number;
  term = 0;
  vote = none;
  lead = none;
  state: StateType = 'StateFollower';
  readonly log: RaftLog;
  private readonly prs = new Map<number, Progress>();
  private votes = new Map<number, boolean>();
  private electionElapsed = 0;
  private heartbeatElapsed = 0;
  private randomizedElectionTimeout = 0;
  private readOnly = new ReadOnly();
  private msgs: RaftMessage[] = [];
  private readStates: ReadState[] = [];
  /** A snapshot from the leader not yet handed to the application. */
  private snapshotToApply: Snapshot | null = null;
  private readonly peers: readonly number[];

  /** A new member, or (with `log` and `hard`) one restarting from its disk. */
  constructor(private readonly config: RaftConfig, log?: RaftLog, hard?: HardState) {
    this.id = config.id;
    this.peers = [...config.peers].sort((a, b) => a - b);
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

  // --- ticks ---

  tick(): void {
    if (this.state === 'StateLeader') this.tickHeartbeat();
    else this.tickElection();
  }

  private tickElection(): void {
    this.electionElapsed++;
    if (this.electionElapsed >= this.randomizedElectionTimeout) {
      this.electionElapsed = 0;
      this.step(message({ type: 'MsgHup', from: this.id }));
    }
  }

  private tickHeartbeat(): void {
    this.heartbeatElapsed++;
    this.electionElapsed++;
    if (this.electionElapsed >= this.config.electionTick) {
      this.electionElapsed = 0;
      if (this.config.checkQuorum) this.step(message({ type: 'MsgCheckQuorum', from: this.id }));
    }
    if (this.state !== 'StateLeader') return;
    if (this.heartbeatElapsed >= this.config.heartbeatTick) {
      this.heartbeatElapsed = 0;
      this.step(message({ type: 'MsgBeat', from: this.id }));
    }
  }

  // --- state changes ---

  private reset(term: number): void {
    if (this.term !== term) {
      this.term = term;
      this.vote = none;
    }
    this.lead = none;
    this.electionElapsed = 0;
    this.heartbeatElapsed = 0;
    this.randomizedElectionTimeout = this.config.electionTick + this.config.random(this.config.electionTick);
    this.votes = new Map();
    this.prs.clear();
    for (const id of this.peers) {
      const pr = new Progress(0, this.log.lastIndex + 1, this.config.maxInflightMsgs);
      if (id === this.id) pr.match = this.log.lastIndex;
      this.prs.set(id, pr);
    }
    this.readOnly = new ReadOnly();
  }

  private becomeFollower(term: number, lead: number): void {
    this.reset(term);
    this.lead = lead;
    this.state = 'StateFollower';
  }

  private becomeCandidate(): void {
    if (this.state === 'StateLeader') throw new Error('raft: invalid transition [leader -> candidate]');
    this.reset(this.term + 1);
    this.vote = this.id;
    this.state = 'StateCandidate';
  }

  private becomePreCandidate(): void {
    if (this.state === 'StateLeader') throw new Error('raft: invalid transition [leader -> pre-candidate]');
    // Neither the term nor the vote changes: a pre-vote disturbs no one.
    this.votes = new Map();
    this.lead = none;
    this.state = 'StatePreCandidate';
  }

  private becomeLeader(): void {
    if (this.state === 'StateFollower') throw new Error('raft: invalid transition [follower -> leader]');
    this.reset(this.term);
    this.lead = this.id;
    this.state = 'StateLeader';
    this.prs.get(this.id)!.becomeReplicate();
    // An empty entry of the new term: committing it commits everything before it (raft paper §5.4.2).
    this.appendEntries([{ term: 0, index: 0, data: null, size: 0 }]);
  }

  private campaign(kind: 'pre-election' | 'election'): void {
    let term: number;
    let voteType: MessageType;
    if (kind === 'pre-election') {
      this.becomePreCandidate();
      voteType = 'MsgPreVote';
      term = this.term + 1;
    } else {
      this.becomeCandidate();
      voteType = 'MsgVote';
      term = this.term;
    }
    if (this.poll(this.id, true) === 'won') {
      if (kind === 'pre-election') this.campaign('election');
      else this.becomeLeader();
      return;
    }
    for (const id of this.peers) {
      if (id === this.id) continue;
      this.send(message({ type: voteType, to: id, term, index: this.log.lastIndex, logTerm: this.log.lastTerm }));
    }
  }

  private poll(id: number, granted: boolean): 'won' | 'lost' | 'pending' {
    if (!this.votes.has(id)) this.votes.set(id, granted);
    let yes = 0;
    let no = 0;
    for (const v of this.votes.values()) {
      if (v) yes++;
      else no++;
    }
    const q = this.quorum;
    if (yes >= q) return 'won';
    if (this.peers.length - no < q) return 'lost';
    return 'pending';
  }

  private get quorum(): number {
    return Math.floor(this.peers.length / 2) + 1;
  }

  // --- sending ---

  private send(m: RaftMessage): void {
    let term = m.term;
    if (isVoteType(m.type) || m.type === 'MsgVoteResp' || m.type === 'MsgPreVoteResp') {
      if (term === 0) throw new Error(`raft: term should be set when sending ${m.type}`);
    } else if (m.type !== 'MsgProp' && m.type !== 'MsgReadIndex') {
      term = this.term;
    }
    this.msgs.push({ ...m, from: this.id, term });
  }

  /** Sends `to` what it lacks: a MsgApp from `next`, or the snapshot when that part of the log is compacted. */
  private maybeSendAppend(to: number, sendIfEmpty: boolean): boolean {
    const pr = this.prs.get(to)!;
    if (pr.isPaused()) return false;
    const prevTerm = this.log.term(pr.next - 1);
    const entries = this.log.entriesFrom(pr.next, this.config.maxSizePerMsg);
    if (entries !== null && entries.length === 0 && !sendIfEmpty) return false;
    if (prevTerm < 0 || entries === null) {
      if (!pr.recentActive) return false;
      const snapshot = this.log.currentSnapshot;
      pr.becomeSnapshot(snapshot.metadata.index);
      this.send(message({ type: 'MsgSnap', to, snapshot }));
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
    this.send(message({ type: 'MsgApp', to, index: prevIndex, logTerm: prevTerm, entries, commit: this.log.committed }));
    return true;
  }

  private bcastAppend(): void {
    for (const id of this.peers) if (id !== this.id) this.maybeSendAppend(id, true);
  }

  private bcastHeartbeat(context: string): void {
    for (const id of this.peers) {
      if (id === this.id) continue;
      const commit = Math.min(this.prs.get(id)!.match, this.log.committed);
      this.send(message({ type: 'MsgHeartbeat', to: id, commit, context }));
    }
  }

  private appendEntries(entries: readonly Entry[]): void {
    const last = this.log.lastIndex;
    const stamped = entries.map((e, i) => ({ ...e, term: this.term, index: last + 1 + i }));
    const li = this.log.append(stamped);
    this.prs.get(this.id)!.maybeUpdate(li);
    this.maybeCommit();
  }

  /** Commits the highest index a quorum has (if it is of this term). */
  private maybeCommit(): boolean {
    const matches = [...this.prs.values()].map((p) => p.match).sort((a, b) => b - a);
    return this.log.maybeCommit(matches[this.quorum - 1]!, this.term);
  }

  // --- stepping ---

  /** Proposes `data` (of `size` bytes); `proposalDropped` when no leader can take it. */
  propose(data: unknown, size: number): string | null {
    return this.step(message({ type: 'MsgProp', from: this.id, entries: [{ term: 0, index: 0, data, size }] }));
  }

  /** Asks for a read index under `ctx`; the answer comes as a ReadState (or never, if the leader is lost). */
  readIndex(ctx: string): void {
    this.step(message({ type: 'MsgReadIndex', entries: [{ term: 0, index: 0, data: ctx, size: ctx.length }] }));
  }

  /** Steps a message into the state machine; `proposalDropped` for a proposal that cannot be taken. */
  step(m: RaftMessage): string | null {
    if (m.term > this.term && m.term !== 0) {
      if (isVoteType(m.type)) {
        const inLease = this.config.checkQuorum && this.lead !== none && this.electionElapsed < this.config.electionTick;
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
            this.electionElapsed = 0;
            this.vote = m.from;
          }
        } else {
          this.send(message({ type: voteResponseType(m.type), to: m.from, term: this.term, reject: true }));
        }
        return null;
      }
      default:
        switch (this.state) {
          case 'StateLeader': return this.stepLeader(m);
          case 'StateFollower': return this.stepFollower(m);
          default: return this.stepCandidate(m);
        }
    }
  }

  private stepLeader(m: RaftMessage): string | null {
    switch (m.type) {
      case 'MsgBeat':
        this.bcastHeartbeat(this.readOnly.lastPendingRequestCtx());
        return null;
      case 'MsgCheckQuorum': {
        this.prs.get(this.id)!.recentActive = true;
        const active = [...this.prs.values()].filter((p) => p.recentActive).length;
        if (active < this.quorum) this.becomeFollower(this.term, none);
        for (const [id, pr] of this.prs) if (id !== this.id) pr.recentActive = false;
        return null;
      }
      case 'MsgProp':
        this.appendEntries(m.entries);
        this.bcastAppend();
        return null;
      case 'MsgReadIndex': {
        if (this.peers.length > 1) {
          // Until it commits an entry of its term, a new leader does not know the commit index.
          if (this.log.termOrZero(this.log.committed) !== this.term) return null;
          const ctx = contextOf(m);
          this.readOnly.addRequest(this.log.committed, m);
          this.readOnly.recvAck(this.id, ctx);
          this.bcastHeartbeat(ctx);
        } else {
          this.readStates.push({ index: this.log.committed, requestCtx: contextOf(m) });
        }
        return null;
      }
      default:
        break;
    }
    const pr = this.prs.get(m.from);
    if (pr === undefined) return null;
    switch (m.type) {
      case 'MsgAppResp':
        pr.recentActive = true;
        if (m.reject) {
          if (pr.maybeDecrTo(m.index, m.rejectHint)) {
            if (pr.state === 'StateReplicate') pr.becomeProbe();
            this.maybeSendAppend(m.from, true);
          }
        } else {
          const oldPaused = pr.isPaused();
          if (pr.maybeUpdate(m.index)) {
            if (pr.state === 'StateProbe') pr.becomeReplicate();
            else if (pr.state === 'StateSnapshot' && pr.match >= pr.pendingSnapshot) {
              pr.becomeProbe();
              pr.becomeReplicate();
            } else if (pr.state === 'StateReplicate') pr.freeInflightsTo(m.index);
            if (this.maybeCommit()) this.bcastAppend();
            else if (oldPaused) this.maybeSendAppend(m.from, true);
            while (this.maybeSendAppend(m.from, false));
          }
        }
        return null;
      case 'MsgHeartbeatResp': {
        pr.recentActive = true;
        pr.probeSent = false;
        if (pr.state === 'StateReplicate' && pr.inflightFull) pr.freeFirstInflight();
        if (pr.match < this.log.lastIndex) this.maybeSendAppend(m.from, true);
        if (m.context === '') return null;
        const acks = this.readOnly.recvAck(m.from, m.context);
        if (acks === null || acks.size < this.quorum) return null;
        for (const rs of this.readOnly.advance(m.context)) {
          const ctx = contextOf(rs.request);
          if (rs.request.from === none || rs.request.from === this.id) this.readStates.push({ index: rs.index, requestCtx: ctx });
          else this.send(message({ type: 'MsgReadIndexResp', to: rs.request.from, index: rs.index, entries: rs.request.entries }));
        }
        return null;
      }
      case 'MsgSnapStatus':
        if (pr.state !== 'StateSnapshot') return null;
        if (m.reject) pr.pendingSnapshot = 0;
        pr.becomeProbe();
        pr.probeSent = true;
        return null;
      default:
        return null;
    }
  }

  private stepCandidate(m: RaftMessage): string | null {
    const myVoteResp: MessageType = this.state === 'StatePreCandidate' ? 'MsgPreVoteResp' : 'MsgVoteResp';
    switch (m.type) {
      case 'MsgProp':
        return proposalDropped;
      case 'MsgApp':
        this.becomeFollower(m.term, m.from);
        this.handleAppendEntries(m);
        return null;
      case 'MsgHeartbeat':
        this.becomeFollower(m.term, m.from);
        this.handleHeartbeat(m);
        return null;
      case 'MsgSnap':
        this.becomeFollower(m.term, m.from);
        this.handleSnapshot(m);
        return null;
      default:
        if (m.type === myVoteResp) {
          const result = this.poll(m.from, !m.reject);
          if (result === 'won') {
            if (this.state === 'StatePreCandidate') this.campaign('election');
            else {
              this.becomeLeader();
              this.bcastAppend();
            }
          } else if (result === 'lost') {
            this.becomeFollower(this.term, none);
          }
        }
        return null;
    }
  }

  private stepFollower(m: RaftMessage): string | null {
    switch (m.type) {
      case 'MsgProp':
        if (this.lead === none) return proposalDropped;
        this.send({ ...m, to: this.lead });
        return null;
      case 'MsgApp':
        this.electionElapsed = 0;
        this.lead = m.from;
        this.handleAppendEntries(m);
        return null;
      case 'MsgHeartbeat':
        this.electionElapsed = 0;
        this.lead = m.from;
        this.handleHeartbeat(m);
        return null;
      case 'MsgSnap':
        this.electionElapsed = 0;
        this.lead = m.from;
        this.handleSnapshot(m);
        return null;
      case 'MsgReadIndex':
        if (this.lead === none) return null;
        this.send({ ...m, to: this.lead });
        return null;
      case 'MsgReadIndexResp':
        if (m.entries.length !== 1) return null;
        this.readStates.push({ index: m.index, requestCtx: contextOf(m) });
        return null;
      default:
        return null;
    }
  }

  private handleAppendEntries(m: RaftMessage): void {
    if (m.index < this.log.committed) {
      this.send(message({ type: 'MsgAppResp', to: m.from, index: this.log.committed }));
      return;
    }
    const last = this.log.maybeAppend(m.index, m.logTerm, m.commit, m.entries);
    if (last !== null) this.send(message({ type: 'MsgAppResp', to: m.from, index: last }));
    else this.send(message({ type: 'MsgAppResp', to: m.from, index: m.index, reject: true, rejectHint: this.log.lastIndex }));
  }

  private handleHeartbeat(m: RaftMessage): void {
    this.log.commitTo(m.commit);
    this.send(message({ type: 'MsgHeartbeatResp', to: m.from, context: m.context }));
  }

  private handleSnapshot(m: RaftMessage): void {
    const snapshot = m.snapshot!;
    const { index, term } = snapshot.metadata;
    if (index > this.log.committed && !this.log.matchTerm(index, term)) {
      this.log.restore(snapshot);
      this.snapshotToApply = snapshot;
      this.send(message({ type: 'MsgAppResp', to: m.from, index: this.log.lastIndex }));
      return;
    }
    if (index > this.log.committed) this.log.commitTo(index);
    this.send(message({ type: 'MsgAppResp', to: m.from, index: this.log.committed }));
  }
}

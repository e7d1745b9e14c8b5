// A cluster member's raft node glue: raft (raft/raft.ts) ticked every 100 ms, its messages sent to the
// peers as engine messages `etcd.raft.<type>` (after the disk's fsync when the step wrote entries),
// writes proposed (the entry carries the request message), every committed entry applied in order by
// every member (the one that proposed it answers), linearizable reads answered once a ReadIndex round
// confirms the index and the member has applied that far, and requests not answered within etcd's
// request timeout failed with its errors. Only the leader expires leases, through the log.
// Models etcdserver/raft.go (raftNode: tick, Ready, send), etcdserver/server.go (applyAll,
// applyEntryNormal, the lease revoke loop), v3_server.go (processInternalRaftRequestOnce,
// linearizableReadLoop, parseProposeCtxErr) and raft/node.go (Propose blocking while there is no leader).

import { Rng, timerKind, type Message, type TimerPayload } from '../engine/index.ts';
import type { RaftNetworkType } from '../messages/index.ts';
import type { RpcError } from './errors.ts';
import { noLease, type LeaseID } from './kv.ts';
import {
  defaultSnapshotCount, ErrGRPCLeaderChanged, ErrGRPCTimeout, ErrGRPCTimeoutDueToLeaderFail, ErrProposeDeadline, ErrTransportClosing, etcdKinds,
  memberTimers, raftKindPrefix, requestTimeout, snapshotCatchUpEntries, type EtcdRaftOptions, type MemberIO,
} from './messages.ts';
import type { LeaseGrantRequest, RangeRequest, TxnRequest } from './rpc.ts';
import { isTxnReadonly } from './txn.ts';
import { etcdRaftDefaults, Raft } from './raft/raft.ts';
import type { RaftLog } from './raft/log.ts';
import { message, type HardState, type RaftMessage, type Snapshot } from './raft/types.ts';
import { DbSnapshot } from './db-snapshot.ts';

/** What a proposal carries: the request to apply and the member that answers it. */
interface Proposal {
  readonly member: string;
  readonly request: Message;
}

function isProposal(data: unknown): data is Proposal {
  return data !== null && typeof data === 'object' && 'request' in data;
}

/** A lease the leader found expired, revoked through the log. */
interface LeaseExpiry {
  readonly leaseExpired: LeaseID;
}

/** What the node asks of the rest of its member. */
export interface RaftHost {
  /** Serves a request as a single member does; `silent` applies it without answering. */
  serve(request: Message, silent: boolean): void;
  fail(request: Message, error: RpcError): void;
  nextLeaseId(): LeaseID;
  /** The lease, if its expiry timer fired and it has expired. */
  expiredLease(id: LeaseID): boolean;
  /** Revokes a lease the log says expired, if it is still there. */
  revokeExpired(id: LeaseID): void;
  /** This member became the leader: its lessor restarts every lease's TTL and runs the expiry loop. */
  promote(): void;
  /** This member stopped leading: the expiry loop stops. */
  demote(): void;
  /** A copy of this member's database as it is now, which holds the entries up to `consistentIndex`. */
  snapshotDb(consistentIndex: number): DbSnapshot;
  /** Loads a database a leader's snapshot brought, in place of this member's; returns its consistent index. */
  restoreDb(snapshot: DbSnapshot): number;
}

export class RaftNode {
  /** The raft state machine; null while the process is down. */
  raft: Raft | null = null;
  /** What is on disk while the process is down (its WAL: log and hard state). */
  private disk: { log: RaftLog; hard: HardState } | null = null;
  /** The disk's fsync time, ms: messages a step that wrote entries sends leave this much later. */
  fsync: number;
  private tickTimer: Message | null = null;
  private readonly makeRaft: (disk?: { log: RaftLog; hard: HardState }) => Raft;
  /** Peers this member's raft messages do not reach (a partition), by component. */
  readonly unreachable = new Set<string>();
  /** Proposed writes and linearizable reads waiting here, by request message id. */
  private readonly waiting = new Map<number, { request: Message; at: number; timer: Message; readIndex: number | null }>();
  /** Linearizable reads whose read index is known, waiting for the member to apply that far. */
  private readonly confirmedReads = new Set<number>();
  /** Proposals made while no leader was known, in order. */
  private blocked: Array<{ data: Proposal | LeaseExpiry; size: number }> = [];
  /** The leader last seen (0: none) and when it was elected (leadElectedTime). */
  private lead = { id: 0, electedAt: 0 };
  /** The term of the last entry applied: what headers and Status report as the raft term (etcdserver's s.Term()). */
  appliedTerm = 0;
  /** Its raft snapshots and the index its database holds. */
  private readonly snapshots: MemberSnapshots;

  constructor(private readonly io: MemberIO, private readonly options: EtcdRaftOptions, private readonly host: RaftHost) {
    this.fsync = options.fsync ?? 0;
    this.snapshots = new MemberSnapshots(options, host);
    const rng = new Rng(options.seed);
    const peers = options.peers.map((p) => p.id);
    this.makeRaft = (disk) => new Raft({ ...etcdRaftDefaults, id: options.id, peers, random: (n) => rng.int(n) }, disk?.log, disk?.hard);
  }

  /** Starts the node: the bootstrap entries, then the ticks. */
  start(): void {
    this.raft = this.makeRaft();
    this.raft.bootstrap(this.options.peers.map((p) => p.id));
    this.scheduleTick();
  }

  /** True while the process is down (`crash` … `restart`). */
  get down(): boolean {
    return this.disk !== null;
  }

  /**
   * The process dies: raft state not on disk is lost, waiting requests fail, then `cleanUp` (the rest of
   * the member's), then the ticks stop. Nothing if it was down.
   */
  crash(cleanUp: () => void): void {
    if (this.raft === null) return;
    this.disk = { log: this.raft.log, hard: this.raft.hardState };
    this.raft = null;
    for (const [id, w] of [...this.waiting]) {
      this.waiting.delete(id);
      this.io.cancelTimer(w.timer);
      this.host.fail(w.request, ErrTransportClosing);
    }
    cleanUp();
    if (this.tickTimer !== null) this.io.cancelTimer(this.tickTimer);
    this.tickTimer = null;
    this.confirmedReads.clear();
    this.lead = { id: 0, electedAt: this.lead.electedAt };
    this.blocked = [];
  }

  /** The process starts again from its WAL: a follower with no leader, its term, vote, log and commit as written. */
  restart(): void {
    if (this.disk === null) return;
    this.raft = this.makeRaft(this.disk);
    this.disk = null;
    this.scheduleTick();
  }

  /** Handles what a cluster member does differently; false for what it serves as a single member does. */
  route(m: Message): boolean {
    const raft = this.raft!;
    if (m.kind.startsWith(raftKindPrefix)) {
      if (this.unreachable.has(m.from)) return true;
      const before = raft.log.lastIndex;
      raft.step(m.payload as RaftMessage);
      this.flush(raft.log.lastIndex !== before || m.kind === `${raftKindPrefix}MsgApp`);
      return true;
    }
    switch (m.kind) {
      case timerKind: {
        const t = m.payload as TimerPayload;
        if (t.name === memberTimers.raftTick) {
          raft.tick();
          this.flush(false);
          this.scheduleTick();
          return true;
        }
        if (t.name === memberTimers.requestTimeout) {
          this.timeOut(t.data as number);
          return true;
        }
        if (t.name === memberTimers.leaseExpiry) {
          const id = t.data as LeaseID;
          if (this.host.expiredLease(id) && raft.state === 'StateLeader') this.proposeEntry({ leaseExpired: id }, 16);
          return true;
        }
        return false;
      }
      case etcdKinds.put: case etcdKinds.deleteRange: case etcdKinds.compact: case etcdKinds.leaseGrant: case etcdKinds.leaseRevoke:
        this.propose(m);
        return true;
      case etcdKinds.txn:
        if (isTxnReadonly(m.payload as TxnRequest)) this.readIndex(m);
        else this.propose(m);
        return true;
      case etcdKinds.range:
        if ((m.payload as RangeRequest).serializable) return false;
        this.readIndex(m);
        return true;
      default:
        return false;
    }
  }

  private scheduleTick(): void {
    this.tickTimer = this.io.setTimer(etcdRaftDefaults.tickMs, memberTimers.raftTick, null, { background: true });
  }

  /** A write or linearizable read waits here, until answered or etcd's request timeout. */
  private wait(m: Message): void {
    this.waiting.set(m.id, { request: m, at: this.io.now(), timer: this.io.setTimer(requestTimeout, memberTimers.requestTimeout, m.id), readIndex: null });
  }

  private propose(m: Message): void {
    let request = m;
    // A lease's ID is chosen before the proposal, so every member grants the same one.
    if (m.kind === etcdKinds.leaseGrant && ((m.payload as LeaseGrantRequest).ID ?? noLease) === noLease) {
      request = { ...m, payload: { ...(m.payload as LeaseGrantRequest), ID: this.host.nextLeaseId() } };
    }
    this.wait(m);
    this.proposeEntry({ member: this.io.name, request }, JSON.stringify(request.payload).length);
  }

  /** Proposes now, or (no leader known: raft's proposal channel is closed) once a leader is known. */
  private proposeEntry(data: Proposal | LeaseExpiry, size: number): void {
    if (this.raft!.propose(data, size) !== null) this.blocked.push({ data, size });
    this.flush(true);
  }

  private readIndex(m: Message): void {
    this.wait(m);
    this.raft!.readIndex(String(m.id));
    this.flush(false);
  }

  private timeOut(id: number): void {
    const w = this.waiting.get(id);
    if (w === undefined) return;
    this.waiting.delete(id);
    const before = this.blocked.length;
    this.blocked = this.blocked.filter((b) => !('request' in b.data) || b.data.request.id !== id);
    // No leader was ever known: raft's node.Propose blocked until the request's context ended.
    if (this.blocked.length < before) return this.host.fail(w.request, ErrProposeDeadline);
    // parseProposeCtxErr: a request that started while the previous leader was being replaced.
    const lostAt = this.lead.electedAt - 2 * etcdRaftDefaults.electionTick * etcdRaftDefaults.tickMs;
    const isWrite = !(w.request.kind === etcdKinds.range || (w.request.kind === etcdKinds.txn && isTxnReadonly(w.request.payload as TxnRequest)));
    this.host.fail(w.request, isWrite && w.at > lostAt && w.at < this.lead.electedAt ? ErrGRPCTimeoutDueToLeaderFail : ErrGRPCTimeout);
  }

  /** What a raft step produced: leadership changes, entries to apply, read states, messages to send. */
  private flush(wrote: boolean): void {
    const raft = this.raft!;
    if (raft.lead !== this.lead.id) this.leaderChanged(raft.lead);
    const snapshot = raft.takeSnapshot();
    if (snapshot !== null) this.appliedTerm = this.snapshots.load(snapshot, this.io.name);
    for (const e of raft.committedEntries()) {
      // applyEntryNormal: an entry the database already holds (it came with a snapshot) is skipped, and
      // a request waiting for it is not answered (it times out).
      if (e.index > this.snapshots.consistentIndex) {
        this.snapshots.consistentIndex = e.index;
        if (isProposal(e.data)) this.applyProposal(e.data);
        else if (e.data !== null && typeof e.data === 'object' && 'leaseExpired' in e.data) this.host.revokeExpired((e.data as LeaseExpiry).leaseExpired);
      }
      raft.appliedTo(e.index);
      this.appliedTerm = e.term;
    }
    this.snapshots.maybeSnapshot(raft);
    for (const rs of raft.takeReadStates()) {
      const w = this.waiting.get(Number(rs.requestCtx));
      if (w === undefined) continue;
      w.readIndex = rs.index;
      this.confirmedReads.add(w.request.id);
    }
    for (const id of [...this.confirmedReads]) {
      const w = this.waiting.get(id);
      if (w !== undefined && w.readIndex! > raft.log.applied) continue;
      this.confirmedReads.delete(id);
      if (w === undefined) continue;
      this.waiting.delete(id);
      this.io.cancelTimer(w.timer);
      this.host.serve(w.request, false);
    }
    const delay = wrote ? this.fsync : 0;
    const peers = this.options.peers;
    const snapshotsSent: RaftMessage[] = [];
    for (let msg of raft.takeMessages()) {
      const to = peers.find((p) => p.id === msg.to)!.component;
      const reached = !this.unreachable.has(to);
      if (msg.type === 'MsgSnap') {
        // The snapshot goes out with this member's database as it is now (createMergedSnapshotMessage);
        // raft learns how sending went (ReportSnapshot) once the message is on its way.
        snapshotsSent.push(message({ type: 'MsgSnapStatus', from: msg.to, reject: !reached }));
        if (reached) msg = { ...msg, snapshot: { metadata: msg.snapshot!.metadata, data: this.host.snapshotDb(this.snapshots.consistentIndex) } };
      }
      if (!reached) continue;
      // Replicating a client's request is foreground work, whatever step sends it (a tick may).
      const foreground = msg.type === 'MsgApp' && msg.entries.some((e) => isProposal(e.data) && !e.data.request.background);
      this.io.send(to, `etcd.raft.${msg.type as RaftNetworkType}`, msg, { ...(delay > 0 ? { delay } : {}), ...(foreground ? { background: false } : {}) });
    }
    for (const status of snapshotsSent) raft.step(status);
  }

  private leaderChanged(lead: number): void {
    const wasLeader = this.lead.id === this.options.id;
    this.lead = { id: lead, electedAt: lead !== 0 ? this.io.now() : this.lead.electedAt };
    if (lead !== 0) {
      const blocked = this.blocked;
      this.blocked = [];
      for (const b of blocked) if (this.raft!.propose(b.data, b.size) !== null) this.blocked.push(b);
    }
    // A linearizable read waiting for its read index fails with a retryable error (linearizableReadLoop).
    for (const [id, w] of [...this.waiting]) {
      if (w.readIndex !== null || !(w.request.kind === etcdKinds.range || w.request.kind === etcdKinds.txn)) continue;
      if (w.request.kind === etcdKinds.txn && !isTxnReadonly(w.request.payload as TxnRequest)) continue;
      this.waiting.delete(id);
      this.io.cancelTimer(w.timer);
      this.host.fail(w.request, ErrGRPCLeaderChanged);
    }
    if (lead === this.options.id) this.host.promote();
    else if (wasLeader) this.host.demote();
  }

  private applyProposal(p: Proposal): void {
    const mine = p.member === this.io.name && this.waiting.has(p.request.id);
    if (mine) {
      this.io.cancelTimer(this.waiting.get(p.request.id)!.timer);
      this.waiting.delete(p.request.id);
    }
    this.host.serve(p.request, !mine);
  }

  /** The leader's component, or null when none is known. */
  leader(): string | null {
    const lead = this.raft?.lead ?? 0;
    return this.options.peers.find((p) => p.id === lead)?.component ?? null;
  }
}

/**
 * A member's raft snapshots (etcdserver's snapi) and the index of the last entry its database holds (etcd
 * keeps it in the backend's meta bucket: an entry at or below it is not applied again, as after loading a
 * snapshot's database).
 */
class MemberSnapshots {
  consistentIndex = 0;
  /** The index of the member's last raft snapshot. */
  private index = 0;

  constructor(private readonly options: EtcdRaftOptions, private readonly host: RaftHost) {}

  /** Loads the database a leader's snapshot brought (applySnapshot); returns the snapshot's term. */
  load(snapshot: Snapshot, member: string): number {
    if (!(snapshot.data instanceof DbSnapshot)) throw new Error(`${member}: a raft snapshot at ${snapshot.metadata.index} came without a database`);
    this.consistentIndex = this.host.restoreDb(snapshot.data);
    this.index = snapshot.metadata.index;
    return snapshot.metadata.term;
  }

  /**
   * triggerSnapshot: once more than `snapshotCount` entries were applied since the last snapshot, the
   * member snapshots at its applied index and compacts its raft log, keeping `snapshotCatchUpEntries`
   * entries before it for slow followers. etcd's snapshot holds the v2 store; the v3 database goes with
   * the snapshot when it is sent (RaftNode.flush). Not modelled: compaction waits while a snapshot is being
   * sent (here a snapshot is sent in one message, reported at once).
   */
  maybeSnapshot(raft: Raft): void {
    const applied = raft.log.applied;
    if (applied - this.index <= (this.options.snapshotCount ?? defaultSnapshotCount)) return;
    const catchUp = this.options.snapshotCatchUpEntries ?? snapshotCatchUpEntries;
    raft.log.createSnapshot(applied, null, applied > catchUp ? applied - catchUp : 1);
    this.index = applied;
  }
}

// The etcd member as an engine component. Every unary RPC is one request message and one reply; each
// reply carries etcd's response (or its error), the "request stats" debug line for that request, and,
// for writes, a structured record of what the write did (compares and their results, branch taken,
// ops, resulting events), so the UI can animate a Txn from the trace alone.
//
// Unary kinds (request → reply `<kind>Response`, payload `EtcdReply<…>`): etcd.Range, etcd.Put,
// etcd.DeleteRange, etcd.Txn, etcd.Compact, etcd.LeaseGrant, etcd.LeaseRevoke, etcd.LeaseKeepAlive,
// etcd.LeaseTimeToLive, etcd.LeaseLeases. Request payloads are the request messages of rpc.ts.
// (LeaseKeepAlive is a stream in etcd; here each keepalive is one request and one reply, and like any
// stream call it logs no request-stats line: `stats` and `log` are null.)
//
// Watch streams: `etcd.Watch` with `{stream, request: WatchRequest}` opens the client's stream named
// `stream` on first use; each WatchResponse travels as one `etcd.WatchResponse` message
// `{stream, response}` to the client. The response to a create, cancel or progress request is a reply
// to that request (so a coroutine can wait for `created`); event responses are plain messages whose
// cause is the write (or sync timer) that produced them. `etcd.WatchClose` `{stream}` closes a stream.
//
// Timers: unsynced watchers catch up 100 ms after they appear (etcd's sync loop period); progress
// notifications tick per stream every 10 min + up to 10% jitter; each lease expires on a timer at its
// expiry and is then revoked. Lease and progress timers are background work.
//
// Models the request path of etcdserver/api/v3rpc (key.go, lease.go, watch.go, interceptor.go) over
// etcdserver/v3_server.go. A single member (no `raft` option) commits at once, so a write is applied when
// its request is delivered. A member of a cluster (`raft` option) hosts a raft node (raft/raft.ts): a
// write is proposed (its entry carries the request message), applied by every member from the committed
// log in order (etcdserver's apply loop), and answered by the member that proposed it once applied; a
// linearizable Range (or read-only Txn) waits for a ReadIndex round, then for the member to have applied
// that index; a serializable Range is served at once from the member's own store. Raft messages are
// engine messages `etcd.raft.<type>` between the members; the raft tick is a 100 ms background timer.
// A request not answered within etcd's request timeout (5 s + 2 × election timeout = 7 s) fails with
// `etcdserver: request timed out` (or `…, possibly due to previous leader failure`; a linearizable read
// whose leader changed fails with `etcdserver: leader changed`). Only the leader expires leases, and it
// revokes them through the log. Not modelled in a cluster: snapshots of the MVCC store (etcd's snapshot
// count is 100 000 entries), the batching of linearizable reads into one ReadIndex, keepalives forwarded
// to the leader (a member renews its own lessor).

import { Component, minute, Rng, timerKind, type Message, type TimerPayload } from '../engine/index.ts';
import { defaultCluster, type ClusterIdentity, type Member } from './cluster.ts';
import { defaultMembers, estimatedDbSize, memberListResponse, statusResponse } from './maintenance.ts';
import { EtcdError, ErrGRPCLeaseNotFound, toRpcError, type RpcError } from './errors.ts';
import { deleteRangeRequestSize, putRequestSize, rangeRequestSize, txnRequestSize } from './proto-size.ts';
import {
  checkDeleteRequest, checkIntervals, checkPutRequest, checkRaftRequestSize, checkReceivedMessageSize, checkTxnRequest, defaultMaxRequestBytes,
  raftRequestField,
} from './request-checks.ts';
import { IdGenerator } from './id-generator.ts';
import { KVServer } from './kv-server.ts';
import { changeToEvent, noLease, type Event, type LeaseID } from './kv.ts';
import { Lessor } from './lease.ts';
import {
  deleteRangeStats, genericStats, putStats, rangeStats, txnStats, zapLine, type RequestStats,
} from './request-stats.ts';
import type {
  CompactionRequest, CompactionResponse, DeleteRangeRequest, DeleteRangeResponse, LeaseGrantRequest, LeaseGrantResponse,
  LeaseKeepAliveRequest, LeaseKeepAliveResponse, LeaseLeasesResponse, LeaseRevokeRequest, LeaseRevokeResponse,
  LeaseTimeToLiveRequest, LeaseTimeToLiveResponse, PutRequest, PutResponse, RangeRequest, RangeResponse, RequestOp,
  ResponseHeader, StatusResponse, TxnRequest, TxnResponse, WatchRequest, WatchResponse,
} from './rpc.ts';
import { isTxnReadonly, type EvaluatedCompare, type TxnEvaluation } from './txn.ts';
import { RemoteAddresses } from './remote.ts';
import { WatchStream } from './watch-stream.ts';
import { WatchableStore } from './watchable-store.ts';
import { etcdRaftDefaults, Raft, type RaftConfig } from './raft/raft.ts';
import type { RaftLog } from './raft/log.ts';
import type { HardState, RaftMessage } from './raft/types.ts';

export const etcdKinds = {
  range: 'etcd.Range',
  put: 'etcd.Put',
  deleteRange: 'etcd.DeleteRange',
  txn: 'etcd.Txn',
  compact: 'etcd.Compact',
  leaseGrant: 'etcd.LeaseGrant',
  leaseRevoke: 'etcd.LeaseRevoke',
  leaseKeepAlive: 'etcd.LeaseKeepAlive',
  leaseTimeToLive: 'etcd.LeaseTimeToLive',
  leaseLeases: 'etcd.LeaseLeases',
  watch: 'etcd.Watch',
  watchResponse: 'etcd.WatchResponse',
  watchClose: 'etcd.WatchClose',
  watchStreamError: 'etcd.WatchStreamError',
  status: 'etcd.Status',
  memberList: 'etcd.MemberList',
} as const;

/** Payload of `etcd.Watch`: a request on the sender's stream named `stream`. */
export interface WatchStreamRequest {
  readonly stream: string;
  readonly request: WatchRequest;
}

/** Payload of `etcd.WatchResponse`. */
export interface WatchStreamResponse {
  readonly stream: string;
  readonly response: WatchResponse;
}

/** Payload of `etcd.WatchClose`. */
export interface WatchStreamClose {
  readonly stream: string;
}

/**
 * Payload of `etcd.WatchStreamError`: the client's stream broke (its Recv failed with `error`); etcd
 * has dropped every watcher on it. clientv3 opens a new stream and creates its watches again.
 */
export interface WatchStreamError {
  readonly stream: string;
  readonly error: string;
}

/** What clientv3's Recv returns when the server's side of the stream goes away (gRPC Unavailable). */
export const watchStreamTransportClosing = 'rpc error: code = Unavailable desc = transport is closing';

/** `--max-request-bytes` default (1.5 MiB) and the gRPC allowance on top of it. */
export const maxRequestBytes = defaultMaxRequestBytes;

const timers = {
  watchSync: 'etcd.watch-sync', watchProgress: 'etcd.watch-progress', leaseExpiry: 'etcd.lease-expiry', raftTick: 'etcd.raft-tick',
  requestTimeout: 'etcd.request-timeout',
} as const;

/** The kind of a raft message between members: `etcd.raft.MsgApp`, … */
export const raftKindPrefix = 'etcd.raft.';

/** etcd's ReqTimeout: 5 s plus two election timeouts (2 × 10 ticks × 100 ms). */
export const requestTimeout = 5000 + 2 * etcdRaftDefaults.electionTick * etcdRaftDefaults.tickMs;

/** etcdserver's errors a client sees when raft cannot answer (v3rpc/rpctypes/error.go). */
export const ErrGRPCTimeout = Object.freeze({ code: 14, codeName: 'Unavailable', message: 'etcdserver: request timed out' } as const);
export const ErrGRPCTimeoutDueToLeaderFail = Object.freeze({
  code: 14, codeName: 'Unavailable', message: 'etcdserver: request timed out, possibly due to previous leader failure',
} as const);
/**
 * What a write gets when no leader was known for its whole request timeout: the proposal never left
 * raft's node (Propose blocks while there is no leader) and etcd returns the context's error as is,
 * which gRPC reports as Unknown.
 */
export const ErrProposeDeadline = Object.freeze({ code: 2, codeName: 'Unknown', message: 'context deadline exceeded' } as const);
export const ErrGRPCLeaderChanged = Object.freeze({ code: 14, codeName: 'Unavailable', message: 'etcdserver: leader changed' } as const);
/** What a client's in-flight RPC gets when the member's process dies (gRPC's transport closes). */
export const ErrTransportClosing = Object.freeze({ code: 14, codeName: 'Unavailable', message: 'transport is closing' } as const);
/** What a client's RPC gets when the member's process is down (nothing listens on its port). */
export const ErrConnectionRefused = Object.freeze({
  code: 14, codeName: 'Unavailable', message: 'connection error: desc = "transport: Error while dialing dial tcp: connect: connection refused"',
} as const);

/** A member of an etcd cluster: its raft ID and the component that runs it. */
export interface RaftPeer {
  readonly id: number;
  readonly component: string;
}

/** The `raft` option: this member's raft ID and every member (itself included). */
export interface EtcdRaftOptions {
  readonly id: number;
  readonly peers: readonly RaftPeer[];
  /** The disk's fsync time, ms: messages a step that wrote entries sends leave this much later (default 0). */
  readonly fsync?: number;
  /**
   * Seed of the member's own RNG (its randomized election timeouts), so that raft draws nothing from the
   * engine's RNG and the rest of the cluster (generated names, UIDs) is the same with any member count.
   */
  readonly seed: string;
}

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

/** The reply kind for a request kind: `etcd.Txn` → `etcd.TxnResponse`. */
export function replyKind(requestKind: string): string {
  return `${requestKind}Response`;
}

/** What one write did, for the UI: one record per Put, DeleteRange, Txn, LeaseRevoke. */
export interface WriteRecord {
  /** The store revision after the request: the new revision if it changed anything. */
  readonly revision: number;
  /** True when the request created a revision (recorded at least one change). */
  readonly changed: boolean;
  /** Top-level compares in order, with what they saw and their result (empty for Put/DeleteRange). */
  readonly compares: readonly EvaluatedCompare[];
  readonly branch: 'success' | 'failure';
  /** The ops of the branch taken. */
  readonly ops: readonly RequestOp[];
  /** Evaluations of nested txns on the path taken. */
  readonly nested: readonly TxnEvaluation[];
  /** The events the write produced, in change order (what a watcher of every key would get). */
  readonly events: readonly Event[];
}

interface ReplyCommon {
  /** Null for stream calls (LeaseKeepAlive), which etcd does not log. */
  readonly stats: RequestStats | null;
  /** The request-stats line as etcd's zap logger prints it at debug level. */
  readonly log: string | null;
}

export type EtcdReply<R> =
  | (ReplyCommon & { readonly ok: true; readonly response: R; readonly write: WriteRecord | null })
  | (ReplyCommon & { readonly ok: false; readonly error: RpcError; readonly write: null });

export interface EtcdServerOptions {
  readonly identity?: ClusterIdentity;
  /** Virtual processing time before a read's reply leaves, ms (default 0); plus `readNsPerByte` of the response. */
  readonly readDelay?: number;
  /** Read time per byte of the response, ns (default 0). */
  readonly readNsPerByte?: number;
  /**
   * Virtual time a write takes to apply — raft append, the backend commit (fsync) and the apply — before
   * its reply leaves, ms (default 0); plus `writeNsPerByte` of the request. The request-stats line's
   * `time spent` is this time.
   */
  readonly writeDelay?: number;
  /** Write time per byte of the request, ns (default 0). */
  readonly writeNsPerByte?: number;
  /** The clients' host, for the request-stats `remote` (default 127.0.0.1: kube-apiserver beside etcd). */
  readonly clientHost?: string;
  /** Minimum lease TTL, s (default 2: ceil(1.5 × the 1 s election timeout)). */
  readonly minLeaseTTL?: number;
  /** `--experimental-watch-progress-notify-interval`, ms (default 10 min; at least 100 ms). */
  readonly progressNotifyInterval?: number;
  /** A member of a cluster (absent: a single member without raft traffic). */
  readonly raft?: EtcdRaftOptions;
  /** How often unsynced watchers are caught up, ms (default 100). */
  readonly watchSyncInterval?: number;
  /** The cluster's members, as MemberList answers (default: etcd's single default member). */
  readonly members?: readonly Member[];
}

export class EtcdServer extends Component {
  readonly lessor: Lessor;
  readonly store: WatchableStore;
  readonly kv: KVServer;
  readonly identity: ClusterIdentity;
  private readonly readDelay: number;
  private readonly writeDelay: number;
  private readonly readNsPerByte: number;
  private readonly writeNsPerByte: number;
  private readonly remotes: RemoteAddresses;
  private readonly progressInterval: number;
  private readonly syncInterval: number;
  private readonly members: readonly Member[];
  private idGen: IdGenerator | null = null;
  private readonly streams = new Map<string, { client: string; name: string; stream: WatchStream; ticker: Message | null; interval: number }>();
  private readonly leaseTimers = new Map<LeaseID, Message>();
  private syncTimer: Message | null = null;
  /** The request being handled, so a watch stream can answer it. */
  private handling: Message | null = null;
  /** Cluster member: the raft node, null for a single member. */
  raft: Raft | null = null;
  private readonly raftOptions: EtcdRaftOptions | null;
  private raftDisk: { log: RaftLog; hard: HardState } | null = null;
  private fsync = 0;
  private tickTimer: Message | null = null;
  private readonly raftRng: Rng;
  /** Peers this member's raft messages do not reach (a partition), by component. */
  readonly unreachable = new Set<string>();
  /** Proposed writes and linearizable reads waiting here, by request message id. */
  private readonly waiting = new Map<number, { request: Message; at: number; timer: Message; readIndex: number | null }>();
  /** Linearizable reads whose read index is known, waiting for the member to apply that far. */
  private readonly confirmedReads = new Set<number>();
  /** True while applying an entry another member proposed: nothing is answered. */
  private silent = false;
  /** Proposals made while no leader was known, in order. */
  private blocked: Array<{ data: Proposal | LeaseExpiry; size: number }> = [];
  private lastLead = 0;
  /** The term of the last entry applied: what headers and Status report as the raft term. */
  private appliedTerm = 0;
  /** When the current leader was elected (leadElectedTime) and when the previous one was lost. */
  private leadElectedAt = 0;

  constructor(name = 'etcd', options: EtcdServerOptions = {}) {
    super(name);
    const base = options.identity ?? defaultCluster;
    const appliedTerm = (): number => this.appliedTerm;
    // A member's header (and Status) carries the term of the last entry it applied (etcdserver's
    // s.Term(), set in apply): a member campaigning alone raises raft's term, not this one.
    this.identity = options.raft === undefined ? base
      : { clusterId: base.clusterId, memberId: base.memberId, get raftTerm() { return appliedTerm(); } };
    this.lessor = new Lessor(options.minLeaseTTL ?? 2);
    this.store = new WatchableStore(this.lessor);
    this.store.onUnsynced = () => this.scheduleSync();
    this.kv = new KVServer(this.store, this.identity);
    this.readDelay = options.readDelay ?? 0;
    this.writeDelay = options.writeDelay ?? 0;
    this.readNsPerByte = options.readNsPerByte ?? 0;
    this.writeNsPerByte = options.writeNsPerByte ?? 0;
    this.remotes = new RemoteAddresses('kube-apiserver', options.clientHost ?? '127.0.0.1');
    this.progressInterval = Math.max(options.progressNotifyInterval ?? 10 * minute, 100);
    this.syncInterval = options.watchSyncInterval ?? 100;
    this.members = options.members ?? defaultMembers(this.identity.memberId);
    this.raftOptions = options.raft ?? null;
    this.fsync = this.raftOptions?.fsync ?? 0;
    this.raftRng = new Rng(this.raftOptions?.seed ?? name);
  }

  /** Starts the raft node (a cluster member): the bootstrap entries, then the ticks. */
  startRaft(): void {
    const o = this.raftOptions;
    if (o === null) throw new Error(`${this.name}: not a cluster member`);
    this.raft = this.newRaft();
    this.raft.bootstrap(o.peers.map((p) => p.id));
    this.scheduleTick();
  }

  private newRaft(disk?: { log: RaftLog; hard: HardState }): Raft {
    const o = this.raftOptions!;
    const config: RaftConfig = { ...etcdRaftDefaults, id: o.id, peers: o.peers.map((p) => p.id), random: (n) => this.raftRng.int(n) };
    return new Raft(config, disk?.log, disk?.hard);
  }

  /** The disk's fsync time from now on (a slow disk), ms. */
  setFsync(ms: number): void {
    this.fsync = ms;
  }

  /** True while the member's process is down (`crash` … `restart`). */
  get down(): boolean {
    return this.raftDisk !== null;
  }

  /**
   * The member's process dies: raft state not on disk is lost, in-flight RPCs fail as their connection
   * closes (`transport is closing`), watch streams break, timers stop. Until `restart`, every request
   * is refused at once (the port is closed) and raft messages are lost.
   */
  crash(): void {
    if (this.raft === null) return;
    this.raftDisk = { log: this.raft.log, hard: this.raft.hardState };
    this.raft = null;
    for (const [id, w] of [...this.waiting]) {
      this.waiting.delete(id);
      this.cancelTimer(w.timer);
      this.fail(w.request, ErrTransportClosing);
    }
    for (const client of new Set([...this.streams.values()].map((e) => e.client))) this.breakWatchStreams(client);
    for (const timer of this.leaseTimers.values()) this.cancelTimer(timer);
    this.leaseTimers.clear();
    if (this.tickTimer !== null) this.cancelTimer(this.tickTimer);
    this.tickTimer = null;
    if (this.syncTimer !== null) this.cancelTimer(this.syncTimer);
    this.syncTimer = null;
    this.confirmedReads.clear();
    this.lastLead = 0;
    this.blocked = [];
  }

  /** The member starts again from its WAL: a follower with no leader, its term, vote, log and commit as written. */
  restart(): void {
    if (this.raftDisk === null) return;
    this.raft = this.newRaft(this.raftDisk);
    this.raftDisk = null;
    this.scheduleTick();
  }

  private refuse(m: Message): void {
    if (m.kind === timerKind || m.kind.startsWith(raftKindPrefix) || m.kind === etcdKinds.watchClose) return;
    if (m.kind === etcdKinds.watch) {
      this.send<WatchStreamError>(m.from, etcdKinds.watchStreamError, { stream: (m.payload as WatchStreamRequest).stream, error: ErrConnectionRefused.message });
      return;
    }
    this.fail(m, ErrConnectionRefused);
  }

  receive(message: Message): void {
    this.handling = message;
    try {
      if (this.down) this.refuse(message);
      else if (this.raft === null || !this.routeRaft(message)) this.dispatch(message);
    } finally {
      this.handling = null;
    }
  }

  // --- cluster member: raft ---

  /** Handles what a cluster member does differently; false for what it serves as a single member does. */
  private routeRaft(m: Message): boolean {
    const raft = this.raft!;
    if (m.kind.startsWith(raftKindPrefix)) {
      if (this.unreachable.has(m.from)) return true;
      const before = raft.log.lastIndex;
      raft.step(m.payload as RaftMessage);
      this.flushRaft(raft.log.lastIndex !== before || m.kind === `${raftKindPrefix}MsgApp`);
      return true;
    }
    switch (m.kind) {
      case timerKind: {
        const t = m.payload as TimerPayload;
        if (t.name === timers.raftTick) {
          raft.tick();
          this.flushRaft(false);
          this.scheduleTick();
          return true;
        }
        if (t.name === timers.requestTimeout) {
          this.timeOut(t.data as number);
          return true;
        }
        if (t.name === timers.leaseExpiry) {
          this.expireLease(t.data as LeaseID);
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
    this.tickTimer = this.setTimer(etcdRaftDefaults.tickMs, timers.raftTick, null, { background: true });
  }

  private wait(m: Message): void {
    const timer = this.setTimer(requestTimeout, timers.requestTimeout, m.id);
    this.waiting.set(m.id, { request: m, at: this.now, timer, readIndex: null });
  }

  private propose(m: Message): void {
    let request = m;
    // A lease's ID is chosen before the proposal, so every member grants the same one.
    if (m.kind === etcdKinds.leaseGrant && ((m.payload as LeaseGrantRequest).ID ?? noLease) === noLease) {
      request = { ...m, payload: { ...(m.payload as LeaseGrantRequest), ID: this.ids().nextLeaseId() } };
    }
    this.wait(m);
    this.proposeEntry({ member: this.name, request }, JSON.stringify(request.payload).length);
  }

  /** Proposes now, or (no leader known: raft's proposal channel is closed) once a leader is known. */
  private proposeEntry(data: Proposal | LeaseExpiry, size: number): void {
    if (this.raft!.propose(data, size) !== null) this.blocked.push({ data, size });
    this.flushRaft(true);
  }

  private readIndex(m: Message): void {
    this.wait(m);
    this.raft!.readIndex(String(m.id));
    this.flushRaft(false);
  }

  private timeOut(id: number): void {
    const w = this.waiting.get(id);
    if (w === undefined) return;
    this.waiting.delete(id);
    const before = this.blocked.length;
    this.blocked = this.blocked.filter((b) => !('request' in b.data) || b.data.request.id !== id);
    // No leader was ever known: raft's node.Propose blocked until the request's context ended.
    if (this.blocked.length < before) return this.fail(w.request, ErrProposeDeadline);
    // parseProposeCtxErr: a request that started while the previous leader was being replaced.
    const lostAt = this.leadElectedAt - 2 * etcdRaftDefaults.electionTick * etcdRaftDefaults.tickMs;
    const isWrite = !(w.request.kind === etcdKinds.range || (w.request.kind === etcdKinds.txn && isTxnReadonly(w.request.payload as TxnRequest)));
    this.fail(w.request, isWrite && w.at > lostAt && w.at < this.leadElectedAt ? ErrGRPCTimeoutDueToLeaderFail : ErrGRPCTimeout);
  }

  private fail(request: Message, error: RpcError): void {
    const payload: EtcdReply<never> = { ok: false, error, stats: null, log: null, write: null };
    this.reply(request, replyKind(request.kind), payload);
  }

  /** What a raft step produced: leadership changes, entries to apply, read states, messages to send. */
  private flushRaft(wrote: boolean): void {
    const raft = this.raft!;
    if (raft.lead !== this.lastLead) this.leaderChanged(raft.lead);
    for (const e of raft.committedEntries()) {
      if (isProposal(e.data)) this.applyProposal(e.data);
      else if (e.data !== null && typeof e.data === 'object' && 'leaseExpired' in e.data) this.applyLeaseExpiry((e.data as LeaseExpiry).leaseExpired);
      raft.appliedTo(e.index);
      this.appliedTerm = e.term;
    }
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
      this.cancelTimer(w.timer);
      this.dispatch(w.request);
    }
    const delay = wrote ? this.fsync : 0;
    const peers = this.raftOptions!.peers;
    for (const msg of raft.takeMessages()) {
      const to = peers.find((p) => p.id === msg.to)!.component;
      if (this.unreachable.has(to)) continue;
      // Replicating a client's request is foreground work, whatever step sends it (a tick may).
      const foreground = msg.type === 'MsgApp' && msg.entries.some((e) => isProposal(e.data) && !e.data.request.background);
      this.send<RaftMessage>(to, raftKindPrefix + msg.type, msg, { ...(delay > 0 ? { delay } : {}), ...(foreground ? { background: false } : {}) });
    }
  }

  private leaderChanged(lead: number): void {
    const wasLeader = this.lastLead === this.raftOptions!.id;
    this.lastLead = lead;
    if (lead !== 0) {
      this.leadElectedAt = this.now;
      const blocked = this.blocked;
      this.blocked = [];
      for (const b of blocked) if (this.raft!.propose(b.data, b.size) !== null) this.blocked.push(b);
    }
    // A linearizable read waiting for its read index fails with a retryable error (linearizableReadLoop).
    for (const [id, w] of [...this.waiting]) {
      if (w.readIndex !== null || !(w.request.kind === etcdKinds.range || w.request.kind === etcdKinds.txn)) continue;
      if (w.request.kind === etcdKinds.txn && !isTxnReadonly(w.request.payload as TxnRequest)) continue;
      this.waiting.delete(id);
      this.cancelTimer(w.timer);
      this.fail(w.request, ErrGRPCLeaderChanged);
    }
    if (lead === this.raftOptions!.id) {
      // Promote: the new leader's lessor restarts every lease's TTL from now.
      for (const lease of this.lessor.leases()) {
        this.lessor.renew(lease.id, this.now);
        this.scheduleExpiry(lease.id, this.lessor.lookup(lease.id)!.expiry);
      }
    } else if (wasLeader) {
      for (const timer of this.leaseTimers.values()) this.cancelTimer(timer);
      this.leaseTimers.clear();
    }
  }

  private applyProposal(p: Proposal): void {
    const mine = p.member === this.name && this.waiting.has(p.request.id);
    if (mine) {
      this.cancelTimer(this.waiting.get(p.request.id)!.timer);
      this.waiting.delete(p.request.id);
    }
    this.silent = !mine;
    try {
      this.dispatch(p.request);
    } finally {
      this.silent = false;
    }
  }

  private expireLease(id: LeaseID): void {
    this.leaseTimers.delete(id);
    const lease = this.lessor.lookup(id);
    if (lease === undefined || lease.expiry > this.now || this.raft!.state !== 'StateLeader') return;
    this.proposeEntry({ leaseExpired: id }, 16);
  }

  private applyLeaseExpiry(id: LeaseID): void {
    if (this.lessor.lookup(id) !== undefined) this.revoke(id);
  }

  private dispatch(message: Message): void {
    switch (message.kind) {
      case etcdKinds.range: return this.serveRange(message as Message<RangeRequest>);
      case etcdKinds.put: return this.servePut(message as Message<PutRequest>);
      case etcdKinds.deleteRange: return this.serveDeleteRange(message as Message<DeleteRangeRequest>);
      case etcdKinds.txn: return this.serveTxn(message as Message<TxnRequest>);
      case etcdKinds.compact: return this.serveCompact(message as Message<CompactionRequest>);
      case etcdKinds.leaseGrant: return this.serveLeaseGrant(message as Message<LeaseGrantRequest>);
      case etcdKinds.leaseRevoke: return this.serveLeaseRevoke(message as Message<LeaseRevokeRequest>);
      case etcdKinds.leaseKeepAlive: return this.serveLeaseKeepAlive(message as Message<LeaseKeepAliveRequest>);
      case etcdKinds.leaseTimeToLive: return this.serveLeaseTimeToLive(message as Message<LeaseTimeToLiveRequest>);
      case etcdKinds.leaseLeases: return this.serveLeaseLeases(message);
      case etcdKinds.watch: return this.serveWatch(message as Message<WatchStreamRequest>);
      case etcdKinds.watchClose: return this.closeStream(message as Message<WatchStreamClose>);
      case etcdKinds.status: return this.answer(message, this.status(), null, genericStats('/etcdserverpb.Maintenance/Status'), null, 'read');
      case etcdKinds.memberList:
        return this.answer(message, memberListResponse(this.header(), this.members), null, genericStats('/etcdserverpb.Cluster/MemberList'), null, 'read');
      case timerKind: return this.fire(message as Message<TimerPayload>);
      default:
        throw new Error(`${this.name}: unexpected message ${message.kind} from ${message.from}`);
    }
  }

  /**
   * Message size limits. gRPC refuses a request larger than max-request-bytes + 512 KiB; a write that
   * passes the request checks is proposed to raft as an InternalRaftRequest (a header with the request
   * ID, plus the request in field `field`), and etcd refuses a proposal larger than max-request-bytes.
   * Consumes the request ID of the proposal. Models v3rpc/grpc.go (MaxRecvMsgSize) and
   * etcdserver/v3_server.go processInternalRaftRequestOnce.
   */
  private checkSize<R>(size: number, field: number, check: (r: R) => void, request: R, readOnly = false): void {
    checkReceivedMessageSize(size, maxRequestBytes);
    check(request);
    const id = this.ids().next();
    if (readOnly) return; // a read-only txn is served locally after a read index, not proposed
    checkRaftRequestSize(id, field, size, maxRequestBytes);
  }

  /** The request-ID generator, started at the first request (its time bits are the start instant). */
  private ids(): IdGenerator {
    if (this.idGen === null) this.idGen = new IdGenerator(this.identity.memberId, this.engine.epochMs + this.now);
    return this.idGen;
  }

  private header(): ResponseHeader {
    return { clusterId: this.identity.clusterId, memberId: this.identity.memberId, revision: this.store.currentRev, raftTerm: this.identity.raftTerm };
  }

  /** Maintenance.Status: this member's view, answered without raft. */
  private status(): StatusResponse {
    const raft = this.raft;
    const revision = this.store.currentRev;
    let leader = this.identity.memberId;
    if (raft !== null) {
      const lead = this.raftOptions!.peers.find((p) => p.id === raft.lead)?.component;
      leader = this.members.find((m) => m.name === lead)?.id ?? '0';
    }
    return statusResponse({
      header: this.header(), leader,
      dbSize: estimatedDbSize((f) => this.store.backend.rangeRevisions(0, Number.MAX_SAFE_INTEGER, f)),
      // A single member has no raft log here: each write is one entry, so its index is the revision.
      raftIndex: raft?.log.committed ?? revision, raftAppliedIndex: raft?.log.applied ?? revision,
    });
  }

  private serveRange(m: Message<RangeRequest>): void {
    let resp: RangeResponse | null = null;
    let error: RpcError | null = null;
    try {
      checkReceivedMessageSize(rangeRequestSize(m.payload), maxRequestBytes);
      if (!m.payload.serializable) this.ids().next();
      resp = this.kv.range(m.payload);
    } catch (e) {
      error = toRpcError(e);
    }
    this.answer(m, resp, error, rangeStats(m.payload, resp), null, 'read');
  }

  private servePut(m: Message<PutRequest>): void {
    let resp: PutResponse | null = null;
    let error: RpcError | null = null;
    const before = this.store.currentRev;
    try {
      this.checkSize(putRequestSize(m.payload), raftRequestField.put, checkPutRequest, m.payload);
      resp = this.kv.put(m.payload);
    } catch (e) {
      error = toRpcError(e);
    }
    const write = resp && this.record(before, resp.header.revision, [], 'success', [{ requestPut: m.payload }], []);
    this.answer(m, resp, error, putStats(m.payload, resp), write, 'write');
  }

  private serveDeleteRange(m: Message<DeleteRangeRequest>): void {
    let resp: DeleteRangeResponse | null = null;
    let error: RpcError | null = null;
    const before = this.store.currentRev;
    try {
      this.checkSize(deleteRangeRequestSize(m.payload), raftRequestField.deleteRange, checkDeleteRequest, m.payload);
      resp = this.kv.deleteRange(m.payload);
    } catch (e) {
      error = toRpcError(e);
    }
    const write = resp && this.record(before, resp.header.revision, [], 'success', [{ requestDeleteRange: m.payload }], []);
    this.answer(m, resp, error, deleteRangeStats(m.payload, resp), write, 'write');
  }

  private serveTxn(m: Message<TxnRequest>): void {
    let resp: TxnResponse | null = null;
    let error: RpcError | null = null;
    let write: WriteRecord | null = null;
    const before = this.store.currentRev;
    try {
      this.checkSize(txnRequestSize(m.payload), raftRequestField.txn, (r) => {
        checkTxnRequest(r, this.kv.maxTxnOps);
        checkIntervals(r.success);
        checkIntervals(r.failure);
      }, m.payload, isTxnReadonly(m.payload));
      const result = this.kv.txn(m.payload, true);
      resp = result.response;
      const evaluation = result.evaluation!;
      const branch = resp.succeeded ? 'success' : 'failure';
      write = this.record(before, resp.header.revision, evaluation.compares, branch, (resp.succeeded ? m.payload.success : m.payload.failure) ?? [], evaluation.nested);
    } catch (e) {
      error = toRpcError(e);
    }
    this.answer(m, resp, error, txnStats(m.payload, resp), write, 'write');
  }

  private serveCompact(m: Message<CompactionRequest>): void {
    this.ids().next();
    let resp: CompactionResponse | null = null;
    let error: RpcError | null = null;
    try {
      resp = this.kv.compact(m.payload);
    } catch (e) {
      error = toRpcError(e);
    }
    this.answer(m, resp, error, genericStats('/etcdserverpb.KV/Compact'), null, 'write');
  }

  private serveLeaseGrant(m: Message<LeaseGrantRequest>): void {
    let id = m.payload.ID ?? noLease;
    if (id === noLease) id = this.ids().nextLeaseId();
    this.ids().next();
    let resp: LeaseGrantResponse | null = null;
    let error: RpcError | null = null;
    try {
      const lease = this.lessor.grant(id, m.payload.TTL, this.now);
      this.scheduleExpiry(id, lease.expiry);
      resp = { header: this.header(), ID: id, TTL: lease.ttl, error: '' };
    } catch (e) {
      error = toRpcError(e);
    }
    this.answer(m, resp, error, genericStats('/etcdserverpb.Lease/LeaseGrant'), null, 'write');
  }

  private serveLeaseRevoke(m: Message<LeaseRevokeRequest>): void {
    this.ids().next();
    let resp: LeaseRevokeResponse | null = null;
    let error: RpcError | null = null;
    let write: WriteRecord | null = null;
    const before = this.store.currentRev;
    try {
      this.revoke(m.payload.ID);
      resp = { header: this.header() };
      write = this.record(before, this.store.currentRev, [], 'success', [], []);
    } catch (e) {
      error = toRpcError(e);
    }
    this.answer(m, resp, error, genericStats('/etcdserverpb.Lease/LeaseRevoke'), write, 'write');
  }

  /** An unknown lease is not an error: the reply carries TTL 0. */
  private serveLeaseKeepAlive(m: Message<LeaseKeepAliveRequest>): void {
    let ttl = 0;
    if (this.lessor.lookup(m.payload.ID) !== undefined) {
      ttl = this.lessor.renew(m.payload.ID, this.now);
      this.scheduleExpiry(m.payload.ID, this.lessor.lookup(m.payload.ID)!.expiry);
    }
    const resp: LeaseKeepAliveResponse = { header: this.header(), ID: m.payload.ID, TTL: ttl };
    const payload: EtcdReply<LeaseKeepAliveResponse> = { ok: true, response: resp, stats: null, log: null, write: null };
    if (!this.silent) this.reply(m, replyKind(m.kind), payload);
  }

  /** An unknown lease is not an error: TTL -1. */
  private serveLeaseTimeToLive(m: Message<LeaseTimeToLiveRequest>): void {
    this.ids().next();
    const lease = this.lessor.lookup(m.payload.ID);
    const resp: LeaseTimeToLiveResponse = lease === undefined
      ? { header: this.header(), ID: m.payload.ID, TTL: -1, grantedTTL: 0, keys: [] }
      : {
        header: this.header(), ID: m.payload.ID, TTL: lease.remainingSeconds(this.now), grantedTTL: lease.ttl,
        keys: m.payload.keys ? lease.sortedKeys() : [],
      };
    this.answer(m, resp, null, genericStats('/etcdserverpb.Lease/LeaseTimeToLive'), null, 'read');
  }

  private serveLeaseLeases(m: Message): void {
    this.ids().next();
    const resp: LeaseLeasesResponse = { header: this.header(), leases: this.lessor.leases().map((l) => ({ ID: l.id })) };
    this.answer(m, resp, null, genericStats('/etcdserverpb.Lease/LeaseLeases'), null, 'read');
  }

  private revoke(id: LeaseID): void {
    if (this.lessor.lookup(id) === undefined) throw new EtcdError(ErrGRPCLeaseNotFound);
    this.lessor.revoke(id);
    const timer = this.leaseTimers.get(id);
    if (timer !== undefined) this.cancelTimer(timer);
    this.leaseTimers.delete(id);
  }

  private scheduleExpiry(id: LeaseID, expiry: number): void {
    if (this.raft !== null && this.raft.state !== 'StateLeader') return;
    const old = this.leaseTimers.get(id);
    if (old !== undefined) this.cancelTimer(old);
    this.leaseTimers.set(id, this.setTimer(Math.max(0, expiry - this.now), timers.leaseExpiry, id, { background: true }));
  }

  private serveWatch(m: Message<WatchStreamRequest>): void {
    const { stream: name, request } = m.payload;
    const key = `${m.from}\u0000${name}`;
    let entry = this.streams.get(key);
    if (entry === undefined) {
      const client = m.from;
      entry = {
        client, name, ticker: null,
        // etcd draws the progress interval's jitter once per stream.
        interval: this.progressInterval + this.rng.int(Math.max(1, Math.floor(this.progressInterval / 10))),
        stream: new WatchStream(this.store, this.identity, (response, answers) => this.sendWatchResponse(client, name, response, answers)),
      };
      this.streams.set(key, entry);
    }
    if (request.createRequest !== undefined) entry.stream.create(request.createRequest);
    else if (request.cancelRequest !== undefined) entry.stream.cancel(request.cancelRequest.watchId ?? 0);
    else if (request.progressRequest !== undefined) entry.stream.requestProgress();
    this.scheduleProgress(key);
  }

  private closeStream(m: Message<WatchStreamClose>): void {
    const key = `${m.from}\u0000${m.payload.stream}`;
    const entry = this.streams.get(key);
    if (entry === undefined) return;
    entry.stream.close();
    if (entry.ticker !== null) this.cancelTimer(entry.ticker);
    this.streams.delete(key);
  }

  /**
   * Breaks every watch stream of `client`, as a network blip or an etcd restart does: the watchers on
   * them are gone and the client's Recv fails (`etcd.WatchStreamError`, one per stream). Returns how
   * many streams broke. Models the server side of a gRPC stream ending (v3rpc/watch.go: the recvLoop
   * ends, `sws.close()` cancels the watch stream's watchers).
   */
  breakWatchStreams(client: string): number {
    let broken = 0;
    for (const [key, entry] of [...this.streams]) {
      if (entry.client !== client) continue;
      entry.stream.close();
      if (entry.ticker !== null) this.cancelTimer(entry.ticker);
      this.streams.delete(key);
      this.send<WatchStreamError>(client, etcdKinds.watchStreamError, { stream: entry.name, error: watchStreamTransportClosing });
      broken++;
    }
    return broken;
  }

  private sendWatchResponse(client: string, stream: string, response: WatchResponse, answers: boolean): void {
    const payload: WatchStreamResponse = { stream, response };
    const request = this.handling;
    if (answers && request !== null && request.kind === etcdKinds.watch) this.reply(request, etcdKinds.watchResponse, payload);
    else this.send(client, etcdKinds.watchResponse, payload);
  }

  private scheduleSync(): void {
    if (this.syncTimer === null) this.syncTimer = this.setTimer(this.syncInterval, timers.watchSync, null);
  }

  private scheduleProgress(key: string): void {
    const entry = this.streams.get(key);
    if (entry === undefined || entry.ticker !== null || entry.stream.progress.size === 0) return;
    entry.ticker = this.setTimer(entry.interval, timers.watchProgress, key, { background: true });
  }

  private fire(m: Message<TimerPayload>): void {
    switch (m.payload.name) {
      case timers.watchSync: {
        this.syncTimer = null;
        if (this.store.syncWatchers() > 0) this.scheduleSync();
        return;
      }
      case timers.watchProgress: {
        const key = m.payload.data as string;
        const entry = this.streams.get(key);
        if (entry === undefined) return;
        entry.ticker = null;
        entry.stream.progressTick();
        this.scheduleProgress(key);
        return;
      }
      case timers.leaseExpiry: {
        const id = m.payload.data as LeaseID;
        this.leaseTimers.delete(id);
        const lease = this.lessor.lookup(id);
        if (lease !== undefined && lease.expiry <= this.now) {
          this.ids().next();
          this.revoke(id);
        }
        return;
      }
      default:
        throw new Error(`${this.name}: unexpected timer ${m.payload.name}`);
    }
  }

  /** The write record; events are read back from the backend, which holds the committed changes. */
  private record(before: number, revision: number, compares: readonly EvaluatedCompare[], branch: 'success' | 'failure',
    ops: readonly RequestOp[], nested: readonly TxnEvaluation[]): WriteRecord {
    const changed = this.store.currentRev !== before;
    const events: Event[] = [];
    if (changed) this.store.backend.rangeRevisions(this.store.currentRev, this.store.currentRev + 1, (kv) => events.push(changeToEvent(kv)));
    return { revision, changed, compares, branch, ops, nested, events };
  }

  private answer<R>(m: Message, resp: R | null, error: RpcError | null, stats: RequestStats, write: WriteRecord | null, work: 'read' | 'write'): void {
    if (this.silent) return;
    // Reads take longer the more they return, writes the more they carry (whole nanoseconds, as Go's clock).
    const base = work === 'read' ? this.readDelay : this.writeDelay;
    const perByte = work === 'read' ? this.readNsPerByte * Math.max(stats.responseSize, 0) : this.writeNsPerByte * Math.max(stats.requestSize, 0);
    const delay = Math.round((base + perByte / 1e6) * 1e6) / 1e6;
    const log = zapLine(stats, { startMs: this.engine.epochMs + this.now, spentMs: delay, remote: this.remotes.of(m.from, m.kind, m.payload) });
    const payload: EtcdReply<R> = error !== null
      ? { ok: false, error, stats, log, write: null }
      : { ok: true, response: resp as R, stats, log, write };
    this.reply(m, replyKind(m.kind), payload, delay > 0 ? { delay } : undefined);
  }
}

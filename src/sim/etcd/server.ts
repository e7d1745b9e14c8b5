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
// The member is cut along etcd's seams: the request path (v3-server.ts, lease-server.ts), watch streams
// (watch-server.ts), the raft node glue (raft-node.ts); kinds, payloads and errors are in messages.ts.
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
// revokes them through the log. Every 100,000 applied entries (etcd's snapshot count) a member snapshots
// and compacts its raft log to the last 5,000; a follower behind that gets the leader's database with a
// snapshot (db-snapshot.ts). Not modelled in a cluster: the batching of linearizable reads into one
// ReadIndex, keepalives forwarded to the leader (a member renews its own lessor).


import { Component, minute, timerKind, type Message, type TimerPayload } from '../engine/index.ts';
import type { EtcdRequestKind } from '../messages/index.ts';
import { defaultCluster, type ClusterIdentity } from './cluster.ts';
import { DbSnapshot } from './db-snapshot.ts';
import type { RpcError } from './errors.ts';
import { KVServer } from './kv-server.ts';
import type { LeaseID } from './kv.ts';
import { Lessor } from './lease.ts';
import { LeaseServer } from './lease-server.ts';
import { defaultMembers } from './maintenance.ts';
import {
  ErrConnectionRefused, etcdKinds, memberTimers, raftKindPrefix, replyKind, type EtcdReply, type EtcdServerOptions, type MemberIO, type WatchStreamClose,
  type WatchStreamRequest,
} from './messages.ts';
import { RaftNode } from './raft-node.ts';
import type { Raft } from './raft/raft.ts';
import { RemoteAddresses } from './remote.ts';
import { V3Server } from './v3-server.ts';
import { WatchableStore } from './watchable-store.ts';
import { WatchServer } from './watch-server.ts';

export {
  ErrConnectionRefused, ErrGRPCLeaderChanged, ErrGRPCTimeout, ErrGRPCTimeoutDueToLeaderFail, ErrProposeDeadline, ErrTransportClosing, etcdKinds,
  maxRequestBytes, raftKindPrefix, replyKind, requestTimeout, watchStreamTransportClosing, type EtcdRaftOptions, type EtcdReply,
  type EtcdServerOptions, type RaftPeer, type WatchStreamClose, type WatchStreamError, type WatchStreamRequest, type WatchStreamResponse,
  type WriteRecord,
} from './messages.ts';

export class EtcdServer extends Component {
  readonly lessor: Lessor;
  readonly store: WatchableStore;
  readonly kv: KVServer;
  readonly identity: ClusterIdentity;
  private readonly v3: V3Server;
  private readonly leases: LeaseServer;
  private readonly watches: WatchServer;
  /** Cluster member: the raft node glue; null for a single member. */
  private readonly node: RaftNode | null;

  constructor(name = 'etcd', options: EtcdServerOptions = {}) {
    super(name);
    const base = options.identity ?? defaultCluster;
    const io: MemberIO = {
      name,
      now: () => this.now,
      epochMs: () => this.engine.epochMs,
      rng: () => this.rng,
      send: (to, kind, payload, o) => this.send(to, kind, payload, o),
      reply: (request, kind, payload, o) => this.reply(request, kind, payload, o),
      setTimer: (delay, timer, data, o) => this.setTimer(delay, timer, data, o),
      cancelTimer: (timer) => this.cancelTimer(timer),
    };
    const node = options.raft === undefined ? null : new RaftNode(io, options.raft, {
      serve: (request, silent) => this.apply(request, silent),
      fail: (request, error) => this.fail(request, error),
      nextLeaseId: () => this.v3.ids().nextLeaseId(),
      expiredLease: (id) => this.leases.fired(id) !== undefined,
      revokeExpired: (id) => {
        if (this.lessor.lookup(id) !== undefined) this.leases.revoke(id);
      },
      promote: () => {
        // The new leader's lessor restarts every lease's TTL from now.
        for (const lease of this.lessor.leases()) {
          this.lessor.renew(lease.id, this.now);
          this.leases.scheduleExpiry(lease.id, this.lessor.lookup(lease.id)!.expiry);
        }
      },
      demote: () => this.leases.clear(),
      snapshotDb: (consistentIndex) => new DbSnapshot(this.store, this.lessor, consistentIndex),
      restoreDb: (snapshot) => {
        const image = snapshot.take();
        this.store.restore(image.store);
        this.lessor.copyFrom(image.lessor);
        return image.consistentIndex;
      },
    });
    this.node = node;
    // A member's header (and Status) carries the term of the last entry it applied (etcdserver's
    // s.Term(), set in apply): a member campaigning alone raises raft's term, not this one.
    this.identity = node === null ? base : { clusterId: base.clusterId, memberId: base.memberId, get raftTerm() { return node.appliedTerm; } };
    this.lessor = new Lessor(options.minLeaseTTL ?? 2);
    this.store = new WatchableStore(this.lessor);
    this.store.onUnsynced = () => this.watches.scheduleSync();
    this.kv = new KVServer(this.store, this.identity);
    const timing = { readDelay: options.readDelay ?? 0, writeDelay: options.writeDelay ?? 0, readNsPerByte: options.readNsPerByte ?? 0, writeNsPerByte: options.writeNsPerByte ?? 0 };
    const raftState = (): { leader: string | null; committed: number; applied: number } | null => {
      const raft = node?.raft;
      return raft ? { leader: node!.leader(), committed: raft.log.committed, applied: raft.log.applied } : null;
    };
    this.v3 = new V3Server(io, this.kv, this.store, this.identity, options.members ?? defaultMembers(this.identity.memberId), timing,
      new RemoteAddresses('kube-apiserver', options.clientHost ?? '127.0.0.1'), raftState);
    this.leases = new LeaseServer(io, this.lessor, this.store, this.v3, () => node === null || node.raft?.state === 'StateLeader');
    this.watches = new WatchServer(io, this.store, this.identity, Math.max(options.progressNotifyInterval ?? 10 * minute, 100), options.watchSyncInterval ?? 100);
  }

  /** The raft state machine of a cluster member (term, commit, applied, lead, state); null for a single member or while down. */
  get raft(): Raft | null {
    return this.node?.raft ?? null;
  }

  /** Peers this member's raft messages do not reach (a partition), by component. */
  get unreachable(): Set<string> {
    return this.clusterNode().unreachable;
  }

  private clusterNode(): RaftNode {
    if (this.node === null) throw new Error(`${this.name}: not a cluster member`);
    return this.node;
  }

  /** Starts the raft node (a cluster member): the bootstrap entries, then the ticks. */
  startRaft(): void {
    this.clusterNode().start();
  }

  /** The disk's fsync time from now on (a slow disk), ms. */
  setFsync(ms: number): void {
    this.clusterNode().fsync = ms;
  }

  /** The disk's fsync time (a slow disk's), ms; 0 for the modelled default and for a single member. */
  get fsyncMs(): number {
    return this.node?.fsync ?? 0;
  }

  /** True while the member's process is down (`crash` … `restart`). */
  get down(): boolean {
    return this.node?.down ?? false;
  }

  /**
   * The member's process dies: raft state not on disk is lost, in-flight RPCs fail as their connection
   * closes (`transport is closing`), watch streams break, timers stop. Until `restart`, every request
   * is refused at once (the port is closed) and raft messages are lost.
   */
  crash(): void {
    this.node?.crash(() => {
      for (const client of this.watches.clients()) this.breakWatchStreams(client);
      this.leases.clear();
    });
    if (this.down) this.watches.stopSync();
  }

  /** The member starts again from its WAL: a follower with no leader, its term, vote, log and commit as written. */
  restart(): void {
    this.node?.restart();
  }

  /**
   * Breaks every watch stream of `client`, as a network blip or an etcd restart does: the watchers on
   * them are gone and the client's Recv fails (`etcd.WatchStreamError`, one per stream). Returns how
   * many streams broke. Models the server side of a gRPC stream ending (v3rpc/watch.go: the recvLoop
   * ends, `sws.close()` cancels the watch stream's watchers).
   */
  breakWatchStreams(client: string): number {
    return this.watches.breakStreams(client);
  }

  private refuse(m: Message): void {
    if (m.kind === timerKind || m.kind.startsWith(raftKindPrefix) || m.kind === etcdKinds.watchClose) return;
    if (m.kind === etcdKinds.watch) {
      this.send(m.from, etcdKinds.watchStreamError, { stream: (m.payload as WatchStreamRequest).stream, error: ErrConnectionRefused.message });
      return;
    }
    this.fail(m, ErrConnectionRefused);
  }

  receive(message: Message): void {
    this.watches.handling = message;
    try {
      if (this.down) this.refuse(message);
      else if (this.node === null || !this.node.route(message)) this.dispatch(message);
    } finally {
      this.watches.handling = null;
    }
  }

  private fail(request: Message, error: RpcError): void {
    const payload: EtcdReply<never> = { ok: false, error, stats: null, log: null, write: null };
    this.reply(request, replyKind(request.kind as EtcdRequestKind), payload);
  }

  /** Applies a committed request (or serves a confirmed read); `silent` when another member answers it. */
  private apply(request: Message, silent: boolean): void {
    this.v3.silent = silent;
    try {
      this.dispatch(request);
    } finally {
      this.v3.silent = false;
    }
  }

  private dispatch(message: Message): void {
    if (this.v3.serve(message) || this.leases.serve(message)) return;
    switch (message.kind) {
      case etcdKinds.watch: return this.watches.serve(message as Message<WatchStreamRequest>);
      case etcdKinds.watchClose: return this.watches.close(message as Message<WatchStreamClose>);
      case timerKind: return this.fire(message as Message<TimerPayload>);
      default:
        throw new Error(`${this.name}: unexpected message ${message.kind} from ${message.from}`);
    }
  }

  private fire(m: Message<TimerPayload>): void {
    if (this.watches.fire(m.payload)) return;
    if (m.payload.name !== memberTimers.leaseExpiry) throw new Error(`${this.name}: unexpected timer ${m.payload.name}`);
    // A single member revokes an expired lease itself.
    const id = m.payload.data as LeaseID;
    if (this.leases.fired(id) !== undefined) {
      this.v3.ids().next();
      this.leases.revoke(id);
    }
  }
}

// The request path of a member: a KV request checked, served from the MVCC store and answered with
// its request-stats line, after the modelled time it takes (reads by response size, writes by request
// size); Maintenance.Status and Cluster.MemberList answered locally. A member applying an entry another
// member proposed is `silent`: it applies, and answers nothing. Lease requests are lease-server.ts's.
// Models etcdserver/v3_server.go (Range, Put, DeleteRange, Txn, Compact, processInternalRaftRequestOnce's
// size check), etcdserver/apply.go and v3rpc/interceptor.go (the request stats).

import type { Message } from '../engine/index.ts';
import type { EtcdReplyPayload, EtcdRequestKind } from '../messages/index.ts';
import type { ClusterIdentity, Member } from './cluster.ts';
import { toRpcError, type RpcError } from './errors.ts';
import type { IdGenerator } from './id-generator.ts';
import { IdGenerator as Ids } from './id-generator.ts';
import type { KVServer } from './kv-server.ts';
import { changeToEvent, type Event } from './kv.ts';
import { estimatedDbSize, memberListResponse, statusResponse } from './maintenance.ts';
import { etcdKinds, maxRequestBytes, replyKind, type EtcdReply, type MemberIO, type WriteRecord } from './messages.ts';
import { deleteRangeRequestSize, putRequestSize, rangeRequestSize, txnRequestSize } from './proto-size.ts';
import { checkDeleteRequest, checkIntervals, checkPutRequest, checkRaftRequestSize, checkReceivedMessageSize, checkTxnRequest, raftRequestField } from './request-checks.ts';
import { deleteRangeStats, genericStats, putStats, rangeStats, txnStats, loggedZapLine, type RequestStats } from './request-stats.ts';
import type { RemoteAddresses } from './remote.ts';
import type {
  CompactionRequest, CompactionResponse, DeleteRangeRequest, DeleteRangeResponse, PutRequest, PutResponse, RangeRequest, RangeResponse,
  RequestOp, ResponseHeader, StatusResponse, TxnRequest, TxnResponse,
} from './rpc.ts';
import { isTxnReadonly, type EvaluatedCompare, type TxnEvaluation } from './txn.ts';
import type { WatchableStore } from './watchable-store.ts';

/** etcd's modelled request times (EtcdServerOptions). */
export interface RequestTiming {
  readonly readDelay: number;
  readonly readNsPerByte: number;
  readonly writeDelay: number;
  readonly writeNsPerByte: number;
}

/** A cluster member's raft state as Status reports it: the leader's component (null: none known), commit and applied index. */
export interface RaftState {
  readonly leader: string | null;
  readonly committed: number;
  readonly applied: number;
}

export class V3Server {
  private idGen: IdGenerator | null = null;
  /** True while applying an entry another member proposed: nothing is answered. */
  silent = false;

  constructor(
    private readonly io: MemberIO,
    private readonly kv: KVServer,
    private readonly store: WatchableStore,
    private readonly identity: ClusterIdentity,
    private readonly members: readonly Member[],
    private readonly timing: RequestTiming,
    private readonly remotes: RemoteAddresses,
    private readonly raftState: () => RaftState | null,
  ) {}

  /** Serves a KV, Maintenance.Status or Cluster.MemberList request; false for any other kind. */
  serve(message: Message): boolean {
    switch (message.kind) {
      case etcdKinds.range: this.serveRange(message as Message<RangeRequest>); return true;
      case etcdKinds.put: this.servePut(message as Message<PutRequest>); return true;
      case etcdKinds.deleteRange: this.serveDeleteRange(message as Message<DeleteRangeRequest>); return true;
      case etcdKinds.txn: this.serveTxn(message as Message<TxnRequest>); return true;
      case etcdKinds.compact: this.serveCompact(message as Message<CompactionRequest>); return true;
      case etcdKinds.status: this.answer(message, this.status(), null, genericStats('/etcdserverpb.Maintenance/Status'), null, 'read'); return true;
      case etcdKinds.memberList:
        this.answer(message, memberListResponse(this.header(), this.members), null, genericStats('/etcdserverpb.Cluster/MemberList'), null, 'read');
        return true;
      default:
        return false;
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
  ids(): IdGenerator {
    if (this.idGen === null) this.idGen = new Ids(this.identity.memberId, this.io.epochMs() + this.io.now());
    return this.idGen;
  }

  header(): ResponseHeader {
    return { clusterId: this.identity.clusterId, memberId: this.identity.memberId, revision: this.store.currentRev, raftTerm: this.identity.raftTerm };
  }

  /** Maintenance.Status: this member's view, answered without raft. */
  status(): StatusResponse {
    const raft = this.raftState();
    const revision = this.store.currentRev;
    let leader = this.identity.memberId;
    if (raft !== null) leader = this.members.find((m) => m.name === raft.leader)?.id ?? '0';
    return statusResponse({
      header: this.header(), leader,
      dbSize: estimatedDbSize((f) => this.store.backend.sizes(f)),
      // A single member has no raft log here: each write is one entry, so its index is the revision.
      raftIndex: raft?.committed ?? revision, raftAppliedIndex: raft?.applied ?? revision,
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

  /** The write record; events are read back from the backend, which holds the committed changes. */
  record(before: number, revision: number, compares: readonly EvaluatedCompare[], branch: 'success' | 'failure',
    ops: readonly RequestOp[], nested: readonly TxnEvaluation[]): WriteRecord {
    const changed = this.store.currentRev !== before;
    const events: Event[] = [];
    if (changed) this.store.backend.rangeRevisions(this.store.currentRev, this.store.currentRev + 1, (kv) => events.push(changeToEvent(kv)));
    return { revision, changed, compares, branch, ops, nested, events };
  }

  answer<R>(m: Message, resp: R | null, error: RpcError | null, stats: RequestStats, write: WriteRecord | null, work: 'read' | 'write'): void {
    if (this.silent) return;
    // Reads take longer the more they return, writes the more they carry (whole nanoseconds, as Go's clock).
    const base = work === 'read' ? this.timing.readDelay : this.timing.writeDelay;
    const perByte = work === 'read' ? this.timing.readNsPerByte * Math.max(stats.responseSize, 0) : this.timing.writeNsPerByte * Math.max(stats.requestSize, 0);
    const delay = Math.round((base + perByte / 1e6) * 1e6) / 1e6;
    const log = loggedZapLine(stats, { startMs: this.io.epochMs() + this.io.now(), spentMs: delay, remote: this.remotes.of(m.from, m.kind, m.payload) });
    const payload: EtcdReply<R> = error !== null
      ? { ok: false, error, stats, log, write: null }
      : { ok: true, response: resp as R, stats, log, write };
    this.io.reply(m, replyKind(m.kind as EtcdRequestKind), payload as EtcdReplyPayload, delay > 0 ? { delay } : undefined);
  }
}

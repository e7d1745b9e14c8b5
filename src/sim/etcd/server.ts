// The etcd member as an engine component. Every unary RPC is one request message and one reply; each
// reply carries etcd's response (or its error), the "request stats" debug line for that request, and,
// for writes, a structured record of what the write did (compares and their results, branch taken,
// ops, resulting events), so the UI can animate a Txn from the trace alone.
//
// Message kinds (request → reply): etcd.Range → etcd.RangeResponse, etcd.Put → etcd.PutResponse,
// etcd.DeleteRange → etcd.DeleteRangeResponse, etcd.Txn → etcd.TxnResponse,
// etcd.Compact → etcd.CompactResponse. Request payloads are the request messages of rpc.ts.
//
// Models the request path of etcdserver/api/v3rpc (key.go, interceptor.go) over etcdserver/v3_server.go;
// raft is a single member that commits at once, so a write is applied when its request is delivered.

import { Component, type Message } from '../engine/index.ts';
import { defaultCluster, type ClusterIdentity } from './cluster.ts';
import { toRpcError, type RpcError } from './errors.ts';
import { KVServer } from './kv-server.ts';
import { KVStore } from './kv-store.ts';
import { changeToEvent, type Event } from './kv.ts';
import { Lessor } from './lease.ts';
import {
  deleteRangeStats, genericStats, putStats, rangeStats, txnStats, zapLine, type RequestStats,
} from './request-stats.ts';
import type {
  CompactionRequest, CompactionResponse, DeleteRangeRequest, DeleteRangeResponse, PutRequest, PutResponse, RangeRequest,
  RangeResponse, RequestOp, TxnRequest, TxnResponse,
} from './rpc.ts';
import type { EvaluatedCompare, TxnEvaluation } from './txn.ts';

export const etcdKinds = {
  range: 'etcd.Range',
  put: 'etcd.Put',
  deleteRange: 'etcd.DeleteRange',
  txn: 'etcd.Txn',
  compact: 'etcd.Compact',
} as const;

/** The reply kind for a request kind: `etcd.Txn` → `etcd.TxnResponse`. */
export function replyKind(requestKind: string): string {
  return `${requestKind}Response`;
}

/** What one write did, for the UI: one record per Put, DeleteRange, Txn. */
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
  readonly stats: RequestStats;
  /** The request-stats line as etcd's zap logger prints it at debug level. */
  readonly log: string;
}

export type EtcdReply<R> =
  | (ReplyCommon & { readonly ok: true; readonly response: R; readonly write: WriteRecord | null })
  | (ReplyCommon & { readonly ok: false; readonly error: RpcError; readonly write: null });

export interface EtcdServerOptions {
  readonly identity?: ClusterIdentity;
  /** Virtual processing time before a read's reply leaves, ms (default 0). */
  readonly readDelay?: number;
  /** Virtual processing time before a write's reply leaves (raft append + fsync), ms (default 0). */
  readonly writeDelay?: number;
}

export class EtcdServer extends Component {
  readonly lessor: Lessor;
  readonly store: KVStore;
  readonly kv: KVServer;
  private readonly readDelay: number;
  private readonly writeDelay: number;

  constructor(name = 'etcd', options: EtcdServerOptions = {}) {
    super(name);
    this.lessor = new Lessor();
    this.store = new KVStore(this.lessor);
    this.kv = new KVServer(this.store, options.identity ?? defaultCluster);
    this.readDelay = options.readDelay ?? 0;
    this.writeDelay = options.writeDelay ?? 0;
  }

  receive(message: Message): void {
    switch (message.kind) {
      case etcdKinds.range: return this.serveRange(message as Message<RangeRequest>);
      case etcdKinds.put: return this.servePut(message as Message<PutRequest>);
      case etcdKinds.deleteRange: return this.serveDeleteRange(message as Message<DeleteRangeRequest>);
      case etcdKinds.txn: return this.serveTxn(message as Message<TxnRequest>);
      case etcdKinds.compact: return this.serveCompact(message as Message<CompactionRequest>);
      default:
        throw new Error(`${this.name}: unexpected message ${message.kind} from ${message.from}`);
    }
  }

  private serveRange(m: Message<RangeRequest>): void {
    let resp: RangeResponse | null = null;
    let error: RpcError | null = null;
    try {
      resp = this.kv.range(m.payload);
    } catch (e) {
      error = toRpcError(e);
    }
    this.answer(m, resp, error, rangeStats(m.payload, resp), null, this.readDelay);
  }

  private servePut(m: Message<PutRequest>): void {
    let resp: PutResponse | null = null;
    let error: RpcError | null = null;
    const before = this.store.currentRev;
    try {
      resp = this.kv.put(m.payload);
    } catch (e) {
      error = toRpcError(e);
    }
    const write = resp && this.record(before, resp.header.revision, [], 'success', [{ requestPut: m.payload }], []);
    this.answer(m, resp, error, putStats(m.payload, resp), write, this.writeDelay);
  }

  private serveDeleteRange(m: Message<DeleteRangeRequest>): void {
    let resp: DeleteRangeResponse | null = null;
    let error: RpcError | null = null;
    const before = this.store.currentRev;
    try {
      resp = this.kv.deleteRange(m.payload);
    } catch (e) {
      error = toRpcError(e);
    }
    const write = resp && this.record(before, resp.header.revision, [], 'success', [{ requestDeleteRange: m.payload }], []);
    this.answer(m, resp, error, deleteRangeStats(m.payload, resp), write, this.writeDelay);
  }

  private serveTxn(m: Message<TxnRequest>): void {
    let resp: TxnResponse | null = null;
    let error: RpcError | null = null;
    let write: WriteRecord | null = null;
    const before = this.store.currentRev;
    try {
      const result = this.kv.txn(m.payload, true);
      resp = result.response;
      const evaluation = result.evaluation!;
      const branch = resp.succeeded ? 'success' : 'failure';
      write = this.record(before, resp.header.revision, evaluation.compares, branch, (resp.succeeded ? m.payload.success : m.payload.failure) ?? [], evaluation.nested);
    } catch (e) {
      error = toRpcError(e);
    }
    this.answer(m, resp, error, txnStats(m.payload, resp), write, this.writeDelay);
  }

  private serveCompact(m: Message<CompactionRequest>): void {
    let resp: CompactionResponse | null = null;
    let error: RpcError | null = null;
    try {
      resp = this.kv.compact(m.payload);
    } catch (e) {
      error = toRpcError(e);
    }
    this.answer(m, resp, error, genericStats('/etcdserverpb.KV/Compact'), null, this.writeDelay);
  }

  /** The write record; events are read back from the backend, which holds the committed changes. */
  private record(before: number, revision: number, compares: readonly EvaluatedCompare[], branch: 'success' | 'failure',
    ops: readonly RequestOp[], nested: readonly TxnEvaluation[]): WriteRecord {
    const changed = this.store.currentRev !== before;
    const events: Event[] = [];
    if (changed) this.store.backend.rangeRevisions(this.store.currentRev, this.store.currentRev + 1, (kv) => events.push(changeToEvent(kv)));
    return { revision, changed, compares, branch, ops, nested, events };
  }

  private answer<R>(m: Message, resp: R | null, error: RpcError | null, stats: RequestStats, write: WriteRecord | null, delay: number): void {
    const log = zapLine(stats, { startMs: this.engine.epochMs + this.now, spentMs: delay, remote: m.from });
    const payload: EtcdReply<R> = error !== null
      ? { ok: false, error, stats, log, write: null }
      : { ok: true, response: resp as R, stats, log, write };
    this.reply(m, replyKind(m.kind), payload, delay > 0 ? { delay } : undefined);
  }
}

// The KV service: validates a request as the gRPC layer does, applies it to the store and fills the
// response header. Synchronous and engine-free, so tests and benchmarks can drive it directly; the
// EtcdServer component wraps it in messages. Models etcdserver/api/v3rpc/key.go (kvServer),
// etcdserver/v3_server.go (Range, Put, DeleteRange, Txn, Compact) and the single-request paths of
// etcdserver/apply.go.

import { applyDeleteRange, applyPut, applyRange } from './apply.ts';
import { defaultCluster, fillHeader, type ClusterIdentity } from './cluster.ts';
import { EtcdError, ErrGRPCLeaseNotFound } from './errors.ts';
import type { KVStore } from './kv-store.ts';
import { noLease } from './kv.ts';
import { checkDeleteRequest, checkIntervals, checkPutRequest, checkRangeRequest, checkTxnRequest, defaultMaxTxnOps } from './request-checks.ts';
import type {
  CompactionRequest, CompactionResponse, DeleteRangeRequest, DeleteRangeResponse, PutRequest, PutResponse, RangeRequest,
  RangeResponse, TxnRequest,
} from './rpc.ts';
import { applyTxn, type TxnResult } from './txn.ts';

export class KVServer {
  constructor(
    readonly store: KVStore,
    readonly identity: ClusterIdentity = defaultCluster,
    readonly maxTxnOps: number = defaultMaxTxnOps,
  ) {}

  range(r: RangeRequest): RangeResponse {
    checkRangeRequest(r);
    const resp = applyRange(this.store.read(), r);
    return { ...resp, header: fillHeader(resp.header, this.identity, this.store.currentRev) };
  }

  put(r: PutRequest): PutResponse {
    checkPutRequest(r);
    if (r.lease !== undefined && r.lease !== noLease && this.store.lessor.lookup(r.lease) === undefined) {
      throw new EtcdError(ErrGRPCLeaseNotFound);
    }
    const txn = this.store.write();
    let resp: PutResponse;
    try {
      resp = applyPut(txn, r);
    } finally {
      txn.end();
    }
    return { ...resp, header: fillHeader(resp.header, this.identity, this.store.currentRev) };
  }

  deleteRange(r: DeleteRangeRequest): DeleteRangeResponse {
    checkDeleteRequest(r);
    const txn = this.store.write();
    let resp: DeleteRangeResponse;
    try {
      resp = applyDeleteRange(txn, r);
    } finally {
      txn.end();
    }
    return { ...resp, header: fillHeader(resp.header, this.identity, this.store.currentRev) };
  }

  /** A txn; with `record`, the result also carries the evaluation of every compare on the path. */
  txn(r: TxnRequest, record = false): TxnResult {
    checkTxnRequest(r, this.maxTxnOps);
    checkIntervals(r.success);
    checkIntervals(r.failure);
    const result = applyTxn(this.store, r, record);
    const { response } = result;
    return {
      response: { header: fillHeader(response.header, this.identity, this.store.currentRev), succeeded: response.succeeded, responses: response.responses },
      evaluation: result.evaluation,
      changes: result.changes,
    };
  }

  compact(r: CompactionRequest): CompactionResponse {
    this.store.compact(r.revision);
    return { header: fillHeader({ clusterId: '0', memberId: '0', revision: this.store.currentRev, raftTerm: 0 }, this.identity, this.store.currentRev) };
  }
}

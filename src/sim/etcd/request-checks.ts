// Validation the gRPC layer does before a request reaches the server: empty keys, conflicting
// ignore_* flags, too many txn operations, and keys written twice in one txn branch; and the size
// limits: gRPC's receive limit on every request (max-request-bytes + 512 KiB) and the raft proposal
// limit (max-request-bytes) on every write.
// Models etcdserver/api/v3rpc/key.go (checkRangeRequest, checkPutRequest, checkDeleteRequest,
// checkTxnRequest, checkRequestOp, checkIntervals), etcdserver/api/v3rpc/grpc.go (MaxRecvMsgSize) and
// etcdserver/v3_server.go (processInternalRaftRequestOnce's ErrRequestTooLarge).

import {
  EtcdError, ErrGRPCDuplicateKey, ErrGRPCEmptyKey, ErrGRPCKeyNotFound, ErrGRPCLeaseProvided, ErrGRPCRequestTooLarge, ErrGRPCTooManyOps,
  ErrGRPCValueProvided, grpcCodes,
} from './errors.ts';
import { varintSize, varintSizeDecimal } from './proto-size.ts';
import { noLease } from './kv.ts';
import type { DeleteRangeRequest, PutRequest, RangeRequest, RequestOp, TxnRequest } from './rpc.ts';

/** `--max-txn-ops` default (embed/config.go DefaultMaxTxnOps). */
export const defaultMaxTxnOps = 128;

/** `--max-request-bytes` default (embed/config.go DefaultMaxRequestBytes, 1.5 MiB). */
export const defaultMaxRequestBytes = 1.5 * 1024 * 1024;

/** v3rpc's grpcOverheadBytes: the gRPC receive limit is max-request-bytes plus this. */
export const grpcOverheadBytes = 512 * 1024;

/** The field of each write in etcdserverpb.InternalRaftRequest (raft_internal.proto). */
export const raftRequestField = { put: 4, deleteRange: 5, txn: 6 } as const;

/**
 * gRPC's MaxRecvMsgSize, applied to every request before etcd sees it (Range included): a message of
 * `size` bytes over max-request-bytes + 512 KiB is refused with ResourceExhausted.
 */
export function checkReceivedMessageSize(size: number, maxRequestBytes: number = defaultMaxRequestBytes): void {
  const max = maxRequestBytes + grpcOverheadBytes;
  if (size > max) {
    throw new EtcdError({ code: grpcCodes.ResourceExhausted, codeName: 'ResourceExhausted', message: `grpc: received message larger than max (${size} vs. ${max})` });
  }
}

/**
 * The encoded size of the raft proposal of a write: InternalRaftRequest{header (field 100, a two-byte
 * tag): RequestHeader{ID}, <field>: the request of `size` bytes}.
 */
export function internalRaftRequestSize(id: string, field: number, size: number): number {
  const header = 1 + varintSizeDecimal(id);
  return 2 + varintSize(header) + header + (field < 16 ? 1 : 2) + varintSize(size) + size;
}

/** processInternalRaftRequestOnce: a proposal larger than max-request-bytes is `etcdserver: request is too large`. */
export function checkRaftRequestSize(id: string, field: number, size: number, maxRequestBytes: number = defaultMaxRequestBytes): void {
  if (internalRaftRequestSize(id, field, size) > maxRequestBytes) throw new EtcdError(ErrGRPCRequestTooLarge);
}

export function checkRangeRequest(r: RangeRequest): void {
  if (!r.key) throw new EtcdError(ErrGRPCEmptyKey);
}

export function checkPutRequest(r: PutRequest): void {
  if (!r.key) throw new EtcdError(ErrGRPCEmptyKey);
  if (r.ignoreValue && r.value) throw new EtcdError(ErrGRPCValueProvided);
  if (r.ignoreLease && r.lease !== undefined && r.lease !== noLease) throw new EtcdError(ErrGRPCLeaseProvided);
}

export function checkDeleteRequest(r: DeleteRangeRequest): void {
  if (!r.key) throw new EtcdError(ErrGRPCEmptyKey);
}

/** Op counts, empty keys and empty ops, recursively; a nested txn gets the budget its parent left. */
export function checkTxnRequest(r: TxnRequest, maxTxnOps: number = defaultMaxTxnOps): void {
  const compare = r.compare ?? [];
  const success = r.success ?? [];
  const failure = r.failure ?? [];
  const opc = Math.max(compare.length, success.length, failure.length);
  if (opc > maxTxnOps) throw new EtcdError(ErrGRPCTooManyOps);
  for (const c of compare) if (!c.key) throw new EtcdError(ErrGRPCEmptyKey);
  for (const u of success) checkRequestOp(u, maxTxnOps - opc);
  for (const u of failure) checkRequestOp(u, maxTxnOps - opc);
}

function checkRequestOp(u: RequestOp, maxTxnOps: number): void {
  if (u.requestRange !== undefined) checkRangeRequest(u.requestRange);
  else if (u.requestPut !== undefined) checkPutRequest(u.requestPut);
  else if (u.requestDeleteRange !== undefined) checkDeleteRequest(u.requestDeleteRange);
  else if (u.requestTxn !== undefined) checkTxnRequest(u.requestTxn, maxTxnOps);
  else throw new EtcdError(ErrGRPCKeyNotFound);
}

/** A deleted interval [begin, end); `end === ''` is unbounded (adt's affine string interval). */
interface DeleteInterval {
  readonly begin: string;
  readonly end: string;
}

function intersects(dels: readonly DeleteInterval[], key: string): boolean {
  // The point interval [key, key+"\0") overlaps [b, e) exactly when b ≤ key < e.
  for (const d of dels) if (d.begin <= key && (d.end === '' || key < d.end)) return true;
  return false;
}

/**
 * Rejects a branch that writes a key twice: two puts, or a put inside a deleted range, at this level or
 * in nested txns. A key put in both branches of one nested txn is fine (only one runs). Like etcd, a
 * delete whose range end is '\0' ("every key ≥ key") conflicts with nothing: its interval is empty.
 */
export function checkIntervals(reqs: readonly RequestOp[] | undefined): void {
  if (reqs === undefined) return;
  // Fast path: without deletes and nested txns, only two puts of one key can conflict.
  let simple = true;
  for (const op of reqs) if (op.requestDeleteRange !== undefined || op.requestTxn !== undefined) { simple = false; break; }
  if (simple) {
    if (reqs.length < 2) return;
    const seen = new Set<string>();
    for (const op of reqs) {
      const p = op.requestPut;
      if (p === undefined) continue;
      if (seen.has(p.key)) throw new EtcdError(ErrGRPCDuplicateKey);
      seen.add(p.key);
    }
    return;
  }
  intervals(reqs);
}

function intervals(reqs: readonly RequestOp[] | undefined): { puts: Set<string>; dels: DeleteInterval[] } {
  const dels: DeleteInterval[] = [];
  const ops = reqs ?? [];
  for (const req of ops) {
    const d = req.requestDeleteRange;
    if (d === undefined) continue;
    dels.push(d.rangeEnd ? { begin: d.key, end: d.rangeEnd } : { begin: d.key, end: d.key + '\0' });
  }
  const puts = new Set<string>();
  for (const req of ops) {
    const t = req.requestTxn;
    if (t === undefined) continue;
    const then = intervals(t.success);
    const otherwise = intervals(t.failure);
    for (const k of then.puts) {
      if (puts.has(k) || intersects(dels, k)) throw new EtcdError(ErrGRPCDuplicateKey);
      puts.add(k);
    }
    for (const k of otherwise.puts) {
      if (puts.has(k) && !then.puts.has(k)) throw new EtcdError(ErrGRPCDuplicateKey);
      if (intersects(dels, k)) throw new EtcdError(ErrGRPCDuplicateKey);
      puts.add(k);
    }
    dels.push(...then.dels, ...otherwise.dels);
  }
  for (const req of ops) {
    const p = req.requestPut;
    if (p === undefined) continue;
    if (puts.has(p.key) || intersects(dels, p.key)) throw new EtcdError(ErrGRPCDuplicateKey);
    puts.add(p.key);
  }
  return { puts, dels };
}

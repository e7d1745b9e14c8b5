// Sizes of the protobuf encodings of requests and responses (gogo-generated `Size()` methods), which
// the "request stats" log line reports. proto3 rules: zero scalars and empty bytes are not encoded; a
// set message field is encoded even when empty; a set oneof member is encoded even when zero.
// Models the Size() methods of etcdserver/etcdserverpb/rpc.pb.go and mvcc/mvccpb/kv.pb.go.

import type { KeyValue, LeaseID } from './kv.ts';
import type {
  Compare, DeleteRangeRequest, DeleteRangeResponse, PutRequest, PutResponse, RangeRequest, RangeResponse, RequestOp,
  ResponseHeader, ResponseOp, TxnRequest, TxnResponse,
} from './rpc.ts';

/** Bytes of a varint holding the int64 `n` (negative values take 10 bytes). */
export function varintSize(n: number): number {
  if (n < 0) return 10;
  let size = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

/** Varint size of a decimal uint64/int64 string (exact beyond 2^53). */
export function varintSizeDecimal(s: string): number {
  if (s.length < 16) return varintSize(Number(s));
  let v = BigInt(s);
  if (v < 0n) return 10;
  let size = 1;
  while (v >= 128n) {
    v >>= 7n;
    size++;
  }
  return size;
}

const bigVarintCache = new Map<string, number>();
function cachedDecimalSize(s: string): number {
  let n = bigVarintCache.get(s);
  if (n === undefined) {
    n = varintSizeDecimal(s);
    if (bigVarintCache.size < 1024) bigVarintCache.set(s, n);
  }
  return n;
}

const int64 = (n: number | undefined): number => (n ? 1 + varintSize(n) : 0);
const lease = (id: LeaseID | undefined): number => (id && id !== '0' ? 1 + cachedDecimalSize(id) : 0);
const bool = (b: boolean | undefined): number => (b ? 2 : 0);
function bytes(s: string | undefined, tagSize = 1): number {
  if (!s) return 0;
  const l = s.length;
  return tagSize + varintSize(l) + l;
}
const message = (size: number, tagSize = 1): number => tagSize + varintSize(size) + size;
const enumSize = (index: number): number => (index ? 1 + varintSize(index) : 0);

export function headerSize(h: ResponseHeader): number {
  return (h.clusterId !== '0' ? 1 + cachedDecimalSize(h.clusterId) : 0)
    + (h.memberId !== '0' ? 1 + cachedDecimalSize(h.memberId) : 0)
    + int64(h.revision) + int64(h.raftTerm);
}

export function keyValueSize(kv: KeyValue): number {
  return bytes(kv.key) + int64(kv.createRevision) + int64(kv.modRevision) + int64(kv.version) + bytes(kv.value) + lease(kv.lease);
}

const sortOrders = ['NONE', 'ASCEND', 'DESCEND'];
const sortTargets = ['KEY', 'VERSION', 'CREATE', 'MOD', 'VALUE'];
const compareResults = ['EQUAL', 'GREATER', 'LESS', 'NOT_EQUAL'];
const compareTargets = ['VERSION', 'CREATE', 'MOD', 'VALUE', 'LEASE'];

export function rangeRequestSize(r: RangeRequest): number {
  return bytes(r.key) + bytes(r.rangeEnd) + int64(r.limit) + int64(r.revision)
    + enumSize(sortOrders.indexOf(r.sortOrder ?? 'NONE')) + enumSize(sortTargets.indexOf(r.sortTarget ?? 'KEY'))
    + bool(r.serializable) + bool(r.keysOnly) + bool(r.countOnly)
    + int64(r.minModRevision) + int64(r.maxModRevision) + int64(r.minCreateRevision) + int64(r.maxCreateRevision);
}

export function rangeResponseSize(r: RangeResponse): number {
  let n = message(headerSize(r.header));
  for (const kv of r.kvs) n += message(keyValueSize(kv));
  return n + bool(r.more) + int64(r.count);
}

export function putRequestSize(r: PutRequest): number {
  return bytes(r.key) + bytes(r.value) + lease(r.lease) + bool(r.prevKv) + bool(r.ignoreValue) + bool(r.ignoreLease);
}

export function putResponseSize(r: PutResponse): number {
  return message(headerSize(r.header)) + (r.prevKv ? message(keyValueSize(r.prevKv)) : 0);
}

export function deleteRangeRequestSize(r: DeleteRangeRequest): number {
  return bytes(r.key) + bytes(r.rangeEnd) + bool(r.prevKv);
}

export function deleteRangeResponseSize(r: DeleteRangeResponse): number {
  let n = message(headerSize(r.header)) + int64(r.deleted);
  for (const kv of r.prevKvs) n += message(keyValueSize(kv));
  return n;
}

export function compareSize(c: Compare): number {
  let n = enumSize(compareResults.indexOf(c.result ?? 'EQUAL')) + enumSize(compareTargets.indexOf(c.target ?? 'VERSION')) + bytes(c.key);
  // The target_union member that is set is encoded even when zero.
  if (c.version !== undefined) n += 1 + varintSize(c.version);
  else if (c.createRevision !== undefined) n += 1 + varintSize(c.createRevision);
  else if (c.modRevision !== undefined) n += 1 + varintSize(c.modRevision);
  else if (c.value !== undefined) n += message(c.value.length);
  else if (c.lease !== undefined) n += 1 + cachedDecimalSize(c.lease);
  return n + bytes(c.rangeEnd, 2);
}

export function requestOpSize(op: RequestOp): number {
  if (op.requestRange !== undefined) return message(rangeRequestSize(op.requestRange));
  if (op.requestPut !== undefined) return message(putRequestSize(op.requestPut));
  if (op.requestDeleteRange !== undefined) return message(deleteRangeRequestSize(op.requestDeleteRange));
  if (op.requestTxn !== undefined) return message(txnRequestSize(op.requestTxn));
  return 0;
}

export function txnRequestSize(r: TxnRequest): number {
  let n = 0;
  for (const c of r.compare ?? []) n += message(compareSize(c));
  for (const op of r.success ?? []) n += message(requestOpSize(op));
  for (const op of r.failure ?? []) n += message(requestOpSize(op));
  return n;
}

export function responseOpSize(op: ResponseOp): number {
  if (op.responseRange !== undefined) return message(rangeResponseSize(op.responseRange));
  if (op.responsePut !== undefined) return message(putResponseSize(op.responsePut));
  if (op.responseDeleteRange !== undefined) return message(deleteRangeResponseSize(op.responseDeleteRange));
  if (op.responseTxn !== undefined) return message(txnResponseSize(op.responseTxn));
  return 0;
}

export function txnResponseSize(r: TxnResponse): number {
  let n = message(headerSize(r.header)) + bool(r.succeeded);
  for (const op of r.responses) n += message(responseOpSize(op));
  return n;
}

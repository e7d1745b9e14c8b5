// The etcd v3 JSON gateway's encoding (grpc-gateway v1, JSONPb with OrigName and without
// EmitDefaults): proto field names and order, int64/uint64 as decimal strings, bytes as standard base64,
// enums by name, and every zero value omitted (0, '', false, empty lists, the first enum value) while a
// set message field stays even when empty (`"header":{}`). Requests are encoded the same way, which the
// gateway accepts. Models etcdserver/etcdserverpb/gw and grpc-gateway's runtime marshaler as etcd 3.4
// uses them; used by the differential test and to show etcd traffic as JSON.

import { base64Encode } from './bytes.ts';
import type { Event, KeyValue } from './kv.ts';
import type {
  Compare, CompactionRequest, DeleteRangeRequest, DeleteRangeResponse, LeaseGrantRequest, LeaseGrantResponse,
  LeaseKeepAliveResponse, LeaseLeasesResponse, LeaseTimeToLiveRequest, LeaseTimeToLiveResponse, PutRequest, PutResponse,
  RangeRequest, RangeResponse, RequestOp, ResponseHeader, ResponseOp, TxnRequest, TxnResponse, WatchCreateRequest,
  WatchRequest, WatchResponse,
} from './rpc.ts';

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Builds an object keeping only non-zero members, in the order given. */
function obj(entries: Array<[string, Json | undefined]>): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of entries) {
    if (v === undefined || v === null || v === false || v === '' || v === '0' || v === 0) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    out[k] = v;
  }
  return out;
}

const int = (n: number | undefined): string | undefined => (n ? String(n) : undefined);
const b64 = (s: string | undefined): string | undefined => (s ? base64Encode(s) : undefined);

export function headerJson(h: ResponseHeader): JsonObject {
  return obj([['cluster_id', h.clusterId], ['member_id', h.memberId], ['revision', int(h.revision)], ['raft_term', int(h.raftTerm)]]);
}

export function keyValueJson(kv: KeyValue): JsonObject {
  return obj([
    ['key', b64(kv.key)], ['create_revision', int(kv.createRevision)], ['mod_revision', int(kv.modRevision)],
    ['version', int(kv.version)], ['value', b64(kv.value)], ['lease', kv.lease],
  ]);
}

export function rangeResponseJson(r: RangeResponse): JsonObject {
  return obj([['header', headerJson(r.header)], ['kvs', r.kvs.map(keyValueJson)], ['more', r.more], ['count', int(r.count)]]);
}

export function putResponseJson(r: PutResponse): JsonObject {
  return obj([['header', headerJson(r.header)], ['prev_kv', r.prevKv && keyValueJson(r.prevKv)]]);
}

export function deleteRangeResponseJson(r: DeleteRangeResponse): JsonObject {
  return obj([['header', headerJson(r.header)], ['deleted', int(r.deleted)], ['prev_kvs', r.prevKvs.map(keyValueJson)]]);
}

export function responseOpJson(op: ResponseOp): JsonObject {
  return obj([
    ['response_range', op.responseRange && rangeResponseJson(op.responseRange)],
    ['response_put', op.responsePut && putResponseJson(op.responsePut)],
    ['response_delete_range', op.responseDeleteRange && deleteRangeResponseJson(op.responseDeleteRange)],
    ['response_txn', op.responseTxn && txnResponseJson(op.responseTxn)],
  ]);
}

export function txnResponseJson(r: TxnResponse): JsonObject {
  return obj([['header', headerJson(r.header)], ['succeeded', r.succeeded], ['responses', r.responses.map(responseOpJson)]]);
}

export function compactionResponseJson(r: { header: ResponseHeader }): JsonObject {
  return { header: headerJson(r.header) };
}

export function eventJson(e: Event): JsonObject {
  return obj([['type', e.type === 'PUT' ? undefined : e.type], ['kv', keyValueJson(e.kv)], ['prev_kv', e.prevKv && keyValueJson(e.prevKv)]]);
}

export function watchResponseJson(r: WatchResponse): JsonObject {
  return obj([
    ['header', headerJson(r.header)], ['watch_id', int(r.watchId)], ['created', r.created], ['canceled', r.canceled],
    ['compact_revision', int(r.compactRevision)], ['cancel_reason', r.cancelReason], ['fragment', r.fragment],
    ['events', r.events.map(eventJson)],
  ]);
}

export function leaseGrantResponseJson(r: LeaseGrantResponse): JsonObject {
  return obj([['header', headerJson(r.header)], ['ID', r.ID], ['TTL', int(r.TTL)], ['error', r.error]]);
}

export function leaseKeepAliveResponseJson(r: LeaseKeepAliveResponse): JsonObject {
  return obj([['header', headerJson(r.header)], ['ID', r.ID], ['TTL', int(r.TTL)]]);
}

export function leaseTimeToLiveResponseJson(r: LeaseTimeToLiveResponse): JsonObject {
  return obj([
    ['header', headerJson(r.header)], ['ID', r.ID], ['TTL', int(r.TTL)], ['grantedTTL', int(r.grantedTTL)],
    ['keys', r.keys.map((k) => base64Encode(k))],
  ]);
}

export function leaseLeasesResponseJson(r: LeaseLeasesResponse): JsonObject {
  return obj([['header', headerJson(r.header)], ['leases', r.leases.map((l) => obj([['ID', l.ID]]))]]);
}

// Requests.

export function rangeRequestJson(r: RangeRequest): JsonObject {
  return obj([
    ['key', b64(r.key)], ['range_end', b64(r.rangeEnd)], ['limit', int(r.limit)], ['revision', int(r.revision)],
    ['sort_order', r.sortOrder === 'NONE' ? undefined : r.sortOrder], ['sort_target', r.sortTarget === 'KEY' ? undefined : r.sortTarget],
    ['serializable', r.serializable], ['keys_only', r.keysOnly], ['count_only', r.countOnly],
    ['min_mod_revision', int(r.minModRevision)], ['max_mod_revision', int(r.maxModRevision)],
    ['min_create_revision', int(r.minCreateRevision)], ['max_create_revision', int(r.maxCreateRevision)],
  ]);
}

export function putRequestJson(r: PutRequest): JsonObject {
  return obj([
    ['key', b64(r.key)], ['value', b64(r.value)], ['lease', r.lease], ['prev_kv', r.prevKv],
    ['ignore_value', r.ignoreValue], ['ignore_lease', r.ignoreLease],
  ]);
}

export function deleteRangeRequestJson(r: DeleteRangeRequest): JsonObject {
  return obj([['key', b64(r.key)], ['range_end', b64(r.rangeEnd)], ['prev_kv', r.prevKv]]);
}

/** A compare keeps its set target_union member even when zero (a oneof). */
export function compareJson(c: Compare): JsonObject {
  const out = obj([['result', c.result === 'EQUAL' ? undefined : c.result], ['target', c.target === 'VERSION' ? undefined : c.target], ['key', b64(c.key)]]);
  if (c.version !== undefined) out['version'] = String(c.version);
  else if (c.createRevision !== undefined) out['create_revision'] = String(c.createRevision);
  else if (c.modRevision !== undefined) out['mod_revision'] = String(c.modRevision);
  else if (c.value !== undefined) out['value'] = base64Encode(c.value);
  else if (c.lease !== undefined) out['lease'] = c.lease;
  if (c.rangeEnd) out['range_end'] = base64Encode(c.rangeEnd);
  return out;
}

export function requestOpJson(op: RequestOp): JsonObject {
  if (op.requestRange !== undefined) return { request_range: rangeRequestJson(op.requestRange) };
  if (op.requestPut !== undefined) return { request_put: putRequestJson(op.requestPut) };
  if (op.requestDeleteRange !== undefined) return { request_delete_range: deleteRangeRequestJson(op.requestDeleteRange) };
  if (op.requestTxn !== undefined) return { request_txn: txnRequestJson(op.requestTxn) };
  return {};
}

export function txnRequestJson(r: TxnRequest): JsonObject {
  return obj([
    ['compare', (r.compare ?? []).map(compareJson)], ['success', (r.success ?? []).map(requestOpJson)],
    ['failure', (r.failure ?? []).map(requestOpJson)],
  ]);
}

export function compactionRequestJson(r: CompactionRequest): JsonObject {
  return obj([['revision', int(r.revision)], ['physical', r.physical]]);
}

export function leaseGrantRequestJson(r: LeaseGrantRequest): JsonObject {
  return obj([['TTL', int(r.TTL)], ['ID', r.ID]]);
}

export function leaseTimeToLiveRequestJson(r: LeaseTimeToLiveRequest): JsonObject {
  return obj([['ID', r.ID], ['keys', r.keys]]);
}

export function watchCreateRequestJson(r: WatchCreateRequest): JsonObject {
  return obj([
    ['key', b64(r.key)], ['range_end', b64(r.rangeEnd)], ['start_revision', int(r.startRevision)],
    ['progress_notify', r.progressNotify], ['filters', r.filters ? [...r.filters] : undefined], ['prev_kv', r.prevKv],
    ['watch_id', int(r.watchId)], ['fragment', r.fragment],
  ]);
}

export function watchRequestJson(r: WatchRequest): JsonObject {
  if (r.createRequest !== undefined) return { create_request: watchCreateRequestJson(r.createRequest) };
  if (r.cancelRequest !== undefined) return { cancel_request: obj([['watch_id', int(r.cancelRequest.watchId)]]) };
  if (r.progressRequest !== undefined) return { progress_request: {} };
  return {};
}

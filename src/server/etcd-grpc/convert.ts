// The one place where etcd's v3 protobuf messages (as @grpc/proto-loader decodes and encodes them) meet the
// model's request and response types (src/sim/etcd/rpc.ts). Wire shapes: field names as in rpc.proto
// (`keepCase`), `bytes` as Buffers, int64/uint64 as decimal strings on the way in (`longs: String`; numbers
// or strings on the way out), enums by name, oneof members null when unset (`defaults: true`). Model
// shapes: keys and values are byte strings (one char per byte, src/sim/etcd/bytes.ts), so the conversion
// is binary-safe both ways (`latin1` is exactly one char per byte); revisions are numbers; lease, cluster
// and member IDs decimal strings.

import type { Event, KeyValue } from '../../sim/etcd/kv.ts';
import type {
  Compare, CompactionRequest, DeleteRangeRequest, DeleteRangeResponse, LeaseGrantRequest, LeaseGrantResponse, LeaseKeepAliveResponse,
  LeaseLeasesResponse, LeaseTimeToLiveRequest, LeaseTimeToLiveResponse, PutRequest, PutResponse, RangeRequest, RangeResponse, RequestOp,
  ResponseHeader, ResponseOp, SortOrder, SortTarget, TxnRequest, TxnResponse, WatchCreateRequest, WatchFilterType, WatchRequest, WatchResponse,
} from '../../sim/etcd/rpc.ts';

/** A decoded protobuf message: fields by their proto names. */
export type Wire = { readonly [field: string]: unknown };

/** bytes → byte string. */
export function byteString(b: unknown): string {
  return b instanceof Uint8Array ? Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1') : '';
}

/** byte string → bytes. */
export function wireBytes(s: string): Buffer {
  return Buffer.from(s, 'latin1');
}

const int = (v: unknown): number => (v === undefined || v === null || v === '' ? 0 : Number(v));
const id = (v: unknown): string => (v === undefined || v === null || v === '' ? '0' : String(v));
const bool = (v: unknown): boolean => v === true;
const message = (v: unknown): Wire | null => (v !== null && typeof v === 'object' && !(v instanceof Uint8Array) ? v as Wire : null);

/** Sets only what differs from the proto3 default, as the model's optional request fields expect. */
function compact<T extends object>(fields: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v === 0 || v === '' || v === false || v === '0' || v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out as T;
}

export function rangeRequest(w: Wire): RangeRequest {
  return {
    key: byteString(w['key']),
    ...compact<Partial<RangeRequest>>({
      rangeEnd: byteString(w['range_end']),
      limit: int(w['limit']),
      revision: int(w['revision']),
      sortOrder: (w['sort_order'] ?? 'NONE') === 'NONE' ? '' : w['sort_order'] as SortOrder,
      sortTarget: (w['sort_target'] ?? 'KEY') === 'KEY' ? '' : w['sort_target'] as SortTarget,
      serializable: bool(w['serializable']),
      keysOnly: bool(w['keys_only']),
      countOnly: bool(w['count_only']),
      minModRevision: int(w['min_mod_revision']),
      maxModRevision: int(w['max_mod_revision']),
      minCreateRevision: int(w['min_create_revision']),
      maxCreateRevision: int(w['max_create_revision']),
    }),
  };
}

export function putRequest(w: Wire): PutRequest {
  return {
    key: byteString(w['key']),
    ...compact<Partial<PutRequest>>({
      value: byteString(w['value']),
      lease: id(w['lease']),
      prevKv: bool(w['prev_kv']),
      ignoreValue: bool(w['ignore_value']),
      ignoreLease: bool(w['ignore_lease']),
    }),
  };
}

export function deleteRangeRequest(w: Wire): DeleteRangeRequest {
  return { key: byteString(w['key']), ...compact<Partial<DeleteRangeRequest>>({ rangeEnd: byteString(w['range_end']), prevKv: bool(w['prev_kv']) }) };
}

function compare(w: Wire): Compare {
  const target = (w['target'] ?? 'VERSION') as Compare['target'];
  const c: Record<string, unknown> = {
    result: w['result'] ?? 'EQUAL', target, key: byteString(w['key']),
  };
  // The target_union oneof: only the member the decoder saw is carried.
  switch (w['target_union']) {
    case 'version': c['version'] = int(w['version']); break;
    case 'create_revision': c['createRevision'] = int(w['create_revision']); break;
    case 'mod_revision': c['modRevision'] = int(w['mod_revision']); break;
    case 'value': c['value'] = byteString(w['value']); break;
    case 'lease': c['lease'] = id(w['lease']); break;
    default: break;
  }
  const rangeEnd = byteString(w['range_end']);
  if (rangeEnd !== '') c['rangeEnd'] = rangeEnd;
  return c as unknown as Compare;
}

function requestOp(w: Wire): RequestOp {
  const range = message(w['request_range']);
  if (range) return { requestRange: rangeRequest(range) };
  const put = message(w['request_put']);
  if (put) return { requestPut: putRequest(put) };
  const del = message(w['request_delete_range']);
  if (del) return { requestDeleteRange: deleteRangeRequest(del) };
  const txn = message(w['request_txn']);
  if (txn) return { requestTxn: txnRequest(txn) };
  return {};
}

export function txnRequest(w: Wire): TxnRequest {
  const list = (v: unknown): Wire[] => (Array.isArray(v) ? v as Wire[] : []);
  return compact<TxnRequest>({
    compare: list(w['compare']).map(compare),
    success: list(w['success']).map(requestOp),
    failure: list(w['failure']).map(requestOp),
  });
}

export function compactionRequest(w: Wire): CompactionRequest {
  return { revision: int(w['revision']), ...compact<Partial<CompactionRequest>>({ physical: bool(w['physical']) }) };
}

export function leaseGrantRequest(w: Wire): LeaseGrantRequest {
  return { TTL: int(w['TTL']), ...compact<Partial<LeaseGrantRequest>>({ ID: id(w['ID']) }) };
}

export function leaseIdRequest(w: Wire): { readonly ID: string } {
  return { ID: id(w['ID']) };
}

export function leaseTimeToLiveRequest(w: Wire): LeaseTimeToLiveRequest {
  return { ID: id(w['ID']), ...compact<Partial<LeaseTimeToLiveRequest>>({ keys: bool(w['keys']) }) };
}

export function watchRequest(w: Wire): WatchRequest {
  const create = message(w['create_request']);
  if (create) {
    const filters = (Array.isArray(create['filters']) ? create['filters'] : []) as WatchFilterType[];
    return {
      createRequest: compact<WatchCreateRequest>({
        key: byteString(create['key']),
        rangeEnd: byteString(create['range_end']),
        startRevision: int(create['start_revision']),
        progressNotify: bool(create['progress_notify']),
        filters,
        prevKv: bool(create['prev_kv']),
        watchId: int(create['watch_id']),
        fragment: bool(create['fragment']),
      }),
    };
  }
  const cancel = message(w['cancel_request']);
  if (cancel) return { cancelRequest: { watchId: int(cancel['watch_id']) } };
  if (message(w['progress_request'])) return { progressRequest: {} };
  return {};
}

export function header(h: ResponseHeader): Wire {
  return { cluster_id: h.clusterId, member_id: h.memberId, revision: h.revision, raft_term: h.raftTerm };
}

export function keyValue(kv: KeyValue): Wire {
  return {
    key: wireBytes(kv.key), create_revision: kv.createRevision, mod_revision: kv.modRevision, version: kv.version,
    value: wireBytes(kv.value), lease: kv.lease,
  };
}

export function rangeResponse(r: RangeResponse): Wire {
  return { header: header(r.header), kvs: r.kvs.map(keyValue), more: r.more, count: r.count };
}

export function putResponse(r: PutResponse): Wire {
  return { header: header(r.header), prev_kv: r.prevKv ? keyValue(r.prevKv) : null };
}

export function deleteRangeResponse(r: DeleteRangeResponse): Wire {
  return { header: header(r.header), deleted: r.deleted, prev_kvs: r.prevKvs.map(keyValue) };
}

function responseOp(r: ResponseOp): Wire {
  if (r.responseRange) return { response_range: rangeResponse(r.responseRange) };
  if (r.responsePut) return { response_put: putResponse(r.responsePut) };
  if (r.responseDeleteRange) return { response_delete_range: deleteRangeResponse(r.responseDeleteRange) };
  if (r.responseTxn) return { response_txn: txnResponse(r.responseTxn) };
  return {};
}

export function txnResponse(r: TxnResponse): Wire {
  return { header: header(r.header), succeeded: r.succeeded, responses: r.responses.map(responseOp) };
}

export function headerOnly(r: { readonly header: ResponseHeader }): Wire {
  return { header: header(r.header) };
}

export function leaseGrantResponse(r: LeaseGrantResponse): Wire {
  return { header: header(r.header), ID: r.ID, TTL: r.TTL, error: r.error };
}

export function leaseKeepAliveResponse(r: LeaseKeepAliveResponse): Wire {
  return { header: header(r.header), ID: r.ID, TTL: r.TTL };
}

export function leaseTimeToLiveResponse(r: LeaseTimeToLiveResponse): Wire {
  return { header: header(r.header), ID: r.ID, TTL: r.TTL, grantedTTL: r.grantedTTL, keys: r.keys.map(wireBytes) };
}

export function leaseLeasesResponse(r: LeaseLeasesResponse): Wire {
  return { header: header(r.header), leases: r.leases.map((l) => ({ ID: l.ID })) };
}

function event(e: Event): Wire {
  return { type: e.type, kv: keyValue(e.kv), prev_kv: e.prevKv ? keyValue(e.prevKv) : null };
}

export function watchResponse(r: WatchResponse): Wire {
  return {
    header: header(r.header), watch_id: r.watchId, created: r.created, canceled: r.canceled, compact_revision: r.compactRevision,
    cancel_reason: r.cancelReason, fragment: r.fragment, events: r.events.map(event),
  };
}

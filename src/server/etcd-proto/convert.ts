// The one place where etcd's v3 protobuf messages (protos/etcd-v3.4.23, as @grpc/proto-loader decodes and
// encodes them with `protoOptions`) meet the model's request and response types (src/sim/etcd/rpc.ts), both
// ways: the model's gRPC endpoint (etcd-grpc/) decodes requests (`…FromWire`) and encodes responses
// (`…ToWire`); the member that forwards to a real etcd (real-etcd/) encodes requests and decodes responses.
// Wire shapes: field names as in rpc.proto (`keepCase`), `bytes` as Buffers, int64/uint64 as decimal
// strings on the way in (`longs: String`; numbers or strings on the way out), enums by name, oneof members
// null when unset (`defaults: true`). Model shapes: keys and values are byte strings (one char per byte,
// src/sim/etcd/bytes.ts), so the conversion is binary-safe both ways (`latin1` is exactly one char per
// byte); revisions are numbers; lease, cluster and member IDs decimal strings. Requests leave out what the
// model leaves out (proto3 defaults) both ways; decoded responses carry every field, as rpc.ts describes.
// A real etcd's header is its own: the cluster and member IDs of the member that answered, its raft term.

import { fileURLToPath } from 'node:url';
import { loadSync, type Options } from '@grpc/proto-loader';
import type { Event, KeyValue } from '../../sim/etcd/kv.ts';
import type {
  Compare, CompactionRequest, DeleteRangeRequest, DeleteRangeResponse, LeaseGrantRequest, LeaseGrantResponse, LeaseKeepAliveResponse,
  LeaseLeasesResponse, LeaseTimeToLiveRequest, LeaseTimeToLiveResponse, PutRequest, PutResponse, RangeRequest, RangeResponse, RequestOp,
  ResponseHeader, ResponseOp, SortOrder, SortTarget, StatusResponse, TxnRequest, TxnResponse, WatchCreateRequest, WatchFilterType, WatchRequest, WatchResponse,
} from '../../sim/etcd/rpc.ts';

/** A protobuf message as the loader decodes or encodes it: fields by their proto names. */
export type Wire = { readonly [field: string]: unknown };

const protoRoot = fileURLToPath(new URL('../../../protos/etcd-v3.4.23', import.meta.url));
/** How both ends load etcd's protos (the shapes above). */
const protoOptions: Options = { includeDirs: [protoRoot], keepCase: true, longs: String, enums: String, defaults: true, oneofs: true };

/** etcd 3.4.23's `etcdserverpb` (api/etcdserverpb/rpc.proto) as a proto-loader package definition. */
export function loadEtcdProtos(): ReturnType<typeof loadSync> {
  return loadSync('etcd/etcdserver/etcdserverpb/rpc.proto', protoOptions);
}

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

// Requests from etcd clients, and the model's answers to them.

export function rangeRequestFromWire(w: Wire): RangeRequest {
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

export function putRequestFromWire(w: Wire): PutRequest {
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

export function deleteRangeRequestFromWire(w: Wire): DeleteRangeRequest {
  return { key: byteString(w['key']), ...compact<Partial<DeleteRangeRequest>>({ rangeEnd: byteString(w['range_end']), prevKv: bool(w['prev_kv']) }) };
}

function compareFromWire(w: Wire): Compare {
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

function requestOpFromWire(w: Wire): RequestOp {
  const range = message(w['request_range']);
  if (range) return { requestRange: rangeRequestFromWire(range) };
  const put = message(w['request_put']);
  if (put) return { requestPut: putRequestFromWire(put) };
  const del = message(w['request_delete_range']);
  if (del) return { requestDeleteRange: deleteRangeRequestFromWire(del) };
  const txn = message(w['request_txn']);
  if (txn) return { requestTxn: txnRequestFromWire(txn) };
  return {};
}

export function txnRequestFromWire(w: Wire): TxnRequest {
  const list = (v: unknown): Wire[] => (Array.isArray(v) ? v as Wire[] : []);
  return compact<TxnRequest>({
    compare: list(w['compare']).map(compareFromWire),
    success: list(w['success']).map(requestOpFromWire),
    failure: list(w['failure']).map(requestOpFromWire),
  });
}

export function compactionRequestFromWire(w: Wire): CompactionRequest {
  return { revision: int(w['revision']), ...compact<Partial<CompactionRequest>>({ physical: bool(w['physical']) }) };
}

export function leaseGrantRequestFromWire(w: Wire): LeaseGrantRequest {
  return { TTL: int(w['TTL']), ...compact<Partial<LeaseGrantRequest>>({ ID: id(w['ID']) }) };
}

export function leaseIdRequestFromWire(w: Wire): { readonly ID: string } {
  return { ID: id(w['ID']) };
}

export function leaseTimeToLiveRequestFromWire(w: Wire): LeaseTimeToLiveRequest {
  return { ID: id(w['ID']), ...compact<Partial<LeaseTimeToLiveRequest>>({ keys: bool(w['keys']) }) };
}

export function watchRequestFromWire(w: Wire): WatchRequest {
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

export function headerToWire(h: ResponseHeader): Wire {
  return { cluster_id: h.clusterId, member_id: h.memberId, revision: h.revision, raft_term: h.raftTerm };
}

export function keyValueToWire(kv: KeyValue): Wire {
  return {
    key: wireBytes(kv.key), create_revision: kv.createRevision, mod_revision: kv.modRevision, version: kv.version,
    value: wireBytes(kv.value), lease: kv.lease,
  };
}

export function rangeResponseToWire(r: RangeResponse): Wire {
  return { header: headerToWire(r.header), kvs: r.kvs.map(keyValueToWire), more: r.more, count: r.count };
}

export function putResponseToWire(r: PutResponse): Wire {
  return { header: headerToWire(r.header), prev_kv: r.prevKv ? keyValueToWire(r.prevKv) : null };
}

export function deleteRangeResponseToWire(r: DeleteRangeResponse): Wire {
  return { header: headerToWire(r.header), deleted: r.deleted, prev_kvs: r.prevKvs.map(keyValueToWire) };
}

function responseOpToWire(r: ResponseOp): Wire {
  if (r.responseRange) return { response_range: rangeResponseToWire(r.responseRange) };
  if (r.responsePut) return { response_put: putResponseToWire(r.responsePut) };
  if (r.responseDeleteRange) return { response_delete_range: deleteRangeResponseToWire(r.responseDeleteRange) };
  if (r.responseTxn) return { response_txn: txnResponseToWire(r.responseTxn) };
  return {};
}

export function txnResponseToWire(r: TxnResponse): Wire {
  return { header: headerToWire(r.header), succeeded: r.succeeded, responses: r.responses.map(responseOpToWire) };
}

export function headerOnlyToWire(r: { readonly header: ResponseHeader }): Wire {
  return { header: headerToWire(r.header) };
}

export function leaseGrantResponseToWire(r: LeaseGrantResponse): Wire {
  return { header: headerToWire(r.header), ID: r.ID, TTL: r.TTL, error: r.error };
}

export function leaseKeepAliveResponseToWire(r: LeaseKeepAliveResponse): Wire {
  return { header: headerToWire(r.header), ID: r.ID, TTL: r.TTL };
}

export function leaseTimeToLiveResponseToWire(r: LeaseTimeToLiveResponse): Wire {
  return { header: headerToWire(r.header), ID: r.ID, TTL: r.TTL, grantedTTL: r.grantedTTL, keys: r.keys.map(wireBytes) };
}

export function leaseLeasesResponseToWire(r: LeaseLeasesResponse): Wire {
  return { header: headerToWire(r.header), leases: r.leases.map((l) => ({ ID: l.ID })) };
}

function eventToWire(e: Event): Wire {
  return { type: e.type, kv: keyValueToWire(e.kv), prev_kv: e.prevKv ? keyValueToWire(e.prevKv) : null };
}

export function watchResponseToWire(r: WatchResponse): Wire {
  return {
    header: headerToWire(r.header), watch_id: r.watchId, created: r.created, canceled: r.canceled, compact_revision: r.compactRevision,
    cancel_reason: r.cancelReason, fragment: r.fragment, events: r.events.map(eventToWire),
  };
}

// The model's requests to a real etcd, and its answers back.

/** Copies the members of `source` that are set, under their proto names, converting byte-string fields. */
function pick(source: object, fields: readonly string[], bytes: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = (source as Record<string, unknown>)[f];
    if (v === undefined) continue;
    out[f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = bytes.includes(f) ? wireBytes(v as string) : v;
  }
  return out;
}

export function rangeRequestToWire(r: RangeRequest): Wire {
  return pick(r, ['key', 'rangeEnd', 'limit', 'revision', 'sortOrder', 'sortTarget', 'serializable', 'keysOnly', 'countOnly',
    'minModRevision', 'maxModRevision', 'minCreateRevision', 'maxCreateRevision'], ['key', 'rangeEnd']);
}

export function putRequestToWire(r: PutRequest): Wire {
  return pick(r, ['key', 'value', 'lease', 'prevKv', 'ignoreValue', 'ignoreLease'], ['key', 'value']);
}

export function deleteRangeRequestToWire(r: DeleteRangeRequest): Wire {
  return pick(r, ['key', 'rangeEnd', 'prevKv'], ['key', 'rangeEnd']);
}

function compareToWire(c: Compare): Wire {
  return pick(c, ['result', 'target', 'key', 'version', 'createRevision', 'modRevision', 'value', 'lease', 'rangeEnd'], ['key', 'value', 'rangeEnd']);
}

function requestOpToWire(op: RequestOp): Wire {
  if (op.requestRange !== undefined) return { request_range: rangeRequestToWire(op.requestRange) };
  if (op.requestPut !== undefined) return { request_put: putRequestToWire(op.requestPut) };
  if (op.requestDeleteRange !== undefined) return { request_delete_range: deleteRangeRequestToWire(op.requestDeleteRange) };
  if (op.requestTxn !== undefined) return { request_txn: txnRequestToWire(op.requestTxn) };
  return {};
}

export function txnRequestToWire(r: TxnRequest): Wire {
  return {
    compare: (r.compare ?? []).map(compareToWire),
    success: (r.success ?? []).map(requestOpToWire),
    failure: (r.failure ?? []).map(requestOpToWire),
  };
}

export function compactionRequestToWire(r: CompactionRequest): Wire {
  return pick(r, ['revision', 'physical']);
}

/** LeaseGrant, LeaseRevoke and LeaseTimeToLive requests: their fields (`ID`, `TTL`, `keys`) have the proto's names. */
export function leaseRequestToWire(r: LeaseGrantRequest | LeaseTimeToLiveRequest | { readonly ID: string }): Wire {
  return { ...r };
}

export function watchRequestToWire(r: WatchRequest): Wire {
  if (r.createRequest !== undefined) {
    return { create_request: pick(r.createRequest, ['key', 'rangeEnd', 'startRevision', 'progressNotify', 'filters', 'prevKv', 'watchId', 'fragment'], ['key', 'rangeEnd']) };
  }
  if (r.cancelRequest !== undefined) return { cancel_request: { watch_id: r.cancelRequest.watchId } };
  if (r.progressRequest !== undefined) return { progress_request: {} };
  return {};
}

const list = (v: unknown): Wire[] => (Array.isArray(v) ? v as Wire[] : []);

function headerFromWire(h: unknown): ResponseHeader {
  const w = message(h) ?? {};
  return { clusterId: id(w['cluster_id']), memberId: id(w['member_id']), revision: int(w['revision']), raftTerm: int(w['raft_term']) };
}

export function keyValueFromWire(kv: unknown): KeyValue {
  const w = message(kv) ?? {};
  return {
    key: byteString(w['key']), createRevision: int(w['create_revision']), modRevision: int(w['mod_revision']), version: int(w['version']),
    value: byteString(w['value']), lease: id(w['lease']),
  };
}

function eventFromWire(w: Wire): Event {
  const event: Event = { type: w['type'] === 'DELETE' ? 'DELETE' : 'PUT', kv: keyValueFromWire(w['kv']) };
  const prev = message(w['prev_kv']);
  return prev ? { ...event, prevKv: keyValueFromWire(prev) } : event;
}

export function rangeResponseFromWire(w: Wire): RangeResponse {
  return { header: headerFromWire(w['header']), kvs: list(w['kvs']).map(keyValueFromWire), more: bool(w['more']), count: int(w['count']) };
}

export function putResponseFromWire(w: Wire): PutResponse {
  const header = headerFromWire(w['header']);
  const prev = message(w['prev_kv']);
  return prev ? { header, prevKv: keyValueFromWire(prev) } : { header };
}

export function deleteRangeResponseFromWire(w: Wire): DeleteRangeResponse {
  return { header: headerFromWire(w['header']), deleted: int(w['deleted']), prevKvs: list(w['prev_kvs']).map(keyValueFromWire) };
}

function responseOpFromWire(w: Wire): ResponseOp {
  const range = message(w['response_range']);
  if (range) return { responseRange: rangeResponseFromWire(range) };
  const put = message(w['response_put']);
  if (put) return { responsePut: putResponseFromWire(put) };
  const del = message(w['response_delete_range']);
  if (del) return { responseDeleteRange: deleteRangeResponseFromWire(del) };
  const txn = message(w['response_txn']);
  if (txn) return { responseTxn: txnResponseFromWire(txn) };
  return {};
}

export function txnResponseFromWire(w: Wire): TxnResponse {
  return { header: headerFromWire(w['header']), succeeded: bool(w['succeeded']), responses: list(w['responses']).map(responseOpFromWire) };
}

/** A response that carries only its header (Compact, LeaseRevoke). */
export function headerOnlyFromWire(w: Wire): { readonly header: ResponseHeader } {
  return { header: headerFromWire(w['header']) };
}

export function leaseGrantResponseFromWire(w: Wire): LeaseGrantResponse {
  return { header: headerFromWire(w['header']), ID: id(w['ID']), TTL: int(w['TTL']), error: String(w['error'] ?? '') };
}

export function leaseKeepAliveResponseFromWire(w: Wire): LeaseKeepAliveResponse {
  return { header: headerFromWire(w['header']), ID: id(w['ID']), TTL: int(w['TTL']) };
}

export function leaseTimeToLiveResponseFromWire(w: Wire): LeaseTimeToLiveResponse {
  return { header: headerFromWire(w['header']), ID: id(w['ID']), TTL: int(w['TTL']), grantedTTL: int(w['grantedTTL']), keys: list(w['keys']).map(byteString) };
}

export function leaseLeasesResponseFromWire(w: Wire): LeaseLeasesResponse {
  return { header: headerFromWire(w['header']), leases: list(w['leases']).map((l) => ({ ID: id(l['ID']) })) };
}

export function statusResponseFromWire(w: Wire): StatusResponse {
  return {
    header: headerFromWire(w['header']), version: String(w['version'] ?? ''), dbSize: int(w['dbSize']), leader: id(w['leader']),
    raftIndex: int(w['raftIndex']), raftTerm: int(w['raftTerm']), raftAppliedIndex: int(w['raftAppliedIndex']),
    errors: Array.isArray(w['errors']) ? (w['errors'] as unknown[]).map(String) : [], dbSizeInUse: int(w['dbSizeInUse']), isLearner: bool(w['isLearner']),
  };
}

export function watchResponseFromWire(w: Wire): WatchResponse {
  return {
    header: headerFromWire(w['header']), watchId: int(w['watch_id']), created: bool(w['created']), canceled: bool(w['canceled']),
    compactRevision: int(w['compact_revision']), cancelReason: String(w['cancel_reason'] ?? ''), fragment: bool(w['fragment']),
    events: list(w['events']).map(eventFromWire),
  };
}

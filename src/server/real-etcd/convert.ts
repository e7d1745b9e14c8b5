// The model's etcd messages (src/sim/etcd/rpc.ts: byte strings, numbers, decimal lease IDs) to and from
// the objects @grpc/proto-loader encodes and decodes for etcd's v3 API (protos/etcd-v3.4.23), loaded with
// camelCase field names, int64 as decimal strings, enums by name and bytes as Buffers.
//
// Requests leave out what the model leaves out (proto3 defaults); responses come back with every field
// (the loader fills defaults), as rpc.ts describes. A real etcd's header is its own: cluster and member
// IDs of the member that answered, its raft term.

import type {
  Compare, CompactionRequest, DeleteRangeRequest, DeleteRangeResponse, Event, KeyValue, LeaseGrantResponse, LeaseKeepAliveResponse,
  LeaseLeasesResponse, LeaseTimeToLiveResponse, PutRequest, PutResponse, RangeRequest, RangeResponse, RequestOp, ResponseHeader,
  ResponseOp, TxnRequest, TxnResponse, WatchCreateRequest, WatchRequest, WatchResponse,
} from '../../sim/etcd/index.ts';

/** A decoded or to-be-encoded proto message: field name → value. */
export type ProtoObject = Record<string, unknown>;

/** A byte string (one char per byte) as the bytes the wire carries. */
export function toBytes(s: string): Buffer {
  return Buffer.from(s, 'latin1');
}

/** Wire bytes as a byte string. */
export function fromBytes(b: unknown): string {
  if (b === undefined || b === null) return '';
  return Buffer.from(b as Uint8Array).toString('latin1');
}

/** An int64 as the loader decodes it (a decimal string) as a number; revisions and counts fit in 2^53. */
function int(v: unknown): number {
  return v === undefined || v === null ? 0 : Number(v);
}

/** An int64 lease ID, kept decimal. */
function leaseId(v: unknown): string {
  return v === undefined || v === null ? '0' : String(v);
}

/** Copies the defined members of `source` among `fields`, converting byte-string fields. */
function pick(source: object, fields: readonly string[], bytes: readonly string[] = []): ProtoObject {
  const out: ProtoObject = {};
  for (const f of fields) {
    const v = (source as Record<string, unknown>)[f];
    if (v === undefined) continue;
    out[f] = bytes.includes(f) ? toBytes(v as string) : v;
  }
  return out;
}

export function rangeRequestToProto(r: RangeRequest): ProtoObject {
  return pick(r, ['key', 'rangeEnd', 'limit', 'revision', 'sortOrder', 'sortTarget', 'serializable', 'keysOnly', 'countOnly',
    'minModRevision', 'maxModRevision', 'minCreateRevision', 'maxCreateRevision'], ['key', 'rangeEnd']);
}

export function putRequestToProto(r: PutRequest): ProtoObject {
  return pick(r, ['key', 'value', 'lease', 'prevKv', 'ignoreValue', 'ignoreLease'], ['key', 'value']);
}

export function deleteRangeRequestToProto(r: DeleteRangeRequest): ProtoObject {
  return pick(r, ['key', 'rangeEnd', 'prevKv'], ['key', 'rangeEnd']);
}

function compareToProto(c: Compare): ProtoObject {
  return pick(c, ['result', 'target', 'key', 'version', 'createRevision', 'modRevision', 'value', 'lease', 'rangeEnd'], ['key', 'value', 'rangeEnd']);
}

function requestOpToProto(op: RequestOp): ProtoObject {
  if (op.requestRange !== undefined) return { requestRange: rangeRequestToProto(op.requestRange) };
  if (op.requestPut !== undefined) return { requestPut: putRequestToProto(op.requestPut) };
  if (op.requestDeleteRange !== undefined) return { requestDeleteRange: deleteRangeRequestToProto(op.requestDeleteRange) };
  if (op.requestTxn !== undefined) return { requestTxn: txnRequestToProto(op.requestTxn) };
  return {};
}

export function txnRequestToProto(r: TxnRequest): ProtoObject {
  return {
    compare: (r.compare ?? []).map(compareToProto),
    success: (r.success ?? []).map(requestOpToProto),
    failure: (r.failure ?? []).map(requestOpToProto),
  };
}

export function compactionRequestToProto(r: CompactionRequest): ProtoObject {
  return pick(r, ['revision', 'physical']);
}

function watchCreateToProto(r: WatchCreateRequest): ProtoObject {
  return pick(r, ['key', 'rangeEnd', 'startRevision', 'progressNotify', 'filters', 'prevKv', 'watchId', 'fragment'], ['key', 'rangeEnd']);
}

export function watchRequestToProto(r: WatchRequest): ProtoObject {
  if (r.createRequest !== undefined) return { createRequest: watchCreateToProto(r.createRequest) };
  if (r.cancelRequest !== undefined) return { cancelRequest: { watchId: r.cancelRequest.watchId } };
  if (r.progressRequest !== undefined) return { progressRequest: {} };
  return {};
}

function headerFromProto(h: unknown): ResponseHeader {
  const p = (h ?? {}) as ProtoObject;
  return { clusterId: String(p['clusterId'] ?? '0'), memberId: String(p['memberId'] ?? '0'), revision: int(p['revision']), raftTerm: int(p['raftTerm']) };
}

export function keyValueFromProto(kv: unknown): KeyValue {
  const p = kv as ProtoObject;
  return {
    key: fromBytes(p['key']), createRevision: int(p['createRevision']), modRevision: int(p['modRevision']), version: int(p['version']),
    value: fromBytes(p['value']), lease: leaseId(p['lease']),
  };
}

function eventFromProto(e: unknown): Event {
  const p = e as ProtoObject;
  const kv = keyValueFromProto(p['kv']);
  const event: Event = { type: p['type'] === 'DELETE' ? 'DELETE' : 'PUT', kv };
  return p['prevKv'] !== undefined && p['prevKv'] !== null ? { ...event, prevKv: keyValueFromProto(p['prevKv']) } : event;
}

export function rangeResponseFromProto(r: ProtoObject): RangeResponse {
  return {
    header: headerFromProto(r['header']), kvs: ((r['kvs'] ?? []) as unknown[]).map(keyValueFromProto), more: Boolean(r['more']), count: int(r['count']),
  };
}

export function putResponseFromProto(r: ProtoObject): PutResponse {
  const header = headerFromProto(r['header']);
  return r['prevKv'] !== undefined && r['prevKv'] !== null ? { header, prevKv: keyValueFromProto(r['prevKv']) } : { header };
}

export function deleteRangeResponseFromProto(r: ProtoObject): DeleteRangeResponse {
  return { header: headerFromProto(r['header']), deleted: int(r['deleted']), prevKvs: ((r['prevKvs'] ?? []) as unknown[]).map(keyValueFromProto) };
}

function responseOpFromProto(op: unknown): ResponseOp {
  const p = op as ProtoObject;
  if (p['responseRange'] != null) return { responseRange: rangeResponseFromProto(p['responseRange'] as ProtoObject) };
  if (p['responsePut'] != null) return { responsePut: putResponseFromProto(p['responsePut'] as ProtoObject) };
  if (p['responseDeleteRange'] != null) return { responseDeleteRange: deleteRangeResponseFromProto(p['responseDeleteRange'] as ProtoObject) };
  if (p['responseTxn'] != null) return { responseTxn: txnResponseFromProto(p['responseTxn'] as ProtoObject) };
  return {};
}

export function txnResponseFromProto(r: ProtoObject): TxnResponse {
  return { header: headerFromProto(r['header']), succeeded: Boolean(r['succeeded']), responses: ((r['responses'] ?? []) as unknown[]).map(responseOpFromProto) };
}

export function leaseGrantResponseFromProto(r: ProtoObject): LeaseGrantResponse {
  return { header: headerFromProto(r['header']), ID: leaseId(r['ID']), TTL: int(r['TTL']), error: String(r['error'] ?? '') };
}

export function leaseKeepAliveResponseFromProto(r: ProtoObject): LeaseKeepAliveResponse {
  return { header: headerFromProto(r['header']), ID: leaseId(r['ID']), TTL: int(r['TTL']) };
}

export function leaseTimeToLiveResponseFromProto(r: ProtoObject): LeaseTimeToLiveResponse {
  return {
    header: headerFromProto(r['header']), ID: leaseId(r['ID']), TTL: int(r['TTL']), grantedTTL: int(r['grantedTTL']),
    keys: ((r['keys'] ?? []) as unknown[]).map(fromBytes),
  };
}

export function leaseLeasesResponseFromProto(r: ProtoObject): LeaseLeasesResponse {
  return { header: headerFromProto(r['header']), leases: ((r['leases'] ?? []) as ProtoObject[]).map((l) => ({ ID: leaseId(l['ID']) })) };
}

export function watchResponseFromProto(r: ProtoObject): WatchResponse {
  return {
    header: headerFromProto(r['header']), watchId: int(r['watchId']), created: Boolean(r['created']), canceled: Boolean(r['canceled']),
    compactRevision: int(r['compactRevision']), cancelReason: String(r['cancelReason'] ?? ''), fragment: Boolean(r['fragment']),
    events: ((r['events'] ?? []) as unknown[]).map(eventFromProto),
  };
}

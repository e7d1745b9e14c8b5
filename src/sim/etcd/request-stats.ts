// The etcd 3.4 debug "request stats" line logged after every unary RPC: response type, request and
// response counts and sizes, and the request rendered as compact protobuf text with values replaced by
// their sizes. Models etcdserver/api/v3rpc/interceptor.go (logUnaryRequestStats,
// logGenericRequestStats), etcdserver/etcdserverpb/raft_internal_stringer.go (txnRequestStringer,
// requestOpStringer, loggablePutRequest, loggableValueCompare) and golang/protobuf's
// CompactTextString (fields in declaration order, each `name:value ` with a trailing space, messages as
// `name:<…> `, zero scalars omitted except a set oneof member, bytes as Go-quoted byte strings).

import { civilFromDays } from '../engine/time.ts';
import {
  deleteRangeRequestSize, deleteRangeResponseSize, putRequestSize, putResponseSize, rangeRequestSize, rangeResponseSize,
  requestOpSize, txnResponseSize,
} from './proto-size.ts';
import type {
  Compare, DeleteRangeRequest, DeleteRangeResponse, PutRequest, PutResponse, RangeRequest, RangeResponse, RequestOp,
  TxnRequest, TxnResponse,
} from './rpc.ts';

/** The fields of one request-stats line. Counts and sizes are -1 for RPCs other than KV ones. */
export interface RequestStats {
  /** gRPC full method, e.g. `/etcdserverpb.KV/Txn`. */
  readonly responseType: string;
  readonly requestCount: number;
  readonly requestSize: number;
  readonly responseCount: number;
  readonly responseSize: number;
  readonly requestContent: string;
}

/** Go-quotes a byte string (one char per byte) as protobuf text does: printable ASCII as is, else C escapes or \ooo. */
export function quoteBytes(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    switch (c) {
      case 0x0a: out += '\\n'; break;
      case 0x0d: out += '\\r'; break;
      case 0x09: out += '\\t'; break;
      case 0x22: out += '\\"'; break;
      case 0x5c: out += '\\\\'; break;
      default:
        out += c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : '\\' + c.toString(8).padStart(3, '0');
    }
  }
  return out + '"';
}

const field = (name: string, value: string): string => `${name}:${value} `;
const bytesField = (name: string, s: string | undefined): string => (s ? field(name, quoteBytes(s)) : '');
const intField = (name: string, n: number | undefined): string => (n ? field(name, String(n)) : '');
const boolField = (name: string, b: boolean | undefined): string => (b ? field(name, 'true') : '');
const leaseField = (name: string, id: string | undefined): string => (id && id !== '0' ? field(name, id) : '');
const enumField = (name: string, v: string | undefined, zero: string): string => (v && v !== zero ? field(name, v) : '');

export function rangeRequestText(r: RangeRequest): string {
  return bytesField('key', r.key) + bytesField('range_end', r.rangeEnd) + intField('limit', r.limit)
    + intField('revision', r.revision) + enumField('sort_order', r.sortOrder, 'NONE') + enumField('sort_target', r.sortTarget, 'KEY')
    + boolField('serializable', r.serializable) + boolField('keys_only', r.keysOnly) + boolField('count_only', r.countOnly)
    + intField('min_mod_revision', r.minModRevision) + intField('max_mod_revision', r.maxModRevision)
    + intField('min_create_revision', r.minCreateRevision) + intField('max_create_revision', r.maxCreateRevision);
}

/** loggablePutRequest: the value replaced by `value_size`. */
export function putRequestText(r: PutRequest): string {
  return bytesField('key', r.key) + intField('value_size', r.value ? r.value.length : 0) + leaseField('lease', r.lease)
    + boolField('prev_kv', r.prevKv) + boolField('ignore_value', r.ignoreValue) + boolField('ignore_lease', r.ignoreLease);
}

export function deleteRangeRequestText(r: DeleteRangeRequest): string {
  return bytesField('key', r.key) + bytesField('range_end', r.rangeEnd) + boolField('prev_kv', r.prevKv);
}

/** A compare; a VALUE union member is replaced by `value_size` (loggableValueCompare). */
export function compareText(c: Compare): string {
  let s = enumField('result', c.result, 'EQUAL') + enumField('target', c.target, 'VERSION') + bytesField('key', c.key);
  if (c.version !== undefined) s += field('version', String(c.version));
  else if (c.createRevision !== undefined) s += field('create_revision', String(c.createRevision));
  else if (c.modRevision !== undefined) s += field('mod_revision', String(c.modRevision));
  else if (c.value !== undefined) return s + intField('value_size', c.value.length) + bytesField('range_end', c.rangeEnd);
  else if (c.lease !== undefined) s += field('lease', c.lease);
  return s + bytesField('range_end', c.rangeEnd);
}

/** requestOpStringer: puts and txns are redacted, ranges and deletes print as plain proto text. */
export function requestOpText(op: RequestOp): string {
  if (op.requestPut !== undefined) return `request_put:<${putRequestText(op.requestPut)}>`;
  if (op.requestTxn !== undefined) return `request_txn:<${txnRequestText(op.requestTxn)}>`;
  if (op.requestRange !== undefined) return `request_range:<${rangeRequestText(op.requestRange)}> `;
  if (op.requestDeleteRange !== undefined) return `request_delete_range:<${deleteRangeRequestText(op.requestDeleteRange)}> `;
  return '';
}

/** txnRequestStringer: `compare:<…> success:<…> failure:<…>`, list items joined by one space. */
export function txnRequestText(r: TxnRequest): string {
  const compare = (r.compare ?? []).map(compareText).join(' ');
  const success = (r.success ?? []).map(requestOpText).join(' ');
  const failure = (r.failure ?? []).map(requestOpText).join(' ');
  return `compare:<${compare}> success:<${success}> failure:<${failure}>`;
}

const kvService = '/etcdserverpb.KV/';

export function rangeStats(req: RangeRequest, resp: RangeResponse | null): RequestStats {
  return {
    responseType: kvService + 'Range', requestCount: 0, requestSize: rangeRequestSize(req),
    responseCount: resp ? resp.count : 0, responseSize: resp ? rangeResponseSize(resp) : 0, requestContent: rangeRequestText(req),
  };
}

export function putStats(req: PutRequest, resp: PutResponse | null): RequestStats {
  return {
    responseType: kvService + 'Put', requestCount: 1, requestSize: putRequestSize(req),
    responseCount: 0, responseSize: resp ? putResponseSize(resp) : 0, requestContent: putRequestText(req),
  };
}

export function deleteRangeStats(req: DeleteRangeRequest, resp: DeleteRangeResponse | null): RequestStats {
  return {
    responseType: kvService + 'DeleteRange', requestCount: 0, requestSize: deleteRangeRequestSize(req),
    responseCount: resp ? resp.deleted : 0, responseSize: resp ? deleteRangeResponseSize(resp) : 0,
    requestContent: deleteRangeRequestText(req),
  };
}

/** Counts and sizes describe the branch that ran; a failed txn logs zeros and no content. */
export function txnStats(req: TxnRequest, resp: TxnResponse | null): RequestStats {
  if (resp === null) {
    return { responseType: kvService + 'Txn', requestCount: 0, requestSize: 0, responseCount: 0, responseSize: 0, requestContent: '' };
  }
  const ops = (resp.succeeded ? req.success : req.failure) ?? [];
  let requestSize = 0;
  for (const op of ops) requestSize += requestOpSize(op);
  return {
    responseType: kvService + 'Txn', requestCount: ops.length, requestSize, responseCount: 0,
    responseSize: txnResponseSize(resp), requestContent: txnRequestText(req),
  };
}

/** Any other unary RPC (Compact, Lease*): -1 everywhere, no content. */
export function genericStats(responseType: string): RequestStats {
  return { responseType, requestCount: -1, requestSize: -1, responseCount: -1, responseSize: -1, requestContent: '' };
}

/** Where and when the request was served, for rendering a full log line. */
export interface RequestStatsContext {
  /** Wall-clock ms (the engine's epoch + virtual time) when the request arrived. */
  readonly startMs: number;
  /** Virtual processing time, ms. */
  readonly spentMs: number;
  /** The client: the simulation has no sockets, so this is the calling component's name. */
  readonly remote: string;
}

/** The second isoMillis formatted last, and its text up to the milliseconds (`2023-08-15T00:00:00.`). */
let lastSecond = Number.NaN;
let lastSecondText = '';

/** RFC 3339 UTC with milliseconds, e.g. 2023-08-15T00:00:00.000Z, without the host's Date. */
export function isoMillis(ms: number): string {
  const t = Math.floor(ms);
  const second = Math.floor(t / 1000);
  if (second !== lastSecond) {
    const days = Math.floor(t / 86_400_000);
    const secondOfDay = second - days * 86_400;
    const [year, month, day] = civilFromDays(days);
    const p = (n: number, w = 2): string => String(n).padStart(w, '0');
    lastSecondText = `${p(year, 4)}-${p(month)}-${p(day)}T${p(Math.floor(secondOfDay / 3600))}:${p(Math.floor(secondOfDay / 60) % 60)}:${p(secondOfDay % 60)}.`;
    lastSecond = second;
  }
  const milli = t - second * 1000;
  return lastSecondText + (milli < 10 ? '00' : milli < 100 ? '0' : '') + milli + 'Z';
}

/** `v` with `digits` decimals, trailing zeros (and a trailing point) dropped. */
function trimmedFixed(v: number, digits: number): string {
  return v.toFixed(digits).replace(/\.?0+$/, '');
}

/** Go's time.Duration.String() for a non-negative duration given in ms. */
export function goDuration(ms: number): string {
  const ns = Math.round(ms * 1e6);
  if (ns === 0) return '0s';
  if (ns < 1e3) return `${ns}ns`;
  if (ns < 1e6) return `${trimmedFixed(ns / 1e3, 3)}µs`;
  if (ns < 1e9) return `${trimmedFixed(ns / 1e6, 6)}ms`;
  return `${trimmedFixed(ns / 1e9, 9)}s`;
}

/**
 * The context each logged stats' line was rendered with, and that line (`loggedZapLine`): what a light
 * trace record keeps of an etcd reply's log line, without reading the line back. An entry is given once
 * and then forgotten: the light record keeps the stats, and the entry would keep the line it drops.
 */
const logged = new WeakMap<RequestStats, { readonly ctx: RequestStatsContext; readonly line: string }>();

/** zapLine, remembering the context for `loggedContext`: the line etcd's server puts in its reply. */
export function loggedZapLine(stats: RequestStats, ctx: RequestStatsContext): string {
  const line = zapLine(stats, ctx);
  logged.set(stats, { ctx, line });
  return line;
}

/**
 * The context `line` was rendered with by loggedZapLine from `stats`, once; undefined for any other line,
 * or when asked again.
 */
export function loggedContext(stats: RequestStats, line: string): RequestStatsContext | undefined {
  const entry = logged.get(stats);
  if (entry === undefined) return undefined;
  logged.delete(stats);
  return entry.line === line ? entry.ctx : undefined;
}

/** The line as etcd's zap logger writes it (`--logger zap --log-level debug`). */
export function zapLine(stats: RequestStats, ctx: RequestStatsContext): string {
  const start = isoMillis(ctx.startMs);
  return '{"level":"debug","ts":' + JSON.stringify(isoMillis(ctx.startMs + ctx.spentMs))
    + ',"caller":"v3rpc/interceptor.go:181","msg":"request stats","start time":' + JSON.stringify(start)
    + ',"time spent":' + JSON.stringify(goDuration(ctx.spentMs)) + ',"remote":' + JSON.stringify(ctx.remote)
    + ',"response type":' + JSON.stringify(stats.responseType) + ',"request count":' + stats.requestCount
    + ',"request size":' + stats.requestSize + ',"response count":' + stats.responseCount
    + ',"response size":' + stats.responseSize + ',"request content":' + JSON.stringify(stats.requestContent) + '}';
}

/** The line as etcd's default capnslog logger writes it at debug level. */
export function capnslogLine(stats: RequestStats, ctx: RequestStatsContext): string {
  const ts = (ms: number): string => isoMillis(ms).replace('T', ' ').replace('Z', '');
  return `${ts(ctx.startMs + ctx.spentMs)} D | etcdserver/api/v3rpc: start time = ${ts(ctx.startMs)} +0000 UTC, `
    + `time spent = ${goDuration(ctx.spentMs)}, remote = ${ctx.remote}, response type = ${stats.responseType}, `
    + `request count = ${stats.requestCount}, request size = ${stats.requestSize}, response count = ${stats.responseCount}, `
    + `response size = ${stats.responseSize}, request content = ${stats.requestContent}`;
}

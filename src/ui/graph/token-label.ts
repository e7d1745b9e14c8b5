// What a token on the graph says about its message, in a few words, and whether it reports a failure
// (drawn red): HTTP requests by method and path, responses by status (≥ 400 red, with the Status reason),
// etcd Txns by their compare and, answered, by the branch taken and the revision, Ranges by key, watch
// responses by event type, key and revision, apiserver watch events by type, object and resourceVersion
// (ERROR red), compaction notices and broken watch streams red. The full payload is one click away.

import { isFailedStatus, type TraceRecord } from '../../protocol/index.ts';
import { comparesText, headerRevision, rangeText, txnKey } from '../captions/etcd-text.ts';
import { child, clip, count, fields, flag, list, text } from '../captions/payload.ts';

export interface TokenLabel {
  readonly text: string;
  /** The message reports a failure: a 4xx/5xx response, an etcd error, a watch ERROR, a compaction notice. */
  readonly failed: boolean;
}

/** `/apis/apps/v1/namespaces/default/deployments/nginx` → `…/deployments/nginx` when long. */
function shortPath(path: string): string {
  if (path.length <= 36) return path;
  const parts = path.split('/');
  return `…/${parts.slice(-2).join('/')}`;
}

function lastSegment(key: string): string {
  const parts = key.split('/').filter(Boolean);
  return parts.length > 2 ? `…/${parts.slice(-2).join('/')}` : key;
}

const ok = (t: string): TokenLabel => ({ text: t, failed: false });
const bad = (t: string): TokenLabel => ({ text: t, failed: true });

export function tokenLabel(record: Pick<TraceRecord, 'kind' | 'payload'>): TokenLabel {
  const p = record.payload;
  switch (record.kind) {
    case 'http.request': return ok(`${text(p, 'method') ?? '?'} ${shortPath(text(p, 'path') ?? '?')}`);
    case 'http.response': {
      const status = count(p, 'status') ?? 0;
      const reason = text(child(p, 'body'), 'reason');
      return isFailedStatus(status) ? bad(`${status}${reason ? ` ${reason}` : ''}`) : ok(String(status));
    }
    case 'http.watchEvent': {
      const type = text(p, 'type') ?? '?';
      const object = child(p, 'object');
      if (type === 'ERROR') return bad(`ERROR ${count(object, 'code') ?? ''} ${text(object, 'reason') ?? ''}`.trim());
      const name = text(child(object, 'metadata'), 'name');
      const rv = text(child(object, 'metadata'), 'resourceVersion');
      return ok(`${type}${name ? ` ${clip(name, 28)}` : ''}${rv ? ` rv ${rv}` : ''}`);
    }
    case 'http.watchEnd': return ok(`watch ends: ${text(p, 'reason') ?? '?'}`);
    case 'etcd.Txn': {
      const compares = list(p, 'compare');
      const key = txnKey(p);
      if (compares.length > 0) {
        const first = fields(compares[0]) ?? {};
        const name = (text(first, 'key') ?? '').split('/').filter(Boolean).at(-1) ?? '';
        const more = compares.length > 1 ? ` (+${compares.length - 1})` : '';
        return ok(`Txn ${comparesText([{ ...first, key: name }])}${more}`);
      }
      return ok(`Txn${key ? ` ${lastSegment(key)}` : ''}`);
    }
    case 'etcd.TxnResponse': {
      const error = text(child(p, 'error'), 'message');
      if (flag(p, 'ok') === false) return bad(`error: ${clip(error ?? '?', 40)}`);
      const write = child(p, 'write');
      const branch = text(write, 'branch') ?? 'success';
      const revision = count(write, 'revision') ?? headerRevision(child(p, 'response'));
      return branch === 'failure' ? ok(`compare failed → failure branch, rev ${revision}`) : ok(`succeeded, rev ${revision}`);
    }
    case 'etcd.Range': {
      const limit = count(p, 'limit');
      return ok(`Range ${clip(rangeText(text(p, 'key'), text(p, 'rangeEnd')), 36)}${limit ? ` limit ${limit}` : ''}`);
    }
    case 'etcd.RangeResponse': {
      if (flag(p, 'ok') === false) return bad(`error: ${clip(text(child(p, 'error'), 'message') ?? '?', 40)}`);
      const response = child(p, 'response');
      return ok(`${count(response, 'count') ?? list(response, 'kvs').length} keys, rev ${headerRevision(response)}`);
    }
    case 'etcd.Watch': {
      const create = child(p, 'request', 'createRequest');
      if (create !== undefined) {
        const start = count(create, 'startRevision');
        return ok(`Watch ${clip(rangeText(text(create, 'key'), text(create, 'rangeEnd')), 32)}${start ? ` from ${start}` : ''}`);
      }
      return ok(child(p, 'request', 'cancelRequest') !== undefined ? 'cancel watch' : 'progress?');
    }
    case 'etcd.WatchResponse': {
      const response = child(p, 'response');
      const compact = count(response, 'compactRevision');
      if (compact) return bad(`compacted (${compact})`);
      if (flag(response, 'created')) return ok(`created watch ${count(response, 'watchId') ?? '?'}`);
      if (flag(response, 'canceled')) return ok(`canceled watch ${count(response, 'watchId') ?? '?'}`);
      const events = list(response, 'events');
      if (events.length === 0) return ok(`progress, rev ${headerRevision(response)}`);
      const first = fields(events[0]) ?? {};
      const kv = child(first, 'kv');
      const more = events.length > 1 ? ` +${events.length - 1}` : '';
      return ok(`${text(first, 'type') ?? 'PUT'} ${lastSegment(text(kv, 'key') ?? '?')} rev ${count(kv, 'modRevision') ?? '?'}${more}`);
    }
    case 'etcd.WatchStreamError': return bad('watch stream broke');
    case 'user.fault': return ok(`fault: ${text(p, 'type') ?? '?'}`);
    case 'timer': return ok(text(p, 'name') ?? 'timer');
    default: {
      if (record.kind.startsWith('etcd.') && record.kind.endsWith('Response') && flag(p, 'ok') === false) {
        return bad(`error: ${clip(text(child(p, 'error'), 'message') ?? '?', 40)}`);
      }
      return ok(record.kind);
    }
  }
}

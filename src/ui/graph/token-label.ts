// What a token on the graph says about its message, in a few words, and whether it reports a failure
// (drawn red): HTTP requests by method and path, responses by status (≥ 400 red, with the Status reason),
// etcd Txns by their compare and, answered, by the branch taken and the revision, Ranges by key, watch
// responses by event type, key and revision, apiserver watch events by type, object and resourceVersion
// (ERROR red), compaction notices and broken watch streams red. Generated names keep their head and their
// distinguishing suffix (`nginx-deployment-…-x6r6q`), so a label stays short enough to lie beside its
// link; the whole name is in the token's accessible name and one click away.

import { isFailedStatus, typedRecord, type EtcdReplyPayload, type TraceRecord } from '../../protocol/index.ts';
import { comparesText, headerRevision, rangeText, txnKey } from '../captions/etcd-text.ts';
import { child, clip, count, text } from '../captions/payload.ts';
import { shortName } from './insides-text.ts';

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
  return parts.length > 2 ? `…/${parts.at(-2)!}/${labelName(parts.at(-1)!)}` : key;
}

/** Characters of an object's name a label keeps (its generated middle elided). */
const nameLimit = 24;

/**
 * An object's name as a label says it: shortened by its generated middle; an Event's name (its object's
 * name, a dot and the time in hex, as client-go's recorder makes it) keeps its object's suffix and the
 * time's last digits, which tell its Events apart: `nginx-…-jfs2k.…b7c0`.
 */
function labelName(name: string): string {
  const dot = name.lastIndexOf('.');
  const time = name.slice(dot + 1);
  if (dot > 0 && /^[0-9a-f]{12,16}$/.test(time)) return `${shortName(name.slice(0, dot), nameLimit - 8)}.…${time.slice(-4)}`;
  return shortName(name, nameLimit);
}

const ok = (t: string): TokenLabel => ({ text: t, failed: false });
const bad = (t: string): TokenLabel => ({ text: t, failed: true });

/** An etcd error reply, red, with its message. */
function etcdError(reply: EtcdReplyPayload): TokenLabel | undefined {
  return reply.ok ? undefined : bad(`error: ${clip(reply.error.message, 40)}`);
}

export function tokenLabel(message: Pick<TraceRecord, 'kind' | 'payload'>): TokenLabel {
  const record = typedRecord(message);
  switch (record.kind) {
    case 'http.request': return ok(`${record.payload.method} ${shortPath(record.payload.path)}`);
    case 'http.response': {
      const { status, body } = record.payload;
      const reason = text(body, 'reason');
      return isFailedStatus(status) ? bad(`${status}${reason ? ` ${reason}` : ''}`) : ok(String(status));
    }
    case 'http.watchEvent': {
      const { type, object } = record.payload;
      if (type === 'ERROR') return bad(`ERROR ${count(object, 'code') ?? ''} ${text(object, 'reason') ?? ''}`.trim());
      const name = text(child(object, 'metadata'), 'name');
      const rv = text(child(object, 'metadata'), 'resourceVersion');
      return ok(`${type}${name ? ` ${labelName(name)}` : ''}${rv ? ` rv ${rv}` : ''}`);
    }
    case 'http.watchEnd': return ok(`watch ends: ${record.payload.reason}`);
    case 'etcd.Txn': {
      const compares = record.payload.compare ?? [];
      const first = compares[0];
      if (first) {
        const name = labelName(first.key.split('/').filter(Boolean).at(-1) ?? '');
        const more = compares.length > 1 ? ` (+${compares.length - 1})` : '';
        return ok(`Txn ${comparesText([{ ...first, key: name }])}${more}`);
      }
      // Only without compares are the ops' keys read.
      const key = txnKey(record.payload);
      return ok(`Txn${key ? ` ${lastSegment(key)}` : ''}`);
    }
    case 'etcd.TxnResponse': {
      const reply = record.payload;
      if (!reply.ok) return bad(`error: ${clip(reply.error.message, 40)}`);
      const branch = reply.write?.branch ?? 'success';
      const revision = reply.write?.revision ?? headerRevision(reply.response);
      return branch === 'failure' ? ok(`compare failed → failure branch, rev ${revision}`) : ok(`succeeded, rev ${revision}`);
    }
    case 'etcd.Range': {
      const { key, rangeEnd, limit } = record.payload;
      return ok(`Range ${clip(rangeText(key, rangeEnd), 36)}${limit ? ` limit ${limit}` : ''}`);
    }
    case 'etcd.RangeResponse': {
      const reply = record.payload;
      if (!reply.ok) return bad(`error: ${clip(reply.error.message, 40)}`);
      return ok(`${reply.response.count} keys, rev ${headerRevision(reply.response)}`);
    }
    case 'etcd.Watch': {
      const { createRequest: create, cancelRequest } = record.payload.request;
      if (create !== undefined) {
        const start = create.startRevision;
        return ok(`Watch ${clip(rangeText(create.key, create.rangeEnd), 32)}${start ? ` from ${start}` : ''}`);
      }
      return ok(cancelRequest !== undefined ? 'cancel watch' : 'progress?');
    }
    case 'etcd.WatchResponse': {
      const response = record.payload.response;
      const compact = response.compactRevision;
      if (compact) return bad(`compacted (${compact})`);
      if (response.created) return ok(`created watch ${response.watchId}`);
      if (response.canceled) return ok(`canceled watch ${response.watchId}`);
      const first = response.events[0];
      if (!first) return ok(`progress, rev ${headerRevision(response)}`);
      const more = response.events.length > 1 ? ` +${response.events.length - 1}` : '';
      return ok(`${first.type} ${lastSegment(first.kv.key)} rev ${first.kv.modRevision}${more}`);
    }
    case 'etcd.WatchStreamError': return bad('watch stream broke');
    case 'user.fault': return ok(`fault: ${record.payload.type}`);
    case 'timer': return ok(record.payload.name);
    case 'etcd.PutResponse': case 'etcd.DeleteRangeResponse': case 'etcd.CompactResponse': case 'etcd.LeaseGrantResponse':
    case 'etcd.LeaseRevokeResponse': case 'etcd.LeaseKeepAliveResponse': case 'etcd.LeaseTimeToLiveResponse': case 'etcd.LeaseLeasesResponse':
      return etcdError(record.payload) ?? ok(record.kind);
    default: return ok(record.kind);
  }
}

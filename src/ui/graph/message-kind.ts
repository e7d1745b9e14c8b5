// How a message looks, by what it is: the family (colour) comes from its kind's prefix, the shape from
// whether it answers a request.

import type { TraceRecord } from '../../protocol/index.ts';

export type MessageFamily = 'etcd' | 'http' | 'watch' | 'timer' | 'other';

export function messageFamily(kind: string): MessageFamily {
  if (kind === 'http.watchEvent' || kind.startsWith('etcd.Watch')) return 'watch';
  if (kind.startsWith('etcd.')) return 'etcd';
  if (kind.startsWith('http.')) return 'http';
  if (kind === 'timer') return 'timer';
  return 'other';
}

/** A response (it answers a request) or a request or event. */
export function isResponse(record: Pick<TraceRecord, 'replyTo'>): boolean {
  return record.replyTo !== null;
}

export function describeMessage(record: Pick<TraceRecord, 'id' | 'kind' | 'from' | 'to'>): string {
  return `${record.kind} from ${record.from} to ${record.to}, message ${record.id}`;
}

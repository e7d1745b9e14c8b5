// The model's messages as the UI reads them: the message map (kind → payload type) is declared once in
// src/sim/messages and taken here as types only. A trace record narrowed on `kind` has its payload's type.

import type { ClusterMessageKind, ClusterMessages } from '../sim/messages/index.ts';
import type { TraceRecord } from './trace.ts';

export type {
  ClusterMessageKind, ClusterMessages, Compare, EtcdReplyPayload, KeyValue, RequestOp, ResponseHeader, TxnRequest, WatchResponse, WriteRecord,
} from '../sim/messages/index.ts';

/**
 * A message of kind `K` with its payload's type, delivered or still in flight (no step yet); over a union
 * of kinds, a union the UI narrows by `kind`.
 */
export type TypedMessageView<K extends ClusterMessageKind = ClusterMessageKind> = K extends ClusterMessageKind
  ? Omit<TraceRecord, 'kind' | 'payload' | 'step'> & { readonly kind: K; readonly payload: ClusterMessages[K]; readonly step?: number }
  : never;

/**
 * A trace record as its kind's type. The worker's records are the engine's messages, which the model
 * can only send with a declared kind and its payload, so the record's kind names its payload's type.
 */
export function typedRecord<R extends Pick<TraceRecord, 'kind' | 'payload'>>(record: R): TypedMessageView & Omit<R, 'kind' | 'payload'> {
  return record as unknown as TypedMessageView & Omit<R, 'kind' | 'payload'>;
}

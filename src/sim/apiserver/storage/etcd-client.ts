// The narrow seam between kube-apiserver and etcd: the few RPCs the storage layer sends, as coroutines
// over engine messages. Replies carry etcd's response or its error, plus the request-stats line that the
// UI shows; the storage layer only looks at the response.

import type { Co, Message } from '../../engine/index.ts';
import {
  etcdKinds, type CompactionRequest, type CompactionResponse, type EtcdReply, type LeaseGrantRequest,
  type LeaseGrantResponse, type RangeRequest, type RangeResponse, type TxnRequest, type TxnResponse,
} from '../../etcd/index.ts';

export interface EtcdClient {
  range(request: RangeRequest): Co<EtcdReply<RangeResponse>>;
  txn(request: TxnRequest): Co<EtcdReply<TxnResponse>>;
  leaseGrant(request: LeaseGrantRequest): Co<EtcdReply<LeaseGrantResponse>>;
  compact(request: CompactionRequest): Co<EtcdReply<CompactionResponse>>;
}

/** Sends a request to the etcd component and returns its reply message. */
export type EtcdCall = <R>(kind: string, payload: unknown) => Co<Message<EtcdReply<R>>>;

/** An EtcdClient whose RPCs are messages sent by one component (kube-apiserver) to etcd. */
export function etcdClientOver(call: EtcdCall): EtcdClient {
  return {
    *range(request) {
      return (yield* call<RangeResponse>(etcdKinds.range, request)).payload;
    },
    *txn(request) {
      return (yield* call<TxnResponse>(etcdKinds.txn, request)).payload;
    },
    *leaseGrant(request) {
      return (yield* call<LeaseGrantResponse>(etcdKinds.leaseGrant, request)).payload;
    },
    *compact(request) {
      return (yield* call<CompactionResponse>(etcdKinds.compact, request)).payload;
    },
  };
}

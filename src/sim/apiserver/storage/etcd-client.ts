// The narrow seam between kube-apiserver and etcd: the few RPCs the storage layer sends, as coroutines
// over engine messages. Replies carry etcd's response or its error, plus the request-stats line that the
// UI shows; the storage layer only looks at the response.

import type { Co, Message } from '../../engine/index.ts';
import type { EtcdRequestKind, MessageMap, ReplyOf } from '../../messages/index.ts';
import {
  etcdKinds, type RpcError, type CompactionRequest, type CompactionResponse, type EtcdReply, type LeaseGrantRequest,
  type LeaseGrantResponse, type RangeRequest, type RangeResponse, type TxnRequest, type TxnResponse,
} from '../../etcd/index.ts';

export interface EtcdClient {
  range(request: RangeRequest): Co<EtcdReply<RangeResponse>>;
  txn(request: TxnRequest): Co<EtcdReply<TxnResponse>>;
  leaseGrant(request: LeaseGrantRequest): Co<EtcdReply<LeaseGrantResponse>>;
  compact(request: CompactionRequest): Co<EtcdReply<CompactionResponse>>;
}

/** Sends a request to the etcd component and returns its reply message. */
export type EtcdCall = <K extends EtcdRequestKind>(kind: K, payload: MessageMap[K]) => Co<Message<ReplyOf<K>>>;

/** An EtcdClient whose RPCs are messages sent by one component (kube-apiserver) to etcd. */
export function etcdClientOver(call: EtcdCall): EtcdClient {
  return {
    *range(request) {
      return (yield* call(etcdKinds.range, request)).payload;
    },
    *txn(request) {
      return (yield* call(etcdKinds.txn, request)).payload;
    },
    *leaseGrant(request) {
      return (yield* call(etcdKinds.leaseGrant, request)).payload;
    },
    *compact(request) {
      return (yield* call(etcdKinds.compact, request)).payload;
    },
  };
}

/**
 * kube-apiserver's `--etcd-servers` as its clientv3 uses them: requests go to one endpoint (the pinned
 * one, the first at start); a request that fails with gRPC Unavailable moves the pin to the next endpoint
 * (in list order, round the list). Models clientv3's balancer failover as the brief of the multi-member
 * model chose it; clientv3 3.5 (which kube-apiserver 1.28 vendors) spreads requests round-robin over
 * the connected endpoints instead.
 */
export class EtcdEndpoints {
  private pinnedAt = 0;

  constructor(readonly endpoints: readonly string[]) {
    if (endpoints.length === 0) throw new Error('--etcd-servers: no endpoint');
  }

  get pinned(): string {
    return this.endpoints[this.pinnedAt]!;
  }

  /** `endpoint` failed (its connection or the member): the next endpoint is pinned, if it was pinned. */
  failed(endpoint: string): void {
    if (this.pinned === endpoint) this.pinnedAt = (this.pinnedAt + 1) % this.endpoints.length;
  }
}

/** clientv3's unary retry: at most 100 attempts, 25 ms apart (retry_interceptor.go, client.go defaults). */
export const etcdRetry = { maxAttempts: 100, backoffMs: 25 } as const;

/**
 * Whether clientv3 retries an RPC that failed with `error` (retry_interceptor.go isSafeRetry): reads
 * and other repeatable RPCs on any Unavailable error (`etcdserver: request timed out`, `etcdserver:
 * leader changed`, a closed connection); writes (Put, DeleteRange, Txn) only when the request never
 * left (no connection), since a write that reached etcd may have been applied.
 */
export function isSafeRetry(kind: string, error: RpcError): boolean {
  if (error.codeName !== 'Unavailable') return false;
  const mutable = kind === etcdKinds.put || kind === etcdKinds.deleteRange || kind === etcdKinds.txn;
  return !mutable || error.message.startsWith('connection error:');
}

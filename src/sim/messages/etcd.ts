// etcd's v3 RPCs as messages: each unary request kind and its `…Response` (an EtcdReply: the response or
// the gRPC error, with the request-stats line), the watch stream's messages, and the raft messages
// between members (`etcd.raft.MsgApp`, …).

import type { MessageType, RaftMessage } from '../etcd/raft/types.ts';
import type {
  CompactionRequest, CompactionResponse, DeleteRangeRequest, DeleteRangeResponse, LeaseGrantRequest, LeaseGrantResponse,
  LeaseKeepAliveRequest, LeaseKeepAliveResponse, LeaseLeasesRequest, LeaseLeasesResponse, LeaseRevokeRequest, LeaseRevokeResponse,
  LeaseTimeToLiveRequest, LeaseTimeToLiveResponse, MemberListRequest, MemberListResponse, PutRequest, PutResponse, RangeRequest, RangeResponse,
  StatusRequest, StatusResponse, TxnRequest, TxnResponse,
} from '../etcd/rpc.ts';
import type { EtcdReply, WatchStreamClose, WatchStreamError, WatchStreamRequest, WatchStreamResponse } from '../etcd/messages.ts';

/** The unary RPCs: request payload and response of each. */
interface EtcdUnary {
  'etcd.Range': readonly [RangeRequest, RangeResponse];
  'etcd.Put': readonly [PutRequest, PutResponse];
  'etcd.DeleteRange': readonly [DeleteRangeRequest, DeleteRangeResponse];
  'etcd.Txn': readonly [TxnRequest, TxnResponse];
  'etcd.Compact': readonly [CompactionRequest, CompactionResponse];
  'etcd.LeaseGrant': readonly [LeaseGrantRequest, LeaseGrantResponse];
  'etcd.LeaseRevoke': readonly [LeaseRevokeRequest, LeaseRevokeResponse];
  'etcd.LeaseKeepAlive': readonly [LeaseKeepAliveRequest, LeaseKeepAliveResponse];
  'etcd.LeaseTimeToLive': readonly [LeaseTimeToLiveRequest, LeaseTimeToLiveResponse];
  'etcd.LeaseLeases': readonly [LeaseLeasesRequest, LeaseLeasesResponse];
  'etcd.Status': readonly [StatusRequest, StatusResponse];
  'etcd.MemberList': readonly [MemberListRequest, MemberListResponse];
}

/** A unary request kind: `etcd.Range`, `etcd.Txn`, … */
export type EtcdRequestKind = keyof EtcdUnary;

/** What an etcd client sends a member: the unary requests and its watch stream's requests. */
export type EtcdClientKind = EtcdRequestKind | 'etcd.Watch' | 'etcd.WatchClose';

/** What request `K` answers with when it succeeds. */
export type EtcdResponseOf<K extends EtcdRequestKind> = EtcdUnary[K][1];

/** The kind of the reply to `K`: `etcd.Txn` → `etcd.TxnResponse`. */
export type EtcdReplyKind<K extends EtcdRequestKind = EtcdRequestKind> = `${K}Response`;

/** The payload of any `…Response`: an EtcdReply of the request's response type. */
export type EtcdReplyPayload = EtcdMessages[EtcdReplyKind];

/** The raft messages members send each other; MsgHup, MsgBeat, MsgCheckQuorum and MsgSnapStatus stay inside a member. */
export type RaftNetworkType = Exclude<MessageType, 'MsgHup' | 'MsgBeat' | 'MsgCheckQuorum' | 'MsgSnapStatus'>;

export type EtcdMessages =
  & { [K in EtcdRequestKind]: EtcdUnary[K][0] }
  & { [K in EtcdRequestKind as EtcdReplyKind<K>]: EtcdReply<EtcdUnary[K][1]> }
  & { [T in RaftNetworkType as `etcd.raft.${T}`]: RaftMessage }
  & {
    'etcd.Watch': WatchStreamRequest;
    'etcd.WatchResponse': WatchStreamResponse;
    'etcd.WatchClose': WatchStreamClose;
    'etcd.WatchStreamError': WatchStreamError;
  };

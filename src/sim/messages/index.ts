// Every message kind the model sends and its payload type, declared once. The engine's `send`, and a
// component's `send`, `reply`, `call` and `stage`, take a kind of this map and its payload, so the
// compiler refuses an unknown kind or a wrong payload; the UI reads payloads through the same map
// (re-exported type-only by src/protocol): narrowing a message on `kind` gives its payload's type.

import type { Message } from '../engine/message.ts';
import type { WaitForCacheResponse } from '../apiserver/storage/ready.ts';
import type { WatchStreamResponse } from '../etcd/messages.ts';
import type { HttpResponse } from '../wire/http.ts';
import type { ApiserverMessages } from './apiserver.ts';
import type { ComponentMessages, JoinDonePayload, SyntheticMessages } from './components.ts';
import type { EtcdMessages, EtcdReplyKind, EtcdRequestKind } from './etcd.ts';
import type { HttpMessages } from './http.ts';

export type { RegistryStageName, StageDetails, StageName, StagePayload } from './apiserver.ts';
export type { JoinPayload } from './components.ts';
export type { EtcdClientKind, EtcdReplyKind, EtcdReplyPayload, EtcdRequestKind, EtcdResponseOf, RaftNetworkType } from './etcd.ts';

// The payload types the UI names (it takes them through src/protocol).
export type { Fault } from '../faults.ts';
export type { KeyValue } from '../etcd/kv.ts';
export type { Compare, RequestOp, ResponseHeader, TxnRequest, WatchResponse } from '../etcd/rpc.ts';
export type { WriteRecord } from '../etcd/messages.ts';

/** What a cluster sends: kind → payload. */
export type ClusterMessages = HttpMessages & ApiserverMessages & EtcdMessages & ComponentMessages;

/** Everything the engine may carry: the cluster's messages and the engine benchmarks' own. */
export interface MessageMap extends ClusterMessages, SyntheticMessages {}

export type MessageKind = keyof MessageMap;
export type ClusterMessageKind = keyof ClusterMessages;
export type PayloadOf<K extends MessageKind> = MessageMap[K];

/** What a request kind's first reply carries (what `call` resumes with). */
type Replies =
  & { [K in EtcdRequestKind]: MessageMap[EtcdReplyKind<K>] }
  & {
    'http.request': HttpResponse;
    'etcd.Watch': WatchStreamResponse;
    'apiserver.waitForCache': WaitForCacheResponse;
    'kcm.join': JoinDonePayload;
    token: unknown;
  };

/** The kinds a component sends expecting a reply. */
export type RequestKind = keyof Replies;
export type ReplyOf<K extends RequestKind> = Replies[K];

/** A message of kind `K` with its payload's type; over a union of kinds, a union narrowed by `kind`. */
export type TypedMessage<K extends MessageKind = MessageKind> = K extends MessageKind
  ? Omit<Message<MessageMap[K]>, 'kind'> & { readonly kind: K }
  : never;

/** Every kind a cluster can send, at run time: the compiler holds these keys equal to the map's. */
const kinds: { readonly [K in ClusterMessageKind]: true } = {
  'http.request': true, 'http.response': true, 'http.watchEvent': true, 'http.watchEnd': true, 'http.cancel': true, 'http.streamData': true,
  'apiserver.authentication': true, 'apiserver.audit': true, 'apiserver.impersonation': true, 'apiserver.max-in-flight': true,
  'apiserver.authorization': true, 'apiserver.admission.mutating': true, 'apiserver.admission.validating': true,
  'apiserver.registry.strategy': true, 'apiserver.waitForCache': true, 'apiserver.waitForCacheResponse': true,
  'etcd.Range': true, 'etcd.RangeResponse': true, 'etcd.Put': true, 'etcd.PutResponse': true, 'etcd.DeleteRange': true,
  'etcd.DeleteRangeResponse': true, 'etcd.Txn': true, 'etcd.TxnResponse': true, 'etcd.Compact': true, 'etcd.CompactResponse': true,
  'etcd.LeaseGrant': true, 'etcd.LeaseGrantResponse': true, 'etcd.LeaseRevoke': true, 'etcd.LeaseRevokeResponse': true,
  'etcd.LeaseKeepAlive': true, 'etcd.LeaseKeepAliveResponse': true, 'etcd.LeaseTimeToLive': true, 'etcd.LeaseTimeToLiveResponse': true,
  'etcd.LeaseLeases': true, 'etcd.LeaseLeasesResponse': true,
  'etcd.Status': true, 'etcd.StatusResponse': true, 'etcd.MemberList': true, 'etcd.MemberListResponse': true,
  'etcd.Watch': true, 'etcd.WatchResponse': true, 'etcd.WatchClose': true, 'etcd.WatchStreamError': true,
  'etcd.raft.MsgProp': true, 'etcd.raft.MsgApp': true, 'etcd.raft.MsgAppResp': true, 'etcd.raft.MsgVote': true, 'etcd.raft.MsgVoteResp': true,
  'etcd.raft.MsgPreVote': true, 'etcd.raft.MsgPreVoteResp': true, 'etcd.raft.MsgSnap': true, 'etcd.raft.MsgHeartbeat': true,
  'etcd.raft.MsgHeartbeatResp': true, 'etcd.raft.MsgReadIndex': true, 'etcd.raft.MsgReadIndexResp': true,
  'user.fault': true, 'kcm.join': true, 'kcm.join.done': true, timer: true,
};

export const clusterMessageKinds: readonly ClusterMessageKind[] = Object.keys(kinds) as ClusterMessageKind[];

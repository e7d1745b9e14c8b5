// What an etcd member's clients and peers see of it: the message kinds and payloads, the errors raft's
// request path gives, the reply shape with its request-stats line and write record, and the member's
// options. The member itself (server.ts) is cut along etcd's seams: the request path (v3-server.ts,
// etcdserver/v3_server.go and apply.go), watch streams (watch-server.ts, v3rpc/watch.go), lease expiry
// (lease-expiry.ts, the lessor's expiry loop) and the raft node glue (raft-node.ts, etcdserver/raft.go).

import type { ClusterIdentity, Member } from './cluster.ts';
import type { EtcdReplyKind, EtcdRequestKind, MessageKind, MessageMap } from '../messages/index.ts';
import type { RpcError } from './errors.ts';
import { defaultMaxRequestBytes } from './request-checks.ts';
import type { RequestStats } from './request-stats.ts';
import type { Event } from './kv.ts';
import type { RequestOp, WatchRequest, WatchResponse } from './rpc.ts';
import type { EvaluatedCompare, TxnEvaluation } from './txn.ts';
import { etcdRaftDefaults } from './raft/raft.ts';
import type { Message, Rng } from '../engine/index.ts';
import type { SendOptions } from '../engine/post.ts';

export const etcdKinds = {
  range: 'etcd.Range',
  put: 'etcd.Put',
  deleteRange: 'etcd.DeleteRange',
  txn: 'etcd.Txn',
  compact: 'etcd.Compact',
  leaseGrant: 'etcd.LeaseGrant',
  leaseRevoke: 'etcd.LeaseRevoke',
  leaseKeepAlive: 'etcd.LeaseKeepAlive',
  leaseTimeToLive: 'etcd.LeaseTimeToLive',
  leaseLeases: 'etcd.LeaseLeases',
  watch: 'etcd.Watch',
  watchResponse: 'etcd.WatchResponse',
  watchClose: 'etcd.WatchClose',
  watchStreamError: 'etcd.WatchStreamError',
  status: 'etcd.Status',
  memberList: 'etcd.MemberList',
} as const;

/** Payload of `etcd.Watch`: a request on the sender's stream named `stream`. */
export interface WatchStreamRequest {
  readonly stream: string;
  readonly request: WatchRequest;
}

/** Payload of `etcd.WatchResponse`. */
export interface WatchStreamResponse {
  readonly stream: string;
  readonly response: WatchResponse;
}

/** Payload of `etcd.WatchClose`. */
export interface WatchStreamClose {
  readonly stream: string;
}

/**
 * Payload of `etcd.WatchStreamError`: the client's stream broke (its Recv failed with `error`); etcd
 * has dropped every watcher on it. clientv3 opens a new stream and creates its watches again.
 */
export interface WatchStreamError {
  readonly stream: string;
  readonly error: string;
}

/** What clientv3's Recv returns when the server's side of the stream goes away (gRPC Unavailable). */
export const watchStreamTransportClosing = 'rpc error: code = Unavailable desc = transport is closing';

/** `--max-request-bytes` default (1.5 MiB) and the gRPC allowance on top of it. */
export const maxRequestBytes = defaultMaxRequestBytes;

/** The member's timers, by name. */
export const memberTimers = {
  watchSync: 'etcd.watch-sync', watchProgress: 'etcd.watch-progress', leaseExpiry: 'etcd.lease-expiry', raftTick: 'etcd.raft-tick',
  requestTimeout: 'etcd.request-timeout',
} as const;

/** The kind of a raft message between members: `etcd.raft.MsgApp`, … */
export const raftKindPrefix = 'etcd.raft.';

/** etcd's ReqTimeout: 5 s plus two election timeouts (2 × 10 ticks × 100 ms). */
export const requestTimeout = 5000 + 2 * etcdRaftDefaults.electionTick * etcdRaftDefaults.tickMs;

/** etcdserver's errors a client sees when raft cannot answer (v3rpc/rpctypes/error.go). */
export const ErrGRPCTimeout = Object.freeze({ code: 14, codeName: 'Unavailable', message: 'etcdserver: request timed out' } as const);
export const ErrGRPCTimeoutDueToLeaderFail = Object.freeze({
  code: 14, codeName: 'Unavailable', message: 'etcdserver: request timed out, possibly due to previous leader failure',
} as const);
/**
 * What a write gets when no leader was known for its whole request timeout: the proposal never left
 * raft's node (Propose blocks while there is no leader) and etcd returns the context's error as is,
 * which gRPC reports as Unknown.
 */
export const ErrProposeDeadline = Object.freeze({ code: 2, codeName: 'Unknown', message: 'context deadline exceeded' } as const);
export const ErrGRPCLeaderChanged = Object.freeze({ code: 14, codeName: 'Unavailable', message: 'etcdserver: leader changed' } as const);
/** What a client's in-flight RPC gets when the member's process dies (gRPC's transport closes). */
export const ErrTransportClosing = Object.freeze({ code: 14, codeName: 'Unavailable', message: 'transport is closing' } as const);
/** What a client's RPC gets when the member's process is down (nothing listens on its port). */
export const ErrConnectionRefused = Object.freeze({
  code: 14, codeName: 'Unavailable', message: 'connection error: desc = "transport: Error while dialing dial tcp: connect: connection refused"',
} as const);

/** A member of an etcd cluster: its raft ID and the component that runs it. */
export interface RaftPeer {
  readonly id: number;
  readonly component: string;
}

/** The `raft` option: this member's raft ID and every member (itself included). */
export interface EtcdRaftOptions {
  readonly id: number;
  readonly peers: readonly RaftPeer[];
  /** The disk's fsync time, ms: messages a step that wrote entries sends leave this much later (default 0). */
  readonly fsync?: number;
  /**
   * Seed of the member's own RNG (its randomized election timeouts), so that raft draws nothing from the
   * engine's RNG and the rest of the cluster (generated names, UIDs) is the same with any member count.
   */
  readonly seed: string;
  /** Entries applied between raft snapshots (etcd's --snapshot-count; default `defaultSnapshotCount`). */
  readonly snapshotCount?: number;
  /** Entries kept before a snapshot for slow followers (etcd's SnapshotCatchUpEntries, changed only by tests). */
  readonly snapshotCatchUpEntries?: number;
}

/** etcd 3.4's --snapshot-count default: the entries a member applies before it snapshots and compacts its raft log. */
export const defaultSnapshotCount = 100_000;

/** Entries a compacted raft log keeps before the snapshot, for slow followers (etcdserver's numberOfCatchUpEntries). */
export const snapshotCatchUpEntries = 5_000;

/** Each reply kind made once: a string built per reply would be a rope of two pieces in every trace record. */
const replyKinds = new Map<EtcdRequestKind, EtcdReplyKind>();

/** The reply kind for a request kind: `etcd.Txn` → `etcd.TxnResponse`. */
export function replyKind<K extends EtcdRequestKind>(requestKind: K): EtcdReplyKind<K> {
  let kind = replyKinds.get(requestKind);
  if (kind === undefined) {
    kind = [requestKind, 'Response'].join('') as EtcdReplyKind;
    replyKinds.set(requestKind, kind);
  }
  return kind as EtcdReplyKind<K>;
}

/** What one write did, for the UI: one record per Put, DeleteRange, Txn, LeaseRevoke. */
export interface WriteRecord {
  /** The store revision after the request: the new revision if it changed anything. */
  readonly revision: number;
  /** True when the request created a revision (recorded at least one change). */
  readonly changed: boolean;
  /** Top-level compares in order, with what they saw and their result (empty for Put/DeleteRange). */
  readonly compares: readonly EvaluatedCompare[];
  readonly branch: 'success' | 'failure';
  /** The ops of the branch taken. */
  readonly ops: readonly RequestOp[];
  /** Evaluations of nested txns on the path taken. */
  readonly nested: readonly TxnEvaluation[];
  /** The events the write produced, in change order (what a watcher of every key would get). */
  readonly events: readonly Event[];
}

interface ReplyCommon {
  /** Null for stream calls (LeaseKeepAlive), which etcd does not log. */
  readonly stats: RequestStats | null;
  /** The request-stats line as etcd's zap logger prints it at debug level. */
  readonly log: string | null;
}

export type EtcdReply<R> =
  | (ReplyCommon & { readonly ok: true; readonly response: R; readonly write: WriteRecord | null })
  | (ReplyCommon & { readonly ok: false; readonly error: RpcError; readonly write: null });

export interface EtcdServerOptions {
  readonly identity?: ClusterIdentity;
  /** Virtual processing time before a read's reply leaves, ms (default 0); plus `readNsPerByte` of the response. */
  readonly readDelay?: number;
  /** Read time per byte of the response, ns (default 0). */
  readonly readNsPerByte?: number;
  /**
   * Virtual time a write takes to apply — raft append, the backend commit (fsync) and the apply — before
   * its reply leaves, ms (default 0); plus `writeNsPerByte` of the request. The request-stats line's
   * `time spent` is this time.
   */
  readonly writeDelay?: number;
  /** Write time per byte of the request, ns (default 0). */
  readonly writeNsPerByte?: number;
  /** The clients' host, for the request-stats `remote` (default 127.0.0.1: kube-apiserver beside etcd). */
  readonly clientHost?: string;
  /** Minimum lease TTL, s (default 2: ceil(1.5 × the 1 s election timeout)). */
  readonly minLeaseTTL?: number;
  /** `--experimental-watch-progress-notify-interval`, ms (default 10 min; at least 100 ms). */
  readonly progressNotifyInterval?: number;
  /** A member of a cluster (absent: a single member without raft traffic). */
  readonly raft?: EtcdRaftOptions;
  /** How often unsynced watchers are caught up, ms (default 100). */
  readonly watchSyncInterval?: number;
  /** The cluster's members, as MemberList answers (default: etcd's single default member). */
  readonly members?: readonly Member[];
}

/** What the parts of a member use of its engine component: its clock, messages and timers. */
export interface MemberIO {
  readonly name: string;
  now(): number;
  epochMs(): number;
  rng(): Rng;
  send<K extends MessageKind>(to: string, kind: K, payload: MessageMap[K], options?: SendOptions): Message<MessageMap[K]>;
  reply<K extends MessageKind>(request: Message, kind: K, payload: MessageMap[K], options?: SendOptions): Message<MessageMap[K]>;
  setTimer<D>(delay: number, name: string, data: D, options?: SendOptions): Message;
  cancelTimer(timer: Message): void;
}

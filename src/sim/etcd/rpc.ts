// Request and response messages of the etcd v3 API (KV, Lease, Watch), as plain data.
// Models etcdserver/etcdserverpb/rpc.proto. Conventions:
// - Field names are the proto3 JSON (lowerCamelCase) names, so `{requestPut: {...}}` reads like the
//   gateway's input; enums are their proto names ('MOD', 'EQUAL', 'DESCEND').
// - Optional request fields mean proto3 defaults when omitted (0, '', false, first enum value).
// - Responses always carry every field (Go struct shape); zero values are omitted only when rendered
//   as gateway JSON or by etcdctl.
// - A oneof is an object with exactly one of its members set (`RequestOp`, `ResponseOp`, the
//   target_union of `Compare`, `WatchRequest`).
// - int64 fields are numbers, except lease IDs (`LeaseID`) and the uint64 cluster/member IDs, which are
//   decimal strings because they exceed 2^53.

import type { Event, KeyValue, LeaseID } from './kv.ts';

export interface ResponseHeader {
  /** uint64, decimal. '0' inside txn sub-responses (Go zero value). */
  readonly clusterId: string;
  readonly memberId: string;
  readonly revision: number;
  readonly raftTerm: number;
}

export type SortOrder = 'NONE' | 'ASCEND' | 'DESCEND';
export type SortTarget = 'KEY' | 'VERSION' | 'CREATE' | 'MOD' | 'VALUE';

export interface RangeRequest {
  readonly key: string;
  /** '' or absent: only `key`; '\0': every key ≥ `key`; otherwise [key, rangeEnd). */
  readonly rangeEnd?: string;
  readonly limit?: number;
  readonly revision?: number;
  readonly sortOrder?: SortOrder;
  readonly sortTarget?: SortTarget;
  readonly serializable?: boolean;
  readonly keysOnly?: boolean;
  readonly countOnly?: boolean;
  readonly minModRevision?: number;
  readonly maxModRevision?: number;
  readonly minCreateRevision?: number;
  readonly maxCreateRevision?: number;
}

export interface RangeResponse {
  readonly header: ResponseHeader;
  readonly kvs: readonly KeyValue[];
  readonly more: boolean;
  readonly count: number;
}

export interface PutRequest {
  readonly key: string;
  readonly value?: string;
  readonly lease?: LeaseID;
  readonly prevKv?: boolean;
  readonly ignoreValue?: boolean;
  readonly ignoreLease?: boolean;
}

export interface PutResponse {
  readonly header: ResponseHeader;
  readonly prevKv?: KeyValue;
}

export interface DeleteRangeRequest {
  readonly key: string;
  readonly rangeEnd?: string;
  readonly prevKv?: boolean;
}

export interface DeleteRangeResponse {
  readonly header: ResponseHeader;
  readonly deleted: number;
  readonly prevKvs: readonly KeyValue[];
}

/** A oneof: exactly one member is set. An op with none set is rejected (`key not found`), as in etcd. */
export interface RequestOp {
  readonly requestRange?: RangeRequest;
  readonly requestPut?: PutRequest;
  readonly requestDeleteRange?: DeleteRangeRequest;
  readonly requestTxn?: TxnRequest;
}

export interface ResponseOp {
  readonly responseRange?: RangeResponse;
  readonly responsePut?: PutResponse;
  readonly responseDeleteRange?: DeleteRangeResponse;
  readonly responseTxn?: TxnResponse;
}

export type CompareTarget = 'VERSION' | 'CREATE' | 'MOD' | 'VALUE' | 'LEASE';
export type CompareResult = 'EQUAL' | 'GREATER' | 'LESS' | 'NOT_EQUAL';

/**
 * "stored field <result> given value". The given value is the target_union oneof: at most one of
 * version, createRevision, modRevision, value, lease is set; a member that does not match `target`
 * compares as zero (etcd reads the union only through the target's own member).
 */
export interface Compare {
  readonly result?: CompareResult;
  readonly target?: CompareTarget;
  readonly key: string;
  readonly version?: number;
  readonly createRevision?: number;
  readonly modRevision?: number;
  readonly value?: string;
  readonly lease?: LeaseID;
  readonly rangeEnd?: string;
}

export interface TxnRequest {
  readonly compare?: readonly Compare[];
  readonly success?: readonly RequestOp[];
  readonly failure?: readonly RequestOp[];
}

export interface TxnResponse {
  readonly header: ResponseHeader;
  readonly succeeded: boolean;
  readonly responses: readonly ResponseOp[];
}

export interface CompactionRequest {
  readonly revision: number;
  readonly physical?: boolean;
}

export interface CompactionResponse {
  readonly header: ResponseHeader;
}

export interface LeaseGrantRequest {
  readonly TTL: number;
  /** '0' or absent: the server picks an ID. */
  readonly ID?: LeaseID;
}

export interface LeaseGrantResponse {
  readonly header: ResponseHeader;
  readonly ID: LeaseID;
  readonly TTL: number;
  readonly error: string;
}

export interface LeaseRevokeRequest {
  readonly ID: LeaseID;
}

export interface LeaseRevokeResponse {
  readonly header: ResponseHeader;
}

export interface LeaseKeepAliveRequest {
  readonly ID: LeaseID;
}

export interface LeaseKeepAliveResponse {
  readonly header: ResponseHeader;
  readonly ID: LeaseID;
  readonly TTL: number;
}

export interface LeaseTimeToLiveRequest {
  readonly ID: LeaseID;
  readonly keys?: boolean;
}

export interface LeaseTimeToLiveResponse {
  readonly header: ResponseHeader;
  readonly ID: LeaseID;
  /** Remaining seconds; -1 for an unknown or expired lease. */
  readonly TTL: number;
  readonly grantedTTL: number;
  readonly keys: readonly string[];
}

export type LeaseLeasesRequest = Record<string, never>;

export interface LeaseLeasesResponse {
  readonly header: ResponseHeader;
  readonly leases: ReadonlyArray<{ readonly ID: LeaseID }>;
}

export type WatchFilterType = 'NOPUT' | 'NODELETE';

export interface WatchCreateRequest {
  /** '' or absent: '\0', the smallest key. */
  readonly key?: string;
  readonly rangeEnd?: string;
  /** 0 or absent: from the next revision. */
  readonly startRevision?: number;
  readonly progressNotify?: boolean;
  readonly filters?: readonly WatchFilterType[];
  readonly prevKv?: boolean;
  /** 0 or absent: the server assigns the lowest unused ID of the stream. */
  readonly watchId?: number;
  readonly fragment?: boolean;
}

/** A oneof. A request with nothing set is ignored, as in etcd. */
export interface WatchRequest {
  readonly createRequest?: WatchCreateRequest;
  readonly cancelRequest?: { readonly watchId: number };
  readonly progressRequest?: Record<string, never>;
}

export interface WatchResponse {
  readonly header: ResponseHeader;
  readonly watchId: number;
  readonly created: boolean;
  readonly canceled: boolean;
  readonly compactRevision: number;
  readonly cancelReason: string;
  readonly fragment: boolean;
  readonly events: readonly Event[];
}

/** Maintenance.Status's request (etcdserverpb.StatusRequest): no fields. */
export type StatusRequest = Readonly<Record<string, never>>;

/** Cluster.MemberList's request (etcdserverpb.MemberListRequest): no fields in etcd 3.4. */
export type MemberListRequest = Readonly<Record<string, never>>;

/** Maintenance.Status's response (etcdserverpb.StatusResponse); `leader` '0' when the member knows none. */
export interface StatusResponse {
  readonly header: ResponseHeader;
  readonly version: string;
  readonly dbSize: number;
  /** uint64, decimal. */
  readonly leader: string;
  readonly raftIndex: number;
  readonly raftTerm: number;
  readonly raftAppliedIndex: number;
  readonly errors: readonly string[];
  readonly dbSizeInUse: number;
  readonly isLearner: boolean;
}

/** A member as Cluster.MemberList returns it (etcdserverpb.Member). */
export interface MemberInfo {
  /** uint64, decimal. */
  readonly ID: string;
  readonly name: string;
  readonly peerURLs: readonly string[];
  readonly clientURLs: readonly string[];
  readonly isLearner: boolean;
}

/** Cluster.MemberList's response: the members sorted by ID; the header has no revision (0). */
export interface MemberListResponse {
  readonly header: ResponseHeader;
  readonly members: readonly MemberInfo[];
}

// etcd v3 in the simulation: an MVCC store with etcd 3.4's semantics (revisions, generations, ranges,
// txns with compares, compaction), its KV service, and the EtcdServer component that serves it as
// engine messages. Keys and values are strings (see bytes.ts for how they map to etcd's bytes).
//
// The public surface: the message kinds and payloads (server.ts, rpc.ts, kv.ts), errors (errors.ts),
// the request-stats line (request-stats.ts), etcdctl and gateway-JSON views (etcdctl.ts, gateway.ts),
// and the engine-free store and KV service for tests and benchmarks.

export {
  EtcdServer, etcdKinds, replyKind, type EtcdReply, type EtcdServerOptions, type WatchStreamClose, type WatchStreamRequest,
  type WatchStreamError, type WatchStreamResponse, type WriteRecord, watchStreamTransportClosing,
} from './server.ts';
export { WatchableStore } from './watchable-store.ts';
export { KVServer } from './kv-server.ts';
export { KVStore } from './kv-store.ts';
export { Lessor, Lease } from './lease.ts';
export { defaultCluster, type ClusterIdentity } from './cluster.ts';
export {
  EtcdError, grpcCodes, ErrGRPCCompacted, ErrGRPCDuplicateKey, ErrGRPCEmptyKey, ErrGRPCFutureRev, ErrGRPCKeyNotFound,
  ErrGRPCLeaseExist, ErrGRPCLeaseNotFound, ErrGRPCLeaseProvided, ErrGRPCLeaseTTLTooLarge, ErrGRPCTooManyOps,
  ErrGRPCValueProvided, type GrpcCodeName, type RpcError,
} from './errors.ts';
export { noLease, type Event, type EventType, type KeyValue, type LeaseID } from './kv.ts';
export type * from './rpc.ts';
export {
  base64Decode, base64Encode, byteStringToBytes, byteStringToUtf8, bytesToByteString, compareKeys, prefixEnd, terminalText, utf8Length,
  utf8ToByteString,
} from './bytes.ts';
export { capnslogLine, txnRequestText, zapLine, type RequestStats, type RequestStatsContext } from './request-stats.ts';
export type { EvaluatedCompare, TxnEvaluation, TxnResult } from './txn.ts';
export { parseEtcdctl, renderReply, renderWatchResponse, type EtcdctlCommand, type EtcdctlOutput } from './etcdctl.ts';
export * as gatewayJson from './gateway.ts';

// etcd's errors as typed values: every error a client can see carries etcd's exact text and the gRPC
// status code the v3 API returns with it. The store throws `EtcdError` (a broken request never gets
// past the checks that precede a write, so a thrown error leaves the store untouched); the server turns
// it into a plain `RpcError` in the reply payload.
//
// Models etcdserver/api/v3rpc/rpctypes/error.go and the togRPCError mapping of
// etcdserver/api/v3rpc/util.go: the mvcc, lease and etcdserver sentinel errors are folded into the gRPC
// errors they map to, since nothing in the simulation sees the unmapped form.

/** gRPC status codes (google.golang.org/grpc/codes). */
export const grpcCodes = {
  OK: 0,
  Canceled: 1,
  Unknown: 2,
  InvalidArgument: 3,
  DeadlineExceeded: 4,
  NotFound: 5,
  AlreadyExists: 6,
  PermissionDenied: 7,
  ResourceExhausted: 8,
  FailedPrecondition: 9,
  Aborted: 10,
  OutOfRange: 11,
  Unimplemented: 12,
  Internal: 13,
  Unavailable: 14,
  DataLoss: 15,
  Unauthenticated: 16,
} as const;

export type GrpcCodeName = keyof typeof grpcCodes;

/** An error as a client receives it: gRPC status code and message. Plain data, safe in a payload. */
export interface RpcError {
  readonly code: number;
  readonly codeName: GrpcCodeName;
  readonly message: string;
}

function status(codeName: GrpcCodeName, message: string): RpcError {
  return Object.freeze({ code: grpcCodes[codeName], codeName, message });
}

export const ErrGRPCEmptyKey = status('InvalidArgument', 'etcdserver: key is not provided');
export const ErrGRPCKeyNotFound = status('InvalidArgument', 'etcdserver: key not found');
export const ErrGRPCValueProvided = status('InvalidArgument', 'etcdserver: value is provided');
export const ErrGRPCLeaseProvided = status('InvalidArgument', 'etcdserver: lease is provided');
export const ErrGRPCTooManyOps = status('InvalidArgument', 'etcdserver: too many operations in txn request');
export const ErrGRPCDuplicateKey = status('InvalidArgument', 'etcdserver: duplicate key given in txn request');
export const ErrGRPCRequestTooLarge = status('InvalidArgument', 'etcdserver: request is too large');
export const ErrGRPCCompacted = status('OutOfRange', 'etcdserver: mvcc: required revision has been compacted');
export const ErrGRPCFutureRev = status('OutOfRange', 'etcdserver: mvcc: required revision is a future revision');
export const ErrGRPCLeaseNotFound = status('NotFound', 'etcdserver: requested lease not found');
export const ErrGRPCLeaseExist = status('FailedPrecondition', 'etcdserver: lease already exists');
export const ErrGRPCLeaseTTLTooLarge = status('OutOfRange', 'etcdserver: too large lease TTL');

/** Watch cancel reasons are the unmapped mvcc error texts (`err.Error()` in v3rpc/watch.go). */
export const ErrEmptyWatcherRange = 'mvcc: watcher range is empty';
export const ErrWatcherDuplicateID = 'mvcc: duplicate watch ID provided on the WatchStream';

/** Thrown inside the store and the appliers; carries the client-visible error. */
export class EtcdError extends Error {
  constructor(readonly rpc: RpcError) {
    super(rpc.message);
    this.name = 'EtcdError';
  }
}

/** The client-visible form of anything thrown while serving a request; non-etcd errors are bugs. */
export function toRpcError(error: unknown): RpcError {
  if (error instanceof EtcdError) return error.rpc;
  throw error;
}

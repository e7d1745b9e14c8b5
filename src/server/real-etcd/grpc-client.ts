// A gRPC client of a real etcd 3.4 cluster: the KV, Lease, Watch and Maintenance (Status) services of etcd's v3 API
// (protos/etcd-v3.4.23) over @grpc/grpc-js, with clientv3's behaviour over its endpoint list as kube-apiserver
// uses it: requests go to one pinned endpoint; a call that fails with Unavailable (the member is down, its
// connection broke) moves the pin to the next endpoint and is sent there, until every endpoint has been
// tried once; a watch stream that breaks is reported to its owner, which opens a new one (on the new pin)
// and creates its watches again from the next revision (the model's clientv3 watch client does that).
//
// Models the endpoint handling of go.etcd.io/etcd/clientv3 (client.go, retry_interceptor.go) as seen
// from the outside. Differences: 3.4's balancer spreads unary calls round-robin over the ready endpoints
// and retries a mutating call only when it was never sent; here every call goes to the pin and is retried
// on Unavailable, which for the apiserver's conditional Txns (compare on mod_revision) is safe.

import {
  credentials, loadPackageDefinition, Metadata, status, type CallOptions, type Client, type ClientDuplexStream, type ClientUnaryCall,
  type GrpcObject, type ServiceClientConstructor, type ServiceError,
} from '@grpc/grpc-js';
import { grpcCodes, type GrpcCodeName } from '../../sim/etcd/errors.ts';
import type { RpcError } from '../../sim/etcd/index.ts';
import { loadEtcdProtos, type Wire } from '../etcd-proto/convert.ts';

type Service = 'KV' | 'Lease' | 'Watch' | 'Maintenance';
type Unary = (request: Wire, metadata: Metadata, options: CallOptions, done: (error: ServiceError | null, response?: Wire) => void) => ClientUnaryCall;

let loaded: Record<Service, ServiceClientConstructor> | null = null;

function services(): Record<Service, ServiceClientConstructor> {
  if (loaded === null) {
    const pb = (loadPackageDefinition(loadEtcdProtos())['etcdserverpb'] as GrpcObject);
    loaded = {
      KV: pb['KV'] as ServiceClientConstructor, Lease: pb['Lease'] as ServiceClientConstructor, Watch: pb['Watch'] as ServiceClientConstructor,
      Maintenance: pb['Maintenance'] as ServiceClientConstructor,
    };
  }
  return loaded;
}

/** `http://127.0.0.1:2379` (or `127.0.0.1:2379`) as gRPC's `host:port`; https is refused. */
export function endpointAddress(endpoint: string): string {
  const trimmed = endpoint.trim();
  if (trimmed.startsWith('https://')) throw new Error(`--etcd-servers: TLS endpoints are not supported: ${trimmed}`);
  const address = trimmed.replace(/^http:\/\//, '').replace(/\/$/, '');
  if (!/^[^/]+:\d+$/.test(address)) throw new Error(`--etcd-servers: not an http://host:port endpoint: ${trimmed}`);
  return address;
}

/** A gRPC error as the model's RpcError fields: status code and its description. */
export interface GrpcFailure {
  readonly code: number;
  readonly details: string;
}

export function isUnavailable(error: GrpcFailure): boolean {
  return error.code === status.UNAVAILABLE;
}

export class EtcdGrpcClient {
  readonly endpoints: readonly string[];
  private pin = 0;
  private readonly clients = new Map<string, Record<Service, Client>>();
  /** Called when the pin moves: (from, to) addresses. */
  onFailover: ((from: string, to: string) => void) | null = null;

  constructor(endpoints: readonly string[]) {
    if (endpoints.length === 0) throw new Error('--etcd-servers: no endpoint given');
    this.endpoints = endpoints.map(endpointAddress);
  }

  /** The endpoint requests go to now. */
  get pinned(): string {
    return this.endpoints[this.pin]!;
  }

  private client(service: Service): Client {
    const address = this.pinned;
    let entry = this.clients.get(address);
    if (entry === undefined) {
      const ctors = services();
      const creds = credentials.createInsecure();
      const KV = new ctors.KV(address, creds);
      const channelOverride = KV.getChannel();
      entry = {
        KV, Lease: new ctors.Lease(address, creds, { channelOverride }), Watch: new ctors.Watch(address, creds, { channelOverride }),
        Maintenance: new ctors.Maintenance(address, creds, { channelOverride }),
      };
      this.clients.set(address, entry);
    }
    return entry[service];
  }

  /** Moves the pin off `address` (if it is still pinned) to the next endpoint. */
  failover(address: string): void {
    if (this.pinned !== address || this.endpoints.length < 2) return;
    this.pin = (this.pin + 1) % this.endpoints.length;
    this.onFailover?.(address, this.pinned);
  }

  /** A unary call on the pinned endpoint, retried on the next endpoints while they answer Unavailable. */
  async unary(service: Service, method: string, request: Wire): Promise<Wire> {
    let lastError: ServiceError | null = null;
    for (let attempt = 0; attempt < this.endpoints.length; attempt++) {
      const address = this.pinned;
      const client = this.client(service) as unknown as Record<string, Unary>;
      try {
        return await new Promise<Wire>((resolve, reject) => {
          client[method]!.call(client, request, new Metadata(), {}, (error, response) => (error ? reject(error) : resolve(response ?? {})));
        });
      } catch (e) {
        const error = e as ServiceError;
        if (error.code !== status.UNAVAILABLE) throw error;
        lastError = error;
        this.failover(address);
      }
    }
    throw lastError!;
  }

  /** Opens a bidirectional stream (Watch.Watch, Lease.LeaseKeepAlive) on the pinned endpoint. */
  stream(service: 'Watch' | 'Lease', method: 'watch' | 'leaseKeepAlive'): { address: string; call: ClientDuplexStream<Wire, Wire> } {
    const address = this.pinned;
    const client = this.client(service) as unknown as Record<string, () => ClientDuplexStream<Wire, Wire>>;
    return { address, call: client[method]!.call(client) };
  }

  close(): void {
    for (const entry of this.clients.values()) entry.KV.close();
    this.clients.clear();
  }
}

function codeName(code: number): GrpcCodeName {
  return (Object.keys(grpcCodes) as GrpcCodeName[]).find((n) => grpcCodes[n] === code) ?? 'Unknown';
}

/** A gRPC failure as the model's RpcError. */
export function rpcError(error: GrpcFailure): RpcError {
  return { code: error.code, codeName: codeName(error.code), message: error.details };
}

/** A broken stream's error as clientv3's Recv returns it. */
export function streamErrorText(error: GrpcFailure): string {
  return `rpc error: code = ${codeName(error.code)} desc = ${error.details}`;
}

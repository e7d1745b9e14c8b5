// The `remote` of a request-stats line: the client's `ip:port`. kube-apiserver opens one etcd client
// (one gRPC connection) per resource storage, so its requests come from as many ephemeral ports — seed
// 000 shows pods from 127.0.0.1:44664, deployments from :44822, replicasets from :44828, events from
// :44632 — and every other client has its own connection. The simulation has no sockets: a connection
// is named by its client component and, for kube-apiserver, by the resource its key lies under (its
// storage's key prefix), and is given the next port of an ephemeral range on first use, so addresses
// are stable within a run and deterministic across runs. Lease grants come from the events storage
// (its lease manager attaches the event TTLs); compactions from the compactor's own client.
// Models storage/storagebackend/factory/etcd3.go (newETCD3Client per storage) as seen by
// etcdserver/api/v3rpc/interceptor.go (peer address of the gRPC connection).

import type { RequestOp, TxnRequest } from './rpc.ts';

/**
 * Components named `etcd-client/<ip:port>` are real clients' connections (the gRPC endpoint of
 * src/server/etcd-grpc): their address is their name's.
 */
export const etcdClientPrefix = 'etcd-client/';

/** First port handed out; Linux picks ephemeral ports in 32768–60999. */
export const firstEphemeralPort = 44_600;

/** The key a request is about, when it names one. */
export function requestKey(kind: string, payload: unknown): string | null {
  const p = payload as { key?: string; compare?: TxnRequest['compare']; success?: RequestOp[] } | null;
  if (p === null || typeof p !== 'object') return null;
  if (typeof p.key === 'string') return p.key;
  if (kind === 'etcd.Txn') {
    const c = p.compare?.[0]?.key;
    if (c !== undefined) return c;
    const op = p.success?.[0];
    const k = op?.requestPut?.key ?? op?.requestRange?.key ?? op?.requestDeleteRange?.key;
    if (k !== undefined) return k;
  }
  return null;
}

/** The connection a key's storage uses: the key's resource prefix, e.g. `/registry/pods` or `/registry/apps/deployments`. */
export function storagePrefix(key: string): string {
  const parts = key.split('/');
  // '', 'registry', resource or group, resource (when the third segment is a group, it holds a dot).
  if (parts.length >= 4 && parts[2]!.includes('.')) return parts.slice(0, 4).join('/');
  return parts.slice(0, 3).join('/');
}

export class RemoteAddresses {
  private readonly ports = new Map<string, number>();
  private next = firstEphemeralPort;

  constructor(private readonly apiserver = 'kube-apiserver', private readonly host = '127.0.0.1') {}

  /** `ip:port` of the connection `from` sent a request of `kind` on. */
  of(from: string, kind: string, payload: unknown): string {
    if (from.startsWith(etcdClientPrefix)) return from.slice(etcdClientPrefix.length);
    let connection = from;
    if (from === this.apiserver) {
      if (kind === 'etcd.LeaseGrant') connection += ' /registry/events';
      else if (kind === 'etcd.Compact') connection += ' compactor';
      else {
        const key = requestKey(kind, payload);
        if (key !== null) connection += ` ${storagePrefix(key)}`;
      }
    }
    let port = this.ports.get(connection);
    if (port === undefined) {
      port = this.next;
      // Two ports a connection: the kernel's next free ephemeral ports are rarely adjacent.
      this.next += 2;
      this.ports.set(connection, port);
    }
    return `${this.host}:${port}`;
  }
}

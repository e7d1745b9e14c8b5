// A gRPC client of the model's etcd endpoint as a component of the simulation: one per client connection,
// named `etcd-client/<ip:port>` after the connection's peer address (so etcd's request-stats lines show it
// as `remote`), linked to etcd like the user's etcdctl. Its requests have no cause: like the user's, each is
// the root of a cause chain. Replies and watch responses addressed to it are handed back to the caller by
// the host (cluster-host.ts), which also logs every request for replay.

import { Component, type Engine, type Message } from '../../sim/engine/index.ts';
import { etcdClientPrefix } from '../../sim/etcd/remote.ts';
import type { EtcdClientKind, MessageMap } from '../../sim/messages/index.ts';

/** The component for the connection from `peer` (`ip:port`). */
export function etcdClientName(peer: string): string {
  return `${etcdClientPrefix}${peer}`;
}

export class EtcdClient extends Component {
  /** Sends a request to etcd as a root of a cause chain. */
  request<K extends EtcdClientKind>(kind: K, payload: MessageMap[K]): Message<MessageMap[K]> {
    return this.send('etcd', kind, payload, { cause: null, background: false });
  }

  receive(): void {
    // What reaches a client is routed by the host as it is delivered; the component keeps nothing.
  }
}

/** The client component named `name`, added and linked to etcd (with the user's link timing) on first use. */
export function etcdClient(engine: Engine, name: string, link: { latency: number; jitter: number }): EtcdClient {
  const existing = engine.component(name);
  if (existing instanceof EtcdClient) return existing;
  const client = engine.add(new EtcdClient(name));
  engine.link(name, 'etcd', link);
  return client;
}

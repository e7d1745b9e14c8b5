// The cluster as the UI draws it: which components exist, what role each plays, whether its model exists
// yet, and which pairs talk over a link with what latency. The worker sends the simulation's topology
// as it is; this is the UI's view of its shape, kept free of any import from src/sim.

/** Virtual milliseconds since the start of the simulation. */
export type VirtualTime = number;

export type ComponentRole =
  | 'user'
  | 'kube-apiserver'
  | 'etcd'
  | 'kube-controller-manager'
  | 'kube-scheduler'
  | 'kubelet'
  /** A client connection to the server's etcd endpoint (`etcd-client/<ip:port>`: real etcdctl, an etcd client library). */
  | 'etcd-client';

export interface ComponentView {
  /** Engine component name, e.g. `kubelet/node-2`; `from`/`to` of every message name one of these. */
  readonly name: string;
  readonly role: ComponentRole;
  /** For kubelets: the node they run on. */
  readonly node?: string;
  /** False while the component's model does not exist yet: it is drawn, but sends and receives nothing. */
  readonly modelled: boolean;
}

/** An undirected link; messages travel both ways with `latency` (+ up to `jitter`) virtual ms. */
export interface LinkView {
  readonly a: string;
  readonly b: string;
  readonly latency: number;
  readonly jitter: number;
}

export interface Topology {
  readonly components: readonly ComponentView[];
  readonly links: readonly LinkView[];
}

/**
 * The cluster gained components after `ready` (an etcd client connected to the server's gRPC endpoint):
 * the whole topology, replacing the one `ready` gave; nothing else of the view changes.
 */
export interface TopologyEvent {
  readonly type: 'topology';
  readonly topology: Topology;
}

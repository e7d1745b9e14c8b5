// Builds a simulated cluster from its configuration: the engine, the components and the links between
// them. The topology is data (who exists, which role, which node, who talks to whom, with what latency),
// so the UI can draw the graph from it. Components whose model does not exist yet are listed with
// `modelled: false`: the UI may draw them, but they send and receive nothing.

import { Engine, type Duration } from './engine/index.ts';
import { KubeApiserver, type KubeApiserverOptions } from './apiserver/server.ts';
import { EtcdServer } from './etcd/index.ts';
import { User, userComponentName } from './user/user.ts';

export type ComponentRole =
  | 'user'
  | 'kube-apiserver'
  | 'etcd'
  | 'kube-controller-manager'
  | 'kube-scheduler'
  | 'kubelet';

export interface ComponentInfo {
  /** Engine component name, e.g. `kubelet/node-2`. */
  readonly name: string;
  readonly role: ComponentRole;
  /** For kubelets: the node they run on. */
  readonly node?: string;
  readonly modelled: boolean;
}

export interface LinkInfo {
  readonly a: string;
  readonly b: string;
  readonly latency: Duration;
  readonly jitter: Duration;
}

export interface ClusterTopology {
  readonly components: readonly ComponentInfo[];
  readonly links: readonly LinkInfo[];
}

export interface LinkLatencies {
  /** user ↔ kube-apiserver and user ↔ etcd (etcdctl). */
  readonly user: Duration;
  /** kube-apiserver ↔ etcd. */
  readonly etcd: Duration;
  /** controllers, scheduler and kubelets ↔ kube-apiserver. */
  readonly control: Duration;
  /** Jitter on every link. */
  readonly jitter: Duration;
}

export interface ClusterConfig {
  readonly seed: string | number;
  /** Number of worker nodes (node-1 … node-N). */
  readonly nodes?: number;
  readonly latencies?: Partial<LinkLatencies>;
  readonly traceLimit?: number;
  /** kube-apiserver flags: admission (alwaysPullImages), max-in-flight limits, compaction interval, stage delay. */
  readonly apiserver?: Pick<KubeApiserverOptions, 'alwaysPullImages' | 'maxInFlight' | 'compactionInterval' | 'stageDelay' | 'etcdPrefix'>;
}

export const defaultLatencies: LinkLatencies = { user: 5, etcd: 1, control: 2, jitter: 0.5 };
export const defaultNodeCount = 3;

export const componentNames = {
  user: userComponentName,
  apiserver: 'kube-apiserver',
  etcd: 'etcd',
  controllerManager: 'kube-controller-manager',
  scheduler: 'kube-scheduler',
  kubelet: (node: string) => `kubelet/${node}`,
} as const;

export class Cluster {
  readonly engine: Engine;
  readonly user: User;
  readonly etcd: EtcdServer;
  readonly apiserver: KubeApiserver;
  readonly topology: ClusterTopology;

  constructor(readonly config: ClusterConfig) {
    this.engine = new Engine({ seed: config.seed, ...(config.traceLimit !== undefined ? { traceLimit: config.traceLimit } : {}) });
    this.user = this.engine.add(new User());
    this.etcd = this.engine.add(new EtcdServer(componentNames.etcd));

    const latencies = { ...defaultLatencies, ...config.latencies };
    const nodeNames = Array.from({ length: config.nodes ?? defaultNodeCount }, (_, i) => `node-${i + 1}`);
    this.apiserver = this.engine.add(new KubeApiserver({ ...config.apiserver, name: componentNames.apiserver, etcd: componentNames.etcd, nodes: nodeNames }));
    const components: ComponentInfo[] = [
      { name: componentNames.user, role: 'user', modelled: true },
      { name: componentNames.apiserver, role: 'kube-apiserver', modelled: true },
      { name: componentNames.etcd, role: 'etcd', modelled: true },
      { name: componentNames.controllerManager, role: 'kube-controller-manager', modelled: false },
      { name: componentNames.scheduler, role: 'kube-scheduler', modelled: false },
      ...nodeNames.map((node): ComponentInfo => ({ name: componentNames.kubelet(node), role: 'kubelet', node, modelled: false })),
    ];
    const wanted: LinkInfo[] = [
      { a: componentNames.user, b: componentNames.apiserver, latency: latencies.user, jitter: latencies.jitter },
      { a: componentNames.user, b: componentNames.etcd, latency: latencies.user, jitter: latencies.jitter },
      { a: componentNames.apiserver, b: componentNames.etcd, latency: latencies.etcd, jitter: latencies.jitter },
      { a: componentNames.controllerManager, b: componentNames.apiserver, latency: latencies.control, jitter: latencies.jitter },
      { a: componentNames.scheduler, b: componentNames.apiserver, latency: latencies.control, jitter: latencies.jitter },
      ...nodeNames.map((node): LinkInfo => ({ a: componentNames.kubelet(node), b: componentNames.apiserver, latency: latencies.control, jitter: latencies.jitter })),
    ];
    const modelled = new Set(components.filter((c) => c.modelled).map((c) => c.name));
    const links = wanted.filter((l) => modelled.has(l.a) && modelled.has(l.b));
    for (const l of links) this.engine.link(l.a, l.b, { latency: l.latency, jitter: l.jitter });
    this.topology = { components, links: wanted };
    this.apiserver.start();
  }
}

export function createCluster(config: ClusterConfig): Cluster {
  return new Cluster(config);
}

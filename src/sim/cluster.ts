// Builds a simulated cluster from its configuration: the engine, the components and the links between
// them. The topology is data (who exists, which role, which node, who talks to whom, with what latency),
// so the UI can draw the graph from it. Components whose model does not exist yet are listed with
// `modelled: false`: the UI may draw them, but they send and receive nothing.
//
// Boot has two phases, as a real control plane comes up: kube-apiserver stores its system namespaces
// and RBAC policy; only then do kubelets, kube-scheduler and kube-controller-manager start (the real
// ones wait for the apiserver's /healthz). `boot()` runs both; a cluster that is only run until idle has
// the apiserver and etcd alone at work.

import { Engine, type Component, type Duration } from './engine/index.ts';
import { KubeApiserver, type KubeApiserverOptions } from './apiserver/server.ts';
import type { MaxInFlightLimits } from './apiserver/filters/max-in-flight.ts';
import { KubeControllerManager } from './controllers/index.ts';
import { Kubelet } from './kubelet/index.ts';
import { KubeScheduler } from './scheduler/index.ts';
import { EtcdServer } from './etcd/index.ts';
import { etcdHistoryRebuilder, type HistoryMember } from './trace-payloads.ts';
import { clusterMembers, defaultClusterToken, memberConfigs } from './etcd/cluster.ts';
import { User, userComponentName } from './user/user.ts';
import { clusterFaults, injectFault, type ClusterFaults, type Fault } from './faults.ts';
import type { Message } from './engine/index.ts';

export type { ClusterFaults, Fault } from './faults.ts';

export type ComponentRole =
  | 'user'
  | 'kube-apiserver'
  | 'etcd'
  | 'kube-controller-manager'
  | 'kube-scheduler'
  | 'kubelet'
  /** A connection to the server's etcd endpoint (src/server/etcd-grpc), added as it connects. */
  | 'etcd-client';

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

export interface ClusterConfig<E extends Component = EtcdServer> {
  readonly seed: string | number;
  /** Number of worker nodes (node-1 … node-N). */
  readonly nodes?: number;
  readonly latencies?: Partial<LinkLatencies>;
  readonly traceLimit?: number;
  /** The newest steps whose trace records keep their whole payloads (the engine's tracePayloadLimit). */
  readonly tracePayloadLimit?: number;
  /** Wall-clock instant (ms since the Unix epoch) that virtual time 0 stands for; the engine's default otherwise. */
  readonly epochMs?: number;
  /** How many scheduling attempt records kube-scheduler keeps (all by default); for large benchmarks. */
  readonly schedulerAttemptLimit?: number;
  /**
   * Which of the workload components to build (all by default). Tests of one component turn the others
   * off and add their own; a component left out is drawn as not modelled.
   */
  readonly components?: { readonly controllerManager?: boolean; readonly scheduler?: boolean; readonly kubelets?: boolean };
  /**
   * kube-apiserver flags: admission (alwaysPullImages), max-in-flight limits, compaction interval, stage delay;
   * `sharedEtcd` for an etcd other apiservers write to.
   */
  readonly apiserver?: Pick<KubeApiserverOptions, 'alwaysPullImages' | 'maxInFlight' | 'compactionInterval' | 'stageDelay' | 'etcdPrefix' | 'sharedEtcd' | 'identity'>;
  /**
   * How kube-apiserver stores objects in etcd (`--storage-media-type`): Kubernetes protobuf, its
   * default, or JSON.
   */
  readonly storageMediaType?: StorageMediaType;
  /** etcd's modelled request times (defaults: `defaultEtcdTiming`). */
  readonly etcd?: Partial<EtcdTiming>;
  /**
   * Builds the etcd member in place of the model's EtcdServer: a component with its message interface
   * (etcd/server.ts), such as src/server/real-etcd's proxy to a real etcd.
   */
  readonly etcdMember?: (name: string) => E;
  /**
   * How many etcd members (default 1: one member named `etcd`, no raft traffic). With 3 or 5, members
   * `etcd-1` … `etcd-N` run raft between them and kube-apiserver's `--etcd-servers` lists them all.
   */
  readonly etcdMembers?: 1 | 3 | 5;
  /**
   * A cluster member's raft snapshots: etcd's --snapshot-count (default 100,000 entries) and the entries a
   * compacted log keeps for slow followers (default 5,000). Tests make both small.
   */
  readonly etcdSnapshot?: { readonly count: number; readonly catchUpEntries: number };
}

export type StorageMediaType = 'protobuf' | 'json';

/** etcd's modelled time per request, which the request-stats lines report as `time spent`. */
export interface EtcdTiming {
  /** A read's time, ms, plus `readNsPerByte` per byte of the response. */
  readonly readDelay: number;
  readonly readNsPerByte: number;
  /** A write's time to apply (raft append, backend commit with its fsync, apply), ms, plus `writeNsPerByte` per request byte. */
  readonly writeDelay: number;
  readonly writeNsPerByte: number;
}

/**
 * Fitted to seed 000's request-stats lines (etcd 3.4 on a local SSD): a Range returning 81,478 bytes took
 * 1.41 ms; creates of 449–822 request bytes took 2.7–5.9 ms (2.7, 3.3 and 3.5 ms for three of four).
 */
export const defaultEtcdTiming: EtcdTiming = { readDelay: 0.5, readNsPerByte: 11, writeDelay: 2.5, writeNsPerByte: 500 };

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

export class Cluster<E extends Component = EtcdServer> {
  readonly engine: Engine;
  readonly user: User;
  /** The first etcd member (the only one by default). */
  readonly etcd: E;
  /** Every etcd member, in `--etcd-servers` order. */
  readonly etcdMembers: readonly E[];
  readonly apiserver: KubeApiserver;
  readonly controllerManager: KubeControllerManager | null;
  readonly scheduler: KubeScheduler | null;
  readonly kubelets: readonly Kubelet[];
  readonly topology: ClusterTopology;
  /** Fault injection as verbs (faults.ts); each is a user action that takes effect when delivered. */
  readonly faults: ClusterFaults;

  constructor(readonly config: ClusterConfig<E>) {
    this.engine = new Engine({
      seed: config.seed,
      ...(config.traceLimit !== undefined ? { traceLimit: config.traceLimit } : {}),
      ...(config.tracePayloadLimit !== undefined ? { tracePayloadLimit: config.tracePayloadLimit } : {}),
      ...(config.epochMs !== undefined ? { epochMs: config.epochMs } : {}),
    });
    this.user = this.engine.add(new User());
    const timing = { ...defaultEtcdTiming, ...config.etcd };
    const memberCount = config.etcdMember ? 1 : config.etcdMembers ?? 1;
    if (config.etcdMember) {
      this.etcdMembers = [this.engine.add(config.etcdMember(componentNames.etcd))];
    } else if (memberCount === 1) {
      this.etcdMembers = [this.engine.add(new EtcdServer(componentNames.etcd, timing) as Component as E)];
    } else {
      const { clusterId, members } = clusterMembers(memberConfigs(memberCount), defaultClusterToken);
      const peers = members.map((m, i) => ({ id: i + 1, component: m.name }));
      this.etcdMembers = members.map((m, i) => this.engine.add(new EtcdServer(m.name, {
        ...timing, identity: { clusterId, memberId: m.id, raftTerm: 0 }, members, raft: {
          id: i + 1, peers, seed: `${config.seed}/${m.name}`,
          ...(config.etcdSnapshot ? { snapshotCount: config.etcdSnapshot.count, snapshotCatchUpEntries: config.etcdSnapshot.catchUpEntries } : {}),
        },
      }) as Component as E));
    }
    this.etcd = this.etcdMembers[0]!;
    this.engine.trace.rebuildWith(etcdHistoryRebuilder(this.etcdMembers as readonly HistoryMember[], this.engine.epochMs));
    const etcdNames = this.etcdMembers.map((m) => m.name);

    const latencies = { ...defaultLatencies, ...config.latencies };
    const nodeNames = Array.from({ length: config.nodes ?? defaultNodeCount }, (_, i) => `node-${i + 1}`);
    const maxInFlight = config.apiserver?.maxInFlight ?? largeClusterMaxInFlight(nodeNames.length);
    this.apiserver = this.engine.add(new KubeApiserver({
      ...config.apiserver, ...(maxInFlight ? { maxInFlight } : {}), storageMediaType: config.storageMediaType ?? 'protobuf', name: componentNames.apiserver, etcdServers: etcdNames, nodes: nodeNames }));
    const wanted = { controllerManager: true, scheduler: true, kubelets: true, ...config.components };
    this.controllerManager = wanted.controllerManager ? this.engine.add(new KubeControllerManager({ name: componentNames.controllerManager })) : null;
    this.scheduler = wanted.scheduler ? this.engine.add(new KubeScheduler({
      name: componentNames.scheduler, ...(config.schedulerAttemptLimit !== undefined ? { attemptLimit: config.schedulerAttemptLimit } : {}),
    })) : null;
    this.kubelets = wanted.kubelets ? nodeNames.map((node, i) => this.engine.add(new Kubelet({ node, index: i + 1, name: componentNames.kubelet(node) }))) : [];
    const components: ComponentInfo[] = [
      { name: componentNames.user, role: 'user', modelled: true },
      { name: componentNames.apiserver, role: 'kube-apiserver', modelled: true },
      ...etcdNames.map((name): ComponentInfo => ({ name, role: 'etcd', modelled: true })),
      { name: componentNames.controllerManager, role: 'kube-controller-manager', modelled: wanted.controllerManager },
      { name: componentNames.scheduler, role: 'kube-scheduler', modelled: wanted.scheduler },
      ...nodeNames.map((node): ComponentInfo => ({ name: componentNames.kubelet(node), role: 'kubelet', node, modelled: wanted.kubelets })),
    ];
    const links: LinkInfo[] = [
      { a: componentNames.user, b: componentNames.apiserver, latency: latencies.user, jitter: latencies.jitter },
      ...etcdNames.map((name): LinkInfo => ({ a: componentNames.user, b: name, latency: latencies.user, jitter: latencies.jitter })),
      ...etcdNames.map((name): LinkInfo => ({ a: componentNames.apiserver, b: name, latency: latencies.etcd, jitter: latencies.jitter })),
      // The members' peer links (raft), without jitter: raft traffic draws nothing from the engine's RNG.
      ...etcdNames.flatMap((a, i) => etcdNames.slice(i + 1).map((b): LinkInfo => ({ a, b, latency: latencies.etcd, jitter: 0 }))),
      { a: componentNames.controllerManager, b: componentNames.apiserver, latency: latencies.control, jitter: latencies.jitter },
      { a: componentNames.scheduler, b: componentNames.apiserver, latency: latencies.control, jitter: latencies.jitter },
      ...nodeNames.map((node): LinkInfo => ({ a: componentNames.kubelet(node), b: componentNames.apiserver, latency: latencies.control, jitter: latencies.jitter })),
    ];
    const modelled = new Set(components.filter((c) => c.modelled).map((c) => c.name));
    for (const l of links.filter((link) => modelled.has(link.a) && modelled.has(link.b))) {
      this.engine.link(l.a, l.b, { latency: l.latency, jitter: l.jitter });
    }
    this.topology = { components, links };
    this.faults = clusterFaults(this);
    if (memberCount > 1) for (const member of this.etcdMembers) (member as Component as EtcdServer).startRaft();
    this.apiserver.start();
  }

  /**
   * Brings the control plane up: runs until the apiserver has bootstrapped, then starts the kubelets
   * (which register their nodes), the scheduler and the controller manager, and runs until they have
   * listed and are watching. Returns the number of steps boot took.
   */
  boot(): number {
    this.engine.runUntilIdle();
    this.startWorkloads();
    this.engine.runUntilIdle();
    return this.engine.step;
  }

  /** Boot's second phase: starts the kubelets, the scheduler and the controller manager. */
  startWorkloads(): void {
    for (const kubelet of this.kubelets) kubelet.start();
    this.scheduler?.start();
    this.controllerManager?.start();
  }

  /** Injects a fault (see faults.ts) as a user action; it takes effect when the engine delivers it. */
  fault(fault: Fault): Message<Fault> {
    return injectFault(this, fault);
  }
}

/**
 * kube-apiserver's --max-requests-inflight / --max-mutating-requests-inflight for a cluster of `nodes`
 * nodes when none are given: the defaults (400 / 200) up to 100 nodes, then 4 and 2 per node. A large
 * cluster runs with raised flags (Kubernetes' scalability tests raise them): at the defaults, 5,000
 * kubelets registering at once meet 429s wave after wave (the client retries after Retry-After: 1, the
 * kubelet's registration after 200 ms … 7 s) and the boot takes 3.1 million deliveries instead of 1.8
 * million.
 */
export function largeClusterMaxInFlight(nodes: number): MaxInFlightLimits | null {
  return nodes > 100 ? { readOnly: 4 * nodes, mutating: 2 * nodes } : null;
}

export function createCluster<E extends Component>(config: ClusterConfig<E> & { readonly etcdMember: (name: string) => E }): Cluster<E>;
export function createCluster(config: ClusterConfig): Cluster;
export function createCluster<E extends Component>(config: ClusterConfig<E>): Cluster<E> {
  return new Cluster(config);
}

// kube-controller-manager: one process (one engine component) running the deployment, replicaset,
// garbage collector, node lifecycle and namespace controllers over one shared informer factory, one REST client and one event broadcaster.
// Models k8s cmd/kube-controller-manager/app/controllermanager.go (StartControllers, informers started
// after the controllers registered their handlers, WaitForCacheSync before workers) and apps.go
// (startReplicaSetController, startDeploymentController: 5 workers each, --concurrent-*-syncs).
//
// Leader election first (the kube-system/kube-controller-manager Lease, client-go's elector), the
// controllers once it leads: deployment, replicaset, garbage collector, node lifecycle, serviceaccount,
// root-ca-cert-publisher, endpoints and endpointslice.
// Not modelled: the other controllers, protobuf.

import { builtinTokens } from '../wire/credentials.ts';
import type { Lease } from '../api/types/coordination.ts';
import { ClientComponent, EventBroadcaster, LeaderElector, RestClient, SharedInformerFactory, controllerManagerResyncPeriod } from '../client/index.ts';
import { EndpointsController } from './endpoint/endpoints-controller.ts';
import { EndpointSliceController } from './endpointslice/endpointslice-controller.ts';
import { RootCACertPublisher } from './rootcacertpublisher/publisher.ts';
import { ServiceAccountsController } from './serviceaccount/serviceaccounts-controller.ts';
import { awaitReply, type Co, type Message } from '../engine/index.ts';
import { DeploymentController } from './deployment/deployment-controller.ts';
import { GarbageCollector } from './garbagecollector/garbage-collector.ts';
import { NamespaceController } from './namespace/namespace-controller.ts';
import { NodeLifecycleController } from './nodelifecycle/node-lifecycle-controller.ts';
import { ReplicaSetController } from './replicaset/replicaset-controller.ts';
import type { JoinPayload } from '../messages/index.ts';

export const kubeControllerManagerName = 'kube-controller-manager';

/** The message a controller sends itself to wait for a batch of concurrent requests (a goroutine WaitGroup). */
export const joinKind = 'kcm.join';

export type ControllerName =
  | 'deployment' | 'replicaset' | 'garbagecollector' | 'nodelifecycle' | 'namespace' | 'serviceaccount' | 'root-ca-cert-publisher' | 'endpoint' | 'endpointslice';

export const allControllers: readonly ControllerName[] = [
  'deployment', 'replicaset', 'garbagecollector', 'nodelifecycle', 'namespace', 'serviceaccount', 'root-ca-cert-publisher', 'endpoint', 'endpointslice',
];

/** The control-plane host's name: the first half of the leader-election identities. */
export const controlPlaneHostname = 'control-plane';

export interface KubeControllerManagerOptions {
  readonly name?: string;
  readonly token?: string;
  /** --concurrent-replicaset-syncs (5). */
  readonly replicaSetWorkers?: number;
  /** --concurrent-deployment-syncs (5). */
  readonly deploymentWorkers?: number;
  /** --concurrent-gc-syncs (20). */
  readonly gcWorkers?: number;
  /** --concurrent-namespace-syncs (10). */
  readonly namespaceWorkers?: number;
  /** Which controllers run (all by default). */
  readonly controllers?: readonly ControllerName[];
  /** --leader-elect (true): wait for the kube-system/kube-controller-manager Lease before starting the controllers. */
  readonly leaderElect?: boolean;
}

/** What a controller gets from the process that hosts it. */
export interface ControllerContext {
  readonly host: ClientComponent['host'];
  readonly client: RestClient;
  readonly informers: SharedInformerFactory;
  readonly broadcaster: EventBroadcaster;
  /** Runs `tasks` concurrently and resumes when all of them have finished (sync.WaitGroup). */
  all(label: string, tasks: readonly Co<void>[]): Co<void>;
}

interface Join {
  left: number;
  request: Message | undefined;
}

export class KubeControllerManager extends ClientComponent {
  readonly client: RestClient;
  /** Created by `start`, when the engine's Rng can draw the resync period. */
  informers!: SharedInformerFactory;
  readonly broadcaster: EventBroadcaster;
  replicaSetController: ReplicaSetController | undefined;
  deploymentController: DeploymentController | undefined;
  garbageCollector: GarbageCollector | undefined;
  nodeLifecycleController: NodeLifecycleController | undefined;
  namespaceController: NamespaceController | undefined;
  serviceAccountsController: ServiceAccountsController | undefined;
  rootCACertPublisher: RootCACertPublisher | undefined;
  endpointsController: EndpointsController | undefined;
  endpointSliceController: EndpointSliceController | undefined;
  leaderElector: LeaderElector | undefined;
  private readonly joins = new Map<number, Join>();
  private started = false;

  constructor(private readonly options: KubeControllerManagerOptions = {}) {
    super(options.name ?? kubeControllerManagerName);
    this.client = new RestClient(this.host, options.token ?? builtinTokens.controllerManager);
    this.broadcaster = new EventBroadcaster(this.host, this.client);
  }

  /** Elects itself leader, then registers the controllers, starts the informers, and starts the workers once the caches synced. */
  start(): void {
    if (this.started) return;
    this.started = true;
    if (this.options.leaderElect === false) {
      this.startControllers();
      return;
    }
    this.leaderElector = new LeaderElector(this.host, {
      namespace: 'kube-system', name: kubeControllerManagerName, identity: `${controlPlaneHostname}_${this.rng.uuid()}`,
      leases: this.client.resource<Lease>('leases', 'coordination.k8s.io'),
      recorder: this.broadcaster.newRecorder({ component: kubeControllerManagerName }),
      onStartedLeading: () => this.startControllers(),
    });
    this.leaderElector.run();
  }

  private startControllers(): void {
    // ResyncPeriod: MinResyncPeriod (12 h) × [1, 2), drawn once per process; resyncs are background timers.
    this.informers = new SharedInformerFactory(this.host, this.client, { defaultResync: controllerManagerResyncPeriod(this.rng) });
    const context: ControllerContext = {
      host: this.host, client: this.client, informers: this.informers, broadcaster: this.broadcaster,
      all: (label, tasks) => this.all(label, tasks),
    };
    const enabled = this.options.controllers ?? allControllers;
    if (enabled.includes('deployment')) this.deploymentController = new DeploymentController(context);
    if (enabled.includes('replicaset')) this.replicaSetController = new ReplicaSetController(context);
    if (enabled.includes('garbagecollector')) this.garbageCollector = new GarbageCollector(context);
    if (enabled.includes('nodelifecycle')) this.nodeLifecycleController = new NodeLifecycleController(context);
    if (enabled.includes('namespace')) this.namespaceController = new NamespaceController(context);
    if (enabled.includes('serviceaccount')) this.serviceAccountsController = new ServiceAccountsController(context);
    if (enabled.includes('root-ca-cert-publisher')) this.rootCACertPublisher = new RootCACertPublisher(context);
    if (enabled.includes('endpoint')) this.endpointsController = new EndpointsController(context);
    if (enabled.includes('endpointslice')) this.endpointSliceController = new EndpointSliceController(context);
    this.informers.start();
    this.informers.onSynced(() => {
      this.deploymentController?.run(this.options.deploymentWorkers ?? 5);
      this.replicaSetController?.run(this.options.replicaSetWorkers ?? 5);
      this.garbageCollector?.run(this.options.gcWorkers ?? 20);
      // scheduler.UpdateWorkerSize (8) workers for the NoSchedule tainting pass.
      this.nodeLifecycleController?.run(8);
      this.namespaceController?.run(this.options.namespaceWorkers ?? 10);
      // --concurrent-serviceaccount-token-syncs… the serviceaccount controller runs 1 worker, the publisher 1,
      // --concurrent-endpoint-syncs 5, --concurrent-service-endpoint-syncs 5.
      this.serviceAccountsController?.run(1);
      this.rootCACertPublisher?.run(1);
      this.endpointsController?.run(5);
      this.endpointSliceController?.run(5);
    });
  }

  /** A restarted process builds everything anew: informers list again, controllers start empty. */
  override onStart(): void {
    this.started = false;
    this.joins.clear();
    this.deploymentController = undefined;
    this.replicaSetController = undefined;
    this.garbageCollector = undefined;
    this.nodeLifecycleController = undefined;
    this.namespaceController = undefined;
    this.serviceAccountsController = undefined;
    this.rootCACertPublisher = undefined;
    this.endpointsController = undefined;
    this.endpointSliceController = undefined;
    this.leaderElector?.stop();
    this.leaderElector = undefined;
    this.start();
  }

  private *all(label: string, tasks: readonly Co<void>[]): Co<void> {
    if (tasks.length === 0) return;
    if (tasks.length === 1) {
      yield* tasks[0]!;
      return;
    }
    const join: Join = { left: tasks.length, request: undefined };
    const finish = () => {
      if (--join.left === 0 && join.request) this.reply(join.request, `${joinKind}.done`, { label });
    };
    for (const task of tasks) {
      this.spawn((function* () {
        try {
          yield* task;
        } finally {
          finish();
        }
      })());
    }
    const request = this.send(this.name, joinKind, { label, tasks: tasks.length });
    this.joins.set(request.id, join);
    yield* awaitReply(request.id);
  }

  protected handle(message: Message): void {
    if (this.answerHealthz(message)) return;
    if (message.kind === joinKind) {
      const join = this.joins.get(message.id);
      if (!join) return;
      this.joins.delete(message.id);
      join.request = message;
      if (join.left === 0) this.reply(message, `${joinKind}.done`, message.payload as JoinPayload);
    }
  }
}

// One kubelet per node, composed as upstream composes it: it registers its Node (node-status.ts), keeps
// its Lease in kube-node-lease fresh (node-lease.ts), watches the pods bound to its node and hands each
// change to the pod workers (pod-workers.ts), which sync pods through the runtime manager
// (kuberuntime-manager.ts: image manager, CRI-shaped simulated runtime, prober) and report through the
// status manager (status-manager.ts: `pods/<name>/status`, the final delete) and Events.
//
//   pod informer ──▶ PodWorkers.updatePod ──▶ KubeGenericRuntimeManager ──▶ ImageManager ──▶ SimulatedRuntime (CRI)
//                                                     │  └──▶ ProberManager                  ▲ containerDied (PLEG)
//                                                     └──▶ StatusManager ──▶ PATCH pods/<name>/status, final DELETE
//
// Models pkg/kubelet/kubelet.go (NewMainKubelet, Run, syncLoop's HandlePodAdditions/Updates/Removes).
//
// A stopped kubelet (a fault) restarts as the real process does: it registers again (the Node exists: it
// patches its status), lists its pods again, and keeps the containers that were running unless the node
// itself went down. The kubelet's server (server.ts) answers kube-apiserver's containerLogs, exec,
// attach and portForward requests.
//
// Not modelled: volumes, init containers, cgroups, eviction, the PLEG's relist (the runtime reports a
// container's end itself).

import type { Node, Pod } from '../api/types/core.ts';
import type { Lease } from '../api/types/coordination.ts';
import { builtinTokens } from '../wire/credentials.ts';
import {
  ClientComponent, DeletedFinalStateUnknown, EventBroadcaster, RestClient, SharedInformerFactory,
  type EventRecorder, type SharedIndexInformer, type Typed,
} from '../client/index.ts';
import type { Co, Message, Rng } from '../engine/index.ts';
import { ImageManager } from './image-manager.ts';
import { KubeGenericRuntimeManager } from './kuberuntime-manager.ts';
import { NodeLeaseController } from './node-lease.ts';
import { NodeStatusUpdater } from './node-status.ts';
import { PodWorkers, type ContainerStep } from './pod-workers.ts';
import { ProberManager } from './prober-manager.ts';
import { KubeletServer, type ServedContainer } from './server.ts';
import { SimulatedRuntime, type CrashBehaviour } from './simulated-runtime.ts';
import { StatusManager } from './status-manager.ts';

export interface KubeletOptions {
  /** The node's name, e.g. `node-1`. */
  readonly node: string;
  /** Index of the node (1-based): picks its pod CIDR `10.244.<index-1>.0/24` and InternalIP `172.18.0.<index+1>`. */
  readonly index?: number;
  readonly cpu?: string;
  readonly memory?: string;
  readonly pods?: string;
  readonly labels?: Record<string, string>;
  readonly taints?: NonNullable<Node['spec']>['taints'];
  /** Images already on the node (as written in pod specs, e.g. `nginx:1.14.2`). */
  readonly images?: readonly string[];
  /** Images whose pull fails (ErrImagePull, then ImagePullBackOff). */
  readonly unpullableImages?: readonly string[];
  /** Component name; defaults to `kubelet/<node>`. */
  readonly name?: string;
  readonly token?: string;
}

export class Kubelet extends ClientComponent {
  readonly node: string;
  readonly client: RestClient;
  readonly recorder: EventRecorder;
  factory: SharedInformerFactory;
  pods!: SharedIndexInformer<Pod>;
  /** The kubelet's HTTPS server (:10250): containerLogs, exec, attach, portForward. */
  readonly server: KubeletServer;
  readonly runtime: SimulatedRuntime;
  readonly podWorkers: PodWorkers;
  readonly statusManager: StatusManager;
  readonly runtimeManager: KubeGenericRuntimeManager;
  readonly prober: ProberManager;
  readonly nodeStatus: NodeStatusUpdater;
  readonly nodeLease: NodeLeaseController;

  constructor(readonly options: KubeletOptions) {
    super(options.name ?? `kubelet/${options.node}`);
    this.node = options.node;
    const index = options.index ?? (Number(/(\d+)$/.exec(options.node)?.[1] ?? '1'));
    this.client = new RestClient(this.host, options.token ?? builtinTokens.kubelet(options.node), 'kubelet/v1.28.15 (linux/amd64) kubernetes/8418565');
    this.recorder = new EventBroadcaster(this.host, this.client).newRecorder({ component: 'kubelet', host: options.node });
    this.factory = new SharedInformerFactory(this.host, this.client);
    const isCurrent = (w: Parameters<PodWorkers['isCurrent']>[0]) => this.podWorkers.isCurrent(w);
    this.runtime = new SimulatedRuntime(this.host, {
      index, cpu: options.cpu, images: options.images ?? [], unpullableImages: options.unpullableImages ?? [],
    }, { containerDied: (...args) => this.runtimeManager.containerDied(...args), isCurrent });
    this.nodeStatus = new NodeStatusUpdater(this.host, this.client.resource<Node>('nodes'), { ...options, index }, this.runtime);
    let jitter: Rng | null = null;
    this.nodeLease = new NodeLeaseController(this.host, this.client.resource<Lease>('leases', 'coordination.k8s.io'), options.node, () => this.nodeStatus.nodeUid,
      () => jitter ??= this.engine.stream(`${this.name}/lease-jitter`));
    this.statusManager = new StatusManager(this.host, this.client.resource<Pod>('pods'), this.nodeStatus.internalIP);
    this.prober = new ProberManager(this.host, this.recorder, {
      probeTarget: (w, c) => this.runtimeManager.probeTarget(w, c), isCurrent,
      patchStatus: (pod, w) => this.statusManager.patchStatus(pod, w),
      killForRestart: (...args) => this.runtimeManager.killForRestart(...args),
    });
    const imageManager = new ImageManager(this.host, this.recorder, this.runtime, {
      patchStatus: (pod, w) => this.statusManager.patchStatus(pod, w), isCurrent,
      syncPod: (pod, w) => this.runtimeManager.syncPod(pod, w),
    });
    this.runtimeManager = new KubeGenericRuntimeManager(this.host, this.recorder, {
      runtime: this.runtime, imageManager, statusManager: this.statusManager, prober: this.prober, isCurrent,
    }, `10.244.${index - 1}.1`);
    this.podWorkers = new PodWorkers(this.host, this.recorder, this.runtimeManager);
    this.server = new KubeletServer({
      container: (namespace, pod, container) => this.servedContainer(namespace, pod, container),
      pod: (namespace, pod) => this.podWorkers.workerOf(namespace, pod)?.pod ?? null,
      reply: (request, kind, payload) => this.reply(request, kind, payload),
      send: (to, kind, payload) => this.send(to, kind, payload),
      now: () => this.host.epochMs + this.host.now,
      after: (delay, name, fire) => this.host.after(delay, name, fire, { background: true }),
    });
  }

  /** The Node is registered (created, or found after a restart). */
  get registered(): boolean {
    return this.nodeStatus.registered;
  }

  /** Renewals of the node's Lease done so far. */
  get leaseRenewals(): number {
    return this.nodeLease.renewals;
  }

  /** The renewTime of the newest renewal of the node's Lease. */
  get lastLeaseRenewTime(): string {
    return this.nodeLease.lastRenewTime;
  }

  /** Registers the node, starts the lease loop and the pod informer. */
  start(): void {
    this.host.spawn(this.run());
  }

  /** Pulls of `image` fail from now on (ErrImagePull, then ImagePullBackOff). */
  markUnpullable(image: string): void {
    this.runtime.markUnpullable(image);
  }

  /** Containers of `image` started from now on exit after `crash.afterMs` with `crash.exitCode`. */
  makeImageCrash(image: string, crash: CrashBehaviour): void {
    this.runtime.makeImageCrash(image, crash);
  }

  /** Each pod's container start or stop under way, for the UI (pod-workers.ts containerSteps). */
  containerSteps(): ContainerStep[] {
    return this.podWorkers.containerSteps();
  }

  /** The node lost power: every container is gone (call before the engine stops the kubelet). */
  loseContainers(): void {
    this.podWorkers.clear();
  }

  /**
   * The process restarts: containers that were running keep running (the runtime outlived the kubelet);
   * pods caught mid-start are started again. It registers and lists anew.
   */
  override onStart(): void {
    for (const w of this.podWorkers.keepRunning()) {
      // The status manager starts with an empty cache: each kept pod's status is written again.
      w.lastStatus = undefined;
      w.conditionTimes = {};
      // The processes ran on; the timers that stood for them died with the process: arm them again, and
      // the prober starts its workers afresh.
      for (const c of w.containers) {
        this.runtime.resumeProcess(c);
        c.probes = [];
        this.prober.startProbes(w.pod, w, c);
      }
    }
    this.start();
  }

  /** Requests to the kubelet's server; everything else is the client library's. */
  protected handle(message: Message): void {
    this.server.receive(message);
  }

  /** A container as the kubelet's server sees it, or null when the pod is not on this node. */
  private servedContainer(namespace: string, pod: string, container: string): ServedContainer | null {
    const w = this.podWorkers.workerOf(namespace, pod);
    const c = w?.containers.find((x) => x.name === container);
    if (!w || !c) return null;
    const status = this.statusManager.podStatus(w.pod, w).containerStatuses?.find((s) => s.name === container);
    return {
      status: status ?? null,
      log: c.log,
      ...(c.previousLog ? { previousLog: c.previousLog } : {}),
      running: c.state === 'running',
      context: () => this.runtime.contextOf(w, c),
      ports: c.spec.ports ?? [],
      server: c.server,
      podIP: w.podIP,
    };
  }

  private *run(): Co<void> {
    // The node reference the kubelet's own events name (kubelet.go: nodeRef, UID = the node's name).
    const nodeRef: Typed = { kind: 'Node', apiVersion: '', metadata: { name: this.node, uid: this.node } }; // no apiVersion, as upstream's
    // Models pkg/kubelet/kubelet.go Run (StartingKubelet) and kubelet_node_status.go / nodestatus setters
    // (recordNodeStatusEvent: "Node %s status is now: %s"), cm's NodeAllocatableEnforced: the events a
    // starting kubelet records, in the order a fresh node shows them.
    this.recorder.event(nodeRef, 'Normal', 'Starting', 'Starting kubelet.');
    yield* this.nodeStatus.registerNode();
    for (const status of ['NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID']) {
      this.recorder.event(nodeRef, 'Normal', status, `Node ${this.node} status is now: ${status}`);
    }
    this.recorder.event(nodeRef, 'Normal', 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods');
    this.recorder.event(nodeRef, 'Normal', 'NodeReady', `Node ${this.node} status is now: NodeReady`);
    yield* this.nodeLease.renewLease();
    this.factory = new SharedInformerFactory(this.host, this.client);
    this.pods = this.factory.informerFor<Pod>('pods', '', { fieldSelector: `spec.nodeName=${this.node}` });
    this.pods.addEventHandler({
      onAdd: (pod) => this.podWorkers.updatePod(pod),
      onUpdate: (_old, pod) => this.podWorkers.updatePod(pod),
      onDelete: (pod) => this.podWorkers.removePod(pod instanceof DeletedFinalStateUnknown ? pod.obj : pod),
    });
    this.factory.start();
  }
}

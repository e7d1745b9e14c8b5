// One kubelet per node: registers its Node, keeps its Lease in kube-node-lease fresh, watches the pods
// bound to its node and runs them on a simulated container runtime with virtual durations, reporting
// through `pods/<name>/status` and Events; a deleted pod goes through graceful termination.
//
// Models pkg/kubelet/kubelet.go (syncPod, registerWithAPIServer in kubelet_node_status.go),
// pkg/kubelet/kubelet_pods.go (generateAPIPodStatus), pkg/kubelet/status/status_manager.go,
// pkg/kubelet/images/image_manager.go, pkg/kubelet/kuberuntime/kuberuntime_container.go and
// component-helpers apimachinery/lease/controller.go.
//
// A container of an image marked as crashing exits after its run time; it is restarted with the
// kubelet's per-container back-off (10 s doubling to 5 min, CrashLoopBackOff while waiting), as
// kuberuntime_manager.go doBackOff with flowcontrol.Backoff does. A stopped kubelet (a fault) restarts
// as the real process does: it registers again (the Node exists: it patches its status), lists its
// pods again, and keeps the containers that were running unless the node itself went down.
//
// Containers run their processes in virtual time (programs.ts): `sleep 10` ends after ten seconds with
// exit code 0 (Completed), nginx serves until stopped; each container keeps its log (container-log.ts).
// Images are checked (InvalidImageName) and pulled from the modelled registry (image-registry.ts).
// Startup, liveness and readiness probes run on their periods (prober.ts), with Unhealthy events,
// restarts and Ready transitions; postStart and preStop hooks run at start and stop. The kubelet's
// server (server.ts) answers kube-apiserver's containerLogs, exec, attach and portForward requests.
//
// Not modelled: volumes, init containers, cgroups, eviction, the PLEG. Node status is written at
// registration and on each restart (the 10 s "only when changed" loop would never write since nothing
// else changes it, and the 5 min report is left out).

import { isStatusError } from '../api/errors.ts';
import { formatMicroTimestamp, formatTimestamp } from '../api/time.ts';
import type { Container, ContainerStatus, Node, Pod, PodCondition, PodStatus, Probe } from '../api/types/core.ts';
import type { Lease } from '../api/types/coordination.ts';
import type { KubeObject, Status } from '../api/types/meta.ts';
import { builtinTokens } from '../wire/credentials.ts';
import {
  ClientComponent, DeletedFinalStateUnknown, EventBroadcaster, RestClient, SharedInformerFactory,
  type EventRecorder, type ResourceClient, type SharedIndexInformer,
} from '../client/index.ts';
import type { Co, Duration, Message } from '../engine/index.ts';
import { mergePodStatus, podStatusPatch } from './status-patch.ts';
import { ContainerLog } from './container-log.ts';
import { applyDefaultImageTag, imageServers, localImage, notFoundError, resolveImage, type ImageConfig, type ImageServer } from './image-registry.ts';
import { containerArgv, mainProgram, runMain, type ContainerContext, type Program } from './programs.ts';
import { runHook, runProbe, type LifecycleHandler, type ProbeTarget } from './prober.ts';
import { KubeletServer, type ServedContainer } from './server.ts';
import type { TimerHandle } from '../client/client-component.ts';

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

/** format.Pod: `name_namespace(uid)`, as the kubelet names a pod in its messages. */
function podDescription(w: { name: string; namespace: string; uid: string }): string {
  return `${w.name}_${w.namespace}(${w.uid})`;
}

/** A pod as its sleeps name it (SleepReason.pod): `namespace/name`. */
function podKey(pod: Pod): string {
  return `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name ?? ''}`;
}

/** Virtual durations of the simulated runtime (ms). */
export const runtimeDurations = {
  sandbox: 400,
  pullMin: 1500,
  pullSpread: 3000,
  create: 60,
  start: 80,
  stop: 300,
  leaseRenewInterval: 10_000,
  leaseDurationSeconds: 40,
  imagePullBackOffInitial: 10_000,
  imagePullBackOffMax: 300_000,
  /** Container restart back-off (kubelet.go: backOffPeriod 10 s, MaxContainerBackOff 300 s). */
  crashLoopBackOffInitial: 10_000,
  crashLoopBackOffMax: 300_000,
} as const;

/** How the containers of a crashing image end: after `afterMs` of running, with `exitCode`. */
export interface CrashBehaviour {
  readonly afterMs: Duration;
  readonly exitCode: number;
}

/** Go's time.Duration.String for a whole number of milliseconds (`850ms`, `3.456s`, `1m2.5s`). */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const minutes = Math.floor(ms / 60_000);
  const restMs = ms - minutes * 60_000;
  const secs = `${Math.floor(restMs / 1000)}${restMs % 1000 ? `.${String(restMs % 1000).padStart(3, '0').replace(/0+$/, '')}` : ''}s`;
  return minutes > 0 ? `${minutes}m${secs}` : secs;
}

/** The fully qualified reference a container runtime reports (`nginx:1.14.2` → `docker.io/library/nginx:1.14.2`). */
export function normalizeImage(image: string): string {
  let ref = image;
  const slash = ref.indexOf('/');
  const first = slash < 0 ? '' : ref.slice(0, slash);
  if (slash < 0) ref = `docker.io/library/${ref}`;
  else if (!first.includes('.') && !first.includes(':') && first !== 'localhost') ref = `docker.io/${ref}`;
  const last = ref.slice(ref.lastIndexOf('/') + 1);
  if (!last.includes(':') && !ref.includes('@')) ref = `${ref}:latest`;
  return ref;
}

interface Termination {
  exitCode: number;
  reason: string;
  startedAt: string | null;
  finishedAt: string;
  containerID: string;
}

/**
 * getPhase: Pending while a container waits without having run; Running while one runs or, under
 * restartPolicy Always, while exited containers are to be restarted; Succeeded or Failed once all
 * stopped for good.
 */
function podPhase(pod: Pod, containers: readonly RunningContainer[]): PodStatus['phase'] {
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const c of containers) {
    if (c.state === 'running') running++;
    else if (c.state === 'terminated') {
      stopped++;
      if (c.terminated?.exitCode === 0) succeeded++;
    } else if (c.lastTerminated) stopped++;
    else waiting++;
  }
  if (waiting > 0) return 'Pending';
  if (running > 0) return 'Running';
  if (stopped === 0) return 'Pending';
  const policy = pod.spec.restartPolicy ?? 'Always';
  if (policy === 'Always') return 'Running';
  if (stopped === succeeded) return 'Succeeded';
  return policy === 'Never' ? 'Failed' : 'Running';
}

/** One probe worker's state: the last result and how many times in a row it came. */
interface ProbeWorker {
  readonly type: 'startup' | 'liveness' | 'readiness';
  readonly probe: Probe;
  last: boolean | null;
  run: number;
  timer: TimerHandle | null;
}

interface RunningContainer {
  name: string;
  image: string;
  spec: Container;
  /** The image's config once pulled or found on the node. */
  config?: ImageConfig;
  /** The current instance's log, and the one before it (`--previous`). */
  log: ContainerLog;
  previousLog?: ContainerLog;
  /** The container's writable files (image files plus what its processes wrote). */
  files: Map<string, string>;
  /** Bumped at every start and stop: timers of an older instance find it changed and do nothing. */
  instance: number;
  /** What the main process serves once it is up; null while it serves nothing. */
  server: ImageServer | null;
  /** Whether the main process stops at SIGTERM (servers) or only at SIGKILL after the grace period (sleep, sh). */
  handlesTerm: boolean;
  probes: ProbeWorker[];
  /** Readiness probe result (true without a readiness probe). */
  readyResult: boolean;
  /** Startup probe result (true without a startup probe). */
  startedResult: boolean;
  /** The program's pending wake-up (its sleep) until it fires; re-armed when the kubelet restarts (its timers died with it). */
  wake?: { readonly at: number; readonly resume: () => void };
  containerID: string;
  imageID: string;
  startedAt: string | null;
  state: 'waiting' | 'running' | 'terminated';
  waitingReason: string;
  waitingMessage?: string;
  restartCount: number;
  /** The current termination, while state is 'terminated'. */
  terminated?: Termination;
  /** The previous termination (status lastState). */
  lastTerminated?: Termination;
  /** The runtime step of the newest start under way, for the UI; unset until its image is pulled or checked. */
  step?: 'pulling' | 'creating' | 'starting';
}

/** A pod's container start in progress on a kubelet, as the UI shows it. */
export interface ContainerStep {
  /** `namespace/name`. */
  readonly pod: string;
  readonly container: string;
  /** `sandbox`, `pulling`, `creating`, `starting`, `stopping`, or the waiting reason (`ImagePullBackOff`, `CrashLoopBackOff`…). */
  readonly step: string;
}

/** One entry of flowcontrol.Backoff: the current back-off and the time of the event that set it. */
interface BackoffEntry {
  backoff: Duration;
  lastUpdate: number;
}

interface PodWorker {
  uid: string;
  namespace: string;
  name: string;
  startTime: string;
  podIP: string;
  containers: RunningContainer[];
  lastStatus: string;
  terminating: boolean;
  conditionTimes: Map<string, { status: string; time: string }>;
  pullBackoff: Duration;
  /** Container restart back-off per container name. */
  restartBackoff: Map<string, BackoffEntry>;
  /** The pod as last seen (for the server and probes). */
  pod: Pod;
}

/** The container context programs see: the pod's name, IP, env and the container's files. */
function envOf(pod: Pod, spec: Container, config: ImageConfig | undefined): [string, string][] {
  const env = new Map<string, string>([...(config?.env ?? []), ['HOSTNAME', pod.metadata.name ?? '']]);
  for (const e of spec.env ?? []) if (e.value !== undefined) env.set(e.name, e.value);
  env.set('KUBERNETES_SERVICE_HOST', '10.96.0.1');
  env.set('KUBERNETES_SERVICE_PORT', '443');
  env.set('KUBERNETES_SERVICE_PORT_HTTPS', '443');
  env.set('KUBERNETES_PORT', 'tcp://10.96.0.1:443');
  env.set('KUBERNETES_PORT_443_TCP', 'tcp://10.96.0.1:443');
  env.set('KUBERNETES_PORT_443_TCP_PROTO', 'tcp');
  env.set('KUBERNETES_PORT_443_TCP_PORT', '443');
  env.set('KUBERNETES_PORT_443_TCP_ADDR', '10.96.0.1');
  env.set('HOME', '/root');
  return [...env];
}

const probeTypes = { startup: 'Startup', liveness: 'Liveness', readiness: 'Readiness' } as const;

/** Whether a container counts as ready: running, started and (with a readiness probe) passing it. */
function containerReady(c: RunningContainer): boolean {
  return c.state === 'running' && c.startedResult && c.readyResult;
}

export class Kubelet extends ClientComponent {
  readonly node: string;
  readonly client: RestClient;
  readonly recorder: EventRecorder;
  factory: SharedInformerFactory;
  pods!: SharedIndexInformer<Pod>;
  private readonly podsApi: ResourceClient<Pod>;
  private readonly leases: ResourceClient<Lease>;
  private readonly images: Set<string>;
  private readonly unpullable: Set<string>;
  private readonly crashing = new Map<string, CrashBehaviour>();
  private readonly workers = new Map<string, PodWorker>();
  /** The kubelet's HTTPS server (:10250): containerLogs, exec, attach, portForward. */
  readonly server: KubeletServer;
  private nextIP = 2;
  private readonly index: number;
  /** Renewals done so far (the lease's renewTime each time). */
  readonly leaseRenewals: string[] = [];
  registered = false;
  private nodeUid = '';

  constructor(readonly options: KubeletOptions) {
    super(options.name ?? `kubelet/${options.node}`);
    this.node = options.node;
    this.index = options.index ?? (Number(/(\d+)$/.exec(options.node)?.[1] ?? '1'));
    this.client = new RestClient(this.host, options.token ?? builtinTokens.kubelet(options.node), 'kubelet/v1.28.15 (linux/amd64) kubernetes/8418565');
    this.recorder = new EventBroadcaster(this.host, this.client).newRecorder({ component: 'kubelet', host: options.node });
    this.factory = new SharedInformerFactory(this.host, this.client);
    this.podsApi = this.client.resource<Pod>('pods');
    this.leases = this.client.resource<Lease>('leases', 'coordination.k8s.io');
    this.images = new Set(options.images ?? []);
    this.unpullable = new Set(options.unpullableImages ?? []);
    this.server = new KubeletServer({
      container: (namespace, pod, container) => this.servedContainer(namespace, pod, container),
      pod: (namespace, pod) => this.workerOf(namespace, pod)?.pod ?? null,
      reply: (request, kind, payload) => this.reply(request, kind, payload),
      send: (to, kind, payload) => this.send(to, kind, payload),
      now: () => this.host.epochMs + this.host.now,
      after: (delay, name, fire) => this.host.after(delay, name, fire, { background: true }),
    });
  }

  get podCIDR(): string {
    return `10.244.${this.index - 1}.0/24`;
  }

  get internalIP(): string {
    return `172.18.0.${this.index + 1}`;
  }

  /** Registers the node, starts the lease loop and the pod informer. */
  start(): void {
    this.host.spawn(this.run());
  }

  /** Pulls of `image` fail from now on (ErrImagePull, then ImagePullBackOff). */
  markUnpullable(image: string): void {
    this.unpullable.add(image);
  }

  /** Containers of `image` started from now on exit after `crash.afterMs` with `crash.exitCode`. */
  makeImageCrash(image: string, crash: CrashBehaviour): void {
    this.crashing.set(image, crash);
  }

  /**
   * The first container of each pod that is not running yet or is being stopped, with the runtime step it
   * is at; read-only, for the UI. Before its image is pulled a new pod is creating its sandbox.
   */
  containerSteps(): ContainerStep[] {
    // Sampled after every delivery to the kubelet: no allocation for the pods whose containers all run.
    const steps: ContainerStep[] = [];
    for (const w of this.workers.values()) {
      let waiting: RunningContainer | undefined;
      let running = false;
      for (const c of w.containers) {
        if (c.state === 'running') running = true;
        else if (c.state === 'waiting' && waiting === undefined) waiting = c;
      }
      if (w.terminating) {
        if (running) steps.push({ pod: `${w.namespace}/${w.name}`, container: w.containers[0]?.name ?? '', step: 'stopping' });
        continue;
      }
      if (waiting === undefined) continue;
      const step = waiting.waitingReason !== 'ContainerCreating' ? waiting.waitingReason : waiting.step ?? (waiting.containerID ? 'pulling' : 'sandbox');
      steps.push({ pod: `${w.namespace}/${w.name}`, container: waiting.name, step });
    }
    return steps;
  }

  /** The node lost power: every container is gone (call before the engine stops the kubelet). */
  loseContainers(): void {
    this.workers.clear();
  }

  /**
   * The process restarts: containers that were running keep running (the runtime outlived the kubelet);
   * pods caught mid-start are started again. It registers and lists anew.
   */
  override onStart(): void {
    for (const [uid, w] of this.workers) {
      if (w.terminating || !w.containers.every((c) => c.state === 'running')) {
        this.workers.delete(uid);
        continue;
      }
      // The status manager starts with an empty cache: each kept pod's status is written again.
      w.lastStatus = '';
      w.conditionTimes.clear();
      // The processes ran on; the timers that stood for them died with the process: arm them again, and
      // the prober starts its workers afresh.
      for (const c of w.containers) {
        const wake = c.wake;
        if (wake) this.host.after(Math.max(0, wake.at - this.host.now), 'container-process', wake.resume, { background: true });
        c.probes = [];
        this.startProbes(w.pod, w, c);
      }
    }
    this.start();
  }

  /** Requests to the kubelet's server; everything else is the client library's. */
  protected handle(message: Message): void {
    this.server.receive(message);
  }

  private workerOf(namespace: string, name: string): PodWorker | undefined {
    for (const w of this.workers.values()) if (w.namespace === namespace && w.name === name) return w;
    return undefined;
  }

  /** A container as the kubelet's server sees it, or null when the pod is not on this node. */
  private servedContainer(namespace: string, pod: string, container: string): ServedContainer | null {
    const w = this.workerOf(namespace, pod);
    const c = w?.containers.find((x) => x.name === container);
    if (!w || !c) return null;
    const status = this.podStatus(w.pod, w).containerStatuses?.find((s) => s.name === container);
    return {
      status: status ?? null,
      log: c.log,
      ...(c.previousLog ? { previousLog: c.previousLog } : {}),
      running: c.state === 'running',
      context: () => this.contextOf(w, c),
      ports: c.spec.ports ?? [],
      server: c.server,
      podIP: w.podIP,
    };
  }

  private *run(): Co<void> {
    // The node reference the kubelet's own events name (kubelet.go: nodeRef, UID = the node's name).
    const nodeRef = { kind: 'Node', metadata: { name: this.node, uid: this.node } } as KubeObject;
    // Models pkg/kubelet/kubelet.go Run (StartingKubelet) and kubelet_node_status.go / nodestatus setters
    // (recordNodeStatusEvent: "Node %s status is now: %s"), cm's NodeAllocatableEnforced: the events a
    // starting kubelet records, in the order a fresh node shows them.
    this.recorder.event(nodeRef, 'Normal', 'Starting', 'Starting kubelet.');
    yield* this.registerNode();
    for (const status of ['NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID']) {
      this.recorder.event(nodeRef, 'Normal', status, `Node ${this.node} status is now: ${status}`);
    }
    this.recorder.event(nodeRef, 'Normal', 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods');
    this.recorder.event(nodeRef, 'Normal', 'NodeReady', `Node ${this.node} status is now: NodeReady`);
    yield* this.renewLease();
    this.factory = new SharedInformerFactory(this.host, this.client);
    this.pods = this.factory.informerFor<Pod>('pods', '', { fieldSelector: `spec.nodeName=${this.node}` });
    this.pods.addEventHandler({
      onAdd: (pod) => this.podChanged(pod),
      onUpdate: (_old, pod) => this.podChanged(pod),
      onDelete: (pod) => {
        const p = pod instanceof DeletedFinalStateUnknown ? pod.obj : pod;
        this.podRemoved(p);
      },
    });
    this.factory.start();
  }

  // Models pkg/kubelet/kubelet_node_status.go registerWithAPIServer / initialNode.
  nodeObject(): Node {
    const t = formatTimestamp(this.host.epochMs + this.host.now);
    const cpu = this.options.cpu ?? '4';
    const memory = this.options.memory ?? '8Gi';
    const pods = this.options.pods ?? '110';
    const condition = (type: string, status: 'True' | 'False', reason: string, message: string) => ({
      type, status, lastHeartbeatTime: t, lastTransitionTime: t, reason, message,
    });
    return {
      apiVersion: 'v1', kind: 'Node',
      metadata: {
        name: this.node,
        labels: {
          'beta.kubernetes.io/arch': 'amd64', 'beta.kubernetes.io/os': 'linux',
          'kubernetes.io/arch': 'amd64', 'kubernetes.io/hostname': this.node, 'kubernetes.io/os': 'linux',
          ...this.options.labels,
        },
        annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
      },
      spec: { podCIDR: this.podCIDR, podCIDRs: [this.podCIDR], ...(this.options.taints ? { taints: this.options.taints } : {}) },
      status: {
        capacity: { cpu, 'ephemeral-storage': '102625208Ki', 'hugepages-2Mi': '0', memory, pods },
        allocatable: { cpu, 'ephemeral-storage': '102625208Ki', 'hugepages-2Mi': '0', memory, pods },
        conditions: [
          condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
          condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
          condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
          condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
        ],
        addresses: [{ type: 'InternalIP', address: this.internalIP }, { type: 'Hostname', address: this.node }],
        daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
        nodeInfo: {
          machineID: '', systemUUID: '', bootID: '', kernelVersion: '6.5.0', osImage: 'Debian GNU/Linux 12 (bookworm)',
          containerRuntimeVersion: 'containerd://1.7.1', kubeletVersion: 'v1.28.15', kubeProxyVersion: 'v1.28.15',
          operatingSystem: 'linux', architecture: 'amd64',
        },
        images: [...this.images].map((i) => ({ names: [normalizeImage(i)], sizeBytes: 50_000_000 })),
      },
    };
  }

  private *registerNode(): Co<void> {
    const nodes = this.client.resource<Node>('nodes');
    try {
      this.nodeUid = (yield* nodes.create(undefined, this.nodeObject())).metadata.uid ?? '';
    } catch (err) {
      if (!isStatusError(err) || err.code !== 409) throw err;
      this.nodeUid = (yield* nodes.get(undefined, this.node)).metadata.uid ?? '';
      // The node exists (a restart): tryUpdateNodeStatus reports fresh conditions at once.
      try {
        yield* nodes.patch(undefined, this.node, 'application/strategic-merge-patch+json',
          { status: { conditions: this.nodeObject().status?.conditions } }, { subresource: 'status' });
      } catch (patchErr) {
        if (!isStatusError(patchErr)) throw patchErr;
      }
    }
    this.registered = true;
  }

  // Models component-helpers apimachinery/lease/controller.go (ensureLease, renewLease).
  private *renewLease(): Co<void> {
    const renewTime = formatMicroTimestamp(this.host.epochMs + this.host.now);
    try {
      let lease: Lease | undefined;
      try {
        lease = yield* this.leases.get('kube-node-lease', this.node);
      } catch (err) {
        if (!isStatusError(err) || err.code !== 404) throw err;
      }
      if (!lease) {
        yield* this.leases.create('kube-node-lease', {
          apiVersion: 'coordination.k8s.io/v1', kind: 'Lease',
          metadata: {
            name: this.node, namespace: 'kube-node-lease',
            ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: this.node, uid: this.nodeUid }],
          },
          spec: { holderIdentity: this.node, leaseDurationSeconds: runtimeDurations.leaseDurationSeconds, renewTime },
        });
      } else {
        yield* this.leases.update({ ...lease, spec: { ...lease.spec, holderIdentity: this.node, renewTime } });
      }
      this.leaseRenewals.push(renewTime);
    } catch (err) {
      if (!isStatusError(err)) throw err;
    }
    this.host.after(runtimeDurations.leaseRenewInterval, 'node-lease-renew', () => this.host.spawn(this.renewLease()), { background: true });
  }

  /**
   * The pod is gone from the API (a grace-0 delete, or the kubelet's own final delete): its containers
   * still running are stopped, with the Killing event the real kubelet records.
   */
  // Models pkg/kubelet/kubelet.go HandlePodRemoves → pod_workers.go (kill with the pod's grace) and
  // kuberuntime_container.go killContainer ("Stopping container X").
  private podRemoved(pod: Pod): void {
    const w = this.workers.get(pod.metadata.uid ?? '');
    if (!w) return;
    this.workers.delete(w.uid);
    if (w.terminating) return;
    w.terminating = true;
    for (const c of w.containers) {
      if (c.state !== 'running') continue;
      this.recorder.event(pod, 'Normal', 'Killing', `Stopping container ${c.name}`);
      this.stopProcess(c);
    }
  }

  private podChanged(pod: Pod): void {
    const uid = pod.metadata.uid ?? '';
    const worker = this.workers.get(uid);
    if (worker) worker.pod = pod;
    if (pod.metadata.deletionTimestamp) {
      if (worker && !worker.terminating) {
        worker.terminating = true;
        this.host.spawn(this.killPod(pod, worker));
      } else if (!worker) {
        this.host.spawn(this.deletePod(pod));
      }
      return;
    }
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return;
    if (worker && worker.lastStatus === '' && worker.containers.every((c) => c.state === 'running')) {
      this.host.spawn(this.patchStatus(pod, worker));
      return;
    }
    if (!worker) {
      const w: PodWorker = {
        uid, namespace: pod.metadata.namespace ?? 'default', name: pod.metadata.name ?? '',
        startTime: formatTimestamp(this.host.epochMs + this.host.now),
        podIP: `10.244.${this.index - 1}.${this.nextIP++}`,
        containers: pod.spec.containers.map((c): RunningContainer => ({
          name: c.name, image: c.image ?? '', spec: c, containerID: '', imageID: '', startedAt: null,
          state: 'waiting', waitingReason: 'ContainerCreating', restartCount: 0,
          log: new ContainerLog(), files: new Map(), instance: 0, server: null, handlesTerm: true, probes: [],
          readyResult: !c.readinessProbe, startedResult: !c.startupProbe,
        })),
        lastStatus: '', terminating: false, conditionTimes: new Map(), pullBackoff: runtimeDurations.imagePullBackOffInitial,
        restartBackoff: new Map(), pod,
      };
      this.workers.set(uid, w);
      this.host.spawn(this.syncPod(pod, w));
    }
  }

  // Models pkg/kubelet/kubelet.go SyncPod and kuberuntime_manager.go SyncPod (sandbox, then containers in order).
  private *syncPod(pod: Pod, w: PodWorker): Co<void> {
    yield* this.patchStatus(pod, w);
    if (!w.containers.some((c) => c.containerID)) yield* this.host.sleep(runtimeDurations.sandbox, { reason: 'pod-sandbox', pod: podKey(pod) });
    for (const c of w.containers) {
      if (w.terminating) return;
      if (c.state === 'running') continue;
      const started = yield* this.startContainer(pod, w, c);
      if (!started) return;
    }
    if (w.terminating) return;
    yield* this.patchStatus(pod, w);
  }

  /** EnsureImageExists, then create and start one container. False when the pull failed or the pod is going away. */
  private *startContainer(pod: Pod, w: PodWorker, c: RunningContainer): Co<boolean> {
    const spec = c.spec;
    const ok = yield* this.pullImage(pod, w, c, spec.imagePullPolicy);
    if (!ok || w.terminating) return false;
    yield* this.host.sleep(runtimeDurations.create, { reason: 'container-create', pod: podKey(pod), container: c.name });
    c.containerID = `containerd://${this.hex(64)}`;
    c.step = 'starting';
    this.recorder.event(pod, 'Normal', 'Created', `Created container ${c.name}`);
    yield* this.host.sleep(runtimeDurations.start, { reason: 'container-start', pod: podKey(pod), container: c.name });
    if (w.terminating) return false;
    c.state = 'running';
    c.terminated = undefined;
    c.startedAt = formatTimestamp(this.host.epochMs + this.host.now);
    c.instance++;
    if (c.restartCount > 0) {
      c.previousLog = c.log;
      c.log = new ContainerLog();
    }
    c.readyResult = !spec.readinessProbe;
    c.startedResult = !spec.startupProbe;
    c.server = null;
    this.recorder.event(pod, 'Normal', 'Started', `Started container ${c.name}`);
    const instance = c.instance;
    this.startProcess(pod, w, c);
    const postStart = (spec.lifecycle as { postStart?: LifecycleHandler } | undefined)?.postStart;
    if (postStart) {
      const hook = runHook(postStart, this.probeTarget(w, c), podDescription(w));
      if (hook.ms > 0) yield* this.host.sleep(hook.ms, { reason: 'post-start-hook', pod: podKey(pod), container: c.name });
      if (c.instance !== instance || w.terminating) return false;
      if (hook.error !== null) {
        // Models kuberuntime_container.go startContainer: FailedPostStartHook, then killContainer.
        this.recorder.event(pod, 'Warning', 'FailedPostStartHook', hook.error);
        const exitCode = yield* this.killContainer(pod, w, c, 'FailedPostStartHook', this.gracePeriodMs(pod));
        yield* this.containerExited(pod, w, c, exitCode, c.instance);
        return true;
      }
    }
    this.startProbes(pod, w, c);
    return true;
  }

  /** The container's process: the program its command (or image) names, or the crash an image is made to have. */
  private startProcess(pod: Pod, w: PodWorker, c: RunningContainer): void {
    const instance = c.instance;
    const crash = this.crashing.get(c.image);
    if (crash) {
      // A container's run is background work: a pod in CrashLoopBackOff leaves the engine idle between restarts.
      c.handlesTerm = true;
      this.host.after(crash.afterMs, 'container-exit', () => this.host.spawn(this.containerExited(pod, w, c, crash.exitCode, instance)), { background: true });
      return;
    }
    const argv = containerArgv(c.config ?? localImage(normalizeImage(c.image).replace(/:[^:/]+$/, ''), 'latest'), c.spec.command, c.spec.args);
    const program = runMain(argv, this.contextOf(w, c));
    const main = mainProgram(argv);
    // Servers stop at SIGTERM; a shell or sleep as PID 1 ignores it and is killed at the end of the grace period.
    c.handlesTerm = !['sh', 'bash', 'ash', 'sleep', ''].includes(main);
    this.drive(pod, w, c, program, instance, main);
  }

  /** Runs the program's steps up to its next sleep, its serving, or its end (then the container exits). */
  private drive(pod: Pod, w: PodWorker, c: RunningContainer, program: Program, instance: number, main: string): void {
    for (;;) {
      if (c.instance !== instance || this.workers.get(w.uid) !== w) return;
      const next = program.next();
      if (next.done) {
        const exitCode = next.value;
        this.host.after(0, 'container-exit', () => this.host.spawn(this.containerExited(pod, w, c, exitCode, instance)), { background: true });
        return;
      }
      const step = next.value;
      if (step.kind === 'print') {
        c.log.write(this.host.epochMs + this.host.now, step.stream, step.text);
      } else if (step.kind === 'sleep') {
        const resume = () => {
          c.wake = undefined;
          this.drive(pod, w, c, program, instance, main);
        };
        c.wake = { at: this.host.now + step.ms, resume };
        this.host.after(step.ms, 'container-process', resume, { background: true });
        return;
      } else {
        const repository = c.config?.repository ?? '';
        const serverProgram = ['nginx', 'httpd-foreground', 'redis-server', 'mysqld', 'user-service'].includes(main);
        c.server = serverProgram ? imageServers[repository] ?? null : null;
        return;
      }
    }
  }

  /** Stops the container's process and probes (their timers find the instance changed). */
  private stopProcess(c: RunningContainer): void {
    c.instance++;
    for (const p of c.probes) p.timer?.cancel();
    c.probes = [];
    c.server = null;
  }

  private contextOf(w: PodWorker, c: RunningContainer): ContainerContext {
    const config = c.config ?? localImage(normalizeImage(c.image).replace(/:[^:/]+$/, ''), 'latest');
    if (c.files.size === 0) for (const [k, v] of Object.entries(config.files)) c.files.set(k, v);
    const cpus = Number(this.options.cpu ?? '4');
    return {
      podName: w.pod.spec.hostname ?? w.name, podIP: w.podIP, image: config, env: envOf(w.pod, c.spec, c.config), files: c.files,
      now: () => this.host.epochMs + this.host.now, cpus: Number.isFinite(cpus) ? cpus : 4,
    };
  }

  private probeTarget(w: PodWorker, c: RunningContainer): ProbeTarget {
    return {
      podIP: w.podIP, containerName: c.name, ports: c.spec.ports ?? [], server: c.server, ctx: this.contextOf(w, c),
      sourceIP: `10.244.${this.index - 1}.1`,
      log: (stream, text) => c.log.write(this.host.epochMs + this.host.now, stream, text),
    };
  }

  private gracePeriodMs(pod: Pod): number {
    return (pod.metadata.deletionGracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30) * 1000;
  }

  // Models pkg/kubelet/prober/prober_manager.go AddPod and worker.go (run, doProbe): the first probe at
  // initialDelaySeconds after the start, then every periodSeconds; a result counts once it came
  // failureThreshold (or successThreshold) times in a row. Liveness and readiness wait for the startup probe.
  // Deviation: upstream workers tick from the pod's addition (their phase is not the container's start).
  private startProbes(pod: Pod, w: PodWorker, c: RunningContainer): void {
    const instance = c.instance;
    // Liveness and readiness first: at an instant where the startup probe succeeds they have already
    // looked and wait their next period, as upstream's workers (which skip until started) do.
    for (const type of ['liveness', 'readiness', 'startup'] as const) {
      const probe = c.spec[`${type}Probe`];
      if (!probe) continue;
      const worker: ProbeWorker = { type, probe, last: null, run: 0, timer: null };
      c.probes.push(worker);
      worker.timer = this.host.after((probe.initialDelaySeconds ?? 0) * 1000, `${type}-probe`, () => this.probeTick(pod, w, c, worker, instance), { background: true });
    }
  }

  private probeTick(pod: Pod, w: PodWorker, c: RunningContainer, worker: ProbeWorker, instance: number): void {
    if (c.instance !== instance || c.state !== 'running' || this.workers.get(w.uid) !== w || w.terminating) return;
    const period = (worker.probe.periodSeconds ?? 10) * 1000;
    const again = () => {
      worker.timer = this.host.after(period, `${worker.type}-probe`, () => this.probeTick(pod, w, c, worker, instance), { background: true });
    };
    if (worker.type !== 'startup' && !c.startedResult) {
      again();
      return;
    }
    const result = runProbe(worker.probe, this.probeTarget(w, c));
    if (!result.ok) this.recorder.event(w.pod, 'Warning', 'Unhealthy', `${probeTypes[worker.type]} probe failed: ${result.output}`);
    worker.run = worker.last === result.ok ? worker.run + 1 : 1;
    worker.last = result.ok;
    const threshold = result.ok ? worker.probe.successThreshold ?? 1 : worker.probe.failureThreshold ?? 3;
    if (worker.run < threshold) {
      again();
      return;
    }
    if (worker.type === 'readiness') {
      if (c.readyResult !== result.ok) {
        c.readyResult = result.ok;
        this.host.spawn(this.patchStatus(w.pod, w));
      }
      again();
      return;
    }
    if (result.ok) {
      if (worker.type === 'startup' && !c.startedResult) {
        // The startup probe is done: liveness and readiness take over.
        c.startedResult = true;
        this.host.spawn(this.patchStatus(w.pod, w));
        return;
      }
      again();
      return;
    }
    // Models kuberuntime_manager.go computePodActions: a failed liveness or startup probe kills the container.
    const message = `Container ${c.name} failed ${worker.type} probe, will be restarted`;
    this.host.spawn((function* (this: Kubelet): Co<void> {
      const exitCode = yield* this.killContainer(w.pod, w, c, message, (worker.probe.terminationGracePeriodSeconds ?? w.pod.spec.terminationGracePeriodSeconds ?? 30) * 1000);
      yield* this.containerExited(w.pod, w, c, exitCode, c.instance);
    }).call(this));
  }

  /**
   * Kills one running container: the Killing event, the preStop hook, then SIGTERM; a process that
   * ignores SIGTERM is killed when the grace period ends (exit code 137). Returns the exit code.
   */
  // Models kuberuntime_container.go killContainer and executePreStopHook.
  private *killContainer(pod: Pod, w: PodWorker, c: RunningContainer, message: string | null, graceMs: number): Co<number> {
    this.recorder.event(pod, 'Normal', 'Killing', message ?? `Stopping container ${c.name}`);
    const hookMs = this.runPreStop(pod, w, c, graceMs);
    this.stopProcess(c);
    const stopMs = Math.min(graceMs, hookMs + (c.handlesTerm ? runtimeDurations.stop : graceMs));
    yield* this.host.sleep(stopMs, { reason: 'container-stop', pod: podKey(pod), container: c.name });
    return c.handlesTerm && stopMs < graceMs ? 0 : 137;
  }

  /** Runs the preStop hook (its failure is a FailedPreStopHook event); returns how long it ran. */
  private runPreStop(pod: Pod, w: PodWorker, c: RunningContainer, graceMs: number): number {
    const preStop = (c.spec.lifecycle as { preStop?: LifecycleHandler } | undefined)?.preStop;
    if (!preStop || c.state !== 'running') return 0;
    const hook = runHook(preStop, this.probeTarget(w, c), podDescription(w));
    if (hook.error !== null) this.recorder.event(pod, 'Warning', 'FailedPreStopHook', hook.error);
    return Math.min(hook.ms, graceMs);
  }

  // Models kuberuntime_manager.go computePodActions/doBackOff and pkg/util/flowcontrol/backoff.go
  // (IsInBackOffSince, Next: 10 s doubling to 5 min; an entry idle for 2 × max starts over).
  private *containerExited(pod: Pod, w: PodWorker, c: RunningContainer, exitCode: number, instance: number): Co<void> {
    if (w.terminating || this.workers.get(w.uid) !== w || c.state !== 'running') return;
    if (c.instance !== instance) return;
    this.stopProcess(c);
    const finishedAt = this.host.now;
    c.state = 'terminated';
    c.terminated = {
      exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt: c.startedAt,
      finishedAt: formatTimestamp(this.host.epochMs + finishedAt), containerID: c.containerID,
    };
    yield* this.patchStatus(pod, w);
    if (w.terminating || this.workers.get(w.uid) !== w) return;
    const entry = w.restartBackoff.get(c.name);
    const policy = pod.spec.restartPolicy ?? 'Always';
    if (policy === 'Never' || (policy === 'OnFailure' && exitCode === 0)) return;
    c.lastTerminated = c.terminated;
    if (entry === undefined || finishedAt - entry.lastUpdate > 2 * runtimeDurations.crashLoopBackOffMax) {
      // Not in back-off: Next() starts the entry at 10 s and the container restarts at once.
      w.restartBackoff.set(c.name, { backoff: runtimeDurations.crashLoopBackOffInitial, lastUpdate: finishedAt });
      yield* this.restartContainer(pod, w, c);
      return;
    }
    const podDesc = podDescription(w);
    this.recorder.event(pod, 'Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${podDesc}`);
    c.terminated = undefined;
    c.state = 'waiting';
    c.waitingReason = 'CrashLoopBackOff';
    c.waitingMessage = `back-off ${goDuration(entry.backoff)} restarting failed container=${c.name} pod=${podDesc}`;
    yield* this.patchStatus(pod, w);
    this.host.after(Math.max(0, finishedAt + entry.backoff - this.host.now), 'crashloop-backoff', () => {
      if (w.terminating || this.workers.get(w.uid) !== w) return;
      w.restartBackoff.set(c.name, { backoff: Math.min(entry.backoff * 2, runtimeDurations.crashLoopBackOffMax), lastUpdate: finishedAt });
      this.host.spawn(this.restartContainer(pod, w, c));
    }, { background: true });
  }

  private *restartContainer(pod: Pod, w: PodWorker, c: RunningContainer): Co<void> {
    c.restartCount++;
    const started = yield* this.startContainer(pod, w, c);
    if (started && !w.terminating) yield* this.patchStatus(pod, w);
  }

  // Models pkg/kubelet/images/image_manager.go EnsureImageExists: the reference is checked
  // (applyDefaultImageTag), then found on the node or pulled from the registry.
  private *pullImage(pod: Pod, w: PodWorker, c: RunningContainer, policy: string | undefined): Co<boolean> {
    const reference = applyDefaultImageTag(c.image);
    if (!reference.ok) {
      this.recorder.event(pod, 'Warning', 'InspectFailed', reference.message);
      this.recorder.event(pod, 'Warning', 'Failed', 'Error: InvalidImageName');
      c.waitingReason = 'InvalidImageName';
      c.waitingMessage = reference.message;
      yield* this.patchStatus(pod, w);
      return false;
    }
    const present = this.images.has(c.image);
    const pullPolicy = policy ?? (c.image.includes(':') && !c.image.endsWith(':latest') ? 'IfNotPresent' : 'Always');
    if (present && pullPolicy !== 'Always') {
      this.recorder.event(pod, 'Normal', 'Pulled', `Container image "${c.image}" already present on machine`);
      const found = resolveImage(reference.repository, reference.tag);
      c.config = found.ok ? found.image : localImage(reference.repository, reference.tag);
    } else {
      this.recorder.event(pod, 'Normal', 'Pulling', `Pulling image "${c.image}"`);
      c.step = 'pulling';
      const took = runtimeDurations.pullMin + this.host.rng.int(runtimeDurations.pullSpread);
      yield* this.host.sleep(took, { reason: 'image-pull', pod: podKey(pod), container: c.name, image: c.image });
      if (w.terminating) return false;
      const found = resolveImage(reference.repository, reference.tag);
      const failure = this.unpullable.has(c.image) ? notFoundError(normalizeImage(c.image)) : found.ok ? null : found.error;
      if (failure !== null) {
        const message = failure;
        this.recorder.event(pod, 'Warning', 'Failed', `Failed to pull image "${c.image}": ${message}`);
        this.recorder.event(pod, 'Warning', 'Failed', 'Error: ErrImagePull');
        c.waitingReason = 'ErrImagePull';
        c.waitingMessage = `Failed to pull image "${c.image}": ${message}`;
        yield* this.patchStatus(pod, w);
        if (w.terminating) return false;
        this.recorder.event(pod, 'Normal', 'BackOff', `Back-off pulling image "${c.image}"`);
        this.recorder.event(pod, 'Warning', 'Failed', 'Error: ImagePullBackOff');
        c.waitingReason = 'ImagePullBackOff';
        c.waitingMessage = `Back-off pulling image "${c.image}"`;
        yield* this.patchStatus(pod, w);
        // The retry is background work: a pod stuck in ImagePullBackOff leaves the engine idle.
        const delay = w.pullBackoff;
        w.pullBackoff = Math.min(w.pullBackoff * 2, runtimeDurations.imagePullBackOffMax);
        this.host.after(delay, 'image-pull-backoff', () => {
          if (!w.terminating && this.workers.get(w.uid) === w) this.host.spawn(this.syncPod(pod, w));
        }, { background: true });
        return false;
      }
      this.images.add(c.image);
      if (found.ok) c.config = found.image;
      this.recorder.event(pod, 'Normal', 'Pulled', `Successfully pulled image "${c.image}" in ${goDuration(took)} (${goDuration(took)} including waiting)`);
    }
    c.imageID = `${normalizeImage(c.image).replace(/:[^:/]+$/, '')}@sha256:${this.hex(64)}`;
    c.step = 'creating';
    return true;
  }

  private hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[this.host.rng.int(16)];
    return s;
  }

  /** generateAPIPodStatus: phase, conditions in kubelet order, container statuses. */
  podStatus(pod: Pod, w: PodWorker): PodStatus {
    const t = formatTimestamp(this.host.epochMs + this.host.now);
    const terminated = w.containers.every((c) => c.state === 'terminated');
    const phase = terminated && w.terminating ? 'Succeeded' : podPhase(pod, w.containers);
    const unready = w.containers.filter((c) => !containerReady(c)).map((c) => c.name);
    const ready = unready.length === 0;
    const condition = (type: string, ok: boolean, reason?: string, message?: string): PodCondition => {
      const status = ok ? 'True' : 'False';
      const prev = w.conditionTimes.get(type);
      const fromPod = pod.status?.conditions?.find((x) => x.type === type);
      const time = prev && prev.status === status ? prev.time
        : (!prev && fromPod && fromPod.status === status && fromPod.lastTransitionTime ? fromPod.lastTransitionTime : t);
      w.conditionTimes.set(type, { status, time });
      return { type, status, lastProbeTime: null, lastTransitionTime: time, ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
    };
    // Models pkg/kubelet/status/generate.go GenerateContainersReadyCondition: a terminal pod is PodCompleted / PodFailed.
    const notReady: [string, string | undefined] = phase === 'Succeeded' ? ['PodCompleted', undefined]
      : phase === 'Failed' ? ['PodFailed', undefined]
        : ['ContainersNotReady', `containers with unready status: [${unready.join(' ')}]`];
    const readyNow = ready && phase !== 'Succeeded' && phase !== 'Failed';
    const conditions = [
      condition('Initialized', true),
      condition('Ready', readyNow, readyNow ? undefined : notReady[0], readyNow ? undefined : notReady[1]),
      condition('ContainersReady', readyNow, readyNow ? undefined : notReady[0], readyNow ? undefined : notReady[1]),
      condition('PodScheduled', true),
    ];
    const image = (c: RunningContainer) => (c.imageID ? normalizeImage(c.image) : c.image);
    const containerStatuses: ContainerStatus[] = w.containers.map((c) => {
      const state = c.state === 'running' ? { running: { startedAt: c.startedAt } }
        : c.state === 'terminated' ? { terminated: c.terminated ?? { exitCode: 0, reason: 'Completed', startedAt: c.startedAt, finishedAt: t, containerID: c.containerID } }
          : { waiting: { reason: c.waitingReason, ...(c.waitingMessage ? { message: c.waitingMessage } : {}) } };
      const lastState = c.lastTerminated ? { terminated: c.lastTerminated } : {};
      return {
        name: c.name, state, lastState, ready: containerReady(c), restartCount: c.restartCount,
        image: image(c), imageID: c.imageID, ...(c.containerID ? { containerID: c.containerID } : {}), started: c.state === 'running' && c.startedResult,
      };
    });
    return {
      phase,
      conditions,
      // hostIPs is not set: the PodHostIPs feature gate is alpha (off) in 1.28.
      hostIP: this.internalIP,
      podIP: w.podIP, podIPs: [{ ip: w.podIP }],
      startTime: w.startTime,
      containerStatuses,
    };
  }

  // Models pkg/kubelet/status/status_manager.go syncPod: when the status changed (needsUpdate), GET the
  // pod, merge (mergePodStatus), and PATCH the difference (pkg/util/pod/pod.go PatchPodStatus, status-patch.ts).
  // Deviation: the status manager's 10 s syncBatch reconcile is not modelled; each change is synced at once.
  private *patchStatus(pod: Pod, w: PodWorker): Co<void> {
    const status = this.podStatus(pod, w);
    const key = JSON.stringify(status);
    if (key === w.lastStatus) return;
    w.lastStatus = key;
    try {
      const current = yield* this.podsApi.get(w.namespace, w.name);
      // The pod was deleted and created again under the same name: not this worker's any more.
      if (current.metadata.uid !== w.uid) return;
      const patch = podStatusPatch(w.uid, current.status, mergePodStatus(current.status, status));
      if (patch === null) return;
      yield* this.podsApi.patch(w.namespace, w.name, 'application/strategic-merge-patch+json', patch, { subresource: 'status' });
    } catch (err) {
      if (!isStatusError(err)) throw err;
    }
  }

  // Models kuberuntime_container.go killContainer (Killing event) and status_manager.go's final DELETE.
  // Containers are stopped in parallel: each runs its preStop hook, then gets SIGTERM; one that ignores it
  // (sleep, a shell) is killed when the grace period ends.
  private *killPod(pod: Pod, w: PodWorker): Co<void> {
    const grace = this.gracePeriodMs(pod);
    const running = w.containers.filter((c) => c.state === 'running');
    for (const c of running) this.recorder.event(pod, 'Normal', 'Killing', `Stopping container ${c.name}`);
    const stops = running.map((c) => {
      const hookMs = this.runPreStop(pod, w, c, grace);
      this.stopProcess(c);
      return Math.min(grace, hookMs + (c.handlesTerm ? runtimeDurations.stop : grace));
    });
    if (running.length > 0) yield* this.host.sleep(Math.max(...stops), { reason: 'container-stop', pod: podKey(pod) });
    const finishedAt = formatTimestamp(this.host.epochMs + this.host.now);
    running.forEach((c, i) => {
      const exitCode = c.handlesTerm && stops[i]! < grace ? 0 : 137;
      c.state = 'terminated';
      c.terminated = { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt: c.startedAt, finishedAt, containerID: c.containerID };
    });
    yield* this.patchStatus(pod, w);
    yield* this.deletePod(pod);
  }

  private *deletePod(pod: Pod): Co<Pod | Status | undefined> {
    try {
      return yield* this.podsApi.delete(pod.metadata.namespace, pod.metadata.name ?? '', {
        gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid ?? '' },
      });
    } catch (err) {
      if (!isStatusError(err)) throw err;
      return undefined;
    }
  }
}

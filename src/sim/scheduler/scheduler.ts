// kube-scheduler as a component: its informers (pods not yet terminal, nodes) feed the scheduling queue
// and the cache; once it leads (kube-system/kube-scheduler Lease) it pops pods off the queue one at a
// time and schedules each (schedule-one.ts) with the default profile's plugins (framework/plugins/registry.ts).
//
//   informers ──▶ eventhandlers ──▶ SchedulingQueue ──pop──▶ scheduleOne ──▶ Framework (plugins)
//                      └──────────▶ SchedulerCache ──snapshot──┘        └──▶ DefaultBinder: POST pods/<name>/binding
//
// Models pkg/scheduler/scheduler.go (New, Run: one pod at a time) and eventhandlers.go
// (addAllEventHandlers: unassigned pods to the queue, assigned ones to the cache, node events move
// unschedulable pods).
//
// Not modelled: volumes, inter-pod affinity, preemption's victims (PostFilter only writes its message:
// no pod has a lower priority here), profiles other than the default one (a profile may change its plugins).

import type { Binding, Node, Pod } from '../api/types/core.ts';
import type { Lease } from '../api/types/coordination.ts';
import { LeaderElector } from '../client/leader-election.ts';
import { builtinTokens } from '../wire/credentials.ts';
import {
  ClientComponent, EventBroadcaster, metaNamespaceKey, RestClient, SharedInformerFactory,
  type EventRecorder, type ResourceClient, type SharedIndexInformer,
} from '../client/index.ts';
import type { Co, Message } from '../engine/index.ts';
import { AttemptLog, type AttemptRecord } from './attempt-record.ts';
import type { Plugins } from './framework/interface.ts';
import { defaultPlugins } from './framework/plugins/registry.ts';
import { Framework } from './framework/runtime.ts';
import { SchedulerCache } from './internal/cache/cache.ts';
import { SchedulingQueue } from './internal/queue/scheduling-queue.ts';
import { scheduleOne, type SchedulerParts } from './schedule-one.ts';

/** The control-plane host's name: the first half of the leader-election identity. */
const controlPlaneHostname = 'control-plane';

export const defaultSchedulerName = 'default-scheduler';

export interface KubeSchedulerOptions {
  readonly name?: string;
  readonly schedulerName?: string;
  readonly token?: string;
  /**
   * How many attempt records to keep (all by default). Beyond it the oldest are dropped in chunks of a
   * quarter, as the trace drops records; a large benchmark sets it to bound memory.
   */
  readonly attemptLimit?: number;
  /** --leader-elect (true): wait for the kube-system/kube-scheduler Lease before scheduling. */
  readonly leaderElect?: boolean;
  /** The profile's plugins (KubeSchedulerProfile.plugins): the default ones as the profile changes them. */
  readonly plugins?: (defaults: Plugins) => Plugins;
  /**
   * KubeSchedulerConfiguration's percentageOfNodesToScore (0 by default: adaptive, 50 − nodes/125 percent,
   * at least 5; with 100 nodes or more the Filter phase stops once that share of them fit).
   */
  readonly percentageOfNodesToScore?: number;
}

export class KubeScheduler extends ClientComponent implements SchedulerParts {
  readonly client: RestClient;
  readonly recorder: EventRecorder;
  factory: SharedInformerFactory;
  pods: SharedIndexInformer<Pod>;
  nodes: SharedIndexInformer<Node>;
  readonly schedulerName: string;
  readonly queue: SchedulingQueue;
  cache: SchedulerCache;
  readonly framework: Framework;
  readonly attemptLog: AttemptLog;
  /** Every attempt, in order (the attempt log's records). */
  readonly attempts: AttemptRecord[];
  readonly podsApi: ResourceClient<Pod>;
  readonly percentageOfNodesToScore: number;
  nextStartNodeIndex = 0;
  /** The scheduling loop is running (it stops when activeQ is empty; a pod entering activeQ starts it). */
  private busy = false;
  leaderElector: LeaderElector | undefined;
  private readonly leaderElect: boolean;

  constructor(options: KubeSchedulerOptions = {}) {
    super(options.name ?? 'kube-scheduler');
    this.schedulerName = options.schedulerName ?? defaultSchedulerName;
    this.attemptLog = new AttemptLog(options.attemptLimit ?? Number.POSITIVE_INFINITY);
    this.attempts = this.attemptLog.records;
    this.leaderElect = options.leaderElect ?? true;
    this.percentageOfNodesToScore = options.percentageOfNodesToScore ?? 0;
    this.client = new RestClient(this.host, options.token ?? builtinTokens.scheduler, 'kube-scheduler/v1.28.15 (linux/amd64) kubernetes/8418565/scheduler');
    this.recorder = new EventBroadcaster(this.host, this.client).newRecorder({ component: this.schedulerName });
    this.podsApi = this.client.resource<Pod>('pods');
    const defaults = defaultPlugins(this.client.resource<Binding>('pods'));
    this.framework = new Framework(options.plugins ? options.plugins(defaults) : defaults);
    this.queue = new SchedulingQueue(this.host, () => this.podActivated());
    [this.factory, this.pods, this.nodes, this.cache] = this.informers();
  }

  // Models pkg/scheduler/scheduler.go: one pod informer of non-terminal pods (assigned ones feed the cache).
  private informers(): [SharedInformerFactory, SharedIndexInformer<Pod>, SharedIndexInformer<Node>, SchedulerCache] {
    const factory = new SharedInformerFactory(this.host, this.client);
    const pods = factory.informerFor<Pod>('pods', '', { fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed' });
    const nodes = factory.informerFor<Node>('nodes');
    return [factory, pods, nodes, new SchedulerCache(pods, nodes)];
  }

  /** A restarted scheduler starts empty: new informers list again and rebuild its queue and cache. */
  override onStart(): void {
    this.queue.clear();
    this.busy = false;
    this.nextStartNodeIndex = 0;
    [this.factory, this.pods, this.nodes, this.cache] = this.informers();
    this.start();
  }

  /** Elects itself leader (kube-system/kube-scheduler), then starts its informers. */
  start(): void {
    this.leaderElector?.stop();
    if (this.leaderElect === false) {
      this.startScheduling();
      return;
    }
    this.leaderElector = new LeaderElector(this.host, {
      namespace: 'kube-system', name: 'kube-scheduler', identity: `${controlPlaneHostname}_${this.rng.uuid()}`,
      leases: this.client.resource<Lease>('leases', 'coordination.k8s.io'), recorder: this.recorder,
      onStartedLeading: () => this.startScheduling(),
    });
    this.leaderElector.run();
  }

  // Models eventhandlers.go addAllEventHandlers.
  private startScheduling(): void {
    this.pods.addEventHandler({
      onAdd: (pod) => this.podChanged(pod),
      onUpdate: (old, pod) => this.podChanged(pod, old),
      onDelete: (obj) => {
        const pod = 'metadata' in obj ? obj : obj.obj;
        const key = metaNamespaceKey(pod);
        this.queue.delete(key);
        this.cache.forgetPod(key);
      },
    });
    this.nodes.addEventHandler({
      onAdd: () => this.queue.moveAllToActiveOrBackoffQueue(),
      onUpdate: () => this.queue.moveAllToActiveOrBackoffQueue(),
    });
    this.factory.start();
  }

  protected handle(message: Message): void {
    // Every other message of the scheduler is the client library's.
    this.answerHealthz(message);
  }

  /** An assigned pod leaves the queue (and confirms an assumed one); an unassigned pod of this scheduler enters it. */
  private podChanged(pod: Pod, old?: Pod): void {
    const key = metaNamespaceKey(pod);
    if (pod.spec.nodeName) {
      this.cache.forgetPod(key);
      this.queue.delete(key);
      return;
    }
    if ((pod.spec.schedulerName ?? defaultSchedulerName) !== this.schedulerName) return;
    if (pod.metadata.deletionTimestamp || (pod.spec.schedulingGates?.length ?? 0) > 0) return;
    this.queue.update(key, pod, old);
  }

  private podActivated(): void {
    if (this.busy) return;
    this.busy = true;
    this.host.spawn(this.run());
  }

  /** scheduleOne for each pod popped off activeQ, until it is empty. */
  private *run(): Co<void> {
    for (let next = this.queue.pop(); next !== undefined; next = this.queue.pop()) {
      const { key, info } = next;
      const [namespace, name] = key.includes('/') ? key.split('/') as [string, string] : ['', key];
      const pod = this.pods.get(namespace, name);
      if (!pod || pod.spec.nodeName) {
        this.queue.delete(key);
        continue;
      }
      yield* scheduleOne(this, key, pod, info);
    }
    this.busy = false;
  }

  /**
   * The scheduling queue's lengths (activeQ, podBackoffQ, unschedulablePods) and the pod being scheduled
   * now (popped from activeQ, not yet bound or failed), as `namespace/name`; read-only, for the UI.
   */
  queueState(): { active: number; backoff: number; unschedulable: number; scheduling: string | null } {
    return this.queue.pendingPods();
  }
}

// Hosts a simulated cluster in Node for real clients, moved along with the wall clock. The pieces:
//   wall-clock-pacing.ts  virtual time follows the wall clock (or fast-forwards), in slices, to clean instants;
//   admission.ts          requests, etcd calls, cancels and pages' commands enter at a clean instant, and
//                         replies go back to whoever submitted them;
//   server-log.ts         what entered, logged with its step and instant (`--data-dir`'s cluster.jsonl);
//   the page's host       src/worker/host/driven-host.ts: the worker's stage and reporter over this cluster,
//                         for the pages attached through live.ts (`live`).
// HTTP requests enter the simulation as `http.request` messages sent by the cluster's user component (the
// root of every cause chain, as in the browser); etcd v3 calls from real gRPC clients (etcd-grpc/) as
// requests of the client's own component (`etcd-client/<ip:port>`).
//
// Persistence: a cluster is its seed plus its log. On start the log is replayed by the worker's replay
// (src/worker/replay.ts, the one the page's reload uses): each entry entered again after the same step at
// the same instant, which rebuilds the same state, message for message, because the simulation is
// deterministic.
//
// Live (`live`): the page's host records the timeline, the story and what each component holds, from boot
// on, and reports to the attached pages every `livePulseMs`. Over a real etcd the host records from step 0
// too, with the keyspace and etcd's insides read from the real etcd (real-etcd/outside-view.ts); the pages
// are told the run is not deterministic (`nondeterministicReason`).

import type { LoggableCommand, WorkerEvent } from '../protocol/index.ts';
import { createCluster, type Cluster, type ClusterTopology } from '../sim/cluster.ts';
import type { Component, Message } from '../sim/engine/index.ts';
import { EtcdServer } from '../sim/etcd/index.ts';
import type { HttpRequest } from '../sim/wire/http.ts';
import { productBounds } from '../worker/host/bounds.ts';
import { DrivenHost } from '../worker/host/driven-host.ts';
import type { ClusterSpec, HostedCluster } from '../worker/host/hosted-cluster.ts';
import { replayAll } from '../worker/replay.ts';
import { applyUserCommand, type CommandTarget } from '../worker/user-commands.ts';
import { Admission, type ReplySink, type Submission } from './admission.ts';
import { apiserverIdentity, serverHostname } from './identity.ts';
import { RealEtcdMember } from './real-etcd/real-etcd-member.ts';
import { ServerLog, type EtcdCall } from './server-log.ts';
import { defaultFastForwardLeadMs, WallClockPacing } from './wall-clock-pacing.ts';

export type { Submission } from './admission.ts';

export interface HostOptions {
  readonly seed: string;
  readonly nodes: number;
  /** Run queued work at once instead of in step with the wall clock. */
  readonly fastForward: boolean;
  /** Virtual ms per wall ms (real time: 1). */
  readonly speed: number;
  /** Directory for `cluster.jsonl` (seed and command log); none keeps nothing. */
  readonly dataDir?: string;
  /** Trace records kept in memory. */
  readonly traceLimit?: number;
  /**
   * The wall-clock instant virtual time 0 stands for; by default the server's start, so creation times and
   * kubectl's ages read as a real cluster's. A replayed log keeps the epoch it was started with.
   */
  readonly epochMs?: number;
  /** Fast-forward: how far before the wall clock the cluster's epoch starts (default 30 min). */
  readonly fastForwardLeadMs?: number;
  /**
   * `--etcd-servers`: kube-apiserver stores in this real etcd (its client URLs) instead of the model's. The
   * cluster then lives in etcd, not in a command log (no `dataDir`); virtual time follows the wall clock
   * (no fast-forward, speed 1); the engine's seed is mixed with the start instant and the process, since
   * nothing about the run is reproducible and two servers on one etcd must not make the same uids.
   */
  readonly etcdServers?: readonly string[];
  /** Host the page's view of the cluster (timeline, story, reporting) for attached pages. */
  readonly live?: boolean;
  /**
   * `--hostname`: the host kube-apiserver's identity lease is named after (identity.ts). By default the
   * model's `control-plane` on the model's etcd, and one unique to this server on a real etcd, where
   * other servers may hold leases beside it.
   */
  readonly hostname?: string;
}

/** What the page says of a run stored in a real etcd (`ready.nondeterministic`). */
export function nondeterministicReason(endpoints: readonly string[]): string {
  return `this cluster is stored in a real etcd (${endpoints.join(', ')}): its answers, revisions and timing come from outside the simulation and virtual time follows the wall clock, so the run cannot be replayed from its seed; stepping back and seeking show what was recorded here`;
}

/** Real ms between two reports to the attached pages. */
export const livePulseMs = 33;

export class ClusterHost {
  readonly cluster: Cluster<Component>;
  /** The same cluster when its etcd is the model's (null on a real etcd): what page commands are applied to. */
  private readonly model: Cluster | null;
  /** The proxy to the real etcd (`etcdServers`), or null on the model's etcd. */
  readonly realEtcd: RealEtcdMember | null;
  /** The attached pages' host (null without `live`); its events go to `onLiveEvent` listeners. */
  readonly live: DrivenHost | null;
  /** Requests and etcd calls replayed from the log at start. */
  readonly replayed: number;
  private readonly log: ServerLog | null;
  private readonly admission: Admission;
  private readonly pacing: WallClockPacing;
  /** The wall-clock instant of virtual time 0 (0 for a log written before epochs were kept). */
  private readonly epochMs: number;
  private readonly deliveryListeners = new Set<(message: Message) => void>();
  private readonly liveListeners = new Set<(event: WorkerEvent) => void>();
  private pulseTimer: NodeJS.Timeout | null = null;
  private workloadsStarted = false;

  constructor(private readonly options: HostOptions) {
    const realEtcd = options.etcdServers !== undefined;
    if (realEtcd && (options.dataDir !== undefined || options.fastForward || options.speed !== 1)) throw new Error('a real etcd keeps the cluster: no data dir, fast-forward or speed');
    this.log = options.dataDir !== undefined && !realEtcd ? new ServerLog(options.dataDir, options.seed, options.nodes) : null;
    const stored = this.log?.stored() ?? null;
    const spec: ClusterSpec = { seed: options.seed, nodes: options.nodes };
    let hosted: HostedCluster;
    const hostname = options.hostname ?? (realEtcd ? serverHostname() : null);
    // Read back as `cluster.apiserver.identityLease.identity`.
    const identity = hostname === null ? {} : { identity: apiserverIdentity(hostname) };
    if (options.etcdServers !== undefined) {
      this.epochMs = options.epochMs ?? Date.now();
      const endpoints = options.etcdServers;
      this.cluster = createCluster({
        seed: `${options.seed}/${this.epochMs}/${process.pid}`, nodes: options.nodes, traceLimit: options.traceLimit ?? 200_000, epochMs: this.epochMs,
        // A server runs for days: kube-scheduler's attempt records are kept as the page's worker keeps them.
        schedulerAttemptLimit: productBounds.schedulerAttempts,
        etcdMember: (name) => new RealEtcdMember(name, { endpoints }), apiserver: { sharedEtcd: true, ...identity },
      });
      this.realEtcd = this.cluster.etcd as RealEtcdMember;
      this.model = null;
      // The page's host records what the server's engine delivers, from step 0; the keyspace it mirrors and
      // etcd's insides are read from the real etcd (real-etcd/outside-view.ts); there is nothing to boot (the
      // pacing brings the cluster up as etcd answers).
      const { engine, user, apiserver, scheduler } = this.cluster;
      const cluster = this.cluster;
      const driven: HostedCluster & Pick<CommandTarget, 'fault'> = {
        engine, user, apiserver, scheduler, topology: cluster.topology, boot: () => engine.step, fault: (fault) => cluster.fault(fault), etcd: this.realEtcd.outside.keyspace,
      };
      hosted = driven;
    } else {
      const lead = options.fastForward ? options.fastForwardLeadMs ?? defaultFastForwardLeadMs : 0;
      const epochMs = stored ? stored.epochMs : options.epochMs ?? Math.floor((Date.now() - lead) / 1000) * 1000;
      const cluster = createCluster({
        seed: options.seed, nodes: options.nodes, traceLimit: options.traceLimit ?? 200_000, ...(epochMs !== undefined ? { epochMs } : {}), apiserver: identity,
        schedulerAttemptLimit: productBounds.schedulerAttempts,
      });
      this.cluster = cluster;
      this.model = cluster;
      this.realEtcd = null;
      this.epochMs = cluster.engine.epochMs;
      hosted = cluster;
    }
    const speed = realEtcd || options.fastForward ? 1 : options.speed;
    this.pacing = new WallClockPacing(this.cluster.engine, { fastForward: options.fastForward, speed: options.speed, epochMs: this.epochMs }, {
      waiting: () => this.admission.waitingWork,
      beforeTick: () => this.startWorkloads(),
      clean: () => this.admission.admit(),
    });
    this.admission = new Admission(this.cluster, {
      wake: () => this.pacing.schedule(),
      log: (entry) => this.log?.append(entry),
      replayCommand: (command) => this.replayCommand(command),
      announce: (event) => this.announce(event),
    });
    if (this.realEtcd) this.realEtcd.onActivity = () => this.pacing.wake();
    // The live host builds nothing: it adopts this cluster and boots it, recording from step 0.
    this.live = options.live ? new DrivenHost({ post: (event) => this.announce(event), spec, cluster: hosted, driver: { act: (command, apply) => this.admission.act(command, apply), speed } }) : null;
    if (this.live && this.realEtcd) this.realEtcd.outside.start(this.cluster.engine, this.live.insides);
    if (!this.live && !realEtcd) this.cluster.boot();
    this.workloadsStarted = !realEtcd;
    this.cluster.engine.onDelivery((m) => this.delivered(m));
    this.replayed = this.replayLog(stored !== null);
    this.log?.open();
  }

  /** The model's etcd, for views of its store; a cluster on a real etcd has none (throws). */
  get modelEtcd(): EtcdServer {
    if (!(this.cluster.etcd instanceof EtcdServer)) throw new Error('the cluster is stored in a real etcd: there is no model etcd to read');
    return this.cluster.etcd;
  }

  /** True when the run is not reproducible from its seed and command log (a real etcd holds the cluster). */
  get deterministic(): boolean {
    return this.realEtcd === null;
  }

  /** Starts pacing: virtual time now moves with the wall clock. */
  start(): void {
    this.pacing.start();
    const live = this.live;
    if (live) this.pulseTimer = setInterval(() => live.pulse(), livePulseMs);
  }

  stop(): void {
    this.realEtcd?.close();
    this.pacing.stop();
    if (this.pulseTimer) clearInterval(this.pulseTimer);
    this.pulseTimer = null;
  }

  /** Queues a request for the next clean instant (admission.ts). */
  submit(request: HttpRequest, sink: ReplySink): Submission {
    return this.admission.submit(request, sink);
  }

  /** Queues an etcd call for the next clean instant (admission.ts). */
  submitEtcd(call: EtcdCall, onReply: ((reply: Message) => void) | null): void {
    this.admission.submitEtcd(call, onReply);
  }

  /** Receives every event of the live host (see `live`). */
  onLiveEvent(listener: (event: WorkerEvent) => void): () => void {
    this.liveListeners.add(listener);
    return () => this.liveListeners.delete(listener);
  }

  /** Called for every delivered message (the trace stream). */
  onDelivery(listener: (message: Message) => void): () => void {
    this.deliveryListeners.add(listener);
    return () => this.deliveryListeners.delete(listener);
  }

  /** The cluster's clock as clients see it (epoch + virtual time), ms since the Unix epoch. */
  get clusterTimeMs(): number {
    return this.epochMs + this.cluster.engine.now;
  }

  /** The cluster's topology and the etcd endpoint's clients so far (`etcd-client/<ip:port>`, beside etcd). */
  get topology(): ClusterTopology {
    return this.admission.topology;
  }

  /** What a page that attaches now needs (the live host's snapshot), its topology with the etcd clients. */
  liveSnapshot(): WorkerEvent[] {
    if (!this.live) throw new Error('the page needs the live host: start the server with live on');
    const nondeterministic = this.realEtcd ? { nondeterministic: nondeterministicReason(this.options.etcdServers ?? []) } : {};
    return this.live.snapshot().map((event) => (event.type === 'ready' ? { ...event, topology: this.topology, ...nondeterministic } : event));
  }

  /** On a real etcd, boot's second phase starts once the apiserver has bootstrapped (boot() runs both at once). */
  private startWorkloads(): void {
    if (this.workloadsStarted || !this.cluster.apiserver.ready) return;
    this.workloadsStarted = true;
    this.cluster.startWorkloads();
  }

  private announce(event: WorkerEvent): void {
    for (const listener of this.liveListeners) listener(event);
  }

  /** A logged page command, applied again (through the live host, whose timeline logs it, when there is one). */
  private replayCommand(command: LoggableCommand): void {
    if (this.live) this.live.replayCommand(command);
    else if (this.model) applyUserCommand(this.model, command);
  }

  private delivered(message: Message): void {
    this.admission.route(message);
    for (const listener of this.deliveryListeners) listener(message);
  }

  /** Replays the stored log when it matches this seed and node count (src/worker/replay.ts); starts a new log otherwise. */
  private replayLog(matches: boolean): number {
    if (!this.log) return 0;
    if (!matches) {
      this.log.begin(this.epochMs);
      return 0;
    }
    const entries = this.log.entries();
    const { engine } = this.cluster;
    replayAll(engine, entries, entries.at(-1)?.step ?? engine.step, (command) => this.admission.enter(command));
    return entries.filter((entry) => entry.command.type === 'httpRequest' || entry.command.type === 'etcdCall').length;
  }
}

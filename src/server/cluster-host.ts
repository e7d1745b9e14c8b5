// Hosts a simulated cluster in Node and moves its virtual clock along with the wall clock. HTTP requests
// enter the simulation as `http.request` messages sent by the cluster's user component (the root of every
// cause chain, as in the browser); the replies addressed to the user are routed back to whoever submitted
// the request: one `http.response`, and for a watch the `http.watchEvent`s and `http.watchEnd` after it.
//
// Pacing: in real time, virtual time follows the wall clock (times `speed`). In fast-forward, queued
// foreground work (everything a request causes: scheduling, image pulls, container starts) runs at once,
// and only idle time follows the wall clock. The clock shown to clients (epoch + virtual time: creation
// timestamps, kubectl's ages) must never be ahead of the wall clock, so a fast-forwarded cluster starts
// `fastForwardLeadMs` (30 min) before the wall clock and runs its work at once only up to the wall
// clock's instant; work due later waits for the wall clock. Its objects therefore read 30 minutes old at
// start, and up to 30 virtual minutes of work can be fast-forwarded before pacing catches up.
//
// etcd v3 calls from real gRPC clients (etcd-grpc/) enter the same way, as requests of the client's own
// component (`etcd-client/<ip:port>`, added on first use); a reply to one is handed to the callback it was
// submitted with, and everything delivered to a client (watch responses) reaches the delivery listeners.
//
// Persistence: every request, etcd call and cancel is logged with the virtual instant it entered the simulation,
// and so is every command of an attached page (a console line, a manifest, a fault: the worker's
// LoggableCommand, applied by the same applyUserCommand as the worker's replay). A cluster is its seed plus
// that log: replaying the log on start (each entry injected at its instant) rebuilds the same state,
// message for message, because the simulation is deterministic.
//
// Live (`live`): the page's host (src/worker/host.ts, driven by this pacing) records the timeline, the
// story and what each component holds, from boot on, and reports to the attached pages (live.ts) every
// `livePulseMs`. Over a real etcd the host records from step 0 too, with the keyspace and etcd's insides
// read from the real etcd; the pages are told the run is not deterministic (`nondeterministicReason`).

import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { httpKinds, type HttpRequest, type HttpResponse, type HttpStreamData, type HttpWatchEnd, type HttpWatchEvent } from '../sim/wire/http.ts';
import { createCluster, type Cluster, type ClusterTopology, type ComponentInfo, type LinkInfo } from '../sim/cluster.ts';
import type { Component, Message } from '../sim/engine/index.ts';
import { EtcdServer } from '../sim/etcd/index.ts';
import { RealEtcdMember } from './real-etcd/real-etcd-member.ts';
import type { UserReply } from '../sim/user/user.ts';
import { etcdClient } from './etcd-grpc/etcd-client.ts';
import type { LoggableCommand, WorkerEvent } from '../protocol/index.ts';
import { SimHost, type ClusterSpec, type HostedCluster } from '../worker/host.ts';
import { applyUserCommand, type CommandTarget } from '../worker/user-commands.ts';
import type { EtcdClientKind, MessageMap } from '../sim/messages/index.ts';

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
}

/** What the page says of a run stored in a real etcd (`ready.nondeterministic`). */
export function nondeterministicReason(endpoints: readonly string[]): string {
  return `this cluster is stored in a real etcd (${endpoints.join(', ')}): its answers, revisions and timing come from outside the simulation and virtual time follows the wall clock, so the run cannot be replayed from its seed; stepping back and seeking show what was recorded here`;
}

/** Real ms between two reports to the attached pages. */
export const livePulseMs = 33;

export const defaultFastForwardLeadMs = 30 * 60_000;

/** What a submitted request's replies are handed to. */
export interface ReplySink {
  response(response: HttpResponse): void;
  watchEvent(event: HttpWatchEvent): void;
  watchEnd(end: HttpWatchEnd): void;
  /** A chunk of a streamed body (a followed log, an exec's output); the stream ends with watchEnd. */
  streamData?(data: HttpStreamData): void;
}

/** An etcd v3 request (a message kind of src/sim/etcd/server.ts and its payload) from client component `client`. */
export interface EtcdCall {
  readonly client: string;
  readonly kind: EtcdClientKind;
  readonly payload: MessageMap[EtcdClientKind];
}

type LogEntry =
  | { readonly at: number; readonly request: HttpRequest }
  | { readonly at: number; readonly etcd: EtcdCall }
  | { readonly at: number; readonly cancel: number }
  | { readonly at: number; readonly command: LoggableCommand };

/** A page's command waiting for a clean instant. */
interface Act {
  readonly command: LoggableCommand;
  readonly apply: () => boolean;
}

/** A protobuf request body in the log (JSON has no bytes): base64. */
interface LoggedBytes {
  readonly base64: string;
}

function toLogged(entry: LogEntry): unknown {
  if (!('request' in entry) || !(entry.request.body instanceof Uint8Array)) return entry;
  const logged: LoggedBytes = { base64: Buffer.from(entry.request.body).toString('base64') };
  return { ...entry, request: { ...entry.request, body: logged } };
}

function fromLogged(entry: LogEntry): LogEntry {
  if (!('request' in entry)) return entry;
  const body = entry.request.body as Partial<LoggedBytes> | string | undefined;
  if (typeof body !== 'object' || typeof body.base64 !== 'string' || Object.keys(body).length !== 1) return entry;
  return { ...entry, request: { ...entry.request, body: new Uint8Array(Buffer.from(body.base64, 'base64')) } };
}

interface LogHeader {
  readonly podflow: 'server-log';
  readonly seed: string;
  readonly nodes: number;
  /** Absent in logs written before the server started its clock at wall time (the engine's default epoch). */
  readonly epochMs?: number;
}

/** Steps per slice of work before the host yields to the event loop (keeps HTTP responsive). */
const stepsPerSlice = 5_000;
const tickMs = 2;

/** A submitted request: its id once it has entered the simulation; cancel() ends its watch. */
export interface Submission {
  readonly id: number | null;
  cancel(): void;
}

interface Pending {
  id: number | null;
  readonly request: HttpRequest;
  readonly sink: ReplySink;
  cancelled: boolean;
}

export class ClusterHost {
  readonly cluster: Cluster<Component>;
  /** The same cluster when its etcd is the model's (null on a real etcd): what page commands are applied to. */
  private readonly model: Cluster | null;
  /** The proxy to the real etcd (`etcdServers`), or null on the model's etcd. */
  readonly realEtcd: RealEtcdMember | null;
  private readonly sinks = new Map<number, ReplySink>();
  private readonly logPath: string | null;
  private logging = false;
  private wallAnchor = 0;
  private virtualAnchor = 0;
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private running = false;
  /** The wall-clock instant of virtual time 0 (0 for a log written before epochs were kept). */
  private readonly epochMs: number;
  /** Fast-forward: queued work waits for the wall clock (no busy loop until it is due). */
  private waitingForWall = false;
  private readonly waiting: Pending[] = [];
  private readonly waitingEtcd: Array<{ readonly call: EtcdCall; readonly onReply: ((reply: Message) => void) | null }> = [];
  private readonly etcdReplies = new Map<number, (reply: Message) => void>();
  private readonly cancels: number[] = [];
  private readonly deliveryListeners = new Set<(message: Message) => void>();
  private readonly acts: Act[] = [];
  /** The attached pages' host (null without `live`); its events go to `onLiveEvent` listeners. */
  readonly live: SimHost | null;
  private readonly liveListeners = new Set<(event: WorkerEvent) => void>();
  private readonly clients: ComponentInfo[] = [];
  private readonly clientLinks: LinkInfo[] = [];
  private pulseTimer: NodeJS.Timeout | null = null;
  /** Requests replayed from the log at start. */
  readonly replayed: number;
  /** An answer of the real etcd entered the engine: run it at once. */
  private woken = false;
  private workloadsStarted = false;

  constructor(private readonly options: HostOptions) {
    if (options.etcdServers !== undefined) {
      if (options.dataDir !== undefined || options.fastForward || options.speed !== 1) throw new Error('a real etcd keeps the cluster: no data dir, fast-forward or speed');
      this.logPath = null;
      this.epochMs = options.epochMs ?? Date.now();
      const endpoints = options.etcdServers;
      this.cluster = createCluster({
        seed: `${options.seed}/${this.epochMs}/${process.pid}`, nodes: options.nodes, traceLimit: options.traceLimit ?? 200_000, epochMs: this.epochMs,
        etcdMember: (name) => new RealEtcdMember(name, { endpoints }), apiserver: { sharedEtcd: true },
      });
      this.realEtcd = this.cluster.etcd as RealEtcdMember;
      this.realEtcd.onActivity = () => {
        this.woken = true;
        this.schedule();
      };
      this.model = null;
      // The page's host records what the server's engine delivers, from step 0; the keyspace it mirrors and
      // etcd's insides are read from the real etcd (real-etcd/outside-view.ts); there is nothing to boot (the
      // pacing brings the cluster up as etcd answers).
      const { engine, user, apiserver, scheduler } = this.cluster;
      const cluster = this.cluster;
      const outside = this.realEtcd.outside;
      const hosted: HostedCluster & Pick<CommandTarget, 'fault'> = {
        engine, user, apiserver, scheduler, topology: cluster.topology, boot: () => engine.step, fault: (fault) => cluster.fault(fault), etcd: outside.keyspace,
      };
      this.live = options.live ? this.liveHost(hosted, { seed: options.seed, nodes: options.nodes }, 1) : null;
      if (this.live) outside.start(engine, (event) => this.liveListeners.forEach((listener) => listener(event)));
      this.cluster.engine.onDelivery((m) => this.delivered(m));
      this.replayed = 0;
      return;
    }
    this.realEtcd = null;
    this.logPath = options.dataDir ? join(options.dataDir, 'cluster.jsonl') : null;
    const stored = this.storedHeader();
    const lead = options.fastForward ? options.fastForwardLeadMs ?? defaultFastForwardLeadMs : 0;
    const epochMs = stored ? stored.epochMs : options.epochMs ?? Math.floor((Date.now() - lead) / 1000) * 1000;
    const cluster = createCluster({
      seed: options.seed,
      nodes: options.nodes,
      traceLimit: options.traceLimit ?? 200_000,
      ...(epochMs !== undefined ? { epochMs } : {}),
    });
    this.cluster = cluster;
    this.model = cluster;
    this.epochMs = this.cluster.engine.epochMs;
    // The live host builds nothing: it adopts this cluster and boots it, recording from step 0.
    this.live = options.live ? this.liveHost(cluster, { seed: options.seed, nodes: options.nodes }, options.fastForward ? 1 : options.speed) : null;
    if (!this.live) this.cluster.boot();
    this.workloadsStarted = true;
    this.cluster.engine.onDelivery((m) => this.delivered(m));
    this.replayed = this.replayLog(stored, epochMs);
    this.logging = this.logPath !== null;
  }

  /** The page's host over `cluster` (built: the host boots it), driven by this pacing. */
  private liveHost(cluster: HostedCluster, spec: ClusterSpec, speed: number): SimHost {
    return new SimHost({
      post: (event) => {
        for (const listener of this.liveListeners) listener(event);
      },
      clock: { now: () => performance.now(), setTimeout: (callback, ms) => setTimeout(callback, ms), clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout) },
      initial: spec,
      buildCluster: () => cluster,
      driver: { act: (command, apply) => this.act(command, apply), speed },
    });
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
    this.wallAnchor = performance.now();
    this.virtualAnchor = this.cluster.engine.now;
    this.running = true;
    this.schedule();
    const live = this.live;
    if (live) this.pulseTimer = setInterval(() => live.pulse(), livePulseMs);
  }

  stop(): void {
    this.realEtcd?.close();
    this.running = false;
    if (this.pulseTimer) clearInterval(this.pulseTimer);
    this.pulseTimer = null;
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
  }

  /** The next tick: at once while requests wait or (fast-forward) work is queued, else after tickMs. */
  private schedule(): void {
    if (!this.running || this.immediate) return;
    const busy = this.woken || this.waiting.length > 0 || this.waitingEtcd.length > 0 || this.cancels.length > 0 || this.acts.length > 0 || (this.options.fastForward && !this.cluster.engine.idle && !this.waitingForWall);
    if (!busy && this.timer) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const tick = (): void => {
      this.timer = null;
      this.immediate = null;
      try {
        this.advance();
      } catch (err) {
        // A fault in the model must not take the server down with it; it is reported and time goes on.
        console.error('podflow apiserver: the simulation failed a step:', err);
      }
      this.schedule();
    };
    if (busy) this.immediate = setImmediate(tick);
    else this.timer = setTimeout(tick, tickMs);
  }

  /**
   * Queues a request; it enters the simulation as the user's at the next clean instant (every message
   * due up to the clock delivered), so a replay that injects it at the same instant sees the same state.
   */
  submit(request: HttpRequest, sink: ReplySink): Submission {
    const pending: Pending = { id: null, request, sink, cancelled: false };
    this.waiting.push(pending);
    this.schedule();
    return {
      get id() {
        return pending.id;
      },
      cancel: () => {
        if (pending.cancelled) return;
        pending.cancelled = true;
        if (pending.id !== null && this.sinks.delete(pending.id)) {
          this.cancels.push(pending.id);
          this.schedule();
        }
      },
    };
  }

  /**
   * Queues an etcd call; it enters the simulation at the next clean instant, as `submit`'s requests do.
   * `onReply` gets the reply (`<kind>Response`; for `etcd.Watch`, the first WatchResponse it answers).
   */
  submitEtcd(call: EtcdCall, onReply: ((reply: Message) => void) | null): void {
    this.waitingEtcd.push({ call, onReply });
    this.schedule();
  }

  /** Runs a page's command at the next clean instant, as a request enters; logged once applied. */
  private act(command: LoggableCommand, apply: () => boolean): void {
    this.acts.push({ command, apply });
    this.schedule();
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

  /**
   * One tick: runs the simulation up to the wall clock (real time) or through its queued foreground
   * work (fast-forward), and at a clean instant lets the waiting requests and cancels in.
   */
  private advance(): void {
    const engine = this.cluster.engine;
    let clean: boolean;
    this.woken = false;
    // On a real etcd, boot's second phase starts once the apiserver has bootstrapped (boot() runs both at once).
    if (!this.workloadsStarted && this.cluster.apiserver.ready) {
      this.workloadsStarted = true;
      this.cluster.startWorkloads();
    }
    this.waitingForWall = false;
    if (this.options.fastForward && !engine.idle) {
      // Foreground work at once, but never past the wall clock's instant.
      const ceiling = this.wallClockVirtual();
      let steps = 0;
      while (!engine.idle && steps < stepsPerSlice) {
        if (engine.run({ until: Math.max(ceiling, engine.now), maxSteps: 1 }).steps === 0) {
          this.waitingForWall = true;
          break;
        }
        steps++;
      }
      // Deliver whatever else is due at this instant, so the instant is clean.
      clean = steps < stepsPerSlice && engine.run({ until: engine.now, maxSteps: stepsPerSlice }).reason !== 'max-steps';
      this.wallAnchor = performance.now();
      this.virtualAnchor = engine.now;
    } else {
      let target = this.virtualAnchor + (performance.now() - this.wallAnchor) * this.options.speed;
      if (this.options.fastForward) target = Math.min(target, this.wallClockVirtual());
      const result = engine.run({ until: Math.max(target, engine.now), maxSteps: stepsPerSlice });
      clean = result.reason !== 'max-steps';
      if (!clean) {
        // Behind the wall clock: let virtual time lag rather than block the event loop.
        this.wallAnchor = performance.now();
        this.virtualAnchor = engine.now;
      }
    }
    if (!clean) return;
    for (const id of this.cancels.splice(0)) this.inject({ at: engine.now, cancel: id });
    for (const pending of this.waiting.splice(0)) {
      if (pending.cancelled) continue;
      pending.id = this.inject({ at: engine.now, request: pending.request });
      this.sinks.set(pending.id, pending.sink);
    }
    for (const { call, onReply } of this.waitingEtcd.splice(0)) {
      const id = this.inject({ at: engine.now, etcd: call });
      if (onReply) this.etcdReplies.set(id, onReply);
    }
    for (const { command, apply } of this.acts.splice(0)) {
      if (apply()) this.writeLog({ at: engine.now, command });
    }
  }

  /** The wall clock as virtual time: the latest instant a fast-forwarded cluster may reach now. */
  private wallClockVirtual(): number {
    return Date.now() - this.epochMs;
  }

  /** The cluster's clock as clients see it (epoch + virtual time), ms since the Unix epoch. */
  get clusterTimeMs(): number {
    return this.epochMs + this.cluster.engine.now;
  }

  private inject(entry: Exclude<LogEntry, { command: LoggableCommand }>): number {
    const user = this.cluster.user;
    const message = 'request' in entry
      ? user.request('kube-apiserver', httpKinds.request, entry.request)
      : 'etcd' in entry
        ? this.etcdClient(entry.etcd.client).request(entry.etcd.kind, entry.etcd.payload)
        : user.request('kube-apiserver', httpKinds.cancel, { requestId: entry.cancel });
    this.writeLog(entry);
    return message.id;
  }

  /**
   * A client connection's component, linked to etcd as the user's etcdctl is. A new one joins the topology
   * the pages draw (announced to the attached pages at once).
   */
  private etcdClient(name: string): ReturnType<typeof etcdClient> {
    const { engine, etcd, user } = this.cluster;
    const known = engine.component(name) !== undefined;
    const link = this.cluster.topology.links.find((l) => l.a === user.name && l.b === etcd.name);
    const timing = { latency: link?.latency ?? 0, jitter: link?.jitter ?? 0 };
    const client = etcdClient(engine, name, timing);
    if (!known) {
      this.clients.push({ name, role: 'etcd-client', modelled: true });
      this.clientLinks.push({ a: name, b: etcd.name, ...timing });
      const event: WorkerEvent = { type: 'topology', topology: this.topology };
      for (const listener of this.liveListeners) listener(event);
    }
    return client;
  }

  /** The cluster's topology and the etcd endpoint's clients so far (`etcd-client/<ip:port>`, beside etcd). */
  get topology(): ClusterTopology {
    const { components, links } = this.cluster.topology;
    return { components: [...components, ...this.clients], links: [...links, ...this.clientLinks] };
  }

  /** What a page that attaches now needs (the live host's snapshot), its topology with the etcd clients. */
  liveSnapshot(): WorkerEvent[] {
    if (!this.live) throw new Error('the page needs the live host: start the server with live on');
    const nondeterministic = this.realEtcd ? { nondeterministic: nondeterministicReason(this.options.etcdServers ?? []) } : {};
    return this.live.snapshot().map((event) => (event.type === 'ready' ? { ...event, topology: this.topology, ...nondeterministic } : event));
  }

  private writeLog(entry: LogEntry): void {
    if (this.logging && this.logPath) appendFileSync(this.logPath, `${JSON.stringify(toLogged(entry))}\n`);
  }

  /** A logged page command, applied again (through the live host, whose timeline logs it, when there is one). */
  private replayCommand(command: LoggableCommand): void {
    if (this.live) this.live.replayCommand(command);
    else if (this.model) applyUserCommand(this.model, command);
  }

  private delivered(message: Message): void {
    if (message.replyTo !== null) {
      const onReply = this.etcdReplies.get(message.replyTo);
      if (onReply) {
        this.etcdReplies.delete(message.replyTo);
        onReply(message);
      }
    }
    if (message.to === this.cluster.user.name && message.replyTo !== null) {
      // The user component keeps every reply for the browser's command output; here the replies are
      // handed on as they arrive, so its list is emptied to keep a long-running server's memory flat.
      (this.cluster.user.received() as UserReply[]).length = 0;
      const sink = this.sinks.get(message.replyTo);
      if (sink) {
        if (message.kind === httpKinds.response) {
          const response = message.payload as HttpResponse;
          if (!response.stream) this.sinks.delete(message.replyTo);
          sink.response(response);
        } else if (message.kind === httpKinds.watchEvent) {
          sink.watchEvent(message.payload as HttpWatchEvent);
        } else if (message.kind === httpKinds.watchEnd) {
          this.sinks.delete(message.replyTo);
          sink.watchEnd(message.payload as HttpWatchEnd);
        } else if (message.kind === httpKinds.streamData) {
          sink.streamData?.(message.payload as HttpStreamData);
        }
      }
    }
    for (const listener of this.deliveryListeners) listener(message);
  }

  /** The header of `cluster.jsonl` when the log there belongs to this seed and node count. */
  private storedHeader(): LogHeader | null {
    if (!this.logPath || !existsSync(this.logPath)) return null;
    const first = readFileSync(this.logPath, 'utf8').split('\n', 1)[0] ?? '';
    if (first === '') return null;
    const stored = JSON.parse(first) as LogHeader;
    return stored.seed === this.options.seed && stored.nodes === this.options.nodes ? stored : null;
  }

  /** Replays `cluster.jsonl` when its seed and node count match; starts a new log otherwise. */
  private replayLog(stored: LogHeader | null, epochMs: number | undefined): number {
    if (!this.logPath || !this.options.dataDir) return 0;
    mkdirSync(this.options.dataDir, { recursive: true });
    if (!stored) {
      const header: LogHeader = { podflow: 'server-log', seed: this.options.seed, nodes: this.options.nodes, ...(epochMs !== undefined ? { epochMs } : {}) };
      writeFileSync(this.logPath, `${JSON.stringify(header)}\n`);
      return 0;
    }
    const lines = readFileSync(this.logPath, 'utf8').split('\n').filter((l) => l !== '');
    const engine = this.cluster.engine;
    let requests = 0;
    const entries = lines.slice(1);
    for (const [i, line] of entries.entries()) {
      let entry: LogEntry;
      try {
        entry = fromLogged(JSON.parse(line) as LogEntry);
      } catch (err) {
        // A line cut short by a crash can only be the last one; anything else is a damaged log.
        if (i !== entries.length - 1) throw err;
        writeFileSync(this.logPath, `${[lines[0], ...entries.slice(0, i)].join('\n')}\n`);
        break;
      }
      engine.run({ until: entry.at });
      if ('command' in entry) this.replayCommand(entry.command);
      else this.inject(entry);
      if ('request' in entry || 'etcd' in entry) requests++;
    }
    return requests;
  }
}

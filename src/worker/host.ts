// The simulation host: owns one cluster, carries out the UI's commands and reports what the engine did.
// It is a plain module (no `self`, no host timers of its own): sim.worker.ts binds it to the worker scope
// and tests drive it with a fake clock.
//
// Playback. Every mode is a loop over the engine's one step, so a trace does not depend on the mode:
//   step          delivers `count` messages at once;
//   play          every tick (≈ one frame) advances virtual time by elapsed real time × speed, i.e.
//                 `engine.run({until, maxSteps})`; a tick that hits maxSteps leaves the clock behind,
//                 so a heavy load slows virtual time down instead of piling up work;
//   run until idle  delivers in chunks until only background work is queued, yielding between chunks
//                 so a `pause` or `reset` posted meanwhile is handled.
// Reporting. Deliveries are collected as they happen and flushed once per command, tick or chunk as one
// `traceBatch` (bounded tail + count left out), always followed by a `status`.

import type { Command, CommandType, SimStatus, Topology, TraceRecord, WorkerEvent } from '../protocol/index.ts';
import { maxNodes, traceTailLimit } from '../protocol/index.ts';
import { httpKinds, type HttpRequest } from '../sim/apiserver/http.ts';
import { builtinTokens } from '../sim/apiserver/filters/authentication.ts';
import { resourceForKind } from '../sim/api/resources.ts';
import { componentNames, createCluster, defaultNodeCount, type ClusterTopology } from '../sim/cluster.ts';
import { roundToMicros, type Engine, type Message } from '../sim/engine/index.ts';
import type { User } from '../sim/user/user.ts';
import { LogCollector, type AuditSource } from './console/logs.ts';
import { ConsoleSession } from './console/session.ts';
import { KeyspaceTracker, type KeyspaceSource } from './keyspace.ts';
import { parseManifest, type ManifestObject } from './manifest.ts';

/** Real time and host timers, injected so that tests control them. */
export interface HostClock {
  /** Real milliseconds from a monotonic clock. */
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** What the host needs of a cluster (`Cluster` from src/sim/cluster.ts is one). */
export interface HostedCluster {
  readonly engine: Engine;
  readonly user: User;
  readonly topology: ClusterTopology;
  /** The etcd member whose keyspace the UI mirrors; absent in clusters without one. */
  readonly etcd?: KeyspaceSource;
  /** kube-apiserver, whose audit log feeds the logs panel; absent in clusters without one. */
  readonly apiserver?: { readonly audit: AuditSource };
  /** Brings the control plane up (the host calls it before `ready`); without it the host runs until idle. */
  boot?(): number;
}

export interface ClusterSpec {
  readonly seed: string | number;
  readonly nodes: number;
}

export interface SimHostOptions {
  readonly post: (event: WorkerEvent) => void;
  readonly clock: HostClock;
  readonly initial?: ClusterSpec;
  readonly buildCluster?: (spec: ClusterSpec) => HostedCluster;
  readonly pacing?: Partial<Pacing>;
}

export interface Pacing {
  /** Real ms between play ticks. */
  readonly tickMs: number;
  /** A tick never advances virtual time by more than this much real time × speed (e.g. after the tab slept). */
  readonly maxTickElapsedMs: number;
  /** Deliveries per play tick at most. */
  readonly maxStepsPerTick: number;
  /** Deliveries per run-until-idle chunk. */
  readonly runChunkSteps: number;
}

export const defaultPacing: Pacing = { tickMs: 16, maxTickElapsedMs: 100, maxStepsPerTick: 5_000, runChunkSteps: 20_000 };
export const defaultSeed = 'podflow';
/** Virtual ms per real ms: a 5 ms hop takes half a second on screen. */
export const defaultSpeed = 0.01;

type Mode = SimStatus['mode'];

export class SimHost {
  private readonly post: (event: WorkerEvent) => void;
  private readonly clock: HostClock;
  private readonly buildCluster: (spec: ClusterSpec) => HostedCluster;
  private readonly pacing: Pacing;
  private cluster!: HostedCluster;
  private mode: Mode = 'paused';
  private speed = defaultSpeed;
  private timer: unknown = null;
  private lastTickAt = 0;
  /** Deliveries since the last flush: the newest ones, and how many there were in all. */
  private tail: TraceRecord[] = [];
  private delivered = 0;
  private keyspace: KeyspaceTracker | null = null;
  private console!: ConsoleSession;
  private logs!: LogCollector;

  constructor(options: SimHostOptions) {
    this.post = options.post;
    this.clock = options.clock;
    this.buildCluster = options.buildCluster ?? ((spec) => createCluster(spec));
    this.pacing = { ...defaultPacing, ...options.pacing };
    this.start(options.initial ?? { seed: defaultSeed, nodes: defaultNodeCount });
    this.report();
  }

  handle(command: Command): void {
    try {
      this.execute(command);
    } catch (error) {
      this.fail(command.type, error);
    }
    this.report();
  }

  /** Stops playback timers; the host posts nothing afterwards unless handed a command. */
  dispose(): void {
    this.stopPlayback();
  }

  private execute(command: Command): void {
    switch (command.type) {
      case 'step': {
        requirePositiveInteger('step count', command.count);
        this.stopPlayback();
        this.cluster.engine.run({ maxSteps: command.count });
        return;
      }
      case 'play': {
        if (this.mode === 'playing') return;
        this.stopPlayback();
        this.mode = 'playing';
        this.lastTickAt = this.clock.now();
        this.schedule(this.tick, this.pacing.tickMs);
        return;
      }
      case 'pause':
        this.stopPlayback();
        return;
      case 'setSpeed':
        if (!(Number.isFinite(command.speed) && command.speed > 0)) throw new RangeError(`speed must be a positive number, got ${command.speed}`);
        this.speed = command.speed;
        return;
      case 'runUntilIdle':
        this.stopPlayback();
        this.runChunk();
        return;
      case 'reset': {
        const { seed, nodes } = command;
        if (!(typeof seed === 'string' ? seed !== '' : Number.isFinite(seed))) throw new RangeError('seed must be a non-empty string or a finite number');
        requirePositiveInteger('node count', nodes);
        if (nodes > maxNodes) throw new RangeError(`node count must be at most ${maxNodes}, got ${nodes}`);
        this.stopPlayback();
        this.start({ seed, nodes });
        return;
      }
      case 'applyManifest': {
        // `kubectl create -f`: every document is parsed first (a bad one sends nothing), then each is
        // POSTed to its collection as the admin user.
        const requests = parseManifest(command.yaml).map(createRequest);
        for (const request of requests) this.cluster.user.request(componentNames.apiserver, httpKinds.request, request);
        return;
      }
      case 'keyspaceAt': {
        if (!this.keyspace) throw new Error('this cluster has no etcd member to read');
        this.post(this.keyspace.at(command.revision));
        return;
      }
      case 'consoleRun':
        this.console.run(command.id, command.line, command.stdin);
        return;
      case 'consoleInterrupt':
        this.console.interrupt(command.id);
        return;
      case 'userRequest': {
        const { engine, user, topology } = this.cluster;
        const target = topology.components.find((c) => c.name === command.to);
        if (!target) throw new Error(`no component named ${command.to}`);
        if (!target.modelled || !engine.linked(user.name, target.name)) throw new Error(`${target.name} is not modelled yet, so it cannot answer ${command.kind}`);
        user.request(target.name, command.kind, command.payload);
        return;
      }
    }
  }

  /** Builds the cluster and boots it: runs until idle, so the user starts from a settled control plane. */
  private start(spec: ClusterSpec): void {
    this.cluster = this.buildCluster(spec);
    this.tail = [];
    this.delivered = 0;
    const { engine } = this.cluster;
    if (this.cluster.boot) this.cluster.boot();
    else engine.runUntilIdle();
    const keyspace = this.cluster.etcd ? new KeyspaceTracker(this.cluster.etcd) : null;
    this.keyspace = keyspace;
    const logs = new LogCollector(this.cluster.apiserver?.audit ?? null);
    this.logs = logs;
    this.console = new ConsoleSession(engine, this.cluster.user, logs);
    const session = this.console;
    engine.onDelivery((message) => {
      this.collect(engine.step, message);
      keyspace?.observe(engine.step);
      logs.observe(engine.step, message);
      session.observe(message);
    });
    const topology: Topology = this.cluster.topology;
    this.post({ type: 'ready', seed: spec.seed, nodes: spec.nodes, topology, bootSteps: engine.step });
    if (keyspace) this.post(keyspace.current());
  }

  private readonly tick = (): void => {
    this.timer = null;
    const at = this.clock.now();
    const elapsed = Math.min(at - this.lastTickAt, this.pacing.maxTickElapsedMs);
    this.lastTickAt = at;
    const { engine } = this.cluster;
    try {
      engine.run({ until: roundToMicros(engine.now + elapsed * this.speed), maxSteps: this.pacing.maxStepsPerTick });
      this.schedule(this.tick, this.pacing.tickMs);
    } catch (error) {
      this.stopPlayback();
      this.fail(null, error);
    }
    this.report();
  };

  /** Runs one chunk while paused; schedules the next (and reports running) only if work remains. */
  private runChunk(): void {
    const result = this.cluster.engine.runUntilIdle(this.pacing.runChunkSteps);
    if (result.reason === 'max-steps') {
      this.mode = 'runningUntilIdle';
      this.schedule(this.continueRun, 0);
    }
  }

  private readonly continueRun = (): void => {
    this.timer = null;
    this.mode = 'paused';
    try {
      this.runChunk();
    } catch (error) {
      this.stopPlayback();
      this.fail(null, error);
    }
    this.report();
  };

  private schedule(callback: () => void, ms: number): void {
    this.timer = this.clock.setTimeout(callback, ms);
  }

  private stopPlayback(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.mode = 'paused';
  }

  private collect(step: number, message: Message): void {
    this.delivered++;
    this.tail.push({ step, ...message });
    if (this.tail.length >= 2 * traceTailLimit) this.tail.splice(0, this.tail.length - traceTailLimit);
  }

  private fail(command: CommandType | null, error: unknown): void {
    this.post({ type: 'error', command, message: error instanceof Error ? error.message : String(error) });
  }

  /** Flushes collected deliveries (if any), keyspace changes (if any) and the status. */
  private report(): void {
    const diff = this.keyspace?.flush();
    if (diff) this.post(diff);
    for (const output of this.console.flush()) this.post(output);
    const logs = this.logs.flush();
    if (logs) this.post({ type: 'logLines', ...logs });
    if (this.delivered > 0) {
      const records = this.tail.slice(-traceTailLimit);
      this.post({ type: 'traceBatch', records, omitted: this.delivered - records.length });
      this.tail = [];
      this.delivered = 0;
    }
    const { engine } = this.cluster;
    this.post({
      type: 'status',
      status: { step: engine.step, now: engine.now, pending: engine.pending, idle: engine.idle, mode: this.mode, speed: this.speed },
    });
  }
}

/** The request `kubectl create -f` sends for one object (reference/kubectl-wire.md §3.5). */
function createRequest(m: ManifestObject): HttpRequest {
  const slash = m.apiVersion.indexOf('/');
  const [group, version] = slash < 0 ? ['', m.apiVersion] : [m.apiVersion.slice(0, slash), m.apiVersion.slice(slash + 1)];
  const resource = resourceForKind({ group, version, kind: m.kind });
  if (!resource) throw new Error(`error: resource mapping not found for name: "${m.name}" namespace: "${m.namespace ?? ''}" from "manifest": no matches for kind "${m.kind}" in version "${m.apiVersion}"`);
  const base = group === '' ? '/api/v1' : `/apis/${group}/${version}`;
  const scope = resource.namespaced ? `/namespaces/${m.namespace ?? 'default'}` : '';
  return {
    method: 'POST',
    path: `${base}${scope}/${resource.resource}`,
    query: 'fieldManager=kubectl-create&fieldValidation=Strict',
    headers: {
      authorization: `Bearer ${builtinTokens.admin}`,
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': 'kubectl/v1.28.15 (linux/amd64) kubernetes/841856557ef',
    },
    body: JSON.stringify(m.object),
  };
}

function requirePositiveInteger(what: string, value: number): void {
  if (!(Number.isInteger(value) && value >= 1)) throw new RangeError(`${what} must be a positive integer, got ${value}`);
}

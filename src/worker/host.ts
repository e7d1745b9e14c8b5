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
//   advance, runUntilCommandDone  the same chunks towards another goal: a span of virtual time, or a
//                 console command's end (the Scenarios tab's steps).
// Reporting. Deliveries are collected as they happen and flushed once per command, tick or chunk as one
// `traceBatch` (bounded tail + count left out), always followed by a `status`. Every keyspace diff or
// current snapshot is followed by the `pods` it implies (pods.ts), and each report ships the tokens near
// the playhead that changed, delivered or still in flight (`flights`, flights.ts).
// Timeline. Every delivery is sampled into the Timeline (timeline.ts) and user commands are logged with
// their step; looking at a past step is a view served from those records (timeline-view.ts), and a user
// action at a past step forks: the live cluster is rebuilt by replay (replay.ts) as a background task.
// Persistence. An optional journal (saved-clusters.ts) gets the state to save after every report.
// Driven. With a ClusterDriver (the server's wall-clock pacing, src/server/cluster-host.ts) the host runs
// nothing itself: the same reporting, timeline and queries over a cluster someone else runs, its position
// always at the head; each attached page moves a view of its own over that timeline (host-viewer.ts).

import type { Command, CommandType, EtcdMemberCount, KeyspaceDiffEvent, TraceRangeCommand, LoggableCommand, LoggedCommand, ProgressTask, SimStatus, StepLevel, Topology, TraceRecord, WorkerEvent } from '../protocol/index.ts';
import { etcdMemberCounts, maxNodes, milestoneLimit, playingTraceTailLimit, stepLevelRank, stepLevels, traceTailLimit } from '../protocol/index.ts';
import { createCluster, defaultNodeCount, type ClusterTopology } from '../sim/cluster.ts';
import { roundToMicros, type Engine, type Message } from '../sim/engine/index.ts';
import type { User } from '../sim/user/user.ts';
import { consoleOf } from './console/console-of.ts';
import type { AuditSource } from './console/logs.ts';
import { errorLabel } from './error-markers.ts';
import { describeValue, KeyspaceTracker, type KeyspaceSource } from './keyspace.ts';
import { bootCluster, replay, type ReplayProgress } from './replay.ts';
import { Timeline, type StepSample } from './timeline.ts';
import { TimelineView } from './timeline-view.ts';
import { applyUserCommand, describeUserCommand } from './user-commands.ts';
import { causeChain, inspect, type InspectedCluster } from './queries.ts';
import { withPods } from './pods.ts';
import { FlightTracker } from './flights.ts';
import { headFlightPosition, viewEvents } from './host-viewer.ts';
import { InsidesRecorder } from './insides.ts';
import { locateTour } from './tour-locate.ts';
import { StoryTap } from './story/record.ts';
import { TraceRangeIndex } from './trace-range.ts';

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
  /** kube-scheduler's attempt records, for the scheduler table; absent or null without a scheduler. */
  readonly scheduler?: InspectedCluster['scheduler'];
  /** kube-apiserver, whose audit log feeds the logs panel; absent in clusters without one. */
  readonly apiserver?: { readonly audit: AuditSource } & InspectedCluster['apiserver'];
  /** Brings the control plane up (the host calls it before `ready`); without it the host runs until idle. */
  boot?(): number;
}

export interface ClusterSpec {
  readonly seed: string | number;
  readonly nodes: number;
  /** kube-apiserver's `--storage-media-type`; absent means protobuf. */
  readonly storageMediaType?: 'protobuf' | 'json';
  /** etcd members (1, 3 or 5); absent means 1. */
  readonly etcdMembers?: EtcdMemberCount;
}

/** Receives, after every report at the head, what a saved cluster must hold (see saved-clusters.ts). */
export interface HostJournal {
  /** A new timeline began (new cluster, reset, fork, restore): what was saved after `keep` commands is void. */
  began(spec: ClusterSpec, bootSteps: number, keepCommands: number, host: SimHost): void;
  /** The state after a report: the head step and what changed since the last call. */
  recorded(host: SimHost, batch: { readonly records: readonly TraceRecord[]; readonly changes: KeyspaceDiffEvent | null }): void;
  /** Carries out a saved-cluster command (or `fork` with a branch); false when it is not one of its own. */
  command(command: Command, host: SimHost): boolean;
}

/**
 * Whoever runs a driven host's cluster (the server, in step with the wall clock). The host then never
 * runs the engine and shows the head as it grows; the commands that move a view (play, pause, step, step
 * back, seek) are each page's (PageViewer, host-viewer.ts), those that would run, reset or rebuild the
 * cluster are refused (`drivenRefusal`), and user actions are handed to the driver.
 */
export interface ClusterDriver {
  /**
   * Runs `apply` at the driver's next clean instant (every message due by then delivered). `apply` applies
   * `command` as the user component and logs it on the timeline; it reports its own failure and returns
   * whether the command was applied (only applied ones belong in the driver's log).
   */
  act(command: LoggableCommand, apply: () => boolean): void;
  /** Virtual ms per real ms of the driver's pacing (the status's speed). */
  readonly speed: number;
}

/** The `error` message for a command a driven host does not carry out. */
function drivenRefusal(type: CommandType): string {
  return `${type} is not available while attached to a server: its cluster runs on the server's clock and serves real kubectl, so the page can watch it, step back through it and act on it, but not run, reset or rebuild it (go back to your in-browser cluster for that)`;
}

export interface SimHostOptions {
  readonly post: (event: WorkerEvent) => void;
  readonly clock: HostClock;
  readonly initial?: ClusterSpec;
  readonly buildCluster?: (spec: ClusterSpec) => HostedCluster;
  readonly pacing?: Partial<Pacing>;
  /** Someone else runs the cluster (see ClusterDriver); the host reports it when `pulse` is called. */
  readonly driver?: ClusterDriver;
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
  /** Deliveries per replay chunk (fork, restore), between which the host checks the time slice. */
  readonly replayChunkSteps: number;
  /** Real ms a background task (replay) may run before it yields to queued messages. */
  readonly taskSliceMs: number;
  /** stepLevel at the head: deliveries run at most looking for the next step at the level. */
  readonly levelStepMaxSteps: number;
  /** stepLevel at the head from an idle cluster (only background work): virtual ms it looks ahead at most. */
  readonly levelStepIdleMs: number;
  /** Playing at a level: real ms per unit at speed `defaultSpeed` (divided by speed / defaultSpeed). */
  readonly levelPlayMs: Readonly<Record<Exclude<StepLevel, 'internal'>, number>>;
}

export const defaultPacing: Pacing = {
  tickMs: 16, maxTickElapsedMs: 100, maxStepsPerTick: 5_000, runChunkSteps: 20_000, replayChunkSteps: 500, taskSliceMs: 50,
  levelStepMaxSteps: 20_000, levelStepIdleMs: 10 * 60 * 1000, levelPlayMs: { request: 350, milestone: 1_000 },
};
export const defaultSeed = 'podflow';
/** Virtual ms per real ms: a 5 ms hop takes half a second on screen. */
export const defaultSpeed = 0.01;
/**
 * Deliveries the engine keeps for the timeline (its trace retention): older steps can still be seeked to
 * (their status and keyspace are recorded), but their deliveries are no longer shown.
 */
export const traceRetention = 200_000;

type Mode = SimStatus['mode'];

/** A background task: a generator of progress, and what to do when it ends. */
interface Task {
  readonly kind: ProgressTask;
  readonly label: string;
  readonly run: Generator<ReplayProgress, void>;
  readonly done: () => void;
  readonly failed: () => void;
}

export class SimHost {
  private readonly post: (event: WorkerEvent) => void;
  private readonly clock: HostClock;
  private readonly buildCluster: (spec: ClusterSpec) => HostedCluster;
  private readonly pacing: Pacing;
  private clusterSpec!: ClusterSpec;
  private cluster!: HostedCluster;
  private timelineState!: Timeline;
  private view!: TimelineView;
  private mode: Mode = 'paused';
  private speed = defaultSpeed;
  private timer: unknown = null;
  private lastTickAt = 0;
  /** Deliveries since the last flush: the newest ones, and how many there were in all. */
  private tail: TraceRecord[] = [];
  private delivered = 0;
  private keyspace: KeyspaceTracker | null = null;
  private postedTimeline = '';
  private task: Task | null = null;
  private taskTimer: unknown = null;
  /** Commands posted while a task ran; carried out in order when it ends. */
  private readonly queued: Command[] = [];
  private journalSink: HostJournal | null = null;
  /** What each component holds inside, sampled after every delivery (insides.ts). */
  readonly insides = new InsidesRecorder();
  private readonly traceRange = new TraceRangeIndex();
  private readonly flights = new FlightTracker((step, message) => this.storyTap.record.annotate(step, message));
  /** The classifier on the live cluster and what it recorded (see story/). */
  private storyTap!: StoryTap;
  /** Playing at a level coarser than 'internal': one unit per paced tick. */
  private playLevel: Exclude<StepLevel, 'internal'> | null = null;
  private readonly driver: ClusterDriver | null;

  constructor(options: SimHostOptions) {
    const post = withPods(options.post);
    // A `ready` empties the UI's tokens: the flights shipped since are all it holds.
    this.post = (event) => {
      if (event.type === 'ready') this.flights.reset();
      post(event);
    };
    this.clock = options.clock;
    this.buildCluster = options.buildCluster ?? ((spec) => createCluster({ ...spec, traceLimit: traceRetention }));
    this.pacing = { ...defaultPacing, ...options.pacing };
    this.driver = options.driver ?? null;
    if (this.driver) {
      this.mode = 'playing';
      this.speed = this.driver.speed;
    }
    this.start(options.initial ?? { seed: defaultSeed, nodes: defaultNodeCount, etcdMembers: 3 });
    this.report();
  }

  /** A driven host: reports what the driver's cluster did since the last report (see ClusterDriver). */
  pulse(): void {
    this.report();
  }

  /** A driven host: applies a logged command again (the driver replaying its log at the command's instant). */
  replayCommand(command: LoggableCommand): void {
    this.applyLogged(command);
  }

  /**
   * What a page that attaches now needs, from `ready` on: the view at the position shown, built afresh
   * so that the pages attached before (and the deltas they are sent) are not disturbed.
   */
  snapshot(): WorkerEvent[] {
    const timeline = this.timelineState;
    const spec = this.clusterSpec;
    return [
      { type: 'ready', seed: spec.seed, nodes: spec.nodes, topology: this.cluster.topology, bootSteps: timeline.bootSteps, ...specOptions(spec) },
      { type: 'story', replace: true, milestones: this.storyTap.record.milestones.slice(-milestoneLimit) },
      ...viewEvents(this, timeline, this.flightPosition(), this.status()),
    ];
  }

  /** The open cluster's seed and node count. */
  get spec(): ClusterSpec {
    return this.clusterSpec;
  }

  get timeline(): Timeline {
    return this.timelineState;
  }

  /** The story of the open timeline: each step's level and the milestones. */
  get story(): StoryTap['record'] {
    return this.storyTap.record;
  }

  get engine(): Engine {
    return this.cluster.engine;
  }

  /** The live cluster (read-only use: queries and tests). */
  get hostedCluster(): HostedCluster {
    return this.cluster;
  }

  /** The keyspace tracker of the live cluster (null without etcd). */
  get keyspaceTracker(): KeyspaceTracker | null {
    return this.keyspace;
  }

  /** True while a replay runs (commands are queued meanwhile). */
  get busy(): boolean {
    return this.task !== null;
  }

  /** Sets (or removes) the journal that saves the open cluster and answers saved-cluster commands. */
  attachJournal(journal: HostJournal | null): void {
    this.journalSink = journal;
  }

  /** The newest deliveries up to the head (at most `traceTailLimit`), as a reload should show them. */
  headTail(): TraceRecord[] {
    return this.view.tailAt(this.timelineState.head).records;
  }

  handle(command: Command): void {
    if (command.type === 'traceRange') {
      this.answerTraceRange(command);
      return;
    }
    if (this.task) {
      if (command.type === 'pause') this.stopPlayback();
      this.queued.push(command);
      return;
    }
    try {
      this.execute(command);
    } catch (error) {
      this.fail(command.type, error);
    }
    this.report();
  }

  /**
   * A window of the trace (the sequence view scrolling): answered at once, even while a replay runs, from
   * the cluster the host holds, and followed by the status alone — a query changes nothing to report or save.
   */
  private answerTraceRange(command: TraceRangeCommand): void {
    try {
      this.post(this.traceRange.answer(this.cluster.engine, command, this.storyTap.record));
    } catch (error) {
      this.post({ type: 'error', command: command.type, message: error instanceof Error ? error.message : String(error) });
    }
    this.post({ type: 'status', status: this.status() });
  }

  /** Stops playback timers; the host posts nothing afterwards unless handed a command. */
  dispose(): void {
    this.stopPlayback();
    if (this.taskTimer !== null) this.clock.clearTimeout(this.taskTimer);
    this.taskTimer = null;
  }

  /** Posts an event as the host (used by the saved-cluster manager for its answers). */
  emit(event: WorkerEvent): void {
    this.post(event);
  }

  /** Reports a failure as an `error` event and marks it on the timeline. */
  fail(command: CommandType | null, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.timelineState.mark(this.timelineState.position, 'error', message.slice(0, 200));
    this.post({ type: 'error', command, message });
  }

  private execute(command: Command): void {
    if (this.journalSink?.command(command, this)) return;
    if (this.driver && this.executeDriven(command)) return;
    switch (command.type) {
      case 'step': {
        requirePositiveInteger('step count', command.count);
        this.stopPlayback();
        const served = this.view.forward(command.count);
        if (served < command.count) this.cluster.engine.run({ maxSteps: command.count - served });
        return;
      }
      case 'stepLevel': {
        if (!stepLevels.includes(command.level)) throw new RangeError(`level must be one of ${stepLevels.join(', ')}, got ${String(command.level)}`);
        this.stopPlayback();
        if (command.direction === 'back') {
          const at = this.timelineState.position;
          const to = this.storyTap.record.previous(at, command.level);
          // Before the first step there is step 0 (nothing delivered), which every level shows.
          if (to !== null || (command.level === 'internal' && at > 0)) this.view.seek(to ?? 0);
          return;
        }
        if (command.direction !== 'forward') throw new RangeError(`direction must be forward or back, got ${String(command.direction)}`);
        this.levelForward(command.level);
        return;
      }
      case 'play': {
        const level = command.level ?? 'internal';
        if (!stepLevels.includes(level)) throw new RangeError(`level must be one of ${stepLevels.join(', ')}, got ${String(level)}`);
        if (this.mode === 'playing' && (this.playLevel ?? 'internal') === level) return;
        this.stopPlayback();
        this.mode = 'playing';
        if (level !== 'internal') {
          // At a level, play walks recorded steps first (like Step at that level), then runs the head.
          this.playLevel = level;
          this.levelUnit();
          return;
        }
        this.view.toHead();
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
        this.view.toHead();
        this.runChunk();
        return;
      case 'reset': {
        const { seed, nodes } = command;
        const spec = { seed, nodes, ...specOptions(command) };
        checkSpec(spec);
        this.stopPlayback();
        this.start(spec);
        return;
      }
      case 'applyManifest':
        this.userAction({ type: 'applyManifest', yaml: command.yaml });
        return;
      case 'userRequest':
        this.userAction({ type: 'userRequest', to: command.to, kind: command.kind, payload: command.payload });
        return;
      case 'consoleRun':
        this.userAction({ type: 'consoleRun', id: command.id, line: command.line, ...(command.stdin !== undefined ? { stdin: command.stdin } : {}) });
        return;
      case 'consoleInterrupt':
        this.userAction({ type: 'consoleInterrupt', id: command.id });
        return;
      case 'fault':
        this.userAction({ type: 'fault', fault: command.fault });
        return;
      case 'advance': {
        const { ms } = command;
        if (!(Number.isFinite(ms) && ms > 0)) throw new RangeError(`advance needs a positive number of milliseconds, got ${ms}`);
        this.stopPlayback();
        this.view.toHead();
        const { engine } = this.cluster;
        const until = roundToMicros(engine.now + ms);
        this.runTowards(() => engine.run({ until, maxSteps: this.pacing.runChunkSteps }).reason !== 'max-steps');
        return;
      }
      case 'runUntilCommandDone':
        this.stopPlayback();
        this.view.toHead();
        this.runTowards(this.commandDone(command.id, command.maxMs));
        return;
      case 'keyspaceAt': {
        if (!this.keyspace) throw new Error('this cluster has no etcd member to read');
        this.post(this.keyspace.at(command.revision));
        return;
      }
      case 'describeValue':
        this.post(describeValue(command));
        return;
      case 'inspect':
        this.post(inspect(this.cluster, command.topics, { step: this.timelineState.position, ...this.timelineState.sample(this.timelineState.position) }));
        return;
      case 'causeChain':
        this.post(causeChain(this.cluster.engine, command.id, (step, message) => this.storyTap.record.annotate(step, message)));
        return;
      case 'stepBack':
        requirePositiveInteger('step-back count', command.count);
        this.stopPlayback();
        this.view.seek(Math.max(0, this.timelineState.position - command.count));
        return;
      case 'seek':
        this.stopPlayback();
        this.view.seek(command.step);
        return;
      case 'seekRevision': {
        const step = this.timelineState.stepOfRevision(command.revision);
        if (step === null) throw new RangeError(`revision ${command.revision} was never reached (the newest is ${this.timelineState.revisionAt(this.timelineState.head)})`);
        this.stopPlayback();
        this.view.seek(step);
        return;
      }
      case 'fork':
        this.stopPlayback();
        if (command.branch !== null) throw new Error('keeping the old future as a branch needs saved clusters, which are not available in this worker');
        this.fork(() => undefined);
        return;
      case 'tourLocate':
        this.post(locateTour(command.tour, this.cluster.engine.trace, (step, message) => this.storyTap.record.annotate(step, message)));
        return;
      default:
        throw new Error(notYetAvailable(command.type));
    }
  }

  /** The commands a driven host refuses (see ClusterDriver); false for the commands it shares. */
  private executeDriven(command: Command): boolean {
    switch (command.type) {
      case 'play':
      case 'pause':
      case 'step':
      case 'stepLevel':
      case 'stepBack':
      case 'seek':
      case 'seekRevision':
        throw new Error(`${command.type} moves a page's own view (PageViewer): a driven host stays at its head`);
      case 'setSpeed':
      case 'runUntilIdle':
      case 'advance':
      case 'runUntilCommandDone':
      case 'reset':
      case 'fork':
        throw new Error(drivenRefusal(command.type));
      default:
        return false;
    }
  }

  /**
   * Carries out a command that changes the simulation: at the head at once (and logs it); at a past step
   * after forking there. A driven host hands it to the driver.
   */
  private userAction(command: LoggableCommand): void {
    if (this.driver) {
      this.driver.act(command, () => {
        try {
          this.applyLogged(command);
          return true;
        } catch (error) {
          this.fail(command.type, error);
          return false;
        }
      });
      return;
    }
    if (!this.timelineState.live) {
      this.stopPlayback();
      this.fork(() => this.applyLogged(command));
      return;
    }
    this.applyLogged(command);
  }

  private applyLogged(command: LoggableCommand): void {
    applyUserCommand(this.cluster, command);
    this.timelineState.logCommand(command, this.cluster.engine.now, describeUserCommand(command));
    this.timelineState.noteSent(this.cluster.engine.lastMessageId);
  }

  /**
   * Makes the current position the head: replays seed + commands up to it on a new cluster (a background
   * task), drops the old future, then runs `then` (the action that caused the fork).
   */
  fork(then: () => void): void {
    const timeline = this.timelineState;
    const at = timeline.position;
    if (timeline.live) {
      then();
      return;
    }
    if (at < timeline.bootSteps) throw new RangeError(`cannot act at step ${at}: the cluster is still booting until step ${timeline.bootSteps}`);
    const log = timeline.log.filter((entry) => entry.step <= at);
    const cluster = this.buildCluster(this.clusterSpec);
    const story = new StoryTap(cluster);
    story.quietly(() => bootCluster(cluster));
    this.runTask({
      kind: 'replay',
      label: `Replaying ${at.toLocaleString('en-US')} steps to fork at step ${at}`,
      run: replay(cluster, log, at, this.pacing.replayChunkSteps),
      done: () => {
        timeline.truncate(at);
        this.insides.truncate(at);
        this.insides.attach(cluster);
        timeline.mark(at, 'fork', `forked at step ${at}`);
        recordDeliveries(cluster, timeline);
        this.adopt(cluster, timeline, story);
        this.journalSink?.began(this.clusterSpec, timeline.bootSteps, log.length, this);
        then();
      },
      failed: () => undefined,
    });
  }

  /**
   * Rebuilds a saved cluster by replay (reload, crash restart, open): the cluster is built and booted, the
   * UI gets `ready` at once, and the deliveries up to `head` run as a background task that records the
   * timeline. `showSaved` posts the saved view of the head meanwhile; `done` runs when the cluster is live.
   */
  restore(
    spec: ClusterSpec, log: readonly LoggedCommand[], head: number,
    options: { savedBootSteps?: number; showSaved?: () => void; done?: () => void; failed?: () => void } = {},
  ): void {
    checkSpec(spec);
    this.stopPlayback();
    this.cancelTask();
    const cluster = this.buildCluster(spec);
    const timeline = new Timeline(sampleOf(cluster));
    recordDeliveries(cluster, timeline);
    this.insides.begin(cluster);
    const story = new StoryTap(cluster);
    this.clusterSpec = spec;
    // With the boot steps known from the save, the saved view is shown before the cluster boots.
    const early = options.savedBootSteps !== undefined;
    if (!early) timeline.bootSteps = story.quietly(() => bootCluster(cluster));
    this.post({ type: 'ready', seed: spec.seed, nodes: spec.nodes, topology: cluster.topology, bootSteps: options.savedBootSteps ?? timeline.bootSteps, ...specOptions(spec) });
    options.showSaved?.();
    const pacing = this.pacing;
    function* bootThenReplay(): Generator<ReplayProgress, void> {
      if (early) {
        timeline.bootSteps = story.quietly(() => bootCluster(cluster));
        yield { done: timeline.bootSteps, total: head };
      }
      yield* replay(cluster, log, head, pacing.replayChunkSteps);
    }
    this.runTask({
      kind: 'replay',
      label: `Restoring ${head.toLocaleString('en-US')} steps`,
      run: bootThenReplay(),
      done: () => {
        for (const entry of log) if (entry.step <= head) timeline.adoptCommand(entry, describeUserCommand(entry.command));
        this.adopt(cluster, timeline, story);
        this.post({ type: 'traceBatch', ...this.view.tailAt(timeline.head), replace: true });
        this.postedTimeline = '';
        options.done?.();
      },
      failed: () => options.failed?.(),
    });
  }

  /** Builds the cluster and boots it: runs until idle, so the user starts from a settled control plane. */
  private start(spec: ClusterSpec): void {
    this.cancelTask();
    this.clusterSpec = spec;
    const cluster = this.buildCluster(spec);
    const timeline = new Timeline(sampleOf(cluster));
    recordDeliveries(cluster, timeline);
    this.insides.begin(cluster);
    const story = new StoryTap(cluster);
    timeline.bootSteps = story.quietly(() => bootCluster(cluster));
    this.post({ type: 'ready', seed: spec.seed, nodes: spec.nodes, topology: cluster.topology satisfies Topology, bootSteps: timeline.bootSteps, ...specOptions(spec) });
    this.adopt(cluster, timeline, story);
    this.journalSink?.began(spec, timeline.bootSteps, 0, this);
  }

  /**
   * Makes `cluster` (booted or replayed, its deliveries recorded by `timeline` and classified by `story`
   * since it was built) the live one; the UI gets the story's milestones anew.
   */
  private adopt(cluster: HostedCluster, timeline: Timeline, story: StoryTap): void {
    this.storyTap?.stop();
    this.storyTap = story;
    this.post({ type: 'story', replace: true, milestones: story.record.takeAll() });
    this.cluster = cluster;
    this.timelineState = timeline;
    this.tail = [];
    this.delivered = 0;
    const keyspace = cluster.etcd ? new KeyspaceTracker(cluster.etcd) : null;
    this.keyspace = keyspace;
    const { engine } = cluster;
    engine.onDelivery((message) => {
      this.collect(engine.step, message);
      keyspace?.observe(engine.step);
    });
    this.view = new TimelineView(timeline, () => this.cluster, keyspace, this.post, (step, message) => story.record.annotate(step, message));
    this.postedTimeline = '';
    if (keyspace) this.post(keyspace.current());
  }

  private runTask(task: Task): void {
    this.task = task;
    this.post({ type: 'progress', task: task.kind, label: task.label, done: 0, total: 0, finished: false });
    this.pump();
  }

  private readonly pump = (): void => {
    this.taskTimer = null;
    const task = this.task;
    if (!task) return;
    const deadline = this.clock.now() + this.pacing.taskSliceMs;
    let last: ReplayProgress = { done: 0, total: 0 };
    try {
      for (;;) {
        const next = task.run.next();
        if (next.done) break;
        last = next.value;
        if (this.clock.now() >= deadline) {
          this.post({ type: 'progress', task: task.kind, label: task.label, done: last.done, total: last.total, finished: false });
          this.taskTimer = this.clock.setTimeout(this.pump, 0);
          return;
        }
      }
      this.task = null;
      this.post({ type: 'progress', task: task.kind, label: task.label, done: last.total, total: last.total, finished: true });
      task.done();
    } catch (error) {
      this.task = null;
      this.post({ type: 'progress', task: task.kind, label: task.label, done: last.done, total: last.total, finished: true });
      this.fail(null, error);
      task.failed();
    }
    this.report();
    this.drainQueue();
  };

  private cancelTask(): void {
    if (!this.task) return;
    const task = this.task;
    this.task = null;
    if (this.taskTimer !== null) this.clock.clearTimeout(this.taskTimer);
    this.taskTimer = null;
    this.post({ type: 'progress', task: task.kind, label: task.label, done: 0, total: 0, finished: true });
  }

  private drainQueue(): void {
    while (!this.task && this.queued.length > 0) this.handle(this.queued.shift()!);
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

  /**
   * Runs `chunk` (true when its goal is reached) now and, while it is not, again on a timer between
   * which queued commands are handled; reported as running until idle meanwhile, so `pause` stops it.
   */
  private runTowards(chunk: () => boolean): void {
    if (chunk()) return;
    this.mode = 'runningUntilIdle';
    this.schedule(() => {
      this.timer = null;
      this.mode = 'paused';
      try {
        this.runTowards(chunk);
      } catch (error) {
        this.stopPlayback();
        this.fail(null, error);
      }
      this.report();
    }, 0);
  }

  /** A chunk that delivers one message at a time until console command `id` has finished. */
  private commandDone(id: number, maxMs: number): () => boolean {
    const { engine } = this.cluster;
    const { session } = consoleOf(this.cluster);
    const deadline = engine.now + maxMs;
    return () => {
      for (let i = 0; i < this.pacing.runChunkSteps && session.isRunning(id); i++) {
        if (engine.now > deadline) throw new Error(`console command ${id} is still running after ${maxMs / 1000} s of virtual time`);
        if (engine.stepOnce() === null) throw new Error(`console command ${id} waits for a reply, but nothing is queued`);
      }
      return !session.isRunning(id);
    };
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
    this.playLevel = null;
  }

  /**
   * Moves forward to the next step at `level` or coarser: through recorded steps while in the past, then
   * at the head by delivering one message at a time until such a step is delivered. With foreground work
   * queued it stops when only background work is left; from an idle cluster it looks ahead through
   * background work for at most `levelStepIdleMs` of virtual time. Both are bounded by
   * `levelStepMaxSteps` deliveries. Returns whether it found such a step.
   */
  private levelForward(level: StepLevel): boolean {
    const timeline = this.timelineState;
    const record = this.storyTap.record;
    if (!timeline.live) {
      const next = record.next(timeline.position, level, timeline.head);
      this.view.forward((next ?? timeline.head) - timeline.position);
      if (next !== null) return true;
    }
    const { engine } = this.cluster;
    const rank = stepLevelRank[level];
    const startedIdle = engine.idle;
    const deadline = engine.now + this.pacing.levelStepIdleMs;
    for (let i = 0; i < this.pacing.levelStepMaxSteps; i++) {
      if (!startedIdle && engine.idle) return false;
      if (engine.stepOnce() === null) return false;
      if (record.rankAt(engine.step) >= rank) return true;
      if (startedIdle && engine.now >= deadline) return false;
    }
    return false;
  }

  /**
   * One unit of play at a level, the next one paced. Playing ends when no further step at the level is
   * found, or after a unit that began at the head of an idle cluster (only background work left).
   */
  private levelUnit(): void {
    const level = this.playLevel;
    if (level === null) return;
    try {
      const last = this.timelineState.live && this.cluster.engine.idle;
      if (this.levelForward(level) && !last) {
        this.schedule(this.levelTick, this.pacing.levelPlayMs[level] / (this.speed / defaultSpeed));
      } else {
        this.stopPlayback();
      }
    } catch (error) {
      this.stopPlayback();
      this.fail(null, error);
    }
  }

  private readonly levelTick = (): void => {
    this.timer = null;
    this.levelUnit();
    this.report();
  };

  private collect(step: number, message: Message): void {
    this.delivered++;
    this.tail.push(this.storyTap.record.annotate(step, message));
    if (this.tail.length >= 2 * traceTailLimit) this.tail.splice(0, this.tail.length - traceTailLimit);
  }

  /** Flushes collected deliveries (if any), keyspace changes (if any), the timeline (if moved) and the status. */
  private report(): void {
    if (this.task) return;
    const timeline = this.timelineState;
    const diff = this.keyspace?.flush() ?? null;
    if (diff) this.post(diff);
    const console = consoleOf(this.cluster);
    for (const output of console.session.flush()) this.post(output);
    const logs = console.logs.flush();
    if (logs) this.post({ type: 'logLines', ...logs });
    const milestones = this.storyTap.record.takeNew();
    if (milestones.length > 0) this.post({ type: 'story', replace: false, milestones });
    let records: TraceRecord[] = [];
    if (this.delivered > 0) {
      records = this.tail.slice(-(this.mode === 'playing' ? playingTraceTailLimit : traceTailLimit));
      this.post({ type: 'traceBatch', records, omitted: this.delivered - records.length });
      this.tail = [];
      this.delivered = 0;
    }
    const flights = this.flights.report(this.cluster.engine, this.flightPosition(), this.mode !== 'playing' || this.playLevel !== null);
    if (flights) this.post(flights);
    const key = `${timeline.position}/${timeline.head}/${timeline.markerStamp}`;
    if (key !== this.postedTimeline) {
      this.postedTimeline = key;
      this.post(timeline.event(this.cluster.engine.trace.firstStep - 1));
    }
    const insides = this.insides.eventIfChanged(timeline.position);
    if (insides) this.post(insides);
    this.post({ type: 'status', status: this.status() });
    if (timeline.live) this.journalSink?.recorded(this, { records, changes: diff });
  }

  /** The step shown, for the tokens drawn at it. */
  private flightPosition() {
    const timeline = this.timelineState;
    const { engine } = this.cluster;
    if (timeline.live) {
      if (this.mode === 'playing' && this.playLevel === null) return headFlightPosition(engine);
      return { step: engine.step, now: engine.now, sent: engine.lastMessageId, live: true, playhead: engine.now };
    }
    const sample = timeline.sample(timeline.position);
    return { step: timeline.position, now: sample.now, sent: sample.sent ?? Number.POSITIVE_INFINITY, live: false };
  }

  /** The status of the position shown: the live engine's at the head, the recorded one in the past. */
  status(): SimStatus {
    const timeline = this.timelineState;
    const { engine } = this.cluster;
    if (timeline.live) return { step: engine.step, now: engine.now, pending: engine.pending, idle: engine.idle, mode: this.mode, speed: this.speed };
    const sample = timeline.sample(timeline.position);
    return { step: timeline.position, now: sample.now, pending: sample.pending, idle: sample.idle, mode: this.mode, speed: this.speed };
  }
}

/** Records every delivery of `cluster` on `timeline`: the sample after it, and a marker when it was an error. */
function recordDeliveries(cluster: HostedCluster, timeline: Timeline): void {
  cluster.engine.onDelivery((message) => {
    timeline.record(sampleOf(cluster));
    const error = errorLabel(message);
    if (error !== null) timeline.mark(timeline.head, 'error', error);
  });
}

/** What the timeline records of a cluster after a delivery. */
export function sampleOf(cluster: HostedCluster): StepSample {
  const { engine } = cluster;
  return { now: engine.now, pending: engine.pending, idle: engine.idle, revision: cluster.etcd?.store.currentRev ?? 0, sent: engine.lastMessageId };
}

/**
 * A cluster's options where they are not the defaults (protobuf storage, one etcd member), as every saved
 * form of a cluster carries them: commands, saved records, export files, `ready`.
 */
export function specOptions(spec: Pick<ClusterSpec, 'storageMediaType' | 'etcdMembers'>): { storageMediaType?: 'json'; etcdMembers?: 3 | 5 } {
  return {
    ...(spec.storageMediaType === 'json' ? { storageMediaType: 'json' as const } : {}),
    ...(spec.etcdMembers === 3 || spec.etcdMembers === 5 ? { etcdMembers: spec.etcdMembers } : {}),
  };
}

function checkSpec({ seed, nodes, etcdMembers }: ClusterSpec): void {
  if (etcdMembers !== undefined && !etcdMemberCounts.includes(etcdMembers)) throw new RangeError(`etcd members must be 1, 3 or 5, got ${String(etcdMembers)}`);
  if (!(typeof seed === 'string' ? seed !== '' : Number.isFinite(seed))) throw new RangeError('seed must be a non-empty string or a finite number');
  requirePositiveInteger('node count', nodes);
  if (nodes > maxNodes) throw new RangeError(`node count must be at most ${maxNodes}, got ${nodes}`);
}

/** The answer to a protocol command this worker does not carry out (no saved clusters attached). */
function notYetAvailable(type: CommandType): string {
  return `${type} needs saved clusters, which are not available in this worker`;
}

function requirePositiveInteger(what: string, value: number): void {
  if (!(Number.isInteger(value) && value >= 1)) throw new RangeError(`${what} must be a positive integer, got ${value}`);
}

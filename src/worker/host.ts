// The worker's host: owns one cluster, carries out the page's commands and reports what the engine did.
// It is a plain module (no `self`, no host timers of its own): sim.worker.ts binds it to the worker scope
// and tests drive it with a fake clock. It routes each command to the piece that owns it (src/worker/host/):
//   stage.ts        the cluster on show and its records: timeline, story, keyspace, insides;
//   playback.ts     play, step, run until idle, advance, step back and seek (the play state and timers);
//   reporter.ts     what the page is told after every command, tick or chunk;
//   tasks.ts        background work in time slices (a replay), commands waiting meanwhile;
//   answers.ts      the queries, which change nothing.
// What it keeps itself is what changes the cluster: a user action (applied at the head and logged on the
// timeline, or at a past step by forking), a reset, a fork (the live cluster rebuilt by replay, replay.ts,
// as a background task) and a restore of a saved cluster.
// Persistence. An optional journal (saved-clusters.ts) gets the state to save after every report.
// The server hosts the same stage, reporter and answers without playback or tasks (host/driven-host.ts).

import type { Command, CommandType, LoggableCommand, LoggedCommand, SimStatus, TraceRecord, WorkerEvent } from '../protocol/index.ts';
import { createCluster, defaultNodeCount } from '../sim/cluster.ts';
import type { Engine } from '../sim/engine/index.ts';
import { answer, answerTraceRange } from './host/answers.ts';
import { productBounds, type HostBounds } from './host/bounds.ts';
import { checkSpec, recordDeliveries, specOptions, type ClusterSpec, type HostedCluster } from './host/hosted-cluster.ts';
import { defaultPacing, Playback, type HostClock, type Pacing } from './host/playback.ts';
import { Reporter, type ReportedBatch } from './host/reporter.ts';
import { Stage, type Prepared } from './host/stage.ts';
import { BackgroundTasks } from './host/tasks.ts';
import type { InsidesRecorder } from './insides.ts';
import type { KeyspaceTracker } from './keyspace.ts';
import { bootCluster, replay, type ReplayProgress } from './replay.ts';
import { withPods, type PodSource } from './pods.ts';
import { StoryTap, type StoryRecord } from './story/record.ts';
import type { Timeline } from './timeline.ts';
import { applyUserCommand, describeUserCommand, loggable } from './user-commands.ts';
import { scaleLessonEvent } from './scale-lesson.ts';

export type { ClusterSpec, HostedCluster } from './host/hosted-cluster.ts';
export { specOptions } from './host/hosted-cluster.ts';
export { defaultSpeed, type HostClock, type Pacing } from './host/playback.ts';

/** Receives, after every report at the head, what a saved cluster must hold (see saved-clusters.ts). */
export interface HostJournal {
  /** A new timeline began (new cluster, reset, fork, restore): what was saved after `keep` commands is void. */
  began(spec: ClusterSpec, bootSteps: number, keepCommands: number, host: SimHost): void;
  /** The state after a report: the head step and what changed since the last call. */
  recorded(host: SimHost, batch: ReportedBatch): void;
  /** Carries out a saved-cluster command (or `fork` with a branch); false when it is not one of its own. */
  command(command: Command, host: SimHost): boolean;
}

export interface SimHostOptions {
  readonly post: (event: WorkerEvent) => void;
  readonly clock: HostClock;
  readonly initial?: ClusterSpec;
  readonly buildCluster?: (spec: ClusterSpec) => HostedCluster;
  readonly pacing?: Partial<Pacing>;
  /** How much of a long run is kept (host/bounds.ts); the product's bounds without. */
  readonly bounds?: HostBounds;
}

const defaultSeed = 'podflow';
/** What `restore` does around the replay (see SimHost.restore). */
export interface RestoreOptions {
  /** The boot steps of the saved cluster: its saved view is shown before the cluster boots. */
  readonly savedBootSteps?: number;
  readonly showSaved?: () => void;
  readonly done?: () => void;
  readonly failed?: () => void;
}

export class SimHost {
  /** Posts an event as the host (the saved-cluster manager's answers too). */
  readonly emit: (event: WorkerEvent) => void;
  private readonly buildCluster: (spec: ClusterSpec) => HostedCluster;
  private readonly pacing: Pacing;
  private readonly stage: Stage;
  private readonly reporter: Reporter;
  private readonly playback: Playback;
  private readonly tasks: BackgroundTasks;
  private journal: HostJournal | null = null;
  /** Whether the stage's cluster is the one the page was last readied for (false from a `ready` until it is adopted). */
  private podsOfStage = false;

  constructor(options: SimHostOptions) {
    const post = withPodsAndReady(options.post, () => (this.podsOfStage ? this.stage.keyspaceTracker : null), () => {
      this.podsOfStage = false;
      this.reporter.clearFlights();
    });
    this.emit = post;
    const bounds = options.bounds ?? productBounds;
    this.buildCluster = options.buildCluster ?? ((spec) => createCluster({ ...spec, traceLimit: bounds.traceRetention, tracePayloadLimit: bounds.tracePayloadRetention, schedulerAttemptLimit: bounds.schedulerAttempts }));
    this.pacing = { ...defaultPacing, ...options.pacing };
    this.stage = new Stage(post, bounds);
    const callbacks = {
      report: () => this.report(),
      fail: (command: null, error: unknown) => this.fail(command, error),
      settled: () => {
        this.report();
        for (let next = this.tasks.takeWaiting(); next; next = this.tasks.takeWaiting()) this.handle(next);
      },
    };
    this.playback = new Playback(this.stage, options.clock, this.pacing, callbacks);
    // The page's own worker ships log lines only while its Logs panel is shown (`logsShown`).
    this.reporter = new Reporter(this.stage, this.playback, post, false);
    this.tasks = new BackgroundTasks(options.clock, this.pacing.taskSliceMs, post, callbacks);
    this.start(options.initial ?? { seed: defaultSeed, nodes: defaultNodeCount, etcdMembers: 3 });
    this.report();
  }

  /** The open cluster's seed and node count. */
  get spec(): ClusterSpec {
    return this.stage.spec;
  }

  get timeline(): Timeline {
    return this.stage.timeline;
  }

  /** The story of the open timeline: each step's level and the milestones. */
  get story(): StoryRecord {
    return this.stage.story;
  }

  get engine(): Engine {
    return this.stage.engine;
  }

  /** The live cluster (read-only use: queries and tests). */
  get hostedCluster(): HostedCluster {
    return this.stage.cluster;
  }

  /** The keyspace tracker of the live cluster (null without etcd). */
  get keyspaceTracker(): KeyspaceTracker | null {
    return this.stage.keyspaceTracker;
  }

  /** What each component holds inside, sampled after every delivery (insides.ts). */
  get insides(): InsidesRecorder {
    return this.stage.insides;
  }

  /** True while a replay runs (commands are queued meanwhile). */
  get busy(): boolean {
    return this.tasks.busy;
  }

  /** Sets (or removes) the journal that saves the open cluster and answers saved-cluster commands. */
  attachJournal(journal: HostJournal | null): void {
    this.journal = journal;
  }

  /** The newest deliveries up to the head (at most `traceTailLimit`), as a reload should show them. */
  headTail(): TraceRecord[] {
    return this.stage.view.tailAt(this.stage.timeline.head).records;
  }

  handle(command: Command): void {
    if (command.type === 'traceRange') {
      answerTraceRange(this.stage, command, this.emit, this.status());
      return;
    }
    if (this.tasks.busy) {
      if (command.type === 'pause') this.playback.stop();
      this.tasks.wait(command);
      return;
    }
    try {
      this.execute(command);
    } catch (error) {
      this.fail(command.type, error);
    }
    this.report();
  }

  /** Stops playback timers; the host posts nothing afterwards unless handed a command. */
  dispose(): void {
    this.playback.stop();
    this.tasks.stopTimer();
  }

  /** Reports a failure as an `error` event and marks it on the timeline. */
  fail(command: CommandType | null, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.stage.timeline.mark(this.stage.timeline.position, 'error', message.slice(0, 200));
    this.emit({ type: 'error', command, message });
  }

  /** The status of the position shown: the live engine's at the head, the recorded one in the past. */
  status(): SimStatus {
    return this.reporter.status();
  }

  private execute(command: Command): void {
    if (this.journal?.command(command, this)) return;
    if (this.playback.handle(command)) return;
    const event = answer(this.stage, command);
    if (event) return this.emit(event);
    switch (command.type) {
      case 'reset': {
        const spec = { seed: command.seed, nodes: command.nodes, ...specOptions(command) };
        checkSpec(spec);
        this.playback.stop();
        this.start(spec);
        return;
      }
      case 'applyManifest':
      case 'userRequest':
      case 'consoleRun':
      case 'consoleInterrupt':
      case 'fault':
        return this.userAction(loggable(command));
      case 'logsShown':
        this.reporter.showLogs(command.shown);
        return;
      case 'measureScaleLesson':
        if (!this.stage.timeline.live) throw new Error('the lesson is measured at the newest step: go to it first');
        this.playback.stop();
        return this.emit(scaleLessonEvent(this.stage.cluster, (request) => this.userAction(request)));
      case 'fork':
        this.playback.stop();
        if (command.branch !== null) throw new Error('keeping the old future as a branch needs saved clusters, which are not available in this worker');
        return this.fork(() => undefined);
      default:
        throw new Error(`${command.type} needs saved clusters, which are not available in this worker`);
    }
  }

  /** Carries out a command that changes the simulation: at the head at once (and logs it); at a past step after forking there. */
  private userAction(command: LoggableCommand): void {
    const apply = (): void => {
      const { cluster, timeline, engine } = this.stage;
      applyUserCommand(cluster, command);
      timeline.logCommand(command, engine.now, describeUserCommand(command));
      timeline.noteSent(engine.lastMessageId);
    };
    if (this.stage.timeline.live) return apply();
    this.playback.stop();
    this.fork(apply);
  }

  /**
   * Makes the current position the head: replays seed + commands up to it on a new cluster (a background
   * task), drops the old future, then runs `then` (the action that caused the fork).
   */
  fork(then: () => void): void {
    const { timeline, spec } = this.stage;
    const at = timeline.position;
    if (timeline.live) {
      then();
      return;
    }
    if (at < timeline.bootSteps) throw new RangeError(`cannot act at step ${at}: the cluster is still booting until step ${timeline.bootSteps}`);
    const log = timeline.log.filter((entry) => entry.step <= at);
    const cluster = this.buildCluster(spec);
    const story = new StoryTap(cluster);
    story.quietly(() => bootCluster(cluster));
    this.tasks.run({
      kind: 'replay',
      words: { key: 'fork', steps: at, at },
      run: replay(cluster.engine, log, at, this.pacing.replayChunkSteps, (command) => applyUserCommand(cluster, command)),
      done: () => {
        timeline.truncate(at);
        // The fork goes on with the live cluster's recorders, up to the fork's step.
        const { insides } = this.stage;
        insides.truncate(at);
        insides.attach(cluster);
        timeline.mark(at, 'fork', `forked at step ${at}`);
        recordDeliveries(cluster, timeline);
        this.adopt(spec, { cluster, timeline, story, insides });
        this.journal?.began(spec, timeline.bootSteps, log.length, this);
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
  restore(spec: ClusterSpec, log: readonly LoggedCommand[], head: number, options: RestoreOptions = {}): void {
    checkSpec(spec);
    this.playback.stop();
    this.tasks.cancel();
    const prepared = this.stage.prepare(this.buildCluster(spec));
    const { cluster, timeline, story } = prepared;
    // With the boot steps known from the save, the saved view is shown before the cluster boots.
    const early = options.savedBootSteps !== undefined;
    if (!early) timeline.bootSteps = story.quietly(() => bootCluster(cluster));
    this.emit(Stage.ready(spec, cluster, options.savedBootSteps ?? timeline.bootSteps));
    options.showSaved?.();
    const pacing = this.pacing;
    function* bootThenReplay(): Generator<ReplayProgress, void> {
      if (early) {
        timeline.bootSteps = story.quietly(() => bootCluster(cluster));
        yield { done: timeline.bootSteps, total: head };
      }
      yield* replay(cluster.engine, log, head, pacing.replayChunkSteps, (command) => applyUserCommand(cluster, command));
    }
    this.tasks.run({
      kind: 'replay',
      words: { key: 'restore', steps: head },
      run: bootThenReplay(),
      done: () => {
        for (const entry of log) if (entry.step <= head) timeline.adoptCommand(entry, describeUserCommand(entry.command));
        this.adopt(spec, prepared);
        this.emit({ type: 'traceBatch', ...this.stage.view.tailAt(timeline.head), replace: true });
        options.done?.();
      },
      failed: () => options.failed?.(),
    });
  }

  /** Builds the cluster and boots it: runs until idle, so the user starts from a settled control plane. */
  private start(spec: ClusterSpec): void {
    this.tasks.cancel();
    const prepared = this.stage.prepare(this.buildCluster(spec));
    const { cluster, timeline, story } = prepared;
    timeline.bootSteps = story.quietly(() => bootCluster(cluster));
    this.emit(Stage.ready(spec, cluster, timeline.bootSteps));
    this.adopt(spec, prepared);
    this.journal?.began(spec, timeline.bootSteps, 0, this);
  }

  /** Makes a prepared cluster the live one (stage.ts) and reports its deliveries from now on. */
  private adopt(spec: ClusterSpec, prepared: Prepared): void {
    this.podsOfStage = true;
    this.stage.adopt(spec, prepared);
    this.reporter.adopted();
  }

  /** Reports (reporter.ts) unless a task runs, and hands what changed at the head to the journal. */
  private report(): void {
    if (this.tasks.busy) return;
    const batch = this.reporter.report();
    if (this.stage.timeline.live) this.journal?.recorded(this, batch);
  }
}

/** `post` with the pods every keyspace change implies (pods.ts), calling `ready` before each `ready` is posted. */
function withPodsAndReady(post: (event: WorkerEvent) => void, source: () => PodSource | null, ready: () => void): (event: WorkerEvent) => void {
  const withPodsPost = withPods(post, source);
  return (event) => {
    // A `ready` empties the UI's tokens: the flights shipped since are all it holds.
    if (event.type === 'ready') ready();
    withPodsPost(event);
  };
}

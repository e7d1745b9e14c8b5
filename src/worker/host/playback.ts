// Playback: how the worker's host moves its cluster and its position. Every mode is a loop over the
// engine's one step, so a trace does not depend on the mode:
//   step          delivers `count` messages at once (recorded steps first while in the past);
//   play          every tick (≈ one frame) advances virtual time by elapsed real time × speed, i.e.
//                 `engine.run({until, maxSteps})`; a tick that hits maxSteps leaves the clock behind,
//                 so a heavy load slows virtual time down instead of piling up work;
//   play / step at a level  one step at the level (request, milestone) per paced tick, through recorded
//                 steps first, then at the head;
//   run until idle  delivers in chunks until only background work is queued, yielding between chunks
//                 so a `pause` or `reset` posted meanwhile is handled;
//   advance, runUntilCommandDone  the same chunks towards another goal: a span of virtual time, or a
//                 console command's end (the Scenarios tab's steps);
//   step back, seek  move the position over the timeline's records (the stage's view).
// It owns the play state (mode, speed, level) and the host timers of playback; a timer's work is
// followed by the host's report. The server's host has no playback: its cluster runs on the wall clock.

import type { Command, StepLevel } from '../../protocol/index.ts';
import { stepLevelRank, stepLevels } from '../../protocol/index.ts';
import { roundToMicros } from '../../sim/engine/index.ts';
import { consoleOf } from '../console/console-of.ts';
import { requirePositiveInteger } from './hosted-cluster.ts';
import type { PlayState } from './reporter.ts';
import type { Stage } from './stage.ts';

/** Real time and host timers, injected so that tests control them. */
export interface HostClock {
  /** Real milliseconds from a monotonic clock. */
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
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
/** Virtual ms per real ms: a 5 ms hop takes half a second on screen. */
export const defaultSpeed = 0.01;

/** What playback calls back into its host. */
export interface PlaybackHost {
  /** Reports after a timer's work. */
  report(): void;
  /** Reports a failure (`command` null: a timer's). */
  fail(command: null, error: unknown): void;
}

export class Playback implements PlayState {
  mode: PlayState['mode'] = 'paused';
  speed = defaultSpeed;
  playLevel: PlayState['playLevel'] = null;
  nothingAhead: PlayState['nothingAhead'] = null;
  private timer: unknown = null;
  private lastTickAt = 0;

  constructor(private readonly stage: Stage, private readonly clock: HostClock, private readonly pacing: Pacing, private readonly host: PlaybackHost) {}

  /** Carries out a command that moves the cluster or the position; false for any other command. */
  handle(command: Command): boolean {
    const { stage } = this;
    switch (command.type) {
      case 'step': {
        requirePositiveInteger('step count', command.count);
        this.stop();
        const served = stage.view.forward(command.count);
        if (served < command.count) stage.engine.run({ maxSteps: command.count - served });
        return true;
      }
      case 'stepLevel': {
        if (!stepLevels.includes(command.level)) throw new RangeError(`level must be one of ${stepLevels.join(', ')}, got ${String(command.level)}`);
        this.stop();
        if (command.direction === 'back') {
          const at = stage.timeline.position;
          const to = stage.story.previous(at, command.level);
          // Before the first step there is step 0 (nothing delivered), which every level shows.
          if (to !== null || (command.level === 'internal' && at > 0)) stage.view.seek(to ?? 0);
          return true;
        }
        if (command.direction !== 'forward') throw new RangeError(`direction must be forward or back, got ${String(command.direction)}`);
        this.levelForward(command.level);
        return true;
      }
      case 'play':
        this.play(command.level ?? 'internal');
        return true;
      case 'pause':
        this.stop();
        return true;
      case 'setSpeed':
        if (!(Number.isFinite(command.speed) && command.speed > 0)) throw new RangeError(`speed must be a positive number, got ${command.speed}`);
        this.speed = command.speed;
        return true;
      case 'runUntilIdle':
        this.stop();
        stage.view.toHead();
        this.runChunk();
        return true;
      case 'advance': {
        const { ms } = command;
        if (!(Number.isFinite(ms) && ms > 0)) throw new RangeError(`advance needs a positive number of milliseconds, got ${ms}`);
        this.stop();
        stage.view.toHead();
        const { engine } = stage;
        const until = roundToMicros(engine.now + ms);
        this.runTowards(() => engine.run({ until, maxSteps: this.pacing.runChunkSteps }).reason !== 'max-steps');
        return true;
      }
      case 'runUntilCommandDone':
        this.stop();
        stage.view.toHead();
        this.runTowards(this.commandDone(command.id, command.maxMs));
        return true;
      case 'stepBack':
        requirePositiveInteger('step-back count', command.count);
        this.stop();
        stage.view.seek(Math.max(0, stage.timeline.position - command.count));
        return true;
      case 'seek':
        this.stop();
        stage.view.seek(command.step);
        return true;
      case 'seekRevision': {
        const step = stage.timeline.stepOfRevision(command.revision);
        if (step === null) throw new RangeError(`revision ${command.revision} was never reached (the newest is ${stage.timeline.revisionAt(stage.timeline.head)})`);
        this.stop();
        stage.view.seek(step);
        return true;
      }
      default:
        return false;
    }
  }

  /** Stops playback and its timer: paused. */
  stop(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.mode = 'paused';
    this.playLevel = null;
  }

  private play(level: StepLevel): void {
    if (!stepLevels.includes(level)) throw new RangeError(`level must be one of ${stepLevels.join(', ')}, got ${String(level)}`);
    if (this.mode === 'playing' && (this.playLevel ?? 'internal') === level) return;
    this.stop();
    this.mode = 'playing';
    if (level !== 'internal') {
      // At a level, play walks recorded steps first (like Step at that level), then runs the head.
      this.playLevel = level;
      this.levelUnit();
      return;
    }
    this.stage.view.toHead();
    this.lastTickAt = this.clock.now();
    this.schedule(this.tick, this.pacing.tickMs);
  }

  /** Runs `work` as a timer's: a failure stops playback and is reported; the host reports either way. */
  private timed(work: () => void): void {
    this.timer = null;
    try {
      work();
    } catch (error) {
      this.stop();
      this.host.fail(null, error);
    }
    this.host.report();
  }

  private readonly tick = (): void => {
    this.timed(() => {
      const at = this.clock.now();
      const elapsed = Math.min(at - this.lastTickAt, this.pacing.maxTickElapsedMs);
      this.lastTickAt = at;
      const { engine } = this.stage;
      engine.run({ until: roundToMicros(engine.now + elapsed * this.speed), maxSteps: this.pacing.maxStepsPerTick });
      this.schedule(this.tick, this.pacing.tickMs);
    });
  };

  /** Runs one chunk while paused; schedules the next (and reports running) only if work remains. */
  private runChunk(): void {
    const result = this.stage.engine.runUntilIdle(this.pacing.runChunkSteps);
    if (result.reason === 'max-steps') {
      this.mode = 'runningUntilIdle';
      this.schedule(() => this.timed(() => {
        this.mode = 'paused';
        this.runChunk();
      }), 0);
    }
  }

  /**
   * Runs `chunk` (true when its goal is reached) now and, while it is not, again on a timer between
   * which queued commands are handled; reported as running until idle meanwhile, so `pause` stops it.
   */
  private runTowards(chunk: () => boolean): void {
    if (chunk()) return;
    this.mode = 'runningUntilIdle';
    this.schedule(() => this.timed(() => {
      this.mode = 'paused';
      this.runTowards(chunk);
    }), 0);
  }

  /** A chunk that delivers one message at a time until console command `id` has finished. */
  private commandDone(id: number, maxMs: number): () => boolean {
    const { engine, cluster } = this.stage;
    const { session } = consoleOf(cluster);
    const deadline = engine.now + maxMs;
    return () => {
      for (let i = 0; i < this.pacing.runChunkSteps && session.isRunning(id); i++) {
        if (engine.now > deadline) throw new Error(`console command ${id} is still running after ${maxMs / 1000} s of virtual time`);
        if (engine.stepOnce() === null) throw new Error(`console command ${id} waits for a reply, but nothing is queued`);
      }
      return !session.isRunning(id);
    };
  }

  private schedule(callback: () => void, ms: number): void {
    this.timer = this.clock.setTimeout(callback, ms);
  }

  /**
   * Moves forward to the next step at `level` or coarser: through recorded steps while in the past, then
   * at the head by delivering one message at a time until such a step is delivered. With foreground work
   * queued it stops when only background work is left; from an idle cluster it looks ahead through
   * background work for at most `levelStepIdleMs` of virtual time. Both are bounded by
   * `levelStepMaxSteps` deliveries. Returns whether it found such a step.
   */
  private levelForward(level: StepLevel): boolean {
    const { timeline, story, view, engine } = this.stage;
    if (!timeline.live) {
      const next = story.next(timeline.position, level, timeline.head);
      view.forward((next ?? timeline.head) - timeline.position);
      if (next !== null) return true;
    }
    const rank = stepLevelRank[level];
    const startedIdle = engine.idle;
    const [fromStep, fromNow] = [engine.step, engine.now];
    const deadline = engine.now + this.pacing.levelStepIdleMs;
    for (let i = 0; i < this.pacing.levelStepMaxSteps; i++) {
      if (!startedIdle && engine.idle) break;
      if (engine.stepOnce() === null) break;
      if (story.rankAt(engine.step) >= rank) return true;
      if (startedIdle && engine.now >= deadline) break;
    }
    if (level !== 'internal') {
      this.nothingAhead = { atStep: engine.step, found: { level, steps: engine.step - fromStep, virtualMs: engine.now - fromNow } };
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
      const last = this.stage.timeline.live && this.stage.engine.idle;
      if (this.levelForward(level) && !last) {
        this.schedule(this.levelTick, this.pacing.levelPlayMs[level] / (this.speed / defaultSpeed));
      } else {
        this.stop();
      }
    } catch (error) {
      this.stop();
      this.host.fail(null, error);
    }
  }

  private readonly levelTick = (): void => {
    this.timer = null;
    this.levelUnit();
    this.host.report();
  };
}

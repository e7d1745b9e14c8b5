// Pacing: the server's cluster runs on the wall clock. In real time, virtual time follows the wall clock
// (times `speed`). In fast-forward, queued foreground work (everything a request causes: scheduling,
// image pulls, container starts) runs at once, and only idle time follows the wall clock. The clock shown
// to clients (epoch + virtual time: creation timestamps, kubectl's ages) must never be ahead of the wall
// clock, so a fast-forwarded cluster starts `fastForwardLeadMs` (30 min) before the wall clock and runs
// its work at once only up to the wall clock's instant; work due later waits for the wall clock. Its
// objects therefore read 30 minutes old at start, and up to 30 virtual minutes of work can be
// fast-forwarded before pacing catches up.
//
// Each tick runs the engine in slices (yielding to the event loop, so HTTP stays responsive) and, once it
// reaches a clean instant (every message due by then delivered), lets waiting work in (admission.ts).

import type { Engine } from '../sim/engine/index.ts';

/** Steps per slice of work before the pacing yields to the event loop (keeps HTTP responsive). */
const stepsPerSlice = 5_000;
const tickMs = 2;

export const defaultFastForwardLeadMs = 30 * 60_000;

export interface PacingOptions {
  /** Run queued work at once instead of in step with the wall clock. */
  readonly fastForward: boolean;
  /** Virtual ms per wall ms (real time: 1). */
  readonly speed: number;
  /** The wall-clock instant of virtual time 0. */
  readonly epochMs: number;
}

/** What the pacing asks of the server's host on every tick. */
export interface PacedHost {
  /** Work waits for the next clean instant: tick at once. */
  waiting(): boolean;
  /** Before a tick runs the engine. */
  beforeTick(): void;
  /** At a clean instant: let waiting work in. */
  clean(): void;
}

export class WallClockPacing {
  private wallAnchor = 0;
  private virtualAnchor = 0;
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private running = false;
  /** Fast-forward: queued work waits for the wall clock (no busy loop until it is due). */
  private waitingForWall = false;
  /** Something entered the engine from outside (an answer of the real etcd): run it at once. */
  private woken = false;

  constructor(private readonly engine: Engine, private readonly options: PacingOptions, private readonly host: PacedHost) {}

  /** Starts pacing: virtual time now moves with the wall clock. */
  start(): void {
    this.wallAnchor = performance.now();
    this.virtualAnchor = this.engine.now;
    this.running = true;
    this.schedule();
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
  }

  /** Something entered the engine from outside: the next tick comes at once. */
  wake(): void {
    this.woken = true;
    this.schedule();
  }

  /** The next tick: at once while work waits or (fast-forward) work is queued, else after tickMs. */
  schedule(): void {
    if (!this.running || this.immediate) return;
    const busy = this.woken || this.host.waiting() || (this.options.fastForward && !this.engine.idle && !this.waitingForWall);
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
   * One tick: runs the simulation up to the wall clock (real time) or through its queued foreground
   * work (fast-forward), and at a clean instant lets the waiting work in.
   */
  private advance(): void {
    const { engine } = this;
    let clean: boolean;
    this.woken = false;
    this.host.beforeTick();
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
    if (clean) this.host.clean();
  }

  /** The wall clock as virtual time: the latest instant a fast-forwarded cluster may reach now. */
  private wallClockVirtual(): number {
    return Date.now() - this.options.epochMs;
  }
}

// The discrete-event engine. It owns the components and, through its post (post.ts), virtual time, the
// queue of pending messages, the seeded RNG, the links and reservations; it keeps the trace. One step
// delivers the next message in (deliverAt, id) order and lets its receiver run until it waits again;
// whatever the receiver sends is queued, never delivered within the same step. Every playback mode
// (step, run for a duration, run until idle, fast-forward) is a loop over that one step, so all modes
// produce the same trace.
//
// A message resumes the coroutine waiting for it (coroutine-driver.ts), or else goes to its receiver's
// `receive`. Reservations (reservations.ts) hold back every delivery ordered after them.
//
// Snapshots: component state is the components' business; the engine's own state (clock, ids, queue,
// RNG, links) is plain data. A coroutine suspended in the middle of a request cannot be serialized, so
// `suspendedCoroutines` tells a timeline when a snapshot may be taken.

import type { Component } from './component.ts';
import type { Co } from './coroutine.ts';
import { CoroutineDriver } from './coroutine-driver.ts';
import type { LinkOptions } from './links.ts';
import type { Message } from './message.ts';
import { Post } from './post.ts';
import { defaultEpochMs, roundToMicros, type Duration, type Time } from './time.ts';
import { Trace } from './trace.ts';

export interface EngineOptions {
  readonly seed: string | number;
  /** Wall-clock instant (ms since the Unix epoch) that virtual time 0 stands for. */
  readonly epochMs?: number;
  /** Keep at most this many trace records (default: all). */
  readonly traceLimit?: number;
  /** The newest steps whose trace records keep their whole payloads; older ones keep summaries (default: all). */
  readonly tracePayloadLimit?: number;
}

/** `reserved`: the next delivery would come after a reserved message that is not filled yet. */
export type RunStopReason = 'idle' | 'time' | 'max-steps' | 'empty' | 'reserved';

export interface RunResult {
  readonly steps: number;
  readonly reason: RunStopReason;
}

export interface RunOptions {
  /** Stop after this many deliveries. */
  readonly maxSteps?: number;
  /** Stop before delivering anything scheduled after this virtual time (the clock then moves to it). */
  readonly until?: Time;
}

export class InvariantError extends Error {
  constructor(readonly invariant: string, readonly step: number, detail: string) {
    super(`invariant ${invariant} broken after step ${step}: ${detail}`);
    this.name = 'InvariantError';
  }
}

export class Engine extends Post {
  readonly epochMs: number;
  readonly trace: Trace;

  private readonly components = new Map<string, Component>();
  private readonly coroutines = new CoroutineDriver(this);
  private readonly invariants: Array<{ name: string; check: () => string | undefined }> = [];
  private readonly deliveryListeners: Array<(message: Message) => void> = [];
  /** Components stopped by a fault: messages to them are traced but not delivered. */
  private readonly stopped = new Set<string>();

  constructor(options: EngineOptions) {
    super(options.seed);
    this.epochMs = options.epochMs ?? defaultEpochMs;
    this.trace = new Trace(options.traceLimit, options.tracePayloadLimit ?? options.traceLimit);
  }

  /** Number of deliveries so far. */
  get step(): number {
    return this.trace.lastStep;
  }

  get suspendedCoroutines(): number {
    return this.coroutines.suspended;
  }

  add<C extends Component>(component: C): C {
    if (this.components.has(component.name)) throw new Error(`duplicate component name ${component.name}`);
    this.components.set(component.name, component);
    component.attach(this);
    return component;
  }

  component(name: string): Component | undefined {
    return this.components.get(name);
  }

  componentNames(): string[] {
    return [...this.components.keys()];
  }

  /**
   * Stops a component as a process dies: it first releases what the OS would close for it (its
   * `onStop`), then its waiting coroutines and pending timers are dropped, and every later message to
   * it is traced but not delivered.
   */
  stopComponent(name: string): void {
    const component = this.components.get(name);
    if (!component) throw new Error(`stop: unknown component ${name}`);
    if (this.stopped.has(name)) return;
    component.onStop();
    this.stopped.add(name);
    this.coroutines.drop(component);
    this.cancelTimersOf(name);
  }

  /** Starts a stopped component again; it resumes as the real process would after a restart (`onStart`). */
  startComponent(name: string): void {
    const component = this.components.get(name);
    if (!component) throw new Error(`start: unknown component ${name}`);
    if (!this.stopped.delete(name)) return;
    component.onStart();
  }

  isStopped(name: string): boolean {
    return this.stopped.has(name);
  }

  /** Links two components in both directions. */
  link(a: string, b: string, options: LinkOptions): void {
    for (const name of [a, b]) if (!this.components.has(name)) throw new Error(`link: unknown component ${name}`);
    this.links.link(a, b, options);
  }

  /** Starts a coroutine for `component`, running it now until its first wait. */
  spawn(component: Component, co: Co<unknown>): void {
    this.coroutines.drive(component, co, undefined);
  }

  addInvariant(name: string, check: () => string | undefined): void {
    this.invariants.push({ name, check });
  }

  onDelivery(listener: (message: Message) => void): () => void {
    this.deliveryListeners.push(listener);
    return () => {
      const i = this.deliveryListeners.indexOf(listener);
      if (i >= 0) this.deliveryListeners.splice(i, 1);
    };
  }

  /** Delivers the next message. Returns it, or null when nothing is queued. */
  stepOnce(): Message | null {
    if (this.reserved.size > 0) {
      const next = this.queue.peek();
      if (!next || this.reserved.blocks(next)) return null;
    }
    const message = this.take();
    if (!message) return null;
    this.trace.append(message);
    this.current = message;
    try {
      this.dispatch(message);
    } finally {
      this.current = null;
    }
    for (const { name, check } of this.invariants) {
      const broken = check();
      if (broken !== undefined) throw new InvariantError(name, this.step, broken);
    }
    for (const listener of this.deliveryListeners) listener(message);
    return message;
  }

  /** Delivers messages until a limit is reached or the queue is empty. */
  run(options: RunOptions = {}): RunResult {
    const maxSteps = options.maxSteps ?? Number.POSITIVE_INFINITY;
    // Delivery times are whole microseconds; so is the horizon, or a message due "now" could miss it.
    const until = options.until === undefined ? undefined : roundToMicros(options.until);
    let steps = 0;
    for (;;) {
      if (steps >= maxSteps) return { steps, reason: 'max-steps' };
      const next = this.queue.peek();
      // A reservation next in order, and within the horizon, holds everything (and the clock) back.
      if (this.reserved.size > 0 && (next === undefined || this.reserved.blocks(next)) && (until === undefined || this.reserved.dueBy(until))) {
        return { steps, reason: 'reserved' };
      }
      if (!next) {
        if (until !== undefined && until > this.clock) this.clock = until;
        return { steps, reason: until !== undefined ? 'time' : 'empty' };
      }
      if (until !== undefined && next.deliverAt > until) {
        if (until > this.clock) this.clock = until;
        return { steps, reason: 'time' };
      }
      this.stepOnce();
      steps++;
    }
  }

  /** Runs for a span of virtual time. */
  runFor(duration: Duration, maxSteps?: number): RunResult {
    return this.run({ until: this.clock + duration, ...(maxSteps !== undefined ? { maxSteps } : {}) });
  }

  /** Runs until only background work (heartbeats and what they cause) is queued. */
  runUntilIdle(maxSteps = 10_000_000): RunResult {
    let steps = 0;
    while (!this.idle) {
      if (steps >= maxSteps) return { steps, reason: 'max-steps' };
      if (!this.stepOnce()) return { steps, reason: this.reserved.size > 0 ? 'reserved' : 'empty' };
      steps++;
    }
    return { steps, reason: 'idle' };
  }

  private dispatch(message: Message): void {
    if (this.stopped.size > 0 && this.stopped.has(message.to)) return;
    if (this.coroutines.resume(message)) return;
    const receiver = this.components.get(message.to);
    if (!receiver) throw new Error(`message ${message.id} (${message.kind}) to unknown component ${message.to}`);
    receiver.receive(message);
  }
}

// The discrete-event engine. It owns virtual time, the queue of pending messages, the seeded RNG, the
// links between components and the trace. One step delivers the next message in (deliverAt, id) order
// and lets its receiver run until it waits again; whatever the receiver sends is queued, never delivered
// within the same step. Every playback mode (step, run for a duration, run until idle, fast-forward) is
// a loop over that one step, so all modes produce the same trace.
//
// Links: every pair of components that talk is linked with a latency and an optional jitter. Delivery on
// a directed link is FIFO (as on a TCP stream): jitter may delay a message but never lets it overtake an
// earlier one on the same link. A component's messages to itself (timers, wake-ups) have no latency.
//
// Reservations: a component that waits on the outside world (a real etcd over gRPC) reserves its reply
// when the request is delivered; the engine delivers nothing ordered after an open reservation until the
// reply is filled in, so the outside world's answer takes the place a modelled reply would have had.
//
// Snapshots: component state is the components' business; the engine's own state (clock, ids, queue,
// RNG, links) is plain data. A coroutine suspended in the middle of a request cannot be serialized, so
// `suspendedCoroutines` tells a timeline when a snapshot may be taken.

import type { MessageKind, MessageMap } from '../messages/index.ts';
import type { Component } from './component.ts';
import { timedOut, type Co, type Condition, type Effect } from './coroutine.ts';
import { EventQueue } from './event-queue.ts';
import { timerKind, type Message, type TimerPayload } from './message.ts';
import { Rng } from './rng.ts';
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

export interface LinkOptions {
  /** One-way latency, virtual ms. */
  readonly latency: Duration;
  /** Up to this much extra delay per message, drawn from the seeded RNG. */
  readonly jitter?: Duration;
}

export interface SendOptions {
  /** Extra delay on top of the link latency (e.g. a server's processing time). */
  readonly delay?: Duration;
  readonly replyTo?: number;
  /** Overrides the inherited background flag. */
  readonly background?: boolean;
  /** Overrides the inherited cause (the message being delivered). */
  readonly cause?: number | null;
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

/** Name of the timer kind the engine uses to wake sleeping coroutines and time out waits. */
export const wakeTimerName = 'engine.wake';

/**
 * A message whose id, route, cause and delivery time are fixed when it is reserved, and whose kind and
 * payload are filled in later from outside the engine (the reply of a real server reached over I/O).
 * Until it is filled or released, nothing ordered after it is delivered, so the order of deliveries is
 * the one the message would have had if it had been sent at once.
 */
export interface Reservation {
  readonly id: number;
  readonly from: string;
  readonly to: string;
  readonly sentAt: Time;
  readonly deliverAt: Time;
  readonly cause: number | null;
  readonly replyTo: number | null;
  readonly background: boolean;
}

interface DirectedLink {
  readonly latency: Duration;
  readonly jitter: Duration;
  lastDeliverAt: Time;
}

interface Waiter {
  readonly component: Component;
  readonly co: Co<unknown>;
  /** What resumes it: the reply to `requestId`, or the delivery of message `requestId` itself. */
  readonly resumeOn: 'reply' | 'delivery';
  /** The request whose reply (or the message whose delivery) resumes it, if any. */
  readonly requestId: number | null;
  /** The wake timer that ends a sleep or times out the wait, if any. */
  readonly wakeId: number | null;
}

export class InvariantError extends Error {
  constructor(readonly invariant: string, readonly step: number, detail: string) {
    super(`invariant ${invariant} broken after step ${step}: ${detail}`);
    this.name = 'InvariantError';
  }
}

/** A routed message with its kind and payload, its fields in the order traces serialize them. */
function withBody<P>(r: Reservation, kind: string, payload: P): Message<P> {
  return {
    id: r.id, from: r.from, to: r.to, kind, payload, sentAt: r.sentAt, deliverAt: r.deliverAt, cause: r.cause, replyTo: r.replyTo,
    background: r.background,
  };
}

export class Engine {
  readonly rng: Rng;
  readonly epochMs: number;
  readonly trace: Trace;

  private clock: Time = 0;
  private nextId = 1;
  private readonly queue = new EventQueue();
  private readonly components = new Map<string, Component>();
  private readonly links = new Map<string, Map<string, DirectedLink>>();
  private readonly waiters = new Map<number, Waiter>();
  /** Coroutines waiting on a condition, in the order they began to wait. */
  private readonly conditionWaiters = new Map<Condition, Waiter[]>();
  private readonly cancelled = new Set<number>();
  /** Timers not yet delivered, by id, so that they can be cancelled. */
  private readonly timers = new Map<number, Message>();
  private foreground = 0;
  private current: Message | null = null;
  private readonly invariants: Array<{ name: string; check: () => string | undefined }> = [];
  private readonly deliveryListeners: Array<(message: Message) => void> = [];
  /** Reserved messages not yet filled or released, by id. */
  private readonly reserved = new Map<number, Reservation>();
  /** Components stopped by a fault: messages to them are traced but not delivered. */
  private readonly stopped = new Set<string>();

  constructor(options: EngineOptions) {
    this.rng = new Rng(options.seed);
    this.epochMs = options.epochMs ?? defaultEpochMs;
    this.trace = new Trace(options.traceLimit, options.tracePayloadLimit ?? options.traceLimit);
  }

  get now(): Time {
    return this.clock;
  }

  /** Number of deliveries so far. */
  get step(): number {
    return this.trace.lastStep;
  }

  /** The id of the newest message sent (0 before the first): ids grow in send order. */
  get lastMessageId(): number {
    return this.nextId - 1;
  }

  /** Calls `visit` for every queued message not cancelled, in no particular order; changes nothing. */
  forEachQueued(visit: (message: Message) => void): void {
    this.queue.forEach((message) => {
      if (this.cancelled.size === 0 || !this.cancelled.has(message.id)) visit(message);
    });
  }

  /** The message being delivered, while a step runs. */
  get delivering(): Message | null {
    return this.current;
  }

  /** Messages waiting in the queue (cancelled timers excluded). */
  get pending(): number {
    return this.queue.size - this.cancelled.size;
  }

  /** True when nothing but background work is queued. */
  get idle(): boolean {
    return this.foreground === 0;
  }

  get suspendedCoroutines(): number {
    let waiting = new Set(this.waiters.values()).size;
    for (const list of this.conditionWaiters.values()) waiting += list.length;
    return waiting;
  }

  /** True while coroutine `requestId` waits for a reply (for components that route unsolicited replies). */
  awaiting(requestId: number): boolean {
    return this.waiters.has(requestId);
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
    for (const [id, waiter] of [...this.waiters]) {
      if (waiter.component !== component) continue;
      this.waiters.delete(id);
      if (waiter.wakeId !== null) this.cancelTimer(waiter.wakeId);
    }
    for (const [condition, list] of [...this.conditionWaiters]) {
      const kept = list.filter((waiter) => waiter.component !== component);
      if (kept.length > 0) this.conditionWaiters.set(condition, kept);
      else this.conditionWaiters.delete(condition);
    }
    for (const [id, timer] of [...this.timers]) if (timer.from === name) this.cancelTimer(id);
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

  /** Changes a link's latency and jitter in both directions; messages already queued keep their times. */
  setLinkLatency(a: string, b: string, options: LinkOptions): void {
    for (const [from, to] of [[a, b], [b, a]] as const) {
      const link = this.links.get(from)?.get(to);
      if (!link) throw new Error(`no link from ${from} to ${to}`);
      this.directed(from).set(to, { latency: options.latency, jitter: options.jitter ?? 0, lastDeliverAt: link.lastDeliverAt });
    }
  }

  /** Links two components in both directions. */
  link(a: string, b: string, options: LinkOptions): void {
    for (const name of [a, b]) if (!this.components.has(name)) throw new Error(`link: unknown component ${name}`);
    if (a === b) throw new Error(`link: a component is always linked to itself (${a})`);
    if (!(options.latency >= 0) || !((options.jitter ?? 0) >= 0)) throw new RangeError(`link ${a}<->${b}: negative latency`);
    this.directed(a).set(b, { latency: options.latency, jitter: options.jitter ?? 0, lastDeliverAt: 0 });
    this.directed(b).set(a, { latency: options.latency, jitter: options.jitter ?? 0, lastDeliverAt: 0 });
  }

  linked(a: string, b: string): boolean {
    return this.links.get(a)?.has(b) ?? false;
  }

  /** All links as [a, b, latency] with a < b, for drawing the graph. */
  linkList(): Array<{ a: string; b: string; latency: Duration; jitter: Duration }> {
    const out: Array<{ a: string; b: string; latency: Duration; jitter: Duration }> = [];
    for (const [a, targets] of this.links) {
      for (const [b, link] of targets) if (a < b) out.push({ a, b, latency: link.latency, jitter: link.jitter });
    }
    return out;
  }

  send<K extends MessageKind>(from: string, to: string, kind: K, payload: MessageMap[K], options?: SendOptions): Message<MessageMap[K]> {
    const message = withBody(this.route(from, to, kind, options), kind, payload);
    if (!message.background) this.foreground++;
    this.queue.push(message);
    return message;
  }

  /**
   * Reserves the message `from` would send to `to` now (its id, delivery time and cause are drawn as
   * `send` draws them); `fill` queues it once its kind and payload are known, `release` gives it up.
   * A foreground reservation keeps the engine from being idle.
   */
  reserve(from: string, to: string, options?: SendOptions): Reservation {
    const reservation = this.route(from, to, 'a reserved message', options);
    if (!reservation.background) this.foreground++;
    this.reserved.set(reservation.id, reservation);
    return reservation;
  }

  /** Queues a reserved message with its kind and payload (`fill` and `release` are each allowed once). */
  fill<K extends MessageKind>(reservation: Reservation, kind: K, payload: MessageMap[K]): Message<MessageMap[K]> {
    if (!this.reserved.delete(reservation.id)) throw new Error(`reservation ${reservation.id} is not open`);
    const message = withBody(reservation, kind, payload);
    this.queue.push(message);
    return message;
  }

  /** Gives up a reserved message: it is never delivered. */
  release(reservation: Reservation): void {
    if (!this.reserved.delete(reservation.id)) return;
    if (!reservation.background) this.foreground--;
  }

  /** Reserved messages not yet filled or released. */
  get reservations(): number {
    return this.reserved.size;
  }

  /** The id, delivery time and cause of a message sent now (draws the link's jitter, keeps the link FIFO). */
  private route(from: string, to: string, kind: string, options?: SendOptions): Reservation {
    let deliverAt: Time;
    if (from === to) {
      deliverAt = roundToMicros(this.clock + (options?.delay ?? 0));
    } else {
      const link = this.links.get(from)?.get(to);
      if (!link) throw new Error(`no link from ${from} to ${to} (message ${kind})`);
      let at = this.clock + link.latency + (options?.delay ?? 0);
      if (link.jitter > 0) at += link.jitter * this.rng.float();
      at = roundToMicros(at);
      if (at < link.lastDeliverAt) at = link.lastDeliverAt;
      link.lastDeliverAt = at;
      deliverAt = at;
    }
    const current = this.current;
    return {
      id: this.nextId++,
      from,
      to,
      sentAt: this.clock,
      deliverAt,
      cause: options?.cause !== undefined ? options.cause : current ? current.id : null,
      replyTo: options?.replyTo ?? null,
      background: options?.background ?? (current ? current.background : false),
    };
  }

  setTimer<D>(owner: string, delay: Duration, name: string, data: D, options?: SendOptions): Message<TimerPayload<D>> {
    if (!(delay >= 0)) throw new RangeError(`timer ${name}: negative delay ${delay}`);
    const timer = this.send(owner, owner, timerKind, { name, data }, { ...options, delay }) as Message<TimerPayload<D>>;
    this.timers.set(timer.id, timer);
    return timer;
  }

  /** Cancels a pending timer: it is never delivered or traced. Unknown or delivered timers are ignored. */
  cancelTimer(id: number): void {
    const timer = this.timers.get(id);
    if (!timer) return;
    this.timers.delete(id);
    this.cancelled.add(id);
    if (!timer.background) this.foreground--;
  }

  /** Starts a coroutine for `component`, running it now until its first wait. */
  spawn(component: Component, co: Co<unknown>): void {
    this.drive(component, co, undefined);
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
      const next = this.peekLive();
      if (!next || this.blockedByReservation(next)) return null;
    }
    const message = this.popLive();
    if (!message) return null;
    this.clock = message.deliverAt;
    if (!message.background) this.foreground--;
    if (message.kind === timerKind) this.timers.delete(message.id);
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
      const next = this.peekLive();
      // A reservation next in order, and within the horizon, holds everything (and the clock) back.
      if (this.reserved.size > 0 && (next === undefined || this.blockedByReservation(next)) && (until === undefined || this.reservedBefore(until))) {
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
    while (this.foreground > 0) {
      if (steps >= maxSteps) return { steps, reason: 'max-steps' };
      if (!this.stepOnce()) return { steps, reason: this.reserved.size > 0 ? 'reserved' : 'empty' };
      steps++;
    }
    return { steps, reason: 'idle' };
  }

  private directed(from: string): Map<string, DirectedLink> {
    let targets = this.links.get(from);
    if (!targets) {
      targets = new Map();
      this.links.set(from, targets);
    }
    return targets;
  }

  /** True when an open reservation comes before `next` in (deliverAt, id) order. */
  private blockedByReservation(next: Message): boolean {
    if (this.reserved.size === 0) return false;
    for (const r of this.reserved.values()) {
      if (r.deliverAt < next.deliverAt || (r.deliverAt === next.deliverAt && r.id < next.id)) return true;
    }
    return false;
  }

  /** True when an open reservation is due at or before `time` (the clock may not pass it). */
  private reservedBefore(time: Time): boolean {
    for (const r of this.reserved.values()) if (r.deliverAt <= time) return true;
    return false;
  }

  private popLive(): Message | undefined {
    for (;;) {
      const message = this.queue.pop();
      if (!message || this.cancelled.size === 0 || !this.cancelled.delete(message.id)) return message;
    }
  }

  private peekLive(): Message | undefined {
    for (;;) {
      const message = this.queue.peek();
      if (!message || this.cancelled.size === 0 || !this.cancelled.has(message.id)) return message;
      this.cancelled.delete(message.id);
      this.queue.pop();
    }
  }

  private dispatch(message: Message): void {
    if (this.stopped.size > 0 && this.stopped.has(message.to)) return;
    if (message.replyTo !== null) {
      const waiter = this.waiters.get(message.replyTo);
      if (waiter && waiter.resumeOn === 'reply' && waiter.requestId === message.replyTo) {
        this.waiters.delete(message.replyTo);
        if (waiter.wakeId !== null) {
          this.waiters.delete(waiter.wakeId);
          this.cancelTimer(waiter.wakeId);
        }
        this.drive(waiter.component, waiter.co, message);
        return;
      }
    }
    const deliveryWaiter = message.from === message.to && message.kind !== timerKind ? this.waiters.get(message.id) : undefined;
    if (deliveryWaiter && deliveryWaiter.resumeOn === 'delivery') {
      const waiter = deliveryWaiter;
      this.waiters.delete(message.id);
      this.drive(waiter.component, waiter.co, message);
      return;
    }
    if (message.kind === timerKind && (message.payload as TimerPayload).name === wakeTimerName) {
      const waiter = this.waiters.get(message.id);
      if (!waiter) throw new Error(`wake timer ${message.id} has no waiting coroutine`);
      this.waiters.delete(message.id);
      if (waiter.requestId !== null) this.waiters.delete(waiter.requestId);
      this.drive(waiter.component, waiter.co, waiter.requestId !== null ? timedOut : undefined);
      return;
    }
    const receiver = this.components.get(message.to);
    if (!receiver) throw new Error(`message ${message.id} (${message.kind}) to unknown component ${message.to}`);
    receiver.receive(message);
  }

  private drive(component: Component, co: Co<unknown>, input: unknown): void {
    const result = co.next(input);
    if (result.done) return;
    const effect: Effect = result.value;
    if (effect.type === 'wait') {
      const list = this.conditionWaiters.get(effect.condition) ?? [];
      list.push({ component, co, resumeOn: 'reply', requestId: null, wakeId: null });
      this.conditionWaiters.set(effect.condition, list);
      return;
    }
    if (effect.type === 'broadcast') {
      const woken = this.conditionWaiters.get(effect.condition) ?? [];
      this.conditionWaiters.delete(effect.condition);
      this.drive(component, co, undefined);
      for (const waiter of woken) this.drive(waiter.component, waiter.co, undefined);
      return;
    }
    let requestId: number | null = null;
    let wakeId: number | null = null;
    const resumeOn = effect.type === 'delivery' ? 'delivery' : 'reply';
    if (effect.type === 'reply') {
      requestId = effect.requestId;
      if (effect.timeout !== null) wakeId = this.setTimer(component.name, effect.timeout, wakeTimerName, null).id;
    } else if (effect.type === 'delivery') {
      requestId = effect.messageId;
    } else {
      wakeId = this.setTimer(component.name, effect.duration, wakeTimerName, effect.reason).id;
    }
    const waiter: Waiter = { component, co, resumeOn, requestId, wakeId };
    if (requestId !== null) this.waiters.set(requestId, waiter);
    if (wakeId !== null) this.waiters.set(wakeId, waiter);
  }
}

// The engine's post: virtual time, message ids, the links, the queue of pending messages, timers and
// reservations. It routes and queues what components send; the Engine built on it delivers. A message's
// id, delivery time and cause are fixed when it is sent: the id in send order, the delivery time from
// the link (a component's messages to itself, timers and wake-ups, have no latency), the cause the
// message being delivered. Foreground work (everything not flagged background) is counted so that the
// engine can tell when only background work is left.

import type { MessageKind, MessageMap } from '../messages/index.ts';
import { Links, type LinkOptions } from './links.ts';
import { timerKind, type Message, type TimerPayload } from './message.ts';
import { MessageQueue } from './message-queue.ts';
import { Reservations, withBody, type Reservation } from './reservations.ts';
import { Rng } from './rng.ts';
import { roundToMicros, type Duration, type Time } from './time.ts';

export interface SendOptions {
  /** Extra delay on top of the link latency (e.g. a server's processing time). */
  readonly delay?: Duration;
  readonly replyTo?: number;
  /** Overrides the inherited background flag. */
  readonly background?: boolean;
  /** Overrides the inherited cause (the message being delivered). */
  readonly cause?: number | null;
}

export class Post {
  readonly rng: Rng;
  protected clock: Time = 0;
  /** The message being delivered, while a step runs: what is sent inherits its id as cause and its background flag. */
  protected current: Message | null = null;
  protected readonly queue = new MessageQueue();
  protected readonly links = new Links();
  protected readonly reserved = new Reservations();
  private nextId = 1;
  /** Timers not yet delivered, by id, so that they can be cancelled. */
  private readonly timers = new Map<number, Message>();
  private foreground = 0;

  constructor(private readonly seed: string | number) {
    this.rng = new Rng(seed);
  }

  /**
   * A seeded stream of its own, named `name` (unique per user): what draws from it leaves the shared `rng`,
   * and so every other draw, where it was. For randomness that only spreads work in time (a heartbeat's
   * jitter), whose draws would otherwise shift every name and choice drawn after them.
   */
  stream(name: string): Rng {
    return new Rng(`${this.seed}/${name}`);
  }

  get now(): Time {
    return this.clock;
  }

  /** The id of the newest message sent (0 before the first): ids grow in send order. */
  get lastMessageId(): number {
    return this.nextId - 1;
  }

  /** Calls `visit` for every queued message not cancelled, in no particular order; changes nothing. */
  forEachQueued(visit: (message: Message) => void): void {
    this.queue.forEach(visit);
  }

  /** Messages waiting in the queue (cancelled timers excluded). */
  get pending(): number {
    return this.queue.size;
  }

  /** True when nothing but background work is queued. */
  get idle(): boolean {
    return this.foreground === 0;
  }

  /** Reserved messages not yet filled or released. */
  get reservations(): number {
    return this.reserved.size;
  }

  /** Changes a link's latency and jitter in both directions; messages already queued keep their times. */
  setLinkLatency(a: string, b: string, options: LinkOptions): void {
    this.links.setLatency(a, b, options);
  }

  linked(a: string, b: string): boolean {
    return this.links.has(a, b);
  }

  /** The longest one-way delay any link allows now (latency + jitter): how long a message can be in flight. */
  longestLink(): Duration {
    return this.links.longest();
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
    this.reserved.add(reservation);
    return reservation;
  }

  /** Queues a reserved message with its kind and payload (`fill` and `release` are each allowed once). */
  fill<K extends MessageKind>(reservation: Reservation, kind: K, payload: MessageMap[K]): Message<MessageMap[K]> {
    if (!this.reserved.close(reservation.id)) throw new Error(`reservation ${reservation.id} is not open`);
    const message = withBody(reservation, kind, payload);
    this.queue.push(message);
    return message;
  }

  /** Gives up a reserved message: it is never delivered. */
  release(reservation: Reservation): void {
    if (!this.reserved.close(reservation.id)) return;
    if (!reservation.background) this.foreground--;
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
    this.queue.cancel(id);
    if (!timer.background) this.foreground--;
  }

  /** Cancels every pending timer `owner` set. */
  protected cancelTimersOf(owner: string): void {
    for (const [id, timer] of [...this.timers]) if (timer.from === owner) this.cancelTimer(id);
  }

  /** Takes the next message off the queue and moves the clock to its delivery time. */
  protected take(): Message | undefined {
    const message = this.queue.pop();
    if (!message) return undefined;
    this.clock = message.deliverAt;
    if (!message.background) this.foreground--;
    if (message.kind === timerKind) this.timers.delete(message.id);
    return message;
  }

  /** The id, delivery time and cause of a message sent now (draws the link's jitter, keeps the link FIFO). */
  private route(from: string, to: string, kind: string, options?: SendOptions): Reservation {
    const deliverAt = from === to
      ? roundToMicros(this.clock + (options?.delay ?? 0))
      : this.links.deliverAt(from, to, kind, this.clock, options?.delay ?? 0, this.rng);
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
}

// A component is a named participant in the simulation (etcd, kube-apiserver, a kubelet, the user). It
// reacts to delivered messages in `receive`, sends messages that the engine queues along its links, sets
// timers, and can run coroutines that wait for replies. It never touches another component directly.

import { awaitDelivery, awaitReply, sleep, timedOut, type Co, type SleepReason } from './coroutine.ts';
import type { Engine } from './engine.ts';
import type { SendOptions } from './post.ts';
import type { MessageKind, MessageMap, ReplyOf, RequestKind } from '../messages/index.ts';
import type { Message } from './message.ts';
import type { Rng } from './rng.ts';
import type { Duration, Time } from './time.ts';

export abstract class Component {
  private engineRef: Engine | null = null;

  constructor(readonly name: string) {}

  /** Called once by `Engine.add`. */
  attach(engine: Engine): void {
    if (this.engineRef) throw new Error(`component ${this.name} is already attached`);
    this.engineRef = engine;
  }

  /**
   * Called by `Engine.stopComponent` just before the component stops: release what the OS closes for a
   * dying process (its connections). Its coroutines and timers are then dropped by the engine.
   */
  onStop(): void {}

  /** Called by `Engine.startComponent`: start again as the real process does after a restart. */
  onStart(): void {}

  /** Handles a delivered message that no coroutine of this component was waiting for. */
  abstract receive(message: Message): void;

  protected get engine(): Engine {
    if (!this.engineRef) throw new Error(`component ${this.name} is not attached to an engine`);
    return this.engineRef;
  }

  get now(): Time {
    return this.engine.now;
  }

  protected get rng(): Rng {
    return this.engine.rng;
  }

  protected send<K extends MessageKind>(to: string, kind: K, payload: MessageMap[K], options?: SendOptions): Message<MessageMap[K]> {
    return this.engine.send(this.name, to, kind, payload, options);
  }

  protected reply<K extends MessageKind>(request: Message, kind: K, payload: MessageMap[K], options?: SendOptions): Message<MessageMap[K]> {
    return this.engine.send(this.name, request.from, kind, payload, { ...options, replyTo: request.id });
  }

  /** Delivers `timer` with payload {name, data} to this component after `delay`. */
  protected setTimer<D>(delay: Duration, name: string, data: D, options?: SendOptions): Message {
    return this.engine.setTimer(this.name, delay, name, data, options);
  }

  protected cancelTimer(timer: Message): void {
    this.engine.cancelTimer(timer.id);
  }

  /** Starts a coroutine now, within the current step; it runs until its first wait. */
  protected spawn(co: Co<unknown>): void {
    this.engine.spawn(this, co);
  }

  /** Sends a request and waits for its reply. */
  protected *call<K extends RequestKind>(to: string, kind: K, payload: MessageMap[K], options?: SendOptions): Co<Message<ReplyOf<K>>> {
    const request = this.send(to, kind, payload, options);
    const reply = yield* awaitReply<ReplyOf<K>>(request.id);
    if (reply === timedOut) throw new Error('unreachable: a reply without timeout timed out');
    return reply;
  }

  /** Sends a request and waits at most `timeout` for its reply; null when the timeout came first. */
  protected *callWithTimeout<K extends RequestKind>(to: string, kind: K, payload: MessageMap[K], timeout: Duration,
    options?: SendOptions): Co<Message<ReplyOf<K>> | null> {
    const request = this.send(to, kind, payload, options);
    const reply = yield* awaitReply<ReplyOf<K>>(request.id, timeout);
    return reply === timedOut ? null : reply;
  }

  /**
   * Makes an internal stage a step of its own: sends `kind` to this component and resumes when it is
   * delivered (after `delay`). The stage message is in the trace with its payload, like any message.
   */
  protected *stage<K extends MessageKind>(kind: K, payload: MessageMap[K], delay: Duration = 0): Co<Message<MessageMap[K]>> {
    const message = this.send(this.name, kind, payload, { delay });
    yield* awaitDelivery(message.id);
    return message;
  }

  protected *sleep(duration: Duration, reason: SleepReason | null = null): Co<void> {
    yield* sleep(duration, reason);
  }
}

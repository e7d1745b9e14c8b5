// Runs components' coroutines: each runs until it yields an effect, then waits. A coroutine waiting for
// a reply resumes when the reply to its request is delivered (or its timeout's wake timer, with
// `timedOut`); a stage resumes when its own message is delivered; a sleep when its wake timer is; a
// wait on a condition when another coroutine broadcasts it (the broadcaster runs on first, then the
// waiters in the order they began to wait). A suspended coroutine cannot be serialized, so `suspended`
// tells a timeline when a snapshot may be taken.

import type { Component } from './component.ts';
import { timedOut, type Co, type Condition, type Effect } from './coroutine.ts';
import { timerKind, type Message, type TimerPayload } from './message.ts';
import type { Duration } from './time.ts';

/** Name of the timer kind the engine uses to wake sleeping coroutines and time out waits. */
export const wakeTimerName = 'engine.wake';

/** The engine's timers, as the driver sets and cancels wake timers. */
export interface WakeTimers {
  setTimer<D>(owner: string, delay: Duration, name: string, data: D): Message;
  cancelTimer(id: number): void;
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

export class CoroutineDriver {
  /** Waiters by the id of the message that resumes them (request and wake timer both, when both can). */
  private readonly waiters = new Map<number, Waiter>();
  /** Coroutines waiting on a condition, in the order they began to wait. */
  private readonly conditionWaiters = new Map<Condition, Waiter[]>();

  constructor(private readonly timers: WakeTimers) {}

  /** Coroutines waiting for anything. */
  get suspended(): number {
    let waiting = new Set(this.waiters.values()).size;
    for (const list of this.conditionWaiters.values()) waiting += list.length;
    return waiting;
  }

  /** Resumes the coroutine `message` is for, if any; false when the message is for its receiver. */
  resume(message: Message): boolean {
    if (message.replyTo !== null) {
      const waiter = this.waiters.get(message.replyTo);
      if (waiter && waiter.resumeOn === 'reply' && waiter.requestId === message.replyTo) {
        this.waiters.delete(message.replyTo);
        if (waiter.wakeId !== null) {
          this.waiters.delete(waiter.wakeId);
          this.timers.cancelTimer(waiter.wakeId);
        }
        this.drive(waiter.component, waiter.co, message);
        return true;
      }
    }
    const deliveryWaiter = message.from === message.to && message.kind !== timerKind ? this.waiters.get(message.id) : undefined;
    if (deliveryWaiter && deliveryWaiter.resumeOn === 'delivery') {
      this.waiters.delete(message.id);
      this.drive(deliveryWaiter.component, deliveryWaiter.co, message);
      return true;
    }
    if (message.kind === timerKind && (message.payload as TimerPayload).name === wakeTimerName) {
      const waiter = this.waiters.get(message.id);
      if (!waiter) throw new Error(`wake timer ${message.id} has no waiting coroutine`);
      this.waiters.delete(message.id);
      if (waiter.requestId !== null) this.waiters.delete(waiter.requestId);
      this.drive(waiter.component, waiter.co, waiter.requestId !== null ? timedOut : undefined);
      return true;
    }
    return false;
  }

  /** Drops every coroutine of `component` (it stopped) and cancels their wake timers. */
  drop(component: Component): void {
    for (const [id, waiter] of [...this.waiters]) {
      if (waiter.component !== component) continue;
      this.waiters.delete(id);
      if (waiter.wakeId !== null) this.timers.cancelTimer(waiter.wakeId);
    }
    for (const [condition, list] of [...this.conditionWaiters]) {
      const kept = list.filter((waiter) => waiter.component !== component);
      if (kept.length > 0) this.conditionWaiters.set(condition, kept);
      else this.conditionWaiters.delete(condition);
    }
  }

  /** Runs `co` with `input` until it yields its next effect, and files it as that effect's waiter. */
  drive(component: Component, co: Co<unknown>, input: unknown): void {
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
      if (effect.timeout !== null) wakeId = this.timers.setTimer(component.name, effect.timeout, wakeTimerName, null).id;
    } else if (effect.type === 'delivery') {
      requestId = effect.messageId;
    } else {
      wakeId = this.timers.setTimer(component.name, effect.duration, wakeTimerName, effect.reason).id;
    }
    const waiter: Waiter = { component, co, resumeOn, requestId, wakeId };
    if (requestId !== null) this.waiters.set(requestId, waiter);
    if (wakeId !== null) this.waiters.set(wakeId, waiter);
  }
}

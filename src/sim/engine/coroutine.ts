// Components wait for responses in straight-line code: a coroutine is a generator that yields an Effect
// (wait for the reply to request #n, or sleep) and is resumed by the engine with the result. The engine
// drives generators synchronously, so a step (one delivery plus everything the receiver does until it
// waits again) has exactly the same boundary in step, play and fast-forward mode. async/await would
// leave that boundary to the host's microtask queue.
//
//   function* sync(this: Controller) {
//     const res = yield* this.call<ListResponse>('kube-apiserver', 'http.request', get('/api/v1/pods'));
//     ...
//   }

import type { Message } from './message.ts';
import type { Duration } from './time.ts';

export type Effect =
  | { readonly type: 'reply'; readonly requestId: number; readonly timeout: Duration | null }
  | { readonly type: 'sleep'; readonly duration: Duration; readonly reason: SleepReason | null }
  | { readonly type: 'delivery'; readonly messageId: number }
  | { readonly type: 'wait'; readonly condition: Condition }
  | { readonly type: 'broadcast'; readonly condition: Condition };

/** A coroutine returning T. Write `yield*` in front of every helper call that returns one. */
export type Co<T = void> = Generator<Effect, T, unknown>;

/** What a coroutine waiting for a reply with a timeout receives when the timeout fires first. */
export const timedOut: unique symbol = Symbol('timedOut');
export type TimedOut = typeof timedOut;

/** Suspends until the reply to `requestId` is delivered (or, with a timeout, until it elapses). */
export function* awaitReply<R>(requestId: number, timeout: Duration | null = null): Co<Message<R> | TimedOut> {
  const resumed = yield { type: 'reply', requestId, timeout };
  return resumed as Message<R> | TimedOut;
}

/**
 * Suspends until message `messageId`, which this component sent to itself, is delivered. This is how a
 * component makes an internal stage of its work a step of its own (kube-apiserver's filter chain).
 */
export function* awaitDelivery(messageId: number): Co<void> {
  yield { type: 'delivery', messageId };
}

/**
 * What a sleeping component is waiting for, as the data of its wake-up timer: the trace, and a caption
 * reading it, can then say what the component was doing ("the kubelet pulled nginx:1.14.2"). A label
 * only: it changes no behaviour. `reason` is a kebab-case code (`image-pull`, `container-start`, …);
 * the other fields name what it concerns.
 */
export interface SleepReason {
  readonly reason: string;
  /** The pod, as `namespace/name`. */
  readonly pod?: string;
  readonly container?: string;
  readonly image?: string;
  /** The resource the work is about, e.g. a watch cache's `/registry/pods`. */
  readonly resource?: string;
}

/** Suspends for a virtual duration. The wake-up is a delivery of its own (a step in the trace), labelled with `reason`. */
export function* sleep(duration: Duration, reason: SleepReason | null = null): Co<void> {
  yield { type: 'sleep', duration, reason };
}

/**
 * What coroutines of one component wait on while another of its coroutines holds a lock across a request
 * (a Go `sync.Mutex` held over an RPC): `waitOn` suspends until a `broadcast` on the same condition. The
 * broadcaster goes on first, then the waiters in the order they began to wait, all within the broadcaster's
 * step, as goroutines blocked on a mutex run once it is unlocked. A condition holds no state of its own.
 */
export class Condition {
  constructor(readonly name: string) {}
}

/** Suspends until another coroutine broadcasts `condition`. */
export function* waitOn(condition: Condition): Co<void> {
  yield { type: 'wait', condition };
}

/** Wakes every coroutine waiting on `condition` (after this one has gone on to its next wait). */
export function* broadcast(condition: Condition): Co<void> {
  yield { type: 'broadcast', condition };
}

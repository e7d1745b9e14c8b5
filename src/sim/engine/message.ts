// A message is the unit of everything that happens in the simulation: an HTTP request or response, an
// etcd RPC, one watch event on one stream, a timer firing. Payloads are plain, structured-clone-safe data
// (no classes, Maps or functions) and are never mutated after sending, so the trace can be serialized,
// hashed and shipped to the UI as it is.

import type { Time } from './time.ts';

export interface Message<P = unknown> {
  /** Unique and increasing in send order; also the tie-breaker of the delivery order. */
  readonly id: number;
  readonly from: string;
  readonly to: string;
  /** What the message is, e.g. `etcd.Txn`, `http.request`, `timer`. */
  readonly kind: string;
  readonly payload: P;
  readonly sentAt: Time;
  readonly deliverAt: Time;
  /** The message whose delivery caused this one to be sent; null when a user command or boot sent it. */
  readonly cause: number | null;
  /** On a response: the id of the request it answers. */
  readonly replyTo: number | null;
  /**
   * Background work (heartbeats, resyncs, and whatever they cause) does not keep "run until idle" going.
   * Inherited from the cause unless the sender says otherwise.
   */
  readonly background: boolean;
}

/** Payload of the `timer` messages a component sends itself. */
export interface TimerPayload<D = unknown> {
  readonly name: string;
  readonly data: D;
}

export const timerKind = 'timer';

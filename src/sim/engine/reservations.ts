// Reservations: a component that waits on the outside world (a real etcd over gRPC) reserves its reply
// when the request is delivered; nothing ordered after an open reservation is delivered until the reply
// is filled in, so the outside world's answer takes the place a modelled reply would have had.

import type { Message } from './message.ts';
import type { Time } from './time.ts';

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

/** A routed message with its kind and payload, its fields in the order traces serialize them. */
export function withBody<P>(r: Reservation, kind: string, payload: P): Message<P> {
  return {
    id: r.id, from: r.from, to: r.to, kind, payload, sentAt: r.sentAt, deliverAt: r.deliverAt, cause: r.cause, replyTo: r.replyTo,
    background: r.background,
  };
}

/** The reservations not yet filled or released. */
export class Reservations {
  private readonly open = new Map<number, Reservation>();

  get size(): number {
    return this.open.size;
  }

  add(reservation: Reservation): void {
    this.open.set(reservation.id, reservation);
  }

  /** Closes reservation `id`; false when it was not open. */
  close(id: number): boolean {
    return this.open.delete(id);
  }

  /** True when an open reservation comes before `next` in (deliverAt, id) order. */
  blocks(next: Message): boolean {
    if (this.open.size === 0) return false;
    for (const r of this.open.values()) {
      if (r.deliverAt < next.deliverAt || (r.deliverAt === next.deliverAt && r.id < next.id)) return true;
    }
    return false;
  }

  /** True when an open reservation is due at or before `time` (the clock may not pass it). */
  dueBy(time: Time): boolean {
    for (const r of this.open.values()) if (r.deliverAt <= time) return true;
    return false;
  }
}

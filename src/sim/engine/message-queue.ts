// The messages waiting for delivery, in (deliverAt, id) order, less the cancelled ones: a cancelled
// message stays in the heap until it reaches the top, where it is dropped unseen.

import { EventQueue } from './event-queue.ts';
import type { Message } from './message.ts';

export class MessageQueue {
  private readonly heap = new EventQueue();
  /** Ids of queued messages that are never to be delivered. */
  private readonly cancelled = new Set<number>();

  /** Messages waiting, cancelled ones excluded. */
  get size(): number {
    return this.heap.size - this.cancelled.size;
  }

  push(message: Message): void {
    this.heap.push(message);
  }

  /** Cancels a queued message (callers cancel each at most once, and only while it is queued). */
  cancel(id: number): void {
    this.cancelled.add(id);
  }

  /** The next message to deliver, without taking it. */
  peek(): Message | undefined {
    for (;;) {
      const message = this.heap.peek();
      if (!message || this.cancelled.size === 0 || !this.cancelled.has(message.id)) return message;
      this.cancelled.delete(message.id);
      this.heap.pop();
    }
  }

  /** Takes the next message to deliver. */
  pop(): Message | undefined {
    for (;;) {
      const message = this.heap.pop();
      if (!message || this.cancelled.size === 0 || !this.cancelled.delete(message.id)) return message;
    }
  }

  /** Calls `visit` for every message not cancelled, in no particular order; changes nothing. */
  forEach(visit: (message: Message) => void): void {
    this.heap.forEach((message) => {
      if (this.cancelled.size === 0 || !this.cancelled.has(message.id)) visit(message);
    });
  }
}

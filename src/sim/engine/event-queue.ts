// The pending deliveries, totally ordered by (deliverAt, id). A binary min-heap over an array: push and
// pop are O(log n) with no allocation beyond the array's own growth.

import type { Message } from './message.ts';

export class EventQueue {
  private heap: Message[] = [];

  get size(): number {
    return this.heap.length;
  }

  peek(): Message | undefined {
    return this.heap[0];
  }

  push(message: Message): void {
    const heap = this.heap;
    let i = heap.length;
    heap.push(message);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent]!;
      if (!before(message, p)) break;
      heap[i] = p;
      i = parent;
    }
    heap[i] = message;
  }

  pop(): Message | undefined {
    const heap = this.heap;
    const top = heap[0];
    if (top === undefined) return undefined;
    const last = heap.pop()!;
    const n = heap.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        let c = l;
        let child = heap[l]!;
        if (r < n && before(heap[r]!, child)) {
          c = r;
          child = heap[r]!;
        }
        if (!before(child, last)) break;
        heap[i] = child;
        i = c;
      }
      heap[i] = last;
    }
    return top;
  }

  /** Calls `visit` for every pending message, in no particular order (read-only; for views). */
  forEach(visit: (message: Message) => void): void {
    for (const message of this.heap) visit(message);
  }

  /** All pending messages in delivery order (a copy; for snapshots and inspection). */
  ordered(): Message[] {
    return [...this.heap].sort((x, y) => (before(x, y) ? -1 : 1));
  }
}

function before(x: Message, y: Message): boolean {
  return x.deliverAt < y.deliverAt || (x.deliverAt === y.deliverAt && x.id < y.id);
}

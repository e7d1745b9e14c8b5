import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventQueue } from './event-queue.ts';
import type { Message } from './message.ts';

const message = (id: number, deliverAt: number): Message => ({
  id, deliverAt, from: 'a', to: 'b', kind: 'k', payload: null, sentAt: 0, cause: null, replyTo: null, background: false,
});

describe('EventQueue', () => {
  it('pops in (deliverAt, id) order for any insertion order', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 300 }), (times) => {
      const q = new EventQueue();
      const messages = times.map((t, i) => message(i + 1, t));
      for (const m of fc.sample(fc.shuffledSubarray(messages, { minLength: messages.length }), 1)[0] ?? []) q.push(m);
      const popped: Message[] = [];
      for (let m = q.pop(); m; m = q.pop()) popped.push(m);
      const expected = [...messages].sort((x, y) => x.deliverAt - y.deliverAt || x.id - y.id);
      expect(popped.map((m) => m.id)).toEqual(expected.map((m) => m.id));
    }));
  });
});

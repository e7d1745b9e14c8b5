// The scheduling queue keeps its counts and its unschedulable and in-flight pods apart as pods move; this
// checks it against a queue that walks every pod instead (as PendingPods and a node event once did): for
// random adds, updates, deletes, pops, failed attempts, node events and time passing, both say the same
// PendingPods after every operation and pop the same pods in the same order.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../api/types/core.ts';
import { fakeClock } from './fake-clock.ts';
import { isPodUpdated, queueDurations, SchedulingQueue } from './scheduling-queue.ts';

type State = 'active' | 'backoff' | 'unschedulable' | 'inflight';
interface Info { attempts: number; backoffUntil: number; state: State }

/** The queue as it was: every question answered by a walk of every queued pod. */
class WalkingQueue {
  private readonly pods = new Map<string, Info>();
  private readonly activeQ: string[] = [];
  constructor(private readonly clock: ReturnType<typeof fakeClock>, private readonly onActive: () => void) {}
  update(key: string, pod: Pod, old: Pod | undefined): void {
    const q = this.pods.get(key);
    if (!q) {
      this.pods.set(key, { attempts: 0, backoffUntil: 0, state: 'active' });
      this.activate(key);
    } else if (q.state === 'unschedulable' && (!old || isPodUpdated(old, pod))) this.requeue(key, q);
  }
  delete(key: string): void {
    this.pods.delete(key);
  }
  moveAllToActiveOrBackoffQueue(): void {
    for (const [key, q] of this.pods) if (q.state === 'unschedulable') this.requeue(key, q);
  }
  pop(): { key: string; info: Info } | undefined {
    for (let key = this.activeQ.shift(); key !== undefined; key = this.activeQ.shift()) {
      const info = this.pods.get(key);
      if (!info || info.state !== 'active') continue;
      info.state = 'inflight';
      info.attempts++;
      return { key, info };
    }
    return undefined;
  }
  addUnschedulableIfNotPresent(key: string, q: Info, unschedulable: boolean): void {
    q.backoffUntil = this.clock.now + Math.min(queueDurations.initialBackoff * 2 ** (q.attempts - 1), queueDurations.maxBackoff);
    q.state = 'unschedulable';
    const attempts = q.attempts;
    this.clock.after(queueDurations.unschedulableFlush, 'flush', () => {
      if (this.pods.get(key) === q && q.state === 'unschedulable' && q.attempts === attempts) this.requeue(key, q);
    });
    if (!unschedulable) this.requeue(key, q);
  }
  pendingPods() {
    let active = 0;
    let backoff = 0;
    let unschedulable = 0;
    let scheduling: string | null = null;
    for (const [key, q] of this.pods) {
      if (q.state === 'active') active++;
      else if (q.state === 'backoff') backoff++;
      else if (q.state === 'unschedulable') unschedulable++;
      else scheduling = key;
    }
    return { active, backoff, unschedulable, scheduling };
  }
  clear(): void {
    this.pods.clear();
    this.activeQ.length = 0;
  }
  private requeue(key: string, q: Info): void {
    if (q.backoffUntil <= this.clock.now) {
      q.state = 'active';
      this.activate(key);
      return;
    }
    q.state = 'backoff';
    this.clock.after(q.backoffUntil - this.clock.now, 'backoff', () => {
      if (this.pods.get(key) === q && q.state === 'backoff') {
        q.state = 'active';
        this.activate(key);
      }
    });
  }
  private activate(key: string): void {
    this.activeQ.push(key);
    this.onActive();
  }
}

const pod = (labels: Record<string, string> = {}, status: Pod['status'] = {}): Pod => ({
  metadata: { name: 'p', namespace: 'default', labels }, spec: { containers: [] }, status,
});

const key = fc.integer({ min: 0, max: 11 }).map((i) => `default/p${i}`);
const op = fc.oneof(
  { arbitrary: key.map((k) => ({ op: 'add' as const, k })), weight: 20 },
  { arbitrary: fc.tuple(key, fc.boolean()).map(([k, spec]) => ({ op: 'update' as const, k, spec })), weight: 10 },
  { arbitrary: key.map((k) => ({ op: 'delete' as const, k })), weight: 5 },
  { arbitrary: fc.constant({ op: 'pop' as const }), weight: 20 },
  { arbitrary: fc.tuple(fc.nat(), fc.boolean()).map(([i, unschedulable]) => ({ op: 'fail' as const, i, unschedulable })), weight: 15 },
  { arbitrary: fc.constant({ op: 'moveAll' as const }), weight: 5 },
  { arbitrary: fc.integer({ min: 1, max: 400_000 }).map((ms) => ({ op: 'advance' as const, ms })), weight: 10 },
  { arbitrary: fc.constant({ op: 'clear' as const }), weight: 1 },
);

describe('SchedulingQueue, against a queue that walks every pod', () => {
  it('says the same PendingPods after every operation and pops the same pods in the same order', () => {
    fc.assert(fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
      const clocks = [fakeClock(), fakeClock()] as const;
      const activations = [0, 0];
      const queue = new SchedulingQueue(clocks[0], () => activations[0]!++);
      const walking = new WalkingQueue(clocks[1], () => activations[1]!++);
      const popped: [{ key: string; info: Parameters<SchedulingQueue['addUnschedulableIfNotPresent']>[1] }, { key: string; info: Info }][] = [];
      for (const o of ops) {
        switch (o.op) {
          case 'add':
            queue.update(o.k, pod(), undefined);
            walking.update(o.k, pod(), undefined);
            break;
          case 'update': {
            const next = o.spec ? pod({ tier: 'web' }) : pod({}, { phase: 'Pending' });
            queue.update(o.k, next, pod());
            walking.update(o.k, next, pod());
            break;
          }
          case 'delete':
            queue.delete(o.k);
            walking.delete(o.k);
            break;
          case 'pop': {
            const a = queue.pop();
            const b = walking.pop();
            expect(a?.key).toBe(b?.key);
            expect(a?.info.attempts).toBe(b?.info.attempts);
            if (a && b) popped.push([a, b]);
            break;
          }
          case 'fail': {
            // An attempt ends in failure once; the same popped pod may have been deleted meanwhile.
            if (popped.length === 0) break;
            const [[a, b]] = popped.splice(o.i % popped.length, 1) as [typeof popped[number]];
            queue.addUnschedulableIfNotPresent(a.key, a.info, o.unschedulable);
            walking.addUnschedulableIfNotPresent(b.key, b.info, o.unschedulable);
            break;
          }
          case 'moveAll':
            queue.moveAllToActiveOrBackoffQueue();
            walking.moveAllToActiveOrBackoffQueue();
            break;
          case 'advance':
            clocks[0].advance(o.ms);
            clocks[1].advance(o.ms);
            break;
          case 'clear':
            queue.clear();
            walking.clear();
            popped.length = 0;
            break;
        }
        expect(queue.pendingPods()).toEqual(walking.pendingPods());
        expect(activations[0]).toBe(activations[1]);
      }
      // Whatever is left comes out in the same order.
      for (;;) {
        const a = queue.pop();
        expect(a?.key).toBe(walking.pop()?.key);
        if (!a) break;
      }
    }), { numRuns: 400 });
  });
});

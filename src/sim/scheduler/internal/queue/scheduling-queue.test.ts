import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../api/types/core.ts';
import { fakeClock } from './fake-clock.ts';
import { queueDurations, SchedulingQueue } from './scheduling-queue.ts';

const pod = (labels: Record<string, string> = {}, status: Pod['status'] = {}): Pod => ({
  metadata: { name: 'p', namespace: 'default', labels }, spec: { containers: [] }, status,
});

describe('SchedulingQueue', () => {
  it('moves a pod through activeQ, in flight, unschedulablePods, podBackoffQ and back, as scheduling_queue.go does', () => {
    const clock = fakeClock();
    let activations = 0;
    const queue = new SchedulingQueue(clock, () => activations++);
    queue.update('default/p', pod(), undefined);
    expect(activations).toBe(1);
    expect(queue.pendingPods()).toEqual({ active: 1, backoff: 0, unschedulable: 0, scheduling: null });

    const popped = queue.pop()!;
    expect(popped).toMatchObject({ key: 'default/p', info: { attempts: 1, state: 'inflight' } });
    expect(queue.pop()).toBeUndefined();
    expect(queue.pendingPods().scheduling).toBe('default/p');

    // The first failure backs off 1 s; a status-only update does not move it, a node event does.
    queue.addUnschedulableIfNotPresent('default/p', popped.info, true);
    expect(queue.pendingPods()).toMatchObject({ unschedulable: 1 });
    queue.update('default/p', pod({}, { phase: 'Pending' }), pod());
    expect(queue.pendingPods()).toMatchObject({ unschedulable: 1 });
    queue.moveAllToActiveOrBackoffQueue();
    expect(queue.pendingPods()).toMatchObject({ backoff: 1 });
    clock.advance(queueDurations.initialBackoff);
    expect(queue.pendingPods()).toMatchObject({ active: 1 });
    expect(activations).toBe(2);

    // The second failure backs off 2 s; with nothing moving it, the 5 min flush does.
    const again = queue.pop()!;
    expect(again.info.attempts).toBe(2);
    queue.addUnschedulableIfNotPresent('default/p', again.info, true);
    clock.advance(queueDurations.unschedulableFlush - 1);
    expect(queue.pendingPods()).toMatchObject({ unschedulable: 1 });
    clock.advance(1);
    expect(queue.pendingPods()).toMatchObject({ active: 1 });

    // A spec or label change moves it at once once its back-off is over; a deleted pod is never popped.
    const third = queue.pop()!;
    queue.addUnschedulableIfNotPresent('default/p', third.info, true);
    clock.advance(queueDurations.maxBackoff);
    queue.update('default/p', pod({ tier: 'web' }), pod());
    expect(queue.pendingPods()).toMatchObject({ active: 1 });
    queue.delete('default/p');
    expect(queue.pop()).toBeUndefined();
  });

  it('moves the unschedulable pods on a node event in the order the queue holds them (first added, first moved), whatever order they failed in', () => {
    const clock = fakeClock();
    const queue = new SchedulingQueue(clock, () => undefined);
    for (const name of ['a', 'b', 'c']) queue.update(`default/${name}`, pod(), undefined);
    const [a, b, c] = [queue.pop()!, queue.pop()!, queue.pop()!];
    for (const failed of [c, a, b]) queue.addUnschedulableIfNotPresent(failed.key, failed.info, true);
    clock.advance(queueDurations.initialBackoff);
    queue.moveAllToActiveOrBackoffQueue();
    expect([queue.pop()?.key, queue.pop()?.key, queue.pop()?.key]).toEqual(['default/a', 'default/b', 'default/c']);
  });

  it('pops thousands of pods first in, first out while more arrive', () => {
    const queue = new SchedulingQueue(fakeClock(), () => undefined);
    const popped: string[] = [];
    let added = 0;
    const add = (n: number) => {
      for (let i = 0; i < n; i++) queue.update(`default/p${added++}`, pod(), undefined);
    };
    add(3000);
    for (let i = 0; i < 2000; i++) popped.push(queue.pop()!.key);
    add(10);
    for (let p = queue.pop(); p; p = queue.pop()) popped.push(p.key);
    expect(popped).toEqual(Array.from({ length: 3010 }, (_, i) => `default/p${i}`));
    expect(queue.pendingPods()).toMatchObject({ active: 0, scheduling: 'default/p3009' });
  });

  it('sends a pod whose binding failed back through back-off without waiting for a change', () => {
    const clock = fakeClock();
    const queue = new SchedulingQueue(clock, () => undefined);
    queue.update('default/p', pod(), undefined);
    const popped = queue.pop()!;
    queue.addUnschedulableIfNotPresent('default/p', popped.info, false);
    expect(queue.pendingPods()).toMatchObject({ backoff: 1, unschedulable: 0 });
    expect(clock.timers.map((t) => t.name)).toEqual(['scheduler-flush-unschedulable', 'scheduler-backoff']);
    clock.advance(queueDurations.initialBackoff);
    expect(queue.pop()?.info.attempts).toBe(2);
  });
});

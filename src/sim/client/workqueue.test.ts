import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine, type Co } from '../engine/index.ts';
import { ClientTestComponent } from './testing.ts';
import { RateLimitingQueue, runWorkers } from './workqueue.ts';

function setup() {
  const engine = new Engine({ seed: 'workqueue' });
  const component = engine.add(new ClientTestComponent('controller'));
  return { engine, host: component.host, queue: new RateLimitingQueue(component.host, 'test') };
}

describe('RateLimitingQueue dedup', () => {
  it('keeps one entry per queued item and requeues an item added while it is processed', () => {
    const { queue } = setup();
    queue.add('a');
    queue.add('b');
    queue.add('a');
    expect(queue.length).toBe(2);
    expect(queue.get()).toBe('a');
    queue.add('a');
    expect(queue.length).toBe(1);
    expect(queue.get()).toBe('b');
    expect(queue.get()).toBeUndefined();
    queue.done('a');
    expect(queue.get()).toBe('a');
    queue.done('a');
    queue.done('b');
    expect(queue.get()).toBeUndefined();
  });

  it('never hands an item to two holders and loses no add (property, against a model)', () => {
    fc.assert(fc.property(fc.array(fc.oneof(
      fc.record({ op: fc.constant('add' as const), item: fc.constantFrom('a', 'b', 'c') }),
      fc.record({ op: fc.constant('get' as const) }),
      fc.record({ op: fc.constant('done' as const), index: fc.nat(5) }),
    ), { maxLength: 60 }), (ops) => {
      const { queue } = setup();
      const held: string[] = [];
      /** Items added since they were last handed out. */
      const owed = new Set<string>();
      for (const o of ops) {
        if (o.op === 'add') {
          queue.add(o.item);
          owed.add(o.item);
        } else if (o.op === 'get') {
          const item = queue.get();
          if (item === undefined) continue;
          expect(held).not.toContain(item);
          held.push(item);
          owed.delete(item);
        } else if (held.length > 0) {
          queue.done(held.splice(o.index % held.length, 1)[0]!);
        }
      }
      for (const item of held.splice(0)) queue.done(item);
      const drained = new Set<string>();
      for (let item = queue.get(); item !== undefined; item = queue.get()) {
        expect(drained.has(item)).toBe(false);
        drained.add(item);
        queue.done(item);
      }
      expect(drained).toEqual(owed);
    }));
  });
});

describe('delays on engine timers', () => {
  it('addAfter keeps the earliest ready time', () => {
    const { engine, queue } = setup();
    queue.addAfter('a', 100);
    queue.addAfter('a', 50);
    queue.addAfter('a', 500);
    engine.runFor(49);
    expect(queue.length).toBe(0);
    engine.runFor(1);
    expect(queue.get()).toBe('a');
    queue.done('a');
    engine.runFor(1000);
    expect(queue.length).toBe(0);
  });

  it('addRateLimited backs off 5, 10, 20 ms for repeated failures and forget resets it', () => {
    const { engine, queue } = setup();
    const readyAt: number[] = [];
    for (let i = 0; i < 3; i++) {
      const start = engine.now;
      queue.addRateLimited('a');
      engine.runUntilIdle();
      expect(queue.get()).toBe('a');
      queue.done('a');
      readyAt.push(engine.now - start);
    }
    expect(readyAt).toEqual([5, 10, 20]);
    queue.forget('a');
    expect(queue.numRequeues('a')).toBe(0);
  });

  it('shutDown drops pending delayed adds', () => {
    const { engine, queue } = setup();
    queue.addAfter('a', 10);
    queue.shutDown();
    engine.runUntilIdle();
    queue.add('b');
    expect(queue.length).toBe(0);
  });
});

describe('runWorkers', () => {
  it('parks idle workers and wakes one per queued item; an item is never processed twice at once', () => {
    const { engine, host, queue } = setup();
    const log: string[] = [];
    runWorkers(host, queue, 2, function* (item): Co<void> {
      log.push(`start ${item}@${engine.now}`);
      yield* host.sleep(10);
      log.push(`end ${item}@${engine.now}`);
    });
    queue.add('a');
    queue.add('b');
    queue.add('c');
    queue.add('a');
    engine.runUntilIdle();
    expect(log).toEqual(['start a@0', 'start b@0', 'end a@10', 'start c@10', 'end b@10', 'start a@10', 'end c@20', 'end a@20']);
  });
});

import { describe, expect, it } from 'vitest';
import { awaitReply, broadcast, Condition, timedOut, waitOn } from './coroutine.ts';
import { twoProbes } from './testing.ts';
import { second } from './time.ts';


describe('Engine coroutines', () => {
  it('resumes a coroutine with the reply to its request', () => {
    const { engine, a, b } = twoProbes(5);
    b.script = (self, m) => self.replyTo(m, 42);
    const got: unknown[] = [];
    a.start((function* () {
      const reply = yield* a.ask('b');
      got.push(reply?.payload, a.now);
      const second = yield* a.ask('b');
      got.push(second?.payload, a.now);
    })());
    expect(engine.suspendedCoroutines).toBe(1);
    engine.runUntilIdle();
    expect(got).toEqual([42, 10, 42, 20]);
    expect(a.received).toHaveLength(0);
    expect(engine.suspendedCoroutines).toBe(0);
  });

  it('times out a wait and cancels the timeout when the reply comes first', () => {
    const { engine, a, b } = twoProbes(5);
    b.script = () => undefined;
    const results: Array<string | null> = [];
    a.start((function* () {
      const reply = yield* a.ask('b', 3 * second);
      results.push(reply === null ? `timed out at ${a.now}` : 'replied');
    })());
    engine.runUntilIdle();
    expect(results).toEqual(['timed out at 3000']);

    b.script = (self, m) => self.replyTo(m, 'ok');
    a.start((function* () {
      const reply = yield* a.ask('b', 3 * second);
      results.push(reply === null ? 'timed out' : `replied at ${a.now}`);
    })());
    const before = engine.step;
    engine.runUntilIdle();
    expect(results[1]).toBe('replied at 3010');
    expect(engine.step - before).toBe(2);
    expect(engine.pending).toBe(0);
  });

  it('makes a stage a step of its own and resumes when it is delivered', () => {
    const { engine, a } = twoProbes();
    const seen: string[] = [];
    a.start((function* () {
      const first = yield* a.stageThen('stage.authentication', 0);
      seen.push(`${first.kind}@${a.now}`);
      const second = yield* a.stageThen('stage.authorization', 0.5);
      seen.push(`${second.kind}@${a.now}`);
    })());
    expect(seen).toEqual([]);
    engine.stepOnce();
    expect(seen).toEqual(['stage.authentication@0']);
    engine.runUntilIdle();
    expect(seen).toEqual(['stage.authentication@0', 'stage.authorization@0.5']);
    expect(engine.trace.all().map((m) => m.kind)).toEqual(['stage.authentication', 'stage.authorization']);
    expect(a.received).toHaveLength(0);
  });

  it('resumes a reply-waiter on a self-sent request only when the reply comes, not when the request is delivered', () => {
    const { engine, a } = twoProbes();
    const got: string[] = [];
    a.script = (self, m) => {
      if (m.kind === 'ask-self') self.replyTo(m, 'answer');
    };
    a.start((function* () {
      const request = a.sendTo('a', 'ask-self');
      const reply = yield* awaitReply<string>(request.id);
      got.push(reply === timedOut ? 'timed out' : reply.kind);
    })());
    engine.stepOnce();
    expect(got).toEqual([]);
    expect(a.received.map((m) => m.kind)).toEqual(['ask-self']);
    engine.runUntilIdle();
    expect(got).toEqual(['ask-self.reply']);
  });

  it('holds coroutines waiting on a condition until it is broadcast, then runs the broadcaster on and the waiters in order', () => {
    const { engine, a, b } = twoProbes(5);
    b.script = (self, m) => self.replyTo(m, 'granted');
    const unlocked = new Condition('lock');
    let held = false;
    const log: string[] = [];
    const worker = (name: string) => (function* () {
      while (held) yield* waitOn(unlocked);
      if (log.includes('granted')) {
        log.push(`${name} reuses at ${a.now}`);
        return;
      }
      held = true;
      const reply = yield* a.ask('b');
      log.push(String(reply?.payload));
      held = false;
      yield* broadcast(unlocked);
      log.push(`${name} goes on at ${a.now}`);
    })();
    a.start(worker('first'));
    a.start(worker('second'));
    a.start(worker('third'));
    expect(engine.suspendedCoroutines).toBe(3);
    engine.runUntilIdle();
    expect(log).toEqual(['granted', 'first goes on at 10', 'second reuses at 10', 'third reuses at 10']);
    expect(b.received.filter((m) => m.kind === 'ask')).toHaveLength(1);
    expect(engine.suspendedCoroutines).toBe(0);
  });

  it('wakes a sleeping coroutine after the virtual duration', () => {
    const { engine, a } = twoProbes();
    const woke: number[] = [];
    a.start((function* () {
      yield* a.nap(2 * second);
      woke.push(a.now);
    })());
    engine.runUntilIdle();
    expect(woke).toEqual([2000]);
  });
});

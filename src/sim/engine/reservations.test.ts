import { describe, expect, it } from 'vitest';
import { probe, twoProbes } from './testing.ts';


describe('Engine reservations (replies completed outside the engine)', () => {
  it('holds back every delivery ordered after an open reservation, then delivers the filled message in its place', () => {
    const { engine, a, b } = twoProbes(5);
    const request = a.sendTo('b', 'ask');
    engine.stepOnce();
    const reservation = engine.reserve('b', 'a', { replyTo: request.id, cause: request.id });
    const later = b.sendTo('a', 'later');
    expect(reservation).toMatchObject({ deliverAt: 10, cause: request.id, replyTo: request.id, sentAt: 5 });
    expect(engine.idle).toBe(false);
    expect(engine.run({ until: 100 })).toEqual({ steps: 0, reason: 'reserved' });
    expect(engine.now).toBe(5);
    expect(engine.runUntilIdle()).toEqual({ steps: 0, reason: 'reserved' });
    const filled = engine.fill(reservation, probe('ask.reply'), { answer: 42 });
    expect(filled.id).toBeLessThan(later.id);
    expect(engine.runUntilIdle().reason).toBe('idle');
    expect(a.received.map((m) => m.kind)).toEqual(['ask.reply', 'later']);
    expect(engine.now).toBe(10);
  });

  it('lets earlier messages through, lets the clock run up to a later reservation, and forgets a released one', () => {
    const { engine, a, b } = twoProbes(5);
    const reservation = engine.reserve('b', 'a');
    a.sendTo('b', 'early', null);
    engine.setTimer('b', 1, 'tick', null);
    expect(engine.run({ until: 3 })).toEqual({ steps: 1, reason: 'time' });
    expect(engine.now).toBe(3);
    expect(engine.run({ until: 50 })).toEqual({ steps: 0, reason: 'reserved' });
    expect(engine.now).toBe(3);
    engine.release(reservation);
    expect(engine.run({ until: 50 })).toEqual({ steps: 1, reason: 'time' });
    expect(b.received.map((m) => m.kind)).toEqual(['timer', 'early']);
    expect(() => engine.fill(reservation, probe('late'), null)).toThrow(/not open/);
  });
});

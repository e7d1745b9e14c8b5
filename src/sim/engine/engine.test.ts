import { describe, expect, it } from 'vitest';
import { runTwiceWithPerturbedHost } from '../testing/determinism.ts';
import { Engine, InvariantError } from './engine.ts';
import type { TimerPayload } from './message.ts';
import { syntheticLoad } from './synthetic-load.ts';
import { Probe, twoProbes } from './testing.ts';
import { second } from './time.ts';
import { traceHash } from './trace.ts';


describe('Engine delivery order', () => {
  it('delivers by (deliverAt, id) and advances the virtual clock to each delivery', () => {
    const engine = new Engine({ seed: 1 });
    const a = engine.add(new Probe('a'));
    const b = engine.add(new Probe('b'));
    const c = engine.add(new Probe('c'));
    engine.link('a', 'b', { latency: 10 });
    engine.link('a', 'c', { latency: 3 });
    const m1 = a.sendTo('b', 'first');
    const m2 = a.sendTo('c', 'second');
    const m3 = a.sendTo('c', 'third');
    const delivered = [engine.stepOnce(), engine.stepOnce(), engine.stepOnce()];
    expect(delivered.map((m) => m?.id)).toEqual([m2.id, m3.id, m1.id]);
    expect(engine.now).toBe(10);
    expect(engine.step).toBe(3);
    expect(engine.stepOnce()).toBeNull();
    expect(b.received).toHaveLength(1);
    expect(c.received.map((m) => m.kind)).toEqual(['second', 'third']);
  });

  it('keeps each directed link FIFO even with jitter', () => {
    const { engine, a, b } = twoProbes(1, 50);
    const sent = Array.from({ length: 200 }, (_, i) => a.sendTo('b', 'seq', i));
    engine.runUntilIdle();
    expect(b.received.map((m) => m.payload)).toEqual(sent.map((m) => m.payload));
    const deliverAts = b.received.map((m) => m.deliverAt);
    expect([...deliverAts].sort((x, y) => x - y)).toEqual(deliverAts);
    expect(new Set(deliverAts).size).toBeGreaterThan(1);
  });

  it('refuses to send between unlinked components', () => {
    const engine = new Engine({ seed: 1 });
    const a = engine.add(new Probe('a'));
    engine.add(new Probe('b'));
    expect(() => a.sendTo('b', 'x')).toThrow('no link from a to b (message x)');
  });

  it('queues what a receiver sends instead of delivering it within the same step', () => {
    const { engine, a, b } = twoProbes(0);
    b.script = (self, m) => {
      if (m.kind === 'ping') self.replyTo(m, 'pong');
    };
    a.sendTo('b', 'ping');
    engine.stepOnce();
    expect(b.received).toHaveLength(1);
    expect(a.received).toHaveLength(0);
    engine.stepOnce();
    expect(a.received[0]?.replyTo).toBe(b.received[0]?.id);
  });

  it('records the delivery being handled as the cause of what it sends', () => {
    const { engine, a, b } = twoProbes();
    b.script = (self, m) => self.replyTo(m, 'pong');
    const ping = a.sendTo('b', 'ping');
    engine.runUntilIdle();
    expect(ping.cause).toBeNull();
    const pong = engine.trace.at(2)!;
    expect(pong.cause).toBe(ping.id);
    expect(engine.trace.at(1)).toBe(ping);
  });
});

describe('Engine timers, idleness and run modes', () => {
  it('never delivers a cancelled timer', () => {
    const { engine, a } = twoProbes();
    const t = a.timer(100, 'x');
    a.timer(200, 'y');
    a.cancel(t);
    expect(engine.pending).toBe(1);
    engine.runUntilIdle();
    expect(a.received.map((m) => (m.payload as TimerPayload).name)).toEqual(['y']);
  });

  it('does not count background work as work for run-until-idle', () => {
    const { engine, a, b } = twoProbes(1);
    a.script = (self, m) => {
      if (m.kind === 'timer') {
        self.sendTo('b', 'heartbeat');
        self.timer(10 * second, 'heartbeat', true);
      }
    };
    a.timer(0, 'heartbeat', true);
    a.sendTo('b', 'real-work');
    const result = engine.runUntilIdle();
    expect(result.reason).toBe('idle');
    expect(b.received.map((m) => m.kind)).toContain('real-work');
    expect(engine.pending).toBeGreaterThan(0);
    const ran = engine.runFor(35 * second);
    expect(ran.reason).toBe('time');
    expect(engine.now).toBe(35 * second + 1);
    const heartbeats = b.received.filter((m) => m.kind === 'heartbeat');
    expect(heartbeats).toHaveLength(4);
    expect(heartbeats.every((m) => m.background)).toBe(true);
  });

  it('gives the same trace whether stepped one by one, run for a duration, or fast-forwarded', () => {
    const steppedEngine = syntheticLoad({ seed: 'modes', messages: 2000, components: 10 });
    while (steppedEngine.stepOnce());
    const chunkedEngine = syntheticLoad({ seed: 'modes', messages: 2000, components: 10 });
    while (chunkedEngine.runFor(7.3).reason !== 'time' || chunkedEngine.pending > 0);
    const fastEngine = syntheticLoad({ seed: 'modes', messages: 2000, components: 10 });
    fastEngine.runUntilIdle();
    const hashes = [steppedEngine, chunkedEngine, fastEngine].map((e) => traceHash(e.trace.all()));
    expect(fastEngine.step).toBe(2000);
    expect(new Set(hashes).size).toBe(1);
  });

  it('checks invariants after every step and names the step that broke one', () => {
    const { engine, a, b } = twoProbes();
    engine.addInvariant('b receives at most two messages', () => (b.received.length > 2 ? `b has ${b.received.length}` : undefined));
    for (let i = 0; i < 5; i++) a.sendTo('b', 'm');
    expect(() => engine.runUntilIdle()).toThrow(InvariantError);
    expect(engine.step).toBe(3);
  });

  it('keeps step numbers stable when the trace drops old records', () => {
    const engine = syntheticLoad({ seed: 'retain', messages: 1000, components: 5, traceLimit: 100 });
    engine.runUntilIdle();
    expect(engine.step).toBe(1000);
    expect(engine.trace.all().length).toBeLessThanOrEqual(100);
    expect(engine.trace.at(engine.step)).toBeDefined();
    expect(engine.trace.at(1)).toBeUndefined();
  });
});

describe('Engine determinism', () => {
  it('replays the same seed to a byte-identical trace, even with the host clock and Math.random perturbed', () => {
    const scenario = () => {
      const engine = syntheticLoad({ seed: 'determinism', messages: 20_000, components: 20 });
      engine.runUntilIdle();
      return engine;
    };
    const [first, second] = runTwiceWithPerturbedHost(scenario);
    expect(first.steps).toBe(20_000);
    expect(second.hash).toBe(first.hash);
  });

  it('gives a different trace and different uids for a different seed', () => {
    const run = (seed: string) => {
      const engine = syntheticLoad({ seed, messages: 1000, components: 5 });
      engine.runUntilIdle();
      return { hash: traceHash(engine.trace.all()), uid: engine.rng.uuid() };
    };
    const x = run('seed-x');
    const y = run('seed-y');
    expect(x.hash).not.toBe(y.hash);
    expect(x.uid).not.toBe(y.uid);
    expect(run('seed-x')).toEqual(x);
  });
});

describe('Engine component stop and start', () => {
  it('drops a stopped component\'s coroutines and timers, traces but does not deliver messages to it, and calls its hooks', () => {
    const { engine, a, b } = twoProbes(5);
    const hooks: string[] = [];
    a.onStop = () => { hooks.push('stop'); };
    a.onStart = () => { hooks.push('start'); };
    b.script = (self, m) => self.replyTo(m, 'late');
    const resumed: unknown[] = [];
    a.start((function* () {
      const reply = yield* a.ask('b');
      resumed.push(reply?.payload);
    })());
    a.timer(1_000, 'tick');
    engine.stopComponent('a');
    expect(engine.isStopped('a')).toBe(true);
    expect(engine.suspendedCoroutines).toBe(0);
    b.sendTo('a', 'hello');
    engine.runUntilIdle();
    // b's hello (sent at 0) and its answer to the request: both traced, neither delivered; the timer never fired.
    expect(engine.trace.all().filter((m) => m.to === 'a').map((m) => m.kind)).toEqual(['hello', 'ask.reply']);
    expect(a.received).toEqual([]);
    expect(resumed).toEqual([]);
    engine.startComponent('a');
    b.sendTo('a', 'again');
    engine.runUntilIdle();
    expect(a.received.map((m) => m.kind)).toEqual(['again']);
    expect(hooks).toEqual(['stop', 'start']);
  });

  it('changes a link\'s latency without reordering what is already queued', () => {
    const { engine, a, b } = twoProbes(50);
    a.sendTo('b', 'slow');
    engine.setLinkLatency('a', 'b', { latency: 1 });
    a.sendTo('b', 'fast');
    engine.runUntilIdle();
    expect(b.received.map((m) => [m.kind, m.deliverAt])).toEqual([['slow', 50], ['fast', 50]]);
  });

  it('knows the longest delay a link allows, latency and jitter, as links are added and changed', () => {
    const engine = new Engine({ seed: 1 });
    for (const name of ['a', 'b', 'c']) engine.add(new Probe(name));
    expect(engine.longestLink()).toBe(0);
    engine.link('a', 'b', { latency: 10, jitter: 5 });
    engine.link('a', 'c', { latency: 12 });
    expect(engine.longestLink()).toBe(15);
    engine.setLinkLatency('a', 'b', { latency: 1 });
    expect(engine.longestLink()).toBe(12);
    engine.setLinkLatency('c', 'a', { latency: 3, jitter: 40 });
    expect(engine.longestLink()).toBe(43);
  });
});

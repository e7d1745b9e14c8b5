// The engine's tests' fixtures: a probe component that records what it receives and can send, reply,
// wait, stage, sleep and set timers on demand, and two of them linked. Test-only.

import { Component } from './component.ts';
import type { Co } from './coroutine.ts';
import { Engine } from './engine.ts';
import type { Message } from './message.ts';

/** The engine's tests speak words of their own, outside the model's message map: typed as the synthetic load's token. */
export function probe(kind: string): 'token' {
  return kind as 'token';
}

/** A component that records what it receives and runs a script when a `go` message arrives. */
export class Probe extends Component {
  readonly received: Message[] = [];
  script: ((self: Probe, m: Message) => void) | null = null;

  receive(message: Message): void {
    this.received.push(message);
    this.script?.(this, message);
  }

  sendTo(to: string, kind: string, payload: unknown = null, options?: { background?: boolean }): Message {
    return this.send(to, probe(kind), payload, options);
  }

  replyTo(request: Message, payload: unknown): Message {
    return this.reply(request, probe(`${request.kind}.reply`), payload);
  }

  start(co: Co<unknown>): void {
    this.spawn(co);
  }

  *ask(to: string, timeout?: number): Co<Message | null> {
    if (timeout === undefined) return yield* this.call(to, probe('ask'), null);
    return yield* this.callWithTimeout(to, probe('ask'), null, timeout);
  }

  *stageThen(kind: string, delay: number): Co<Message> {
    return yield* this.stage(probe(kind), { note: kind }, delay);
  }

  *nap(ms: number): Co<void> {
    yield* this.sleep(ms);
  }

  timer(delay: number, name: string, background = false): Message {
    return this.setTimer(delay, name, null, { background });
  }

  cancel(timer: Message): void {
    this.cancelTimer(timer);
  }
}

export function twoProbes(latency = 5, jitter = 0): { engine: Engine; a: Probe; b: Probe } {
  const engine = new Engine({ seed: 'test' });
  const a = engine.add(new Probe('a'));
  const b = engine.add(new Probe('b'));
  engine.link('a', 'b', { latency, jitter });
  return { engine, a, b };
}

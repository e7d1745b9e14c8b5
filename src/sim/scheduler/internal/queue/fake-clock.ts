// A clock for the scheduling queue's tests: its timers fire when `advance` passes them, in time order (ties
// in the order they were set), and the timers not yet fired can be read.

export interface FakeTimer {
  readonly at: number;
  readonly seq: number;
  readonly name: string;
  readonly fire: () => void;
}

export function fakeClock() {
  const timers: FakeTimer[] = [];
  let seq = 0;
  const clock = {
    now: 0,
    after(delay: number, name: string, fire: () => void) {
      timers.push({ at: clock.now + delay, seq: seq++, name, fire });
      return { cancel: () => undefined };
    },
    advance(ms: number) {
      const until = clock.now + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const next = timers[0];
        if (!next || next.at > until) break;
        timers.shift();
        clock.now = next.at;
        next.fire();
      }
      clock.now = until;
    },
    timers,
  };
  return clock;
}

// Test support: a host clock whose time moves only when the test says so (host tests drive SimHost with it).

import type { HostClock } from './host.ts';

/** A host clock whose time moves only when the test says so; due timers fire in order. */
export class FakeClock implements HostClock {
  private t = 0;
  private nextId = 1;
  private timers: Array<{ id: number; at: number; callback: () => void }> = [];

  now(): number {
    return this.t;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ id, at: this.t + ms, callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  }

  get scheduled(): number {
    return this.timers.length;
  }

  /** Moves time without firing timers, as when the host's event loop was blocked. */
  sleep(ms: number): void {
    this.t += ms;
  }

  /** Fires the earliest timer only (the host's event loop runs one task). */
  fireNext(): void {
    const next = [...this.timers].sort((x, y) => x.at - y.at || x.id - y.id)[0];
    if (!next) throw new Error('no timer scheduled');
    this.timers = this.timers.filter((timer) => timer !== next);
    this.t = Math.max(this.t, next.at);
    next.callback();
  }

  /** Moves time, firing due timers in order, including those they schedule. */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const due = this.timers.filter((timer) => timer.at <= end).sort((x, y) => x.at - y.at || x.id - y.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((timer) => timer !== due);
      this.t = Math.max(this.t, due.at);
      due.callback();
    }
    this.t = end;
  }
}

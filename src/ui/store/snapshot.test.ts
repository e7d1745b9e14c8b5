import { describe, expect, it } from 'vitest';
import type { SimStatus, WorkerEvent } from '../../protocol/index.ts';
import { createSnapshotStore, trailMs, type SnapshotClock } from './snapshot.ts';
import { applyWorkerEvent, createSimActions, createSimStore, initialStatus } from './sim-store.ts';

const status = (step: number, mode: SimStatus['mode'] = 'playing'): WorkerEvent => ({ type: 'status', status: { ...initialStatus, step, mode } });

/** A clock the test moves by hand: `advance(ms)` runs the timers due by then, in order. */
function fakeClock(): SnapshotClock & { advance(ms: number): void; pending(): number } {
  let now = 0;
  let timers: Array<{ at: number; callback: () => void }> = [];
  return {
    now: () => now,
    setTimer(callback, ms) {
      const timer = { at: now + ms, callback };
      timers.push(timer);
      return timer;
    },
    clearTimer(timer) {
      timers = timers.filter((t) => t !== timer);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        timers = timers.filter((t) => t !== due);
        now = due.at;
        due.callback();
      }
      now = end;
    },
    pending: () => timers.length,
  };
}

function setUp() {
  const live = createSimStore();
  const clock = fakeClock();
  const snapshot = createSnapshotStore(live, clock);
  const shown: number[] = [];
  snapshot.subscribe((state) => shown.push(state.status.step));
  return { live, clock, snapshot, shown };
}

describe('the panels\' snapshot', () => {
  it('is the store\'s state, in the same notification, while paused (steps, steps back, seeks)', () => {
    const { live, clock, snapshot, shown } = setUp();
    let seenBySubscriber = -1;
    live.subscribe(() => {
      seenBySubscriber = snapshot.getState().status.step;
    });
    for (const step of [1, 2, 1, 40]) {
      applyWorkerEvent(live, status(step, 'paused'));
      expect(snapshot.getState()).toBe(live.getState());
      expect(seenBySubscriber).toBe(step);
    }
    expect(shown).toEqual([1, 2, 1, 40]);
    expect(clock.pending()).toBe(0);
  });

  it('catches up at most once per trailMs while playing, in a later task, and with the newest state', () => {
    const { live, clock, snapshot, shown } = setUp();
    applyWorkerEvent(live, status(1));
    expect(shown).toEqual([1]);
    for (let step = 2; step <= 60; step++) {
      applyWorkerEvent(live, status(step));
      clock.advance(16);
    }
    // 59 updates over 59 × 16 ms = 944 ms: the snapshot moved at 250, 500, 750 ms.
    expect(shown).toEqual([1, 17, 33, 48]);
    expect(snapshot.getState().status.step).toBeLessThan(live.getState().status.step);
    clock.advance(trailMs);
    expect(snapshot.getState()).toBe(live.getState());
    expect(shown).toHaveLength(5);
  });

  it('never catches up in the task of the update that moved the store while playing', () => {
    const { live, clock, snapshot } = setUp();
    applyWorkerEvent(live, status(1));
    clock.advance(10 * trailMs);
    applyWorkerEvent(live, status(2));
    expect(snapshot.getState().status.step).toBe(1);
    clock.advance(0);
    expect(snapshot.getState().status.step).toBe(2);
  });

  it('catches up at once when playing stops, dropping the pending catch-up', () => {
    const { live, clock, snapshot, shown } = setUp();
    applyWorkerEvent(live, status(1));
    applyWorkerEvent(live, status(5));
    applyWorkerEvent(live, status(9));
    expect(shown).toEqual([1]);
    applyWorkerEvent(live, status(9, 'paused'));
    expect(snapshot.getState()).toBe(live.getState());
    expect(shown).toEqual([1, 9]);
    expect(clock.pending()).toBe(0);
    clock.advance(trailMs);
    expect(shown).toEqual([1, 9]);
  });

  it('shows the user\'s own changes at once while playing', () => {
    const { live, snapshot } = setUp();
    const actions = createSimActions(live, () => undefined);
    applyWorkerEvent(live, status(1));
    applyWorkerEvent(live, status(2));
    actions.select({ type: 'message', id: 7 });
    expect(snapshot.getState().selection).toEqual({ type: 'message', id: 7 });
    expect(snapshot.getState().status.step).toBe(2);
    applyWorkerEvent(live, status(3));
    actions.selectKey('/registry/pods/default/a');
    expect(snapshot.getState().keyspace.selectedKey).toBe('/registry/pods/default/a');
    actions.askWhy(7);
    expect(snapshot.getState().why).toEqual({ id: 7, answer: null });
  });

  it('keeps lanes of different phases catching up in different tasks while playing, and together while paused', () => {
    const live = createSimStore();
    const clock = fakeClock();
    const phases = [0, trailMs / 4, trailMs / 2, (3 * trailMs) / 4];
    const lanes = phases.map((phase) => createSnapshotStore(live, clock, phase));
    // Which lanes moved in each timer task the clock ran (a task is one timer callback).
    const moves: Array<{ at: number; lane: number }> = [];
    lanes.forEach((lane, i) => lane.subscribe(() => moves.push({ at: clock.now(), lane: i })));
    applyWorkerEvent(live, status(1));
    expect(moves.map((m) => m.lane)).toEqual([0, 1, 2, 3]);
    moves.length = 0;
    for (let step = 2; step <= 64; step++) {
      applyWorkerEvent(live, status(step));
      clock.advance(16);
    }
    // About a second of updates 16 ms apart: each lane moved 3–4 times, trailMs apart, and never at the
    // same time as another lane.
    for (let i = 0; i < lanes.length; i++) {
      const times = moves.filter((m) => m.lane === i).map((m) => m.at);
      expect(times.length).toBeGreaterThanOrEqual(3);
      for (let k = 1; k < times.length; k++) expect(times[k]! - times[k - 1]!).toBeGreaterThanOrEqual(trailMs);
    }
    const times = moves.map((m) => m.at);
    expect(new Set(times).size).toBe(times.length);
    // Paused: every lane is the store's state in the same notification.
    applyWorkerEvent(live, status(64, 'paused'));
    for (const lane of lanes) expect(lane.getState()).toBe(live.getState());
    expect(clock.pending()).toBe(0);
  });
});

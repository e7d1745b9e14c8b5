import { describe, expect, it } from 'vitest';
import type { SimStatus, WorkerEvent } from '../../protocol/index.ts';
import { createInbox, type FrameRequest } from './inbox.ts';
import { createSimStore, initialStatus } from './sim-store.ts';

const status = (step: number): WorkerEvent => ({ type: 'status', status: { ...initialStatus, step } satisfies SimStatus });

/** A frame source the test advances by hand: `frame()` runs what was requested. */
function manualFrames(): { request: FrameRequest; frame(): void; pending(): number } {
  let callbacks: Array<() => void> = [];
  return {
    request(callback) {
      callbacks.push(callback);
      return () => {
        callbacks = callbacks.filter((c) => c !== callback);
      };
    },
    frame() {
      const due = callbacks;
      callbacks = [];
      for (const callback of due) callback();
    },
    pending: () => callbacks.length,
  };
}

describe('the inbox', () => {
  it('applies every message received between two frames in one store update, in order', () => {
    const store = createSimStore();
    const frames = manualFrames();
    const inbox = createInbox(store, frames.request);
    const steps: number[] = [];
    store.subscribe((state) => steps.push(state.status.step));
    inbox.receive(status(1));
    inbox.receive([status(2), status(3)]);
    inbox.receive(status(4));
    expect(store.getState().status.step).toBe(0);
    expect(frames.pending()).toBe(1);
    frames.frame();
    expect(steps).toEqual([4]);
    inbox.receive(status(5));
    frames.frame();
    expect(steps).toEqual([4, 5]);
  });

  it('flush applies the queue at once and cancels the frame it asked for', () => {
    const store = createSimStore();
    const frames = manualFrames();
    const inbox = createInbox(store, frames.request);
    let updates = 0;
    store.subscribe(() => updates++);
    inbox.receive(status(7));
    inbox.flush();
    expect(store.getState().status.step).toBe(7);
    expect(frames.pending()).toBe(0);
    inbox.flush();
    frames.frame();
    expect(updates).toBe(1);
  });
});

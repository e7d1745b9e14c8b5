// Worker messages applied once per frame. The simulation posts a message per turn (every 16 ms while
// playing); when a frame takes longer than that (a cluster of thousands of Pods on a busy machine),
// several arrive between two frames, and applying each at once would re-render the page once per message.
// The inbox queues them and applies the queue in one store update, one render, at the next frame; a
// hidden tab draws no frames, so the queue is also applied after `fallbackMs` at the latest.

import type { WorkerEvent, WorkerMessage } from '../../protocol/index.ts';
import { reduceWorkerEvent, type SimState, type SimStore } from './sim-store.ts';

export interface Inbox {
  /** Queues a message from the worker (or the server), applied at the next frame. */
  receive(message: WorkerMessage): void;
  /** Applies what is queued now: called before the page changes or reads the store itself, so it sees the events in their order. */
  flush(): void;
}

/** Runs `callback` once, at the next frame; the returned function cancels it. */
export type FrameRequest = (callback: () => void) => () => void;

/** Real ms after which a queue is applied though no frame came (a hidden tab). */
export const fallbackMs = 100;

const nextFrame: FrameRequest = (callback) => {
  const frame = requestAnimationFrame(callback);
  const timer = setTimeout(callback, fallbackMs);
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
};

function reduceMessage(state: SimState, message: WorkerMessage): SimState {
  return Array.isArray(message) ? (message as readonly WorkerEvent[]).reduce(reduceWorkerEvent, state) : reduceWorkerEvent(state, message as WorkerEvent);
}

export function createInbox(store: SimStore, requestFrame: FrameRequest = nextFrame): Inbox {
  let queued: WorkerMessage[] = [];
  let cancel: (() => void) | null = null;
  const flush = () => {
    cancel?.();
    cancel = null;
    if (queued.length === 0) return;
    const batch = queued;
    queued = [];
    store.setState((state) => batch.reduce(reduceMessage, state), true);
  };
  return {
    receive(message) {
      queued.push(message);
      cancel ??= requestFrame(flush);
    },
    flush,
  };
}

// The controllers' work queue: keys to reconcile, each at most once in the queue and never handed to
// two workers at once, with delayed and rate-limited adds on engine timers.
// Models k8s.io/client-go/util/workqueue/queue.go (Type: queue, dirty and processing sets),
// delaying_queue.go (AddAfter keeps the earliest ready time per item) and rate_limiting_queue.go.
//
// The dedup contract, as in client-go:
//   add(k) while k is queued        → nothing (still one entry)
//   add(k) while a worker holds k   → k is marked dirty and queued again when the worker calls done(k)
//   get() → k                       → k moves from the queue to processing
// A blocking Get becomes `get()` returning undefined when empty plus `onceAvailable`, which
// `runWorkers` uses to park idle workers; a parked worker resumes within the delivery that added work.

import { isStatusError } from '../api/errors.ts';
import type { Co, Duration } from '../engine/index.ts';
import type { ClientHost, TimerHandle } from './client-component.ts';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiter.ts';

export class RateLimitingQueue {
  private readonly queue: string[] = [];
  private readonly dirty = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly waiting = new Map<string, { readyAt: number; timer: TimerHandle }>();
  private readonly idleWorkers: (() => void)[] = [];
  private shuttingDown = false;

  constructor(private readonly host: ClientHost, readonly name: string,
    private readonly rateLimiter: RateLimiter = defaultControllerRateLimiter()) {}

  add(item: string): void {
    if (this.shuttingDown || this.dirty.has(item)) return;
    this.dirty.add(item);
    if (this.processing.has(item)) return;
    this.push(item);
  }

  /** The next item, now in processing; undefined when nothing is queued. */
  get(): string | undefined {
    const item = this.queue.shift();
    if (item === undefined) return undefined;
    this.processing.add(item);
    this.dirty.delete(item);
    return item;
  }

  /** The worker finished `item`; if it was added meanwhile it is queued again. */
  done(item: string): void {
    this.processing.delete(item);
    if (this.dirty.has(item)) this.push(item);
  }

  /** Adds `item` after `delay`; a pending earlier add wins, a pending later one is brought forward. */
  addAfter(item: string, delay: Duration): void {
    if (this.shuttingDown) return;
    if (delay <= 0) {
      this.add(item);
      return;
    }
    const readyAt = this.host.now + delay;
    const pending = this.waiting.get(item);
    if (pending && pending.readyAt <= readyAt) return;
    pending?.timer.cancel();
    const timer = this.host.after(delay, `workqueue.${this.name}`, () => {
      this.waiting.delete(item);
      this.add(item);
    });
    this.waiting.set(item, { readyAt, timer });
  }

  /** Adds `item` after the rate limiter's wait (one more failure for it). */
  addRateLimited(item: string): void {
    this.addAfter(item, this.rateLimiter.when(item, this.host.now));
  }

  /** The item succeeded: its per-item backoff starts over. */
  forget(item: string): void {
    this.rateLimiter.forget(item);
  }

  numRequeues(item: string): number {
    return this.rateLimiter.numRequeues(item);
  }

  get length(): number {
    return this.queue.length;
  }

  /** The items workers hold now (being synced), oldest taken first; read-only, for the UI. */
  get processingItems(): ReadonlySet<string> {
    return this.processing;
  }

  /** Drops delayed adds and refuses new ones; workers finish what they hold and stop. */
  shutDown(): void {
    this.shuttingDown = true;
    for (const { timer } of this.waiting.values()) timer.cancel();
    this.waiting.clear();
    this.idleWorkers.length = 0;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /** Calls `wake` (once) when an item is next queued. */
  onceAvailable(wake: () => void): void {
    this.idleWorkers.push(wake);
  }

  private push(item: string): void {
    this.queue.push(item);
    this.idleWorkers.shift()?.();
  }
}

/**
 * Starts `workers` workers on `queue` (wait.Until(worker) × n): each takes an item, runs `process`,
 * then calls done; `process` decides about forget and addRateLimited, and must not throw.
 */
export function runWorkers(host: ClientHost, queue: RateLimitingQueue, workers: number, process: (item: string) => Co<void>): void {
  function* worker(): Co<void> {
    for (;;) {
      const item = queue.get();
      if (item === undefined) {
        if (!queue.isShuttingDown) queue.onceAvailable(() => host.spawn(worker()));
        return;
      }
      try {
        yield* process(item);
      } finally {
        queue.done(item);
      }
    }
  }
  for (let i = 0; i < workers; i++) host.spawn(worker());
}

/**
 * One item as most controllers' workers handle it (processNextWorkItem with handleErr): forgotten
 * when `sync` succeeds, requeued rate-limited when an API request failed; any other error is a bug and
 * is thrown.
 */
export function* syncOrRequeue(queue: RateLimitingQueue, item: string, sync: (item: string) => Co<void>): Co<void> {
  try {
    yield* sync(item);
    queue.forget(item);
  } catch (err) {
    if (!isStatusError(err)) throw err;
    queue.addRateLimited(item);
  }
}

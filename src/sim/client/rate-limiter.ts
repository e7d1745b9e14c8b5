// Work-queue rate limiters: how long an item waits before it is retried. The controllers' default is
// the maximum of a per-item exponential backoff (5 ms doubling up to 1000 s) and an overall token
// bucket (10 qps, burst 100), in virtual time.
// Models k8s.io/client-go/util/workqueue/default_rate_limiters.go (ItemExponentialFailureRateLimiter,
// BucketRateLimiter, MaxOfRateLimiter, DefaultControllerRateLimiter) and golang.org/x/time/rate
// (Limiter.reserveN: a full bucket to begin with, refilled continuously).

import { second, type Duration, type Time } from '../engine/index.ts';

export interface RateLimiter {
  /** How long `item` waits now; counts as one more failure. */
  when(item: string, now: Time): Duration;
  /** Stops tracking `item` (success): its backoff starts over. */
  forget(item: string): void;
  numRequeues(item: string): number;
}

export class ItemExponentialFailureRateLimiter implements RateLimiter {
  private readonly failures = new Map<string, number>();

  constructor(private readonly baseDelay: Duration, private readonly maxDelay: Duration) {}

  when(item: string): Duration {
    const exp = this.failures.get(item) ?? 0;
    this.failures.set(item, exp + 1);
    return Math.min(this.baseDelay * 2 ** exp, this.maxDelay);
  }

  forget(item: string): void {
    this.failures.delete(item);
  }

  numRequeues(item: string): number {
    return this.failures.get(item) ?? 0;
  }
}

/** A token bucket shared by all items: `qps` tokens a second, at most `burst` saved. */
export class BucketRateLimiter implements RateLimiter {
  private tokens: number;
  private last: Time | null = null;

  constructor(private readonly qps: number, private readonly burst: number) {
    this.tokens = burst;
  }

  when(_item: string, now: Time): Duration {
    if (this.last !== null) this.tokens = Math.min(this.burst, this.tokens + ((now - Math.min(this.last, now)) / second) * this.qps);
    this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.qps) * second;
  }

  forget(): void {}

  numRequeues(): number {
    return 0;
  }
}

/** The longest wait of several limiters; each one counts the failure. */
export class MaxOfRateLimiter implements RateLimiter {
  private readonly limiters: readonly RateLimiter[];

  constructor(...limiters: RateLimiter[]) {
    this.limiters = limiters;
  }

  when(item: string, now: Time): Duration {
    let longest = 0;
    for (const limiter of this.limiters) longest = Math.max(longest, limiter.when(item, now));
    return longest;
  }

  forget(item: string): void {
    for (const limiter of this.limiters) limiter.forget(item);
  }

  numRequeues(item: string): number {
    let most = 0;
    for (const limiter of this.limiters) most = Math.max(most, limiter.numRequeues(item));
    return most;
  }
}

/** workqueue.DefaultControllerRateLimiter. */
export function defaultControllerRateLimiter(): RateLimiter {
  return new MaxOfRateLimiter(new ItemExponentialFailureRateLimiter(5, 1000 * second), new BucketRateLimiter(10, 100));
}

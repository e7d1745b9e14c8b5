import { describe, expect, it } from 'vitest';
import { BucketRateLimiter, defaultControllerRateLimiter, ItemExponentialFailureRateLimiter } from './rate-limiter.ts';

describe('ItemExponentialFailureRateLimiter (5 ms → 1000 s)', () => {
  it('doubles per failure of the same item, caps, and starts over after forget', () => {
    const limiter = new ItemExponentialFailureRateLimiter(5, 1_000_000);
    const waits = Array.from({ length: 20 }, () => limiter.when('default/a'));
    expect(waits.slice(0, 5)).toEqual([5, 10, 20, 40, 80]);
    expect(waits.at(-1)).toBe(1_000_000);
    expect(limiter.when('default/b')).toBe(5);
    expect(limiter.numRequeues('default/a')).toBe(20);
    limiter.forget('default/a');
    expect(limiter.when('default/a')).toBe(5);
  });
});

describe('BucketRateLimiter (10 qps, burst 100)', () => {
  it('lets a burst of 100 through, then spaces items 100 ms apart, and refills with time', () => {
    const limiter = new BucketRateLimiter(10, 100);
    const burst = Array.from({ length: 100 }, (_, i) => limiter.when(`k${i}`, 0));
    expect(burst.every((w) => w === 0)).toBe(true);
    expect(limiter.when('x', 0)).toBeCloseTo(100);
    expect(limiter.when('y', 0)).toBeCloseTo(200);
    expect(limiter.when('z', 10_000)).toBe(0);
  });
});

describe('defaultControllerRateLimiter', () => {
  it('takes the longer of the item backoff and the bucket', () => {
    const limiter = defaultControllerRateLimiter();
    expect(limiter.when('a', 0)).toBe(5);
    expect(limiter.when('a', 0)).toBe(10);
    expect(limiter.numRequeues('a')).toBe(2);
    limiter.forget('a');
    expect(limiter.numRequeues('a')).toBe(0);
  });
});

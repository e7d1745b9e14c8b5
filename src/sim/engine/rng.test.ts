import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nameSuffixAlphabet, Rng } from './rng.ts';

describe('Rng', () => {
  it('produces RFC 4122 version 4 UUIDs', () => {
    const rng = new Rng('uuids');
    for (let i = 0; i < 1000; i++) {
      expect(rng.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('draws generateName suffixes from Kubernetes\' alphabet, every letter reachable', () => {
    const rng = new Rng(7);
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const suffix = rng.nameSuffix();
      expect(suffix).toHaveLength(5);
      for (const ch of suffix) seen.add(ch);
    }
    expect([...seen].sort().join('')).toBe([...nameSuffixAlphabet].sort().join(''));
  });

  it('keeps int(n) within bounds for any n', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 32 }), fc.integer(), (n, seed) => {
      const x = new Rng(seed).int(n);
      return Number.isInteger(x) && x >= 0 && x < n;
    }));
  });

  it('restores from its state to the same continuation', () => {
    const rng = new Rng('state');
    rng.uint32();
    const copy = Rng.fromState(rng.state());
    expect(Array.from({ length: 10 }, () => copy.uint32())).toEqual(Array.from({ length: 10 }, () => rng.uint32()));
  });

  it('is roughly uniform', () => {
    const rng = new Rng('uniform');
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 100_000; i++) buckets[Math.floor(rng.float() * 10)]!++;
    for (const count of buckets) expect(Math.abs(count - 10_000)).toBeLessThan(500);
  });
});

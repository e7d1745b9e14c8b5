import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { goSortArray } from './sort.ts';

describe('goSort (Go 1.19 sort.Sort)', () => {
  it('sorts any array of values with many ties', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 300 }), (xs) => {
      const items = xs.map((v, i) => ({ v, i }));
      goSortArray(items, (a, b) => a.v < b.v);
      expect(items.map((x) => x.v)).toEqual([...xs].sort((a, b) => a - b));
      expect(new Set(items.map((x) => x.i)).size).toBe(xs.length);
    }), { seed: 7, numRuns: 300 });
  });

  it('is an insertion sort, hence stable, up to 12 elements', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 12 }), (xs) => {
      const items = xs.map((v, i) => ({ v, i }));
      goSortArray(items, (a, b) => a.v < b.v);
      expect(items).toEqual(xs.map((v, i) => ({ v, i })).sort((a, b) => a.v - b.v || a.i - b.i));
    }), { seed: 7 });
  });
});

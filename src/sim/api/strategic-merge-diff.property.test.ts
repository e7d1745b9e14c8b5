// The diff's equality of two JSON values is exactly "the same sortedJSON text" (the comparison it
// replaced), for random values and for pairs that differ in one place: a leaf, a key, a list's length,
// -0 against 0, or share subtrees.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { equal, sortedJSON } from './strategic-merge-diff.ts';

const leaf = fc.oneof(fc.constantFrom(0, -0, 1, 1.5, '', 'a', '0', 'null', true, false, null), fc.string({ maxLength: 3 }), fc.integer({ min: -3, max: 3 }));
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ maxDepth: 4, depthSize: 'small' }, leaf, tie('list'), tie('map')),
  list: fc.array(tie('value'), { maxLength: 3 }),
  map: fc.dictionary(fc.constantFrom('a', 'b', 'c', '__proto__x', 'constructor'), tie('value'), { maxKeys: 3 }),
}));

/** `v` with one random change deep inside (or none), sharing the rest. */
function mutate(v: unknown, choice: number, replacement: unknown): unknown {
  if (Array.isArray(v) && v.length > 0) {
    const i = choice % (v.length + 1);
    if (i === v.length) return choice % 2 === 0 ? [...v, replacement] : v.slice(1);
    return v.map((x, j) => (j === i ? mutate(x, Math.floor(choice / 3), replacement) : x));
  }
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const keys = Object.keys(v);
    const i = choice % (keys.length + 1);
    const o = v as Record<string, unknown>;
    if (i === keys.length) return { ...o, [`k${choice % 3}`]: replacement };
    return { ...o, [keys[i]!]: mutate(o[keys[i]!], Math.floor(choice / 3), replacement) };
  }
  return choice % 4 === 0 ? v : replacement;
}

describe('strategic merge diff: equality of JSON values', () => {
  it('is sortedJSON equality, for unrelated values and for values one change apart', () => {
    fc.assert(fc.property(value, value, fc.nat(), (a, b, choice) => {
      const near = mutate(a, choice, b);
      expect(equal(a, b)).toBe(sortedJSON(a) === sortedJSON(b));
      expect(equal(a, near)).toBe(sortedJSON(a) === sortedJSON(near));
      expect(equal(near, a)).toBe(sortedJSON(near) === sortedJSON(a));
      expect(equal(a, JSON.parse(JSON.stringify(a)))).toBe(true);
    }), { numRuns: 3_000, seed: 20 });
  });

  it('treats -0 as 0 and key order as irrelevant, and tells a list from a map', () => {
    expect(equal({ a: -0, b: [1] }, { b: [1], a: 0 })).toBe(true);
    expect(equal([], {})).toBe(false);
    expect(equal({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(equal('1', 1)).toBe(false);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IntervalIndex } from './interval-index.ts';

const key = fc.constantFrom('', 'a', 'a/', 'a/b', 'a0', 'b', 'b/c', 'c', 'z');

describe('IntervalIndex', () => {
  it('finds exactly the intervals containing a key, through inserts and deletes', () => {
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.boolean(), key.filter((k) => k !== ''), key), { maxLength: 40 }),
      fc.array(key.filter((k) => k !== ''), { maxLength: 10 }),
      (ops, probes) => {
        const index = new IntervalIndex<string>();
        const model = new Map<string, [string, string]>();
        for (const [insert, begin, end] of ops) {
          const id = `${begin}|${end}`;
          if (insert && !model.has(id)) {
            index.insert(begin, end, id);
            model.set(id, [begin, end]);
          } else if (!insert) {
            expect(index.delete(begin, end)).toBe(model.delete(id));
          }
        }
        for (const k of probes) {
          const want = [...model].filter(([, [b, e]]) => b <= k && (e === '' || k < e)).map(([id]) => id).sort();
          expect(index.stab(k).sort()).toEqual(want);
        }
      },
    ), { seed: 11, numRuns: 300 });
  });
});

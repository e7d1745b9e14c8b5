import { describe, expect, it } from 'vitest';
import type { TraceRangeEvent, TraceRecord } from '../../protocol/index.ts';
import { indexOf, itemAt, itemCount, RowCache, rowCacheLimit, sortedExpansions } from './rows.ts';

const record = (step: number): TraceRecord => ({
  step, id: step * 10, from: 'user', to: 'kube-apiserver', kind: 'http.request', payload: null, sentAt: 0, deliverAt: 0, cause: null, replyTo: null, background: false,
});

function answer(fromRow: number, steps: number[], folded: number[], extra: Partial<TraceRangeEvent> = {}): TraceRangeEvent {
  return { type: 'traceRange', id: 1, level: 'request', epoch: 1, fromRow, firstRow: 0, rows: 100, lastStep: 400, payloadsFrom: 1, records: steps.map(record), folded, ...extra };
}

describe('row cache', () => {
  it('holds rows by number, says which stretch a window lacks, and asks again for the newest row', () => {
    const cache = new RowCache('request');
    expect(cache.apply(answer(10, [31, 35, 40], [3, 4, 0]))).toBe(true);
    expect(cache.get(11)).toEqual({ record: record(35), folded: 4 });
    expect(cache.missing(10, 12)).toBeNull();
    expect(cache.missing(8, 14)).toEqual([8, 9]);
    expect(cache.missing(11, 14)).toEqual([13, 14]);
    // The same answer again changes nothing; another level's answers are not its own.
    expect(cache.apply(answer(10, [31, 35, 40], [3, 4, 0]))).toBe(false);
    expect(cache.apply(answer(10, [31], [3], { level: 'internal' }))).toBe(false);
    cache.apply(answer(97, [390, 395, 398], [4, 2, 2]));
    expect(cache.missing(97, 99)).toEqual([99, 99]);
    // Rows past the last known one are asked for: the trace grows.
    expect(cache.missing(97, 101)).toEqual([99, 101]);
    expect(new RowCache('internal').missing(4, 6)).toEqual([4, 6]);
  });

  it('drops everything on a new epoch and rows no longer retained', () => {
    const cache = new RowCache('request');
    cache.apply(answer(10, [31, 35], [3, 4]));
    cache.apply(answer(20, [60], [0], { firstRow: 15 }));
    expect(cache.get(10)).toBeUndefined();
    expect(cache.get(20)).toBeDefined();
    expect(cache.apply(answer(0, [1], [0], { epoch: 2 }))).toBe(true);
    expect(cache.get(20)).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it('forgets the rows farthest from the newest answer past its limit, but not the kept ones', () => {
    const cache = new RowCache('internal');
    const total = rowCacheLimit + 1_000;
    cache.apply({ ...answer(0, [1], [0]), level: 'internal', rows: total });
    for (let from = 1; from < total; from += 500) {
      const steps = Array.from({ length: Math.min(500, total - from) }, (_, i) => from + i + 1);
      cache.apply({ ...answer(from, steps, steps.map(() => 0)), level: 'internal', rows: total }, new Set([0]));
    }
    expect(cache.size).toBeLessThanOrEqual(rowCacheLimit);
    expect(cache.get(0)).toBeDefined();
    expect(cache.get(total - 1)).toBeDefined();
    expect(cache.get(1)).toBeUndefined();
  });
});

describe('items', () => {
  // Rows 5…14; row 7 (step 20) shows its 3 folded steps, row 10 (step 40) its 2.
  const expansions = sortedExpansions([{ row: 10, step: 40, count: 2 }, { row: 7, step: 20, count: 3 }, { row: 2, step: 5, count: 9 }], 5);

  it('puts each expanded row\'s folded steps right under it', () => {
    expect(itemCount(5, 15, expansions)).toBe(15);
    const items = Array.from({ length: 15 }, (_, i) => itemAt(i, 5, expansions));
    expect(items.map((item) => (item.type === 'row' ? `r${item.row}` : `s${item.step}`))).toEqual([
      'r5', 'r6', 'r7', 's21', 's22', 's23', 'r8', 'r9', 'r10', 's41', 's42', 'r11', 'r12', 'r13', 'r14',
    ]);
    items.forEach((item, i) => {
      if (item.type === 'row') expect(indexOf(item.row, 5, expansions)).toBe(i);
      else expect(indexOf(item.parent, 5, expansions, item.step)).toBe(i);
    });
  });
});

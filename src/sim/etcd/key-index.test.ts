import { describe, expect, it } from 'vitest';
import { KeyIndex } from './key-index.ts';
import { revisionId, revisionOf } from './revision.ts';

/** Generations as plain data: [created main, ver, [main.sub…]]. */
function shape(ki: KeyIndex): Array<[number, number, string[]]> {
  return ki.generations.map((g) => [revisionOf(g.created).main, g.ver, g.revs.map((id) => { const r = revisionOf(id); return `${r.main}.${r.sub}`; })]);
}

/** The example of the doc comment: put(1.0) put(2.0) tombstone(3.0) put(4.0) tombstone(5.0). */
function example(): KeyIndex {
  const ki = new KeyIndex('foo');
  ki.put(1, 0);
  ki.put(2, 0);
  expect(ki.tombstone(3, 0)).toBe(true);
  ki.put(4, 0);
  expect(ki.tombstone(5, 0)).toBe(true);
  return ki;
}

describe('KeyIndex generations', () => {
  it('builds the generations of the worked example', () => {
    const ki = example();
    expect(revisionOf(ki.modified)).toEqual({ main: 5, sub: 0 });
    expect(shape(ki)).toEqual([[1, 3, ['1.0', '2.0', '3.0']], [4, 2, ['4.0', '5.0']], [0, 0, []]]);
  });

  it.each([
    // atRev, expected [modified, created, version] or undefined
    [0, undefined],
    [1, [1, 1, 1]],
    [2, [2, 1, 2]],
    [3, undefined], // deleted at 3
    [4, [4, 4, 1]], // re-created: version back to 1, new create revision
    [5, undefined],
    [6, undefined],
  ] as const)('get(%i)', (atRev, want) => {
    const got = example().get(atRev);
    expect(got === undefined ? undefined : [got.modified.main, got.created.main, got.version]).toEqual(want);
    // modifiedAt names the same change, as one number (-1: none).
    expect(example().modifiedAt(atRev)).toBe(want === undefined ? -1 : revisionId(want[0], 0));
  });

  it('refuses a second tombstone while the key is deleted', () => {
    const ki = new KeyIndex('k');
    ki.put(2, 0);
    expect(ki.tombstone(3, 0)).toBe(true);
    expect(ki.tombstone(4, 0)).toBe(false);
  });

  it('refuses a put that is not after the last modification', () => {
    const ki = new KeyIndex('k');
    ki.put(5, 1);
    expect(() => ki.put(5, 0)).toThrow(/not after/);
  });

  it.each([
    // compact at, generations after, revisions kept (available)
    [1, [[1, 3, ['1.0', '2.0', '3.0']], [4, 2, ['4.0', '5.0']], [0, 0, []]], ['1.0']],
    [2, [[1, 3, ['2.0', '3.0']], [4, 2, ['4.0', '5.0']], [0, 0, []]], ['2.0']],
    [3, [[4, 2, ['4.0', '5.0']], [0, 0, []]], []],
    [4, [[4, 2, ['4.0', '5.0']], [0, 0, []]], ['4.0']],
    [5, [[0, 0, []]], []],
    [6, [[0, 0, []]], []],
  ] as const)('compact(%i) on a fresh copy', (at, generations, kept) => {
    const ki = example();
    const available = new Set<number>();
    ki.compact(at, available);
    expect(shape(ki)).toEqual(generations);
    expect([...available].sort((a, b) => a - b)).toEqual(kept.map((r) => revisionId(Number(r.split('.')[0]), 0)));
    expect(ki.isEmpty()).toBe(at >= 5);
  });

  it('compacts step by step: 2, then 4, then 5', () => {
    const ki = example();
    ki.compact(2, new Set());
    expect(shape(ki)).toEqual([[1, 3, ['2.0', '3.0']], [4, 2, ['4.0', '5.0']], [0, 0, []]]);
    ki.compact(4, new Set());
    expect(shape(ki)).toEqual([[4, 2, ['4.0', '5.0']], [0, 0, []]]);
    ki.compact(5, new Set());
    expect(ki.isEmpty()).toBe(true);
    // Reads at or above the compaction revision still see what they saw before.
    const fresh = example();
    fresh.compact(2, new Set());
    expect(fresh.get(2)?.version).toBe(2);
    expect(fresh.get(4)?.version).toBe(1);
  });

  it('keep() reports what compact() would keep without changing anything', () => {
    for (const at of [1, 2, 3, 4, 5, 6]) {
      const ki = example();
      const keep = new Set<number>();
      ki.keep(at, keep);
      expect(shape(ki)).toEqual(shape(example()));
      const available = new Set<number>();
      example().compact(at, available);
      expect([...keep]).toEqual([...available]);
    }
  });

  it('since() returns the revisions from a main revision on, oldest first', () => {
    const ki = example();
    expect(ki.since(0).map((r) => r.main)).toEqual([1, 2, 3, 4, 5]);
    expect(ki.since(3).map((r) => r.main)).toEqual([3, 4, 5]);
    expect(ki.since(6)).toEqual([]);
    const multi = new KeyIndex('m');
    multi.put(2, 0);
    multi.put(2, 3); // two changes of one txn: only the last is seen
    multi.put(3, 0);
    expect(multi.since(1).map((r) => `${r.main}.${r.sub}`)).toEqual(['2.3', '3.0']);
  });
});

import { describe, expect, it } from 'vitest';
import { TreeIndex } from './tree-index.ts';

/** The keys a range over every key finds at `rev`, with the main revision that last modified each. */
const everything = (index: TreeIndex, rev: number) => {
  const { keys, revs } = index.range('', '', rev);
  return keys.map((key, i) => `${key}@${revs[i]!.main}`);
};

// The index finds one key by its hash map and ranges by its tree: the two must name the same key indexes.
describe('TreeIndex one-key lookups and ranges agree', () => {
  it('a key compacted away and written again is found both ways, as its new history', () => {
    const index = new TreeIndex();
    index.put('/registry/pods/default/a', 2, 0);
    index.put('/registry/pods/default/b', 3, 0);
    expect(index.tombstone('/registry/pods/default/a', 4, 0)).toBe(true);
    index.compact(4);
    // Its only generation ended at the compaction: the key's index is gone.
    expect(index.keyIndex('/registry/pods/default/a')).toBeUndefined();
    expect(index.tombstone('/registry/pods/default/a', 5, 0)).toBe(false);
    index.put('/registry/pods/default/a', 5, 0);
    expect(index.get('/registry/pods/default/a', 5)?.modified.main).toBe(5);
    expect(index.get('/registry/pods/default/a', 5)?.created.main).toBe(5);
    expect(index.revisions('/registry/pods/default/a', undefined, 5).map((r) => r.main)).toEqual([5]);
    expect(everything(index, 5)).toEqual(['/registry/pods/default/a@5', '/registry/pods/default/b@3']);
    expect(index.size).toBe(2);
  });

  it('a copy answers one-key lookups from its own key indexes', () => {
    const source = new TreeIndex();
    source.put('k', 2, 0);
    const copy = new TreeIndex();
    copy.put('stale', 1, 0);
    copy.copyFrom(source);
    expect(copy.keyIndex('stale')).toBeUndefined();
    expect(copy.keyIndex('k')).not.toBe(source.keyIndex('k'));
    copy.put('k', 3, 0);
    expect(copy.get('k', 3)?.modified.main).toBe(3);
    expect(source.get('k', 3)?.modified.main).toBe(2);
    expect(everything(copy, 3)).toEqual(['k@3']);
  });
});

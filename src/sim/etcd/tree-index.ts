// The ordered index of all keys: key → KeyIndex, in byte order, so a range scan walks only the keys in
// [key, end). Models mvcc/index.go (treeIndex over google/btree); here a B+ tree from `sorted-btree`.
//
// Range ends follow mvcc: `end === undefined` selects the single key, `end === ''` every key ≥ `key`
// (the '\0' range end after etcdserver's mkGteRange), otherwise [key, end).

import BTreeImport from 'sorted-btree';
import { compareKeys } from './bytes.ts';
import { KeyIndex, type KeyIndexGet } from './key-index.ts';
import type { Revision } from './revision.ts';

// sorted-btree is CommonJS with an `exports.default`; bundlers hand over the class, Node's ESM loader
// hands over the exports object.
const BTree = ((BTreeImport as unknown as { default?: typeof BTreeImport }).default ?? BTreeImport) as typeof BTreeImport;

export class TreeIndex {
  private readonly tree = new BTree<string, KeyIndex>(undefined, compareKeys);
  /**
   * The same key indexes by key, for the lookups of one key (every Txn compare, put and single-key
   * range): a hash lookup instead of a walk down the tree comparing long keys that share their
   * `/registry/…` prefix (the tree's gets were 2 % of the 10,000-Pod rollout's CPU). The tree stays
   * the order for ranges.
   */
  private readonly byKey = new Map<string, KeyIndex>();

  /** Number of keys with history (live or deleted but not yet compacted away). */
  get size(): number {
    return this.tree.size;
  }

  keyIndex(key: string): KeyIndex | undefined {
    return this.byKey.get(key);
  }

  /** Makes this index a copy of `from`, every key's history its own. */
  copyFrom(from: TreeIndex): void {
    this.tree.clear();
    this.byKey.clear();
    from.tree.forEachPair((key, ki) => {
      const copy = ki.copy();
      this.tree.set(key, copy);
      this.byKey.set(key, copy);
    });
  }

  /** Adds the index of a key that has none yet. */
  insert(ki: KeyIndex): void {
    this.tree.set(ki.key, ki);
    this.byKey.set(ki.key, ki);
  }

  get(key: string, atRev: number): KeyIndexGet | undefined {
    return this.byKey.get(key)?.get(atRev);
  }

  put(key: string, main: number, sub: number): void {
    let ki = this.byKey.get(key);
    if (ki === undefined) {
      ki = new KeyIndex(key);
      this.tree.set(key, ki);
      this.byKey.set(key, ki);
    }
    ki.put(main, sub);
  }

  /** Records a delete; false when the key does not currently exist. */
  tombstone(key: string, main: number, sub: number): boolean {
    const ki = this.byKey.get(key);
    return ki !== undefined && ki.tombstone(main, sub);
  }

  /** Calls `f` for every key index in the range, in key order. */
  visit(key: string, end: string, f: (ki: KeyIndex) => void): void {
    if (end !== '' && compareKeys(key, end) >= 0) return;
    const high = end !== '' ? end : this.tree.maxKey();
    if (high === undefined) return;
    this.tree.forRange(key, high, end === '', (_k, ki) => f(ki));
  }

  /** The revisions of the keys in the range that exist at `atRev`, in key order. */
  revisions(key: string, end: string | undefined, atRev: number): Revision[] {
    if (end === undefined) {
      const got = this.get(key, atRev);
      return got === undefined ? [] : [got.modified];
    }
    const revs: Revision[] = [];
    this.visit(key, end, (ki) => {
      const got = ki.get(atRev);
      if (got !== undefined) revs.push(got.modified);
    });
    return revs;
  }

  /** Keys and revisions of the keys in the range that exist at `atRev`. */
  range(key: string, end: string | undefined, atRev: number): { keys: string[]; revs: Revision[] } {
    if (end === undefined) {
      const got = this.get(key, atRev);
      return got === undefined ? { keys: [], revs: [] } : { keys: [key], revs: [got.modified] };
    }
    const keys: string[] = [];
    const revs: Revision[] = [];
    this.visit(key, end, (ki) => {
      const got = ki.get(atRev);
      if (got !== undefined) {
        keys.push(ki.key);
        revs.push(got.modified);
      }
    });
    return { keys, revs };
  }

  /** All revisions in the range at or after `rev`, ordered by revision. */
  rangeSince(key: string, end: string | undefined, rev: number): Revision[] {
    if (end === undefined) {
      const ki = this.byKey.get(key);
      return ki === undefined ? [] : ki.since(rev);
    }
    const revs: Revision[] = [];
    this.visit(key, end, (ki) => revs.push(...ki.since(rev)));
    return revs.sort((a, b) => (a.main !== b.main ? a.main - b.main : a.sub - b.sub));
  }

  /** Compacts every key index at `rev`; returns the revisions to keep (as revisionIds). */
  compact(rev: number): Set<number> {
    const available = new Set<number>();
    const emptied: string[] = [];
    this.tree.forEach((ki, key) => {
      ki.compact(rev, available);
      if (ki.isEmpty()) emptied.push(key);
    });
    for (const key of emptied) {
      this.tree.delete(key);
      this.byKey.delete(key);
    }
    return available;
  }

  /** The revisions a compaction at `rev` would keep. */
  keep(rev: number): Set<number> {
    const available = new Set<number>();
    this.tree.forEach((ki) => ki.keep(rev, available));
    return available;
  }

  /** Every key index, in key order (for invariant checks and views). */
  *keyIndexes(): IterableIterator<KeyIndex> {
    for (const [, ki] of this.tree.entries()) yield ki;
  }
}

// The history of one key: its revisions grouped into generations. Models mvcc/key_index.go.
//
// A generation runs from the put that creates the key to the delete (tombstone) that ends it; a delete
// closes the current generation and opens an empty one, so a re-created key starts at version 1 with a
// new create revision. Each revision points into the backend (the stored KeyValue of that change).
//
// Worked example, key "foo": put(1.0); put(2.0); tombstone(3.0); put(4.0); tombstone(5.0)
//
//   modified: 5.0
//   generations:
//     {empty}                  <- current (the key does not exist)
//     {4.0, 5.0(t)}            ver 2, created 4.0
//     {1.0, 2.0, 3.0(t)}       ver 3, created 1.0
//
// Compaction at revision R keeps, per generation that is still visible at R, the largest revision
// ≤ R and drops the older ones; a generation left holding only its tombstone is dropped, and a key
// left with only the empty generation is removed from the index:
//
//   compact(2): {empty} {4.0, 5.0(t)} {2.0, 3.0(t)}    2.0 is what a read at 2 sees
//   compact(4): {empty} {4.0, 5.0(t)}                  3.0(t) was ≤ 4 and alone: generation dropped
//   compact(5): {empty}                                5.0(t) alone: dropped; the key is removed
//   compact(6): {empty}                                (same)
//
// `available` collects the revisions compaction keeps, so the backend can delete every other revision
// at or below R (kvstore_compaction.go).
//
// Revisions are stored as revisionIds (one number each, ordered like the revisions) to keep the index
// small: a store holds one KeyIndex per key and one revision per change.

import { mainOf, revisionId, revisionOf, type Revision } from './revision.ts';

export class Generation {
  /** Number of puts (and the closing tombstone) in this generation. */
  ver = 0;
  /** revisionId of the put that created the generation (0 while empty). */
  created = 0;
  /** revisionIds, oldest first. */
  revs: number[] = [];

  isEmpty(): boolean {
    return this.revs.length === 0;
  }
}

/** What a key looked like at a revision. */
export interface KeyIndexGet {
  readonly modified: Revision;
  readonly created: Revision;
  readonly version: number;
}

export class KeyIndex {
  /** revisionId of the last change. */
  modified = 0;
  generations: Generation[] = [];

  constructor(readonly key: string) {}

  /** A copy that shares nothing mutable with this index (a member restoring a snapshot). */
  copy(): KeyIndex {
    const ki = new KeyIndex(this.key);
    ki.modified = this.modified;
    ki.generations = this.generations.map((g) => {
      const c = new Generation();
      c.ver = g.ver;
      c.created = g.created;
      c.revs = g.revs.slice();
      return c;
    });
    return ki;
  }

  /** The current generation (empty when the key does not exist now). */
  current(): Generation | undefined {
    return this.generations[this.generations.length - 1];
  }

  /** Records a put at main.sub. */
  put(main: number, sub: number): void {
    const rev = revisionId(main, sub);
    if (rev <= this.modified) {
      const m = revisionOf(this.modified);
      throw new Error(`keyIndex ${JSON.stringify(this.key)}: put at ${main}.${sub} is not after ${m.main}.${m.sub}`);
    }
    let g = this.generations[this.generations.length - 1];
    if (g === undefined) {
      g = new Generation();
      // Array literals get exact-size backing stores; `push` onto [] would reserve room for 17.
      this.generations = [g];
    }
    if (g.revs.length === 0) {
      g.created = rev;
      g.revs = [rev];
    } else g.revs.push(rev);
    g.ver++;
    this.modified = rev;
  }

  /** Records a delete at main.sub. Returns false when the key does not currently exist. */
  tombstone(main: number, sub: number): boolean {
    if (this.isEmpty()) throw new Error(`keyIndex ${JSON.stringify(this.key)}: tombstone on an empty key index`);
    if (this.generations[this.generations.length - 1]!.isEmpty()) return false;
    this.put(main, sub);
    this.generations.push(new Generation());
    return true;
  }

  /** The key at revision `atRev`, or undefined when it did not exist then. */
  get(atRev: number): KeyIndexGet | undefined {
    const g = this.findGeneration(atRev);
    if (g === undefined || g.isEmpty()) return undefined;
    const revs = g.revs;
    for (let n = revs.length - 1; n >= 0; n--) {
      const rev = revs[n]!;
      if (mainOf(rev) <= atRev) return { modified: revisionOf(rev), created: revisionOf(g.created), version: g.ver - (revs.length - n - 1) };
    }
    return undefined;
  }

  /**
   * The revisionId of the key's change in place at revision `atRev`, or -1 when it did not exist then: `get`'s
   * `modified` without the objects (a seek reads this for every key).
   */
  modifiedAt(atRev: number): number {
    const g = this.findGeneration(atRev);
    if (g === undefined) return -1;
    const revs = g.revs;
    for (let n = revs.length - 1; n >= 0; n--) if (mainOf(revs[n]!) <= atRev) return revs[n]!;
    return -1;
  }

  /**
   * Revisions at or after main revision `rev`, oldest first; of several changes with the same main
   * revision only the last is returned.
   */
  since(rev: number): Revision[] {
    if (this.isEmpty()) throw new Error(`keyIndex ${JSON.stringify(this.key)}: since on an empty key index`);
    const since = revisionId(rev, 0);
    let gi = this.generations.length - 1;
    for (; gi > 0; gi--) {
      const g = this.generations[gi]!;
      if (g.isEmpty()) continue;
      if (since > g.created) break;
    }
    const revs: Revision[] = [];
    let last = 0;
    for (; gi < this.generations.length; gi++) {
      for (const r of this.generations[gi]!.revs) {
        if (since > r) continue;
        const main = mainOf(r);
        if (main === last) {
          revs[revs.length - 1] = revisionOf(r);
          continue;
        }
        revs.push(revisionOf(r));
        last = main;
      }
    }
    return revs;
  }

  /** Drops the history that a compaction at `atRev` makes unreachable; see the header. */
  compact(atRev: number, available: Set<number>): void {
    if (this.isEmpty()) throw new Error(`keyIndex ${JSON.stringify(this.key)}: compact on an empty key index`);
    const [firstGen, revIndex] = this.doCompact(atRev, available);
    let genIdx = firstGen;
    const g = this.generations[genIdx]!;
    if (!g.isEmpty()) {
      if (revIndex !== -1) g.revs = g.revs.slice(revIndex);
      if (g.revs.length === 1 && genIdx !== this.generations.length - 1) {
        available.delete(g.revs[0]!);
        genIdx++;
      }
    }
    this.generations = this.generations.slice(genIdx);
  }

  /** Adds to `available` the revisions a compaction at `atRev` would keep, changing nothing. */
  keep(atRev: number, available: Set<number>): void {
    if (this.isEmpty()) return;
    const [genIdx, revIndex] = this.doCompact(atRev, available);
    const g = this.generations[genIdx]!;
    if (!g.isEmpty() && revIndex === g.revs.length - 1 && genIdx !== this.generations.length - 1) {
      available.delete(g.revs[revIndex]!);
    }
  }

  isEmpty(): boolean {
    return this.generations.length === 1 && this.generations[0]!.isEmpty();
  }

  /** Finds the largest revision ≤ atRev in the first generation that may hold it; -1 when none. */
  private doCompact(atRev: number, available: Set<number>): [number, number] {
    let genIdx = 0;
    let g = this.generations[0]!;
    // The first generation that contains atRev or was created after it.
    while (genIdx < this.generations.length - 1) {
      if (mainOf(g.revs[g.revs.length - 1]!) > atRev) break;
      genIdx++;
      g = this.generations[genIdx]!;
    }
    for (let i = g.revs.length - 1; i >= 0; i--) {
      if (mainOf(g.revs[i]!) <= atRev) {
        available.add(g.revs[i]!);
        return [genIdx, i];
      }
    }
    return [genIdx, -1];
  }

  /** The generation `rev` falls in; undefined when the key did not exist at `rev`. */
  private findGeneration(rev: number): Generation | undefined {
    const lastg = this.generations.length - 1;
    for (let cg = lastg; cg >= 0; cg--) {
      const g = this.generations[cg]!;
      if (g.revs.length === 0) continue;
      if (cg !== lastg && mainOf(g.revs[g.revs.length - 1]!) <= rev) return undefined;
      if (mainOf(g.revs[0]!) <= rev) return g;
    }
    return undefined;
  }
}

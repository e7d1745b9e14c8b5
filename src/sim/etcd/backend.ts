// The backend's key bucket: every stored change, addressed by revision. In etcd this is bbolt with keys
// `main_sub[_t]` and marshalled KeyValues as values; here each main revision's change (or its list of
// changes, by sub-revision) sits in an array for the revisions since the last compaction and in a map for
// what compaction kept. A tombstone is stored as a KeyValue with createRevision 0 (the `t`
// mark in etcd's key). Models the key bucket use in mvcc/kvstore_txn.go, kvstore_compaction.go and
// watchable_store.go (syncWatchers reads the bucket by revision range).

import type { KeyValue } from './kv.ts';
import { revisionId, type Revision } from './revision.ts';

type Slot = KeyValue | Array<KeyValue | undefined> | undefined;

/** Keeps the changes of one main revision that `keep` names; undefined when none is left. Counts what it drops in `dropped.n`. */
function compactSlot(main: number, slot: Slot, keep: ReadonlySet<number>, dropped: { n: number }): Slot {
  if (slot === undefined) return undefined;
  if (!Array.isArray(slot)) {
    if (keep.has(revisionId(main, 0))) return slot;
    dropped.n++;
    return undefined;
  }
  let live = 0;
  for (let sub = 0; sub < slot.length; sub++) {
    if (slot[sub] === undefined) continue;
    if (keep.has(revisionId(main, sub))) live++;
    else {
      slot[sub] = undefined;
      dropped.n++;
    }
  }
  return live === 0 ? undefined : slot;
}

export class Backend {
  /**
   * What compaction left at or below the last compacted revision (each live key's newest change, and
   * what the key index still needs), by main revision in increasing order: bounded by the keyspace,
   * not by the number of revisions ever written.
   */
  private readonly kept = new Map<number, Slot>();
  /** The changes of main revisions `base`, `base + 1`, …: indexed by main revision minus `base`. */
  private tail: Slot[] = [];
  /** The first main revision the tail holds (one past the last compaction). */
  private base = 0;

  /** Stores one change (a put, or a tombstone with createRevision 0), at a revision past the last compaction. */
  put(main: number, sub: number, kv: KeyValue): void {
    if (main < this.base) throw new Error(`backend: revision ${main} is at or below the compacted revision ${this.base - 1}`);
    const at = main - this.base;
    if (sub === 0) {
      this.tail[at] = kv;
      return;
    }
    const slot = this.tail[at];
    if (Array.isArray(slot)) slot[sub] = kv;
    else {
      const changes: Array<KeyValue | undefined> = [slot];
      changes[sub] = kv;
      this.tail[at] = changes;
    }
  }

  private slot(main: number): Slot {
    return main >= this.base ? this.tail[main - this.base] : this.kept.get(main);
  }

  get(rev: Revision): KeyValue {
    const slot = this.slot(rev.main);
    const kv = Array.isArray(slot) ? slot[rev.sub] : rev.sub === 0 ? slot : undefined;
    if (kv === undefined) throw new Error(`backend: no key-value at revision ${rev.main}.${rev.sub}`);
    return kv;
  }

  /** Visits stored changes with main revision in [minMain, maxMain), in revision order. */
  rangeRevisions(minMain: number, maxMain: number, f: (kv: KeyValue, rev: Revision) => void): void {
    const visit = (main: number, slot: Slot): void => {
      if (slot === undefined) return;
      if (!Array.isArray(slot)) {
        f(slot, { main, sub: 0 });
        return;
      }
      for (let sub = 0; sub < slot.length; sub++) {
        const kv = slot[sub];
        if (kv !== undefined) f(kv, { main, sub });
      }
    };
    const keptEnd = Math.min(maxMain, this.base);
    // The kept part: looked up revision by revision when the range is narrower than what is kept.
    if (minMain < keptEnd && keptEnd - minMain <= this.kept.size) {
      for (let main = minMain; main < keptEnd; main++) visit(main, this.kept.get(main));
    } else if (minMain < keptEnd) {
      for (const [main, slot] of this.kept) {
        if (main >= keptEnd) break;
        if (main >= minMain) visit(main, slot);
      }
    }
    const end = Math.min(maxMain, this.base + this.tail.length);
    for (let main = Math.max(minMain, this.base); main < end; main++) visit(main, this.tail[main - this.base]);
  }

  /** Deletes every change at or below `compactRev` that is not in `keep`. Returns the number deleted. */
  compact(compactRev: number, keep: ReadonlySet<number>): number {
    const dropped = { n: 0 };
    for (const [main, slot] of this.kept) {
      if (main > compactRev) break;
      if (compactSlot(main, slot, keep, dropped) === undefined) this.kept.delete(main);
    }
    const end = Math.min(compactRev + 1, this.base + this.tail.length);
    if (end <= this.base) return dropped.n;
    for (let main = this.base; main < end; main++) {
      const slot = compactSlot(main, this.tail[main - this.base], keep, dropped);
      if (slot !== undefined) this.kept.set(main, slot);
    }
    this.tail = this.tail.slice(end - this.base);
    this.base = end;
    return dropped.n;
  }

  /** Number of stored changes (for tests and views). */
  get size(): number {
    let n = 0;
    this.rangeRevisions(0, Number.MAX_SAFE_INTEGER, () => n++);
    return n;
  }
}

// The backend's key bucket: every stored change, addressed by revision. In etcd this is bbolt with keys
// `main_sub[_t]` and marshalled KeyValues as values; here an array indexed by main revision holds each
// revision's change (or its list of changes, by sub-revision). A tombstone is stored as a KeyValue with createRevision 0 (the `t`
// mark in etcd's key). Models the key bucket use in mvcc/kvstore_txn.go, kvstore_compaction.go and
// watchable_store.go (syncWatchers reads the bucket by revision range).

import type { KeyValue } from './kv.ts';
import { revisionId, type Revision } from './revision.ts';

type Slot = KeyValue | Array<KeyValue | undefined> | undefined;

export class Backend {
  /**
   * Indexed by main revision: the single change of that revision, or its changes by sub-revision.
   * Compaction leaves holes.
   */
  private readonly revs: Slot[] = [];
  /** No revision below this holds anything. */
  private low = 0;

  /** Stores one change (a put, or a tombstone with createRevision 0). */
  put(main: number, sub: number, kv: KeyValue): void {
    if (sub === 0) {
      this.revs[main] = kv;
      return;
    }
    const slot = this.revs[main];
    if (Array.isArray(slot)) slot[sub] = kv;
    else {
      const changes: Array<KeyValue | undefined> = [slot];
      changes[sub] = kv;
      this.revs[main] = changes;
    }
  }

  get(rev: Revision): KeyValue {
    const slot = this.revs[rev.main];
    const kv = Array.isArray(slot) ? slot[rev.sub] : rev.sub === 0 ? slot : undefined;
    if (kv === undefined) throw new Error(`backend: no key-value at revision ${rev.main}.${rev.sub}`);
    return kv;
  }

  /** Visits stored changes with main revision in [minMain, maxMain), in revision order. */
  rangeRevisions(minMain: number, maxMain: number, f: (kv: KeyValue, rev: Revision) => void): void {
    const end = Math.min(maxMain, this.revs.length);
    for (let main = Math.max(minMain, this.low); main < end; main++) {
      const slot = this.revs[main];
      if (slot === undefined) continue;
      if (!Array.isArray(slot)) {
        f(slot, { main, sub: 0 });
        continue;
      }
      for (let sub = 0; sub < slot.length; sub++) {
        const kv = slot[sub];
        if (kv !== undefined) f(kv, { main, sub });
      }
    }
  }

  /** Deletes every change at or below `compactRev` that is not in `keep`. Returns the number deleted. */
  compact(compactRev: number, keep: ReadonlySet<number>): number {
    let deleted = 0;
    let lowest = -1;
    const end = Math.min(compactRev + 1, this.revs.length);
    for (let main = this.low; main < end; main++) {
      const slot = this.revs[main];
      if (slot === undefined) continue;
      if (!Array.isArray(slot)) {
        if (keep.has(revisionId(main, 0))) {
          if (lowest < 0) lowest = main;
        } else {
          this.revs[main] = undefined;
          deleted++;
        }
        continue;
      }
      let live = 0;
      for (let sub = 0; sub < slot.length; sub++) {
        if (slot[sub] === undefined) continue;
        if (keep.has(revisionId(main, sub))) live++;
        else {
          slot[sub] = undefined;
          deleted++;
        }
      }
      if (live === 0) this.revs[main] = undefined;
      else if (lowest < 0) lowest = main;
    }
    this.low = lowest >= 0 ? lowest : Math.max(this.low, end);
    return deleted;
  }

  /** Number of stored changes (for tests and views). */
  get size(): number {
    let n = 0;
    for (let main = this.low; main < this.revs.length; main++) {
      const slot = this.revs[main];
      if (slot === undefined) continue;
      if (!Array.isArray(slot)) n++;
      else for (const kv of slot) if (kv !== undefined) n++;
    }
    return n;
  }
}

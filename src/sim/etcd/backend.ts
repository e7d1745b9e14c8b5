// The backend's key bucket: every stored change, addressed by revision. In etcd this is bbolt with keys
// `main_sub[_t]` and marshalled KeyValues as values; here each main revision maps to the list of its
// changes, indexed by sub-revision. A tombstone is stored as a KeyValue with createRevision 0 (the `t`
// mark in etcd's key). Models the key bucket use in mvcc/kvstore_txn.go, kvstore_compaction.go and
// watchable_store.go (syncWatchers reads the bucket by revision range).

import type { KeyValue } from './kv.ts';
import { revisionId, type Revision } from './revision.ts';

export class Backend {
  /** main revision → its changes by sub-revision; compaction leaves holes. */
  private readonly revs = new Map<number, Array<KeyValue | undefined>>();

  /** Stores one change (a put, or a tombstone with createRevision 0). */
  put(main: number, sub: number, kv: KeyValue): void {
    let changes = this.revs.get(main);
    if (changes === undefined) {
      changes = [];
      this.revs.set(main, changes);
    }
    changes[sub] = kv;
  }

  get(rev: Revision): KeyValue {
    const kv = this.revs.get(rev.main)?.[rev.sub];
    if (kv === undefined) throw new Error(`backend: no key-value at revision ${rev.main}.${rev.sub}`);
    return kv;
  }

  /** Visits stored changes with main revision in [minMain, maxMain), in revision order. */
  rangeRevisions(minMain: number, maxMain: number, f: (kv: KeyValue, rev: Revision) => void): void {
    for (let main = Math.max(minMain, 1); main < maxMain; main++) {
      const changes = this.revs.get(main);
      if (changes === undefined) continue;
      for (let sub = 0; sub < changes.length; sub++) {
        const kv = changes[sub];
        if (kv !== undefined) f(kv, { main, sub });
      }
    }
  }

  /** Deletes every change at or below `compactRev` that is not in `keep`. Returns the number deleted. */
  compact(compactRev: number, keep: ReadonlySet<number>): number {
    let deleted = 0;
    // Map iteration follows insertion order, which is increasing main revision.
    for (const [main, changes] of this.revs) {
      if (main > compactRev) break;
      let live = 0;
      for (let sub = 0; sub < changes.length; sub++) {
        if (changes[sub] === undefined) continue;
        if (keep.has(revisionId(main, sub))) live++;
        else {
          changes[sub] = undefined;
          deleted++;
        }
      }
      if (live === 0) this.revs.delete(main);
    }
    return deleted;
  }

  /** Number of stored changes (for tests and views). */
  get size(): number {
    let n = 0;
    for (const changes of this.revs.values()) for (const kv of changes) if (kv !== undefined) n++;
    return n;
  }
}

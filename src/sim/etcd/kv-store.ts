// The MVCC key-value store: the revision counter, the key index, the backend, and compaction; reads and
// writes go through transactions (kv-store-txn.ts). Models mvcc/kvstore.go.
//
// Revisions: an empty store is at revision 1 (`currentRev`); a write transaction that records at least
// one change commits them all at `currentRev + 1` (sub-revisions 0, 1, … in change order) and then
// increments `currentRev`. Nothing else changes the revision: reads, failed compares, deletes that match
// nothing, lease grants and compactions leave it alone.

import { Backend } from './backend.ts';
import { EtcdError, ErrGRPCCompacted, ErrGRPCFutureRev } from './errors.ts';
import { StoreTxnRead, StoreTxnWrite } from './kv-store-txn.ts';
import { isTombstone, type KeyValue, type StoredMeta } from './kv.ts';
import { Lessor } from './lease.ts';
import { revisionOf } from './revision.ts';
import { TreeIndex } from './tree-index.ts';
import type { KeyIndex } from './key-index.ts';

export class KVStore {
  /** The revision of the last committed write (1 for an empty store). */
  currentRev = 1;
  /** The last compaction revision; -1 before the first compaction. */
  compactMainRev = -1;
  readonly index = new TreeIndex();
  readonly backend = new Backend();

  constructor(readonly lessor: Lessor = new Lessor()) {
    lessor.setRangeDeleter(() => this.write());
  }

  rev(): number {
    return this.currentRev;
  }

  read(): StoreTxnRead {
    return new StoreTxnRead(this, this.compactMainRev, this.currentRev);
  }

  write(): StoreTxnWrite {
    return new StoreTxnWrite(this, this.currentRev);
  }

  /**
   * Compacts history at `rev`: reads below it fail from now on. Throws `compacted` when `rev` is not
   * above the previous compaction and `future` when it is above the current revision.
   * etcd compacts the index and the backend asynchronously; here both happen at once.
   */
  compact(rev: number): void {
    if (rev <= this.compactMainRev) throw new EtcdError(ErrGRPCCompacted);
    if (rev > this.currentRev) throw new EtcdError(ErrGRPCFutureRev);
    this.compactMainRev = rev;
    const keep = this.index.compact(rev);
    this.backend.compact(rev, keep);
  }

  /**
   * The keys in [key, end) (`end` '': every key from `key` on; undefined: the one key) as they were at `rev`, without their values,
   * which are not rebuilt: for views that list keys (no etcd request does this). Throws as a Range does
   * at a compacted or future revision. Given one at a time, in key order, with no array of them: a view of
   * every key (a long seek's, 170,000 at 30,000 Pods) keeps only what it builds from each.
   */
  forEachMeta(key: string, end: string | undefined, rev: number, f: (meta: StoredMeta) => void): void {
    if (rev > this.currentRev) throw new EtcdError(ErrGRPCFutureRev);
    if (rev < this.compactMainRev) throw new EtcdError(ErrGRPCCompacted);
    visitMetas(this, key, end, rev, f);
  }

  /**
   * Replaces this store's state by a copy of `from`'s: etcd's KV Restore, when a member loads the
   * database a raft snapshot brought. The copy shares no mutable part with `from`.
   */
  restore(from: KVStore): void {
    this.currentRev = from.currentRev;
    this.compactMainRev = from.compactMainRev;
    this.index.copyFrom(from.index);
    this.backend.copyFrom(from.backend);
  }

  /** Called by a write transaction that recorded changes, before the revision moves to `rev`. */
  commit(rev: number, changes: readonly KeyValue[]): void {
    this.currentRev = rev;
    this.notify(rev, changes);
  }

  /**
   * Checks that the index and the backend agree: every indexed revision is stored, under its key, no
   * later than the current revision, and every closed generation ends in a tombstone. Returns the first
   * problem found (for engine invariants in tests), or undefined.
   */
  verify(): string | undefined {
    for (const ki of this.index.keyIndexes()) {
      for (let gi = 0; gi < ki.generations.length; gi++) {
        const g = ki.generations[gi]!;
        for (let ri = 0; ri < g.revs.length; ri++) {
          const rev = revisionOf(g.revs[ri]!);
          if (rev.main > this.currentRev) return `key ${JSON.stringify(ki.key)}: revision ${rev.main} is after the current revision ${this.currentRev}`;
          let kv: KeyValue;
          try {
            kv = this.backend.get(rev);
          } catch {
            return `key ${JSON.stringify(ki.key)}: revision ${rev.main}.${rev.sub} is indexed but not stored`;
          }
          if (kv.key !== ki.key) return `revision ${rev.main}.${rev.sub} stores key ${JSON.stringify(kv.key)}, indexed as ${JSON.stringify(ki.key)}`;
          const closing = gi < ki.generations.length - 1 && ri === g.revs.length - 1;
          if (closing !== isTombstone(kv)) return `key ${JSON.stringify(ki.key)}: revision ${rev.main}.${rev.sub} ${closing ? 'closes a generation but is no tombstone' : 'is a tombstone inside a generation'}`;
        }
      }
    }
    return undefined;
  }

  /** Hook for the watchable store: the changes committed at `rev`. */
  protected notify(_rev: number, _changes: readonly KeyValue[]): void {}
}
/**
 * Calls `f` with the meta of each key in [key, end) (undefined `end`: the one key) as it was at `rev`, in key
 * order, its value not rebuilt; no revision checks (the caller's: a write transaction reads one past the
 * store's revision).
 */
export function visitMetas(s: Pick<KVStore, 'index' | 'backend'>, key: string, end: string | undefined, rev: number, f: (meta: StoredMeta) => void): void {
  const visit = (ki: KeyIndex) => {
    const modified = ki.modifiedAt(rev);
    if (modified >= 0) f(s.backend.metaById(modified));
  };
  if (end === undefined) {
    const ki = s.index.keyIndex(key);
    if (ki !== undefined) visit(ki);
  } else s.index.visit(key, end, visit);
}


// Read and write transactions over the store. Models mvcc/kvstore_txn.go (storeTxnRead, storeTxnWrite).
//
// A write transaction sees its own changes: once it has recorded one, its reads are at beginRev + 1.
// Its puts and deletes go to the index and the backend at once (revision beginRev+1, sub-revision =
// position among the changes); `end()` commits the revision if anything changed.

import { EtcdError, ErrGRPCCompacted, ErrGRPCFutureRev } from './errors.ts';
import { noLease, tombstone, type KeyValue, type LeaseID, type StoredMeta } from './kv.ts';
import { KeyIndex } from './key-index.ts';
import { visitMetas, type KVStore } from './kv-store.ts';
import { mainOf, revisionId } from './revision.ts';

export interface RangeOptions {
  /** At most this many kvs (0: all). `count` still counts every key. */
  readonly limit?: number;
  /** Read at this revision (≤ 0: the transaction's revision). */
  readonly rev?: number;
  /** Count only; no kvs. */
  readonly count?: boolean;
}

export interface RangeResult {
  readonly kvs: KeyValue[];
  /** The store revision the read ran against (the current one, not the requested one). */
  readonly rev: number;
  readonly count: number;
}

export class StoreTxnRead {
  constructor(
    protected readonly s: KVStore,
    /** The compaction revision when the transaction began. */
    readonly firstRev: number,
    protected readonly curRev: number,
  ) {}

  rev(): number {
    return this.curRev;
  }

  range(key: string, end: string | undefined, ro: RangeOptions): RangeResult {
    return this.rangeKeys(key, end, this.rev(), ro);
  }

  /** The key at the transaction's revision, if it exists (a one-key range without options). */
  get(key: string): KeyValue | undefined {
    return this.getAt(key, this.readRev());
  }

  /**
   * The keys in the range (one key when `end` is undefined) at the revision `get` reads, without their values:
   * what a compare on anything but the value reads, so no value etcd keeps packed is rebuilt for it.
   */
  metas(key: string, end: string | undefined): StoredMeta[] {
    const rev = this.readRev();
    if (rev < this.s.compactMainRev) throw new EtcdError(ErrGRPCCompacted);
    const metas: StoredMeta[] = [];
    visitMetas(this.s, key, end, rev, (meta) => metas.push(meta));
    return metas;
  }

  end(): void {}

  /** The revision this transaction's reads see. */
  protected readRev(): number {
    return this.curRev;
  }

  protected getAt(key: string, rev: number): KeyValue | undefined {
    if (rev < this.s.compactMainRev) throw new EtcdError(ErrGRPCCompacted);
    const got = this.s.index.keyIndex(key)?.get(rev);
    return got === undefined ? undefined : this.s.backend.get(got.modified);
  }

  protected rangeKeys(key: string, end: string | undefined, curRev: number, ro: RangeOptions): RangeResult {
    let rev = ro.rev ?? 0;
    if (rev > curRev) throw new EtcdError(ErrGRPCFutureRev);
    if (rev <= 0) rev = curRev;
    if (rev < this.s.compactMainRev) throw new EtcdError(ErrGRPCCompacted);
    const revpairs = this.s.index.revisions(key, end, rev);
    if (revpairs.length === 0) return { kvs: [], count: 0, rev: curRev };
    if (ro.count) return { kvs: [], count: revpairs.length, rev: curRev };
    let limit = ro.limit ?? 0;
    if (limit <= 0 || limit > revpairs.length) limit = revpairs.length;
    const kvs = new Array<KeyValue>(limit);
    const backend = this.s.backend;
    for (let i = 0; i < limit; i++) kvs[i] = backend.get(revpairs[i]!);
    return { kvs, count: revpairs.length, rev: curRev };
  }
}

export class StoreTxnWrite extends StoreTxnRead {
  /** The changes recorded so far, in order (tombstones have createRevision 0). */
  readonly changes: KeyValue[] = [];

  constructor(s: KVStore, readonly beginRev: number) {
    super(s, 0, beginRev);
  }

  override range(key: string, end: string | undefined, ro: RangeOptions): RangeResult {
    return this.rangeKeys(key, end, this.readRev(), ro);
  }

  protected override readRev(): number {
    return this.changes.length > 0 ? this.beginRev + 1 : this.beginRev;
  }

  /** Puts a key; returns the revision it is written at. */
  put(key: string, value: string, lease: LeaseID): number {
    const s = this.s;
    const rev = this.beginRev + 1;
    let created = rev;
    let version = 1;
    let oldLease = noLease;
    let prev: number | undefined;
    let older: number | undefined;
    // Writes are at the newest revision, so "the key at rev" is the key's current generation.
    let ki = s.index.keyIndex(key);
    if (ki === undefined) {
      ki = new KeyIndex(key);
      s.index.insert(ki);
    } else {
      const g = ki.current()!;
      if (g.revs.length > 0) {
        created = mainOf(g.created);
        version = g.ver + 1;
        oldLease = s.lessor.getLease(key);
        prev = g.revs[g.revs.length - 1];
        older = g.revs[g.revs.length - 2];
      }
    }
    const sub = this.changes.length;
    // Every revision of a key holds the key index's string: one copy per key, not one per write.
    const kv: KeyValue = { key: ki.key, createRevision: created, modRevision: rev, version, value, lease };
    s.backend.put(rev, sub, kv);
    ki.put(rev, sub);
    if (prev !== undefined) s.backend.supersede(prev, revisionId(rev, sub), older);
    s.backend.written(revisionId(rev, sub));
    this.changes.push(kv);
    if (oldLease !== noLease) s.lessor.detach(oldLease, ki.key);
    if (lease !== noLease) s.lessor.attach(lease, ki.key);
    return rev;
  }

  /** Deletes the keys in the range; returns [number deleted, revision of the response]. */
  deleteRange(key: string, end: string | undefined): [number, number] {
    const rrev = this.changes.length > 0 ? this.beginRev + 1 : this.beginRev;
    const { keys } = this.s.index.range(key, end, rrev);
    for (const k of keys) this.delete(k);
    const n = keys.length;
    return n !== 0 || this.changes.length > 0 ? [n, this.beginRev + 1] : [0, this.beginRev];
  }

  /** Commits: the changes become revision beginRev + 1. A transaction without changes commits nothing. */
  override end(): void {
    if (this.changes.length !== 0) this.s.commit(this.beginRev + 1, this.changes);
  }

  private delete(key: string): void {
    const s = this.s;
    const rev = this.beginRev + 1;
    const sub = this.changes.length;
    const kv = tombstone(key, rev);
    s.backend.put(rev, sub, kv);
    if (!s.index.tombstone(key, rev, sub)) throw new Error(`delete of ${JSON.stringify(key)}: no live key to tombstone`);
    this.changes.push(kv);
    const lease = s.lessor.getLease(key);
    if (lease !== noLease) s.lessor.detach(lease, key);
  }
}

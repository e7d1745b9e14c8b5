// The backend's key bucket: every stored change, addressed by revision. In etcd this is bbolt with keys
// `main_sub[_t]` and marshalled KeyValues as values; here each main revision's change (or its list of
// changes, by sub-revision) sits in an array for the revisions since the last compaction and in a map for
// what compaction kept. A tombstone is stored as a KeyValue with createRevision 0 (the `t`
// mark in etcd's key). Models the key bucket use in mvcc/kvstore_txn.go, kvstore_compaction.go and
// watchable_store.go (syncWatchers reads the bucket by revision range).
//
// Not modelled byte for byte: how a superseded revision is held. bbolt keeps every revision's value whole
// until compaction, on disk; this process keeps them in its heap, where the history of a rollout (every
// Pod's create, binding and status patches, each 2 KB, all kept for the 5 minutes before the apiserver
// compacts) was the largest part of a Pod's memory. So once a key is written again, its previous value
// is kept as a Fossil delta (fossil-delta: copy and insert instructions) against the key's next
// revision, about a tenth of its size, and rebuilt exactly whenever it is read: `get`, `rangeRevisions`
// and compaction see the same records as before. A delta's chain of later revisions is at most
// `maxDeltaRun` long: after that many deltas in a row, a value is kept whole.
//
// A value its key has not replaced `supersedeLag` puts later (an Event, written once with its one-hour
// TTL; a Pod once it runs) is kept as a delta against a recent value of its key's parent
// (`/registry/events/<namespace>/`, `/registry/pods/<namespace>/`) when that is less than a third of it:
// Events of one reason, or the Pods of one ReplicaSet, differ in little but names, uids, addresses and
// times (an Event's 599 bytes become ~200, a Pod's 2 KB ~300). The base is the other value itself, held
// by reference, so it lives as long as a delta needs it, whatever compaction or deletes do to its own
// key. (kube-apiserver's watch cache also holds a current value, through its decoded object's encoding,
// until that object has not changed for a while: watch-cache.ts.)

import { createDelta } from 'fossil-delta';
import { bytesToByteString, byteStringToBytes } from './bytes.ts';
import { applyFossilDelta } from './delta-apply.ts';
import type { KeyValue, StoredMeta } from './kv.ts';
import { isPacked, SharedBaseKv, SupersededKv, valueSize, type Packed } from './packed-kv.ts';
import { mainOf, revisionId, revisionOf, type Revision } from './revision.ts';

/** Deltas in a row before a superseded value is kept whole: a read rebuilds through at most this many. */
export const maxDeltaRun = 16;

/** Rebuilt values kept for the next reads. */
const recentRebuilt = 16;

/** Bases kept per key parent and value length (in 32 bytes): the most recently used first. */
const basesPerParent = 2;

interface Base {
  readonly value: string;
  readonly bytes: Uint8Array;
}

type Stored = KeyValue | Packed;
type Slot = Stored | Array<Stored | undefined> | undefined;

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
  /**
   * How many supersessions a superseded value stays whole before it becomes a delta. The newest history
   * is what is read most: a watch with prev_kv reads the previous revision of every change it delivers
   * (kube-apiserver's watches all ask for it), and the trace's summaries look up what they refer to
   * 10,000 steps later (a few hundred writes); 2,048 writes (~4 MB of Pod values) are past both.
   */
  supersedeLag = 2048;
  /** The supersessions not yet made deltas, oldest first from `pendingHead`: (prev, next, older or -1) triples. */
  private pending: number[] = [];
  private pendingHead = 0;
  /** The values rebuilt last, by record; emptied by compaction. */
  private readonly recent = new Map<Packed, Uint8Array>();
  /** Puts not yet kept against a base, oldest first from `freshHead`: revisionIds. */
  private fresh: number[] = [];
  private freshHead = 0;
  /** The puts a pending supersession will make deltas against their next revision: not kept against a base. */
  private readonly superseded = new Set<number>();
  /** Recent values deltas are made against, by key parent and value length (see the header). */
  private readonly bases = new Map<string, Base[]>();

  /** Stores one change (a put, or a tombstone with createRevision 0), at a revision past the last compaction. */
  put(main: number, sub: number, kv: KeyValue): void {
    if (main < this.base) throw new Error(`backend: revision ${main} is at or below the compacted revision ${this.base - 1}`);
    const at = main - this.base;
    const slot = this.tail[at];
    if (sub === 0) this.tail[at] = kv;
    else if (Array.isArray(slot)) slot[sub] = kv;
    else {
      const changes: Array<Stored | undefined> = [slot];
      changes[sub] = kv;
      this.tail[at] = changes;
    }
  }

  private slot(main: number): Slot {
    return main >= this.base ? this.tail[main - this.base] : this.kept.get(main);
  }

  /** The record stored at main.sub as it is held (whole or as a delta), if any. */
  private stored(main: number, sub: number): Stored | undefined {
    const slot = this.slot(main);
    return Array.isArray(slot) ? slot[sub] : sub === 0 ? slot : undefined;
  }

  get(rev: Revision): KeyValue {
    const kv = this.stored(rev.main, rev.sub);
    if (kv === undefined) throw new Error(`backend: no key-value at revision ${rev.main}.${rev.sub}`);
    return isPacked(kv) ? this.rebuilt(kv) : kv;
  }

  /**
   * The change with revisionId `id` without its value, which is not rebuilt (a packed value's size is its
   * delta's target size).
   */
  metaById(id: number): StoredMeta {
    const main = mainOf(id);
    const sub = id - revisionId(main, 0);
    const kv = this.stored(main, sub);
    if (kv === undefined) throw new Error(`backend: no key-value at revision ${main}.${sub}`);
    const size = valueSize(kv);
    return { key: kv.key, createRevision: kv.createRevision, modRevision: kv.modRevision, version: kv.version, lease: kv.lease, size };
  }

  /**
   * Called once a put at `rev` is stored and, when it replaced its key's previous value, `supersede`
   * was called: the put `supersedeLag` puts older is kept against a base unless its key replaced it.
   */
  written(rev: number): void {
    this.fresh.push(rev);
    while (this.fresh.length - this.freshHead > this.supersedeLag) {
      const id = this.fresh[this.freshHead++]!;
      if (!this.superseded.has(id)) this.toSharedBase(id);
    }
    if (this.freshHead > 4096) {
      this.fresh = this.fresh.slice(this.freshHead);
      this.freshHead = 0;
    }
  }

  /**
   * Keeps a put's value as a delta against the best of its key parent's recent bases of about its length when that is
   * under a third of the value; otherwise the value stays whole and becomes its parent's newest base.
   */
  private toSharedBase(id: number): void {
    const rev = revisionOf(id);
    const kv = this.stored(rev.main, rev.sub);
    if (kv === undefined || isPacked(kv)) return;
    // Values of one kind and length (the Events of one reason, the Pods of one ReplicaSet) are alike.
    const parent = `${kv.key.slice(0, kv.key.lastIndexOf('/') + 1)} ${kv.value.length >> 5}`;
    const bases = this.bases.get(parent) ?? [];
    const bytes = byteStringToBytes(kv.value);
    let best: Uint8Array | undefined;
    let bestAt = -1;
    for (let i = 0; i < bases.length; i++) {
      const delta = createDelta(bases[i]!.bytes, bytes);
      if (best === undefined || delta.length < best.length) {
        best = delta;
        bestAt = i;
      }
      // Good enough (a Pod against a sibling's value: ~15 %): the rest are not tried, each try costs a pass over both.
      if (delta.length * 4 <= bytes.length) break;
    }
    if (best === undefined || best.length * 3 > bytes.length) {
      bases.unshift({ value: kv.value, bytes });
      if (bases.length > basesPerParent) bases.pop();
      this.bases.set(parent, bases);
      return;
    }
    const base = bases[bestAt]!;
    if (bestAt > 0) {
      bases.splice(bestAt, 1);
      bases.unshift(base);
    }
    this.replace(rev, new SharedBaseKv(kv, base.value, bytesToByteString(best)));
  }

  /**
   * Called once `next` (a put) has been stored after `prev`, the key's previous revision in the same
   * generation; `older` is the revision before `prev` in it, if any. `prev`'s value becomes a delta
   * `supersedeLag` supersessions later (see there).
   */
  supersede(prev: number, next: number, older: number | undefined): void {
    this.pending.push(prev, next, older ?? -1);
    this.superseded.add(prev);
    while (this.pending.length - this.pendingHead > 3 * this.supersedeLag) {
      const at = this.pendingHead;
      this.pendingHead += 3;
      const o = this.pending[at + 2]!;
      this.superseded.delete(this.pending[at]!);
      this.toDelta(this.pending[at]!, this.pending[at + 1]!, o < 0 ? undefined : o);
    }
    if (this.pendingHead > 3 * 4096) {
      this.pending = this.pending.slice(this.pendingHead);
      this.pendingHead = 0;
    }
  }

  /**
   * Keeps `prev`'s value as a delta against `next`'s, unless either is gone (compacted), the delta would
   * not be smaller than what is kept, or it would make a run longer than `maxDeltaRun`.
   */
  private toDelta(prev: number, next: number, older: number | undefined): void {
    const p = revisionOf(prev);
    const kv = this.stored(p.main, p.sub);
    if (kv === undefined || kv instanceof SupersededKv) return;
    let run = 1;
    if (older !== undefined) {
      const o = revisionOf(older);
      const before = this.stored(o.main, o.sub);
      if (before instanceof SupersededKv) run = before.run + 1;
    }
    if (run > maxDeltaRun) return;
    const n = revisionOf(next);
    const nextKv = this.stored(n.main, n.sub);
    if (nextKv === undefined || nextKv instanceof SupersededKv) return;
    const nextBytes = nextKv instanceof SharedBaseKv ? this.valueBytes(nextKv) : byteStringToBytes(nextKv.value);
    // A value kept against a base (its key was idle for a while before this write) is rebuilt.
    const delta = createDelta(nextBytes, kv instanceof SharedBaseKv ? this.valueBytes(kv) : byteStringToBytes(kv.value));
    if (delta.length >= (kv instanceof SharedBaseKv ? kv.delta : kv.value).length) return;
    this.replace(p, new SupersededKv(kv, next, bytesToByteString(delta), run));
  }

  private replace(rev: Revision, kv: Packed): void {
    const slot = this.slot(rev.main);
    if (Array.isArray(slot)) slot[rev.sub] = kv;
    else if (rev.main >= this.base) this.tail[rev.main - this.base] = kv;
    else this.kept.set(rev.main, kv);
  }

  /** A packed record as a plain KeyValue, its value rebuilt. */
  private rebuilt(kv: Packed): KeyValue {
    const bytes = this.valueBytes(kv);
    return { key: kv.key, createRevision: kv.createRevision, modRevision: kv.modRevision, version: kv.version, value: bytesToByteString(bytes), lease: kv.lease };
  }

  /**
   * A packed record's value: a superseded one's from the chain of deltas to the next value that is whole
   * or kept against a base; one kept against a base from its base.
   */
  private valueBytes(kv: Packed): Uint8Array {
    const chain: SupersededKv[] = [];
    let at: Stored = kv;
    let bytes: Uint8Array | undefined;
    while (bytes === undefined) {
      if (!isPacked(at)) {
        bytes = byteStringToBytes(at.value);
        break;
      }
      bytes = this.recent.get(at);
      if (bytes !== undefined) break;
      if (at instanceof SharedBaseKv) {
        bytes = applyFossilDelta(at.base, at.delta);
        this.remember(at, bytes);
        break;
      }
      chain.push(at);
      const n = revisionOf(at.next);
      const next = this.stored(n.main, n.sub);
      if (next === undefined) throw new Error(`backend: revision ${n.main}.${n.sub}, the base of ${at.modRevision}'s delta, is not stored`);
      at = next;
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      bytes = applyFossilDelta(bytes, chain[i]!.delta);
      this.remember(chain[i]!, bytes);
    }
    return bytes;
  }

  /** Keeps a rebuilt value for the next reads (a reader of history often reads neighbouring revisions). */
  private remember(kv: Packed, bytes: Uint8Array): void {
    if (this.recent.size >= recentRebuilt) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(kv, bytes);
  }

  /**
   * Visits stored changes with main revision in [minMain, maxMain), in revision order. With `wants`, only
   * the changes of keys it accepts (a superseded value is rebuilt only for those).
   */
  rangeRevisions(minMain: number, maxMain: number, f: (kv: KeyValue, rev: Revision) => void, wants?: (key: string) => boolean): void {
    const visitOne = (kv: Stored, main: number, sub: number): void => {
      if (wants !== undefined && !wants(kv.key)) return;
      f(isPacked(kv) ? this.rebuilt(kv) : kv, { main, sub });
    };
    const visit = (main: number, slot: Slot): void => {
      if (slot === undefined) return;
      if (!Array.isArray(slot)) {
        visitOne(slot, main, 0);
        return;
      }
      for (let sub = 0; sub < slot.length; sub++) {
        const kv = slot[sub];
        if (kv !== undefined) visitOne(kv, main, sub);
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
    // What compaction drops is not kept for later reads either; bases are chosen afresh (what a delta
    // made against a base needs, it holds).
    this.recent.clear();
    this.bases.clear();
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

  /** Makes this backend a copy of `from` (a raft snapshot's database): records are immutable and shared, what
   *  holds them and the packing's bookkeeping are its own, so neither backend's later work touches the other. */
  copyFrom(from: Backend): void {
    const own = (slot: Slot): Slot => (Array.isArray(slot) ? slot.slice() : slot);
    this.kept.clear();
    for (const [main, slot] of from.kept) this.kept.set(main, own(slot));
    this.tail = from.tail.map(own);
    this.base = from.base;
    this.supersedeLag = from.supersedeLag;
    this.pending = from.pending.slice(from.pendingHead);
    this.pendingHead = 0;
    this.recent.clear();
    this.fresh = from.fresh.slice(from.freshHead);
    this.freshHead = 0;
    this.superseded.clear();
    for (const id of from.superseded) this.superseded.add(id);
    this.bases.clear();
    for (const [group, bases] of from.bases) this.bases.set(group, bases.slice());
  }

  /** Visits every stored change's key and value length in bytes, without rebuilding superseded values. */
  sizes(f: (key: string, valueLength: number) => void): void {
    const visit = (kv: Stored | undefined): void => {
      if (kv !== undefined) f(kv.key, valueSize(kv));
    };
    for (const slot of [...this.kept.values(), ...this.tail]) {
      if (Array.isArray(slot)) slot.forEach(visit);
      else visit(slot);
    }
  }

  /** Number of stored changes (for tests and views). */
  get size(): number {
    let n = 0;
    this.sizes(() => n++);
    return n;
  }

  /** Values kept as deltas: superseded ones against their key's next value, others against a base (for tests and views). */
  packed(): { deltas: number; sharedBases: number } {
    const out = { deltas: 0, sharedBases: 0 };
    for (const slot of [...this.kept.values(), ...this.tail]) {
      for (const kv of Array.isArray(slot) ? slot : [slot]) {
        if (kv instanceof SupersededKv) out.deltas++;
        else if (kv instanceof SharedBaseKv) out.sharedBases++;
      }
    }
    return out;
  }
}

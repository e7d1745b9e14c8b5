// A member's raft log: a base (index and term of the last compacted entry) followed by the entries
// after it, the commit index, the applied index, and the newest snapshot of the application's state
// (at or after the base). Entries are durable once appended (the member writes its WAL before it
// answers; the disk's time is the member's business). Compaction drops the entries before the base.
//
//   base {index 5, term 2} │ 6:t2  7:t3  8:t3 │  committed 7, applied 6
//   firstIndex = 6, lastIndex = 8, term(5) = 2 (from the base), term(4) = compacted
//
// Models raft/log.go and raft/storage.go (MemoryStorage) with the unstable part folded in.

import type { Entry, Snapshot } from './types.ts';

/** What `term` returns for an index the snapshot has compacted away. */
const compacted = -1;

export class RaftLog {
  private entries: Entry[] = [];
  private base = { index: 0, term: 0 };
  private snapshot: Snapshot = { metadata: { index: 0, term: 0 }, data: null };
  committed = 0;
  applied = 0;

  get firstIndex(): number {
    return this.base.index + 1;
  }

  get lastIndex(): number {
    return this.base.index + this.entries.length;
  }

  get lastTerm(): number {
    return this.term(this.lastIndex);
  }

  /** The newest snapshot (index 0 before the first): what a leader sends a follower that is behind. */
  get currentSnapshot(): Snapshot {
    return this.snapshot;
  }

  /** Term of entry `i`: `compacted` below the snapshot, 0 past the end. */
  term(i: number): number {
    const offset = this.base.index;
    if (i < offset) return compacted;
    if (i === offset) return this.base.term;
    if (i > this.lastIndex) return 0;
    return this.entries[i - offset - 1]!.term;
  }

  /** zeroTermOnErrCompacted(term(i)). */
  termOrZero(i: number): number {
    return Math.max(0, this.term(i));
  }

  matchTerm(i: number, term: number): boolean {
    return this.term(i) === term;
  }

  /** A candidate's log (last index, last term) is at least as up to date as this one. */
  isUpToDate(lastIndex: number, term: number): boolean {
    return term > this.lastTerm || (term === this.lastTerm && lastIndex >= this.lastIndex);
  }

  /** Entries from `lo` to the end, at most `maxSize` bytes but at least one; null when `lo` is compacted. */
  entriesFrom(lo: number, maxSize: number): Entry[] | null {
    if (lo < this.firstIndex) return null;
    const out: Entry[] = [];
    let size = 0;
    for (let i = lo; i <= this.lastIndex; i++) {
      const e = this.entries[i - this.firstIndex]!;
      size += e.size;
      if (out.length > 0 && size > maxSize) break;
      out.push(e);
    }
    return out;
  }

  /** Entries in [lo, hi); the caller keeps lo ≥ firstIndex. */
  slice(lo: number, hi: number): Entry[] {
    return this.entries.slice(lo - this.firstIndex, hi - this.firstIndex);
  }

  /** Appends after truncating any conflicting suffix; returns the new last index. */
  append(entries: readonly Entry[]): number {
    if (entries.length === 0) return this.lastIndex;
    const after = entries[0]!.index - 1;
    if (after < this.committed) throw new Error(`raft log: append after ${after} is below committed ${this.committed}`);
    this.entries.length = after - this.base.index;
    this.entries.push(...entries);
    return this.lastIndex;
  }

  /**
   * A leader's MsgApp: if the entry at `index` has `logTerm`, append `entries` (truncating from the first
   * conflict), advance commit to min(`commit`, the last new index) and return that last new index;
   * null when the log does not match. Models raftLog.maybeAppend.
   */
  maybeAppend(index: number, logTerm: number, commit: number, entries: readonly Entry[]): number | null {
    if (!this.matchTerm(index, logTerm)) return null;
    const lastNew = index + entries.length;
    const conflict = this.findConflict(entries);
    if (conflict !== 0) {
      if (conflict <= this.committed) throw new Error(`raft log: entry ${conflict} conflicts with committed entry (committed ${this.committed})`);
      this.append(entries.slice(conflict - (index + 1)));
    }
    this.commitTo(Math.min(commit, lastNew));
    return lastNew;
  }

  /** The first entry whose term differs from ours (a new entry past the end counts), else 0. */
  private findConflict(entries: readonly Entry[]): number {
    for (const e of entries) if (!this.matchTerm(e.index, e.term)) return e.index;
    return 0;
  }

  commitTo(index: number): void {
    if (this.committed >= index) return;
    if (index > this.lastIndex) throw new Error(`raft log: commit ${index} is out of range [last ${this.lastIndex}]`);
    this.committed = index;
  }

  /** A leader commits `maxIndex` only if that entry is from its own term (raft paper §5.4.2). */
  maybeCommit(maxIndex: number, term: number): boolean {
    if (maxIndex > this.committed && this.termOrZero(maxIndex) === term) {
      this.commitTo(maxIndex);
      return true;
    }
    return false;
  }

  appliedTo(index: number): void {
    if (index === 0) return;
    if (this.committed < index || index < this.applied) throw new Error(`raft log: applied ${index} is out of range [applied ${this.applied}, committed ${this.committed}]`);
    this.applied = index;
  }

  /** Replaces the log by a snapshot from the leader (entries and all). */
  restore(snapshot: Snapshot): void {
    this.snapshot = snapshot;
    this.base = { ...snapshot.metadata };
    this.entries = [];
    this.committed = snapshot.metadata.index;
    this.applied = snapshot.metadata.index;
  }

  /**
   * The application made a snapshot of its state at `index` (≤ applied); entries up to `compactTo`
   * (≤ index) are dropped: etcd keeps SnapshotCatchUpEntries before the snapshot for slow followers.
   * Models etcdserver's snapshot (CreateSnapshot, then Compact of the raft storage).
   */
  createSnapshot(index: number, data: unknown, compactTo: number): void {
    if (index > this.applied) throw new Error(`raft log: snapshot ${index} is past applied ${this.applied}`);
    this.snapshot = { metadata: { index, term: this.term(index) }, data };
    const to = Math.min(compactTo, index);
    if (to <= this.base.index) return;
    const term = this.term(to);
    this.entries = this.entries.slice(to - this.base.index);
    this.base = { index: to, term };
  }
}

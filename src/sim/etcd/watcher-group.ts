// Watchers and groups of watchers. A group finds the watchers of an event's key without looking at every
// watcher: single-key watchers sit in a map by key, range watchers in an interval index.
// Models mvcc/watcher_group.go (watcherGroup, eventBatch, watcherBatch, choose/chooseAll) and the
// watcher type of mvcc/watchable_store.go.

import { IntervalIndex } from './interval-index.ts';
import type { Event } from './kv.ts';

/** What the mvcc layer hands a watch stream (mvcc.WatchResponse). */
export interface MvccWatchResponse {
  readonly watchId: number;
  readonly events: readonly Event[];
  /** The store revision the response brings the watcher up to (0 on a compaction notice). */
  readonly revision: number;
  /** Set when the watcher was dropped because its start revision has been compacted. */
  readonly compactRevision: number;
}

/** watchBatchMaxRevs: an unsynced watcher receives at most this many revisions per sync. */
export const watchBatchMaxRevs = 1000;

export class Watcher {
  /** Set when the watcher was removed because its start revision was compacted. */
  compacted = false;
  /** False once canceled. */
  active = true;
  /** Moved to the unsynced group by a restore: its minimum revision may then be past the current one, once. */
  restore = false;

  constructor(
    readonly key: string,
    /** undefined: the single key; '': every key ≥ key; else [key, end). */
    readonly end: string | undefined,
    /** The lowest revision this watcher still needs. */
    public minRev: number,
    readonly id: number,
    readonly noPut: boolean,
    readonly noDelete: boolean,
    private readonly ch: (resp: MvccWatchResponse) => void,
  ) {}

  /** Sends a response after applying the filters; a response filtered down to nothing is dropped. */
  send(resp: MvccWatchResponse): void {
    const progress = resp.events.length === 0;
    let events = resp.events;
    if (this.noPut || this.noDelete) {
      events = events.filter((ev) => !((this.noPut && ev.type === 'PUT') || (this.noDelete && ev.type === 'DELETE')));
      if (!progress && events.length === 0) return;
    }
    this.ch(events === resp.events ? resp : { ...resp, events });
  }
}

/** The events for one watcher in one notification or sync. */
export class EventBatch {
  readonly evs: Event[] = [];
  /** Distinct revisions in the batch. */
  revs = 0;
  /** First revision left out when the batch filled up; 0 when everything fit. */
  moreRev = 0;

  add(ev: Event): void {
    if (this.revs > watchBatchMaxRevs) return;
    if (this.evs.length === 0) {
      this.revs = 1;
      this.evs.push(ev);
      return;
    }
    const ebRev = this.evs[this.evs.length - 1]!.kv.modRevision;
    const evRev = ev.kv.modRevision;
    if (evRev > ebRev) {
      this.revs++;
      if (this.revs > watchBatchMaxRevs) {
        this.moreRev = evRev;
        return;
      }
    }
    this.evs.push(ev);
  }
}

export class WatcherGroup {
  private readonly keyWatchers = new Map<string, Set<Watcher>>();
  private readonly ranges = new IntervalIndex<Set<Watcher>>();
  /** Every watcher of the group, in insertion order. */
  readonly watchers = new Set<Watcher>();

  get size(): number {
    return this.watchers.size;
  }

  add(w: Watcher): void {
    if (this.watchers.has(w)) throw new Error(`watcher ${w.id} added twice`);
    this.watchers.add(w);
    if (w.end === undefined) {
      let set = this.keyWatchers.get(w.key);
      if (set === undefined) {
        set = new Set();
        this.keyWatchers.set(w.key, set);
      }
      set.add(w);
      return;
    }
    const set = this.ranges.find(w.key, w.end);
    if (set !== undefined) set.add(w);
    else this.ranges.insert(w.key, w.end, new Set([w]));
  }

  delete(w: Watcher): boolean {
    if (!this.watchers.delete(w)) return false;
    if (w.end === undefined) {
      const set = this.keyWatchers.get(w.key)!;
      set.delete(w);
      if (set.size === 0) this.keyWatchers.delete(w.key);
      return true;
    }
    const set = this.ranges.find(w.key, w.end)!;
    set.delete(w);
    if (set.size === 0) this.ranges.delete(w.key, w.end);
    return true;
  }

  /** Whether some watcher of the group watches `key`. */
  contains(key: string): boolean {
    return this.keyWatchers.has(key) || this.ranges.intersects(key);
  }

  /** The watchers of `key`, single-key watchers first, then range watchers by interval. */
  watchersOf(key: string): Watcher[] {
    const out: Watcher[] = [];
    const keyed = this.keyWatchers.get(key);
    if (keyed !== undefined) for (const w of keyed) out.push(w);
    if (this.ranges.size > 0) for (const set of this.ranges.stab(key)) for (const w of set) out.push(w);
    return out;
  }

  /**
   * Maps each watcher of the group to its events among `evs` (those at or after its minRev), in
   * event order. Watchers appear in the order they first receive an event.
   */
  batch(evs: readonly Event[]): Map<Watcher, EventBatch> {
    const wb = new Map<Watcher, EventBatch>();
    if (this.watchers.size === 0) return wb;
    for (const ev of evs) {
      for (const w of this.watchersOf(ev.kv.key)) {
        if (ev.kv.modRevision < w.minRev) continue;
        let eb = wb.get(w);
        if (eb === undefined) {
          eb = new EventBatch();
          wb.set(w, eb);
        }
        eb.add(ev);
      }
    }
    return wb;
  }

  /**
   * Picks up to `maxWatchers` watchers to sync and returns them as a group with the lowest revision
   * they need. Watchers whose minRev is below the compaction revision get a compaction notice and are
   * dropped (from this group and the chosen one).
   */
  choose(maxWatchers: number, curRev: number, compactRev: number): { group: WatcherGroup; minRev: number } {
    const all = this.watchers.size < maxWatchers;
    const group = all ? this : new WatcherGroup();
    if (!all) {
      for (const w of this.watchers) {
        if (maxWatchers-- <= 0) break;
        group.add(w);
      }
    }
    let minRev = Number.MAX_SAFE_INTEGER;
    for (const w of [...group.watchers]) {
      if (w.minRev > curRev) {
        if (!w.restore) throw new Error(`watcher ${w.id}: minimum revision ${w.minRev} exceeds current revision ${curRev}`);
        w.restore = false;
      }
      if (w.minRev < compactRev) {
        w.send({ watchId: w.id, events: [], revision: 0, compactRevision: compactRev });
        w.compacted = true;
        group.delete(w);
        if (!all) this.delete(w);
        continue;
      }
      if (minRev > w.minRev) minRev = w.minRev;
    }
    return { group, minRev };
  }
}

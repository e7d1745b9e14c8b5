// The store with watchers. Synced watchers have seen every revision up to the current one and get each
// write's events as it commits; unsynced watchers (created with a past start revision) catch up from
// the backend in batches when the server runs `syncWatchers` (etcd does every 100 ms).
// Models mvcc/watchable_store.go and mvcc/watchable_store_txn.go. Not modelled: victims (a watcher
// whose channel is full): the simulation's streams never block.

import { KVStore } from './kv-store.ts';
import { changeToEvent, type Event, type KeyValue } from './kv.ts';
import type { Lessor } from './lease.ts';
import { Watcher, WatcherGroup, type MvccWatchResponse } from './watcher-group.ts';

/** maxWatchersPerSync. */
export const maxWatchersPerSync = 512;

export class WatchableStore extends KVStore {
  readonly synced = new WatcherGroup();
  readonly unsynced = new WatcherGroup();
  /** Called when a watcher joins the unsynced group, so the owner can schedule a sync. */
  onUnsynced: () => void = () => {};

  constructor(lessor?: Lessor) {
    super(lessor);
  }

  /**
   * Adds a watcher. `startRev` 0 or above the current revision: synced, from max(current+1, startRev);
   * otherwise unsynced, to be caught up by `syncWatchers`.
   */
  watch(key: string, end: string | undefined, startRev: number, id: number, filters: { noPut: boolean; noDelete: boolean },
    ch: (resp: MvccWatchResponse) => void): Watcher {
    const w = new Watcher(key, end, startRev, id, filters.noPut, filters.noDelete, ch);
    const synced = startRev > this.currentRev || startRev === 0;
    if (synced) {
      w.minRev = Math.max(this.currentRev + 1, startRev);
      this.synced.add(w);
    } else {
      this.unsynced.add(w);
      this.onUnsynced();
    }
    return w;
  }

  cancelWatcher(w: Watcher): void {
    if (!this.unsynced.delete(w)) this.synced.delete(w);
    w.active = false;
  }

  /**
   * Restores the store from `from` (a snapshot's database): every synced watcher becomes unsynced, to
   * be caught up from the restored history (or told its revision was compacted) by the next sync.
   */
  override restore(from: KVStore): void {
    super.restore(from);
    const moved = [...this.synced.watchers];
    if (moved.length === 0) return;
    for (const w of moved) {
      this.synced.delete(w);
      w.restore = true;
      this.unsynced.add(w);
    }
    this.onUnsynced();
  }

  /** Sends each synced watcher of the changed keys one response with its events of revision `rev`. */
  protected override notify(rev: number, changes: readonly KeyValue[]): void {
    if (this.synced.size === 0) return;
    const evs: Event[] = changes.map(changeToEvent);
    for (const [w, eb] of this.synced.batch(evs)) {
      w.send({ watchId: w.id, events: eb.evs, revision: rev, compactRevision: 0 });
    }
  }

  /**
   * Catches unsynced watchers up: reads the backend from the lowest revision they need to the
   * current one, sends each its events in one response (header revision = current revision), and moves
   * those that got everything to the synced group. Returns the number still unsynced.
   */
  syncWatchers(): number {
    if (this.unsynced.size === 0) return 0;
    const curRev = this.currentRev;
    const { group, minRev } = this.unsynced.choose(maxWatchersPerSync, curRev, this.compactMainRev);
    const evs: Event[] = [];
    // A negative start revision encodes as a huge unsigned bbolt key: etcd's range is then empty.
    if (minRev > 0) {
      this.backend.rangeRevisions(minRev, curRev + 1, (kv) => evs.push(changeToEvent(kv)), (key) => group.contains(key));
    }
    const wb = group.batch(evs);
    for (const w of [...group.watchers]) {
      w.minRev = curRev + 1;
      const eb = wb.get(w);
      if (eb === undefined) {
        this.unsynced.delete(w);
        this.synced.add(w);
        continue;
      }
      if (eb.moreRev !== 0) w.minRev = eb.moreRev;
      w.send({ watchId: w.id, events: eb.evs, revision: curRev, compactRevision: 0 });
      if (eb.moreRev !== 0) continue;
      this.unsynced.delete(w);
      this.synced.add(w);
    }
    return this.unsynced.size;
  }

  /** A progress notification for one watcher: only a synced watcher gets one. */
  progress(w: Watcher): void {
    if (this.synced.watchers.has(w)) w.send({ watchId: w.id, events: [], revision: this.currentRev, compactRevision: 0 });
  }
}

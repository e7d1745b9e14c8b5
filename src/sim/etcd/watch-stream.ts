// One client watch stream: its watchers by watch ID, create/cancel/progress requests, and the
// responses it sends, in order. Models etcdserver/api/v3rpc/watch.go (serverWatchStream: recvLoop,
// sendLoop) over mvcc/watcher.go (watchStream).
//
// Guarantees, as in etcd: the `created` response of a watch precedes its events; one response per
// revision for live events (a catch-up response may span revisions); DELETE events carry only key and
// mod_revision; with prev_kv, every event except a key's creation carries the KV at mod_revision − 1
// when that revision is still readable. Not modelled: fragmenting responses larger than the request
// limit (the simulation's objects are small).

import type { ClusterIdentity } from './cluster.ts';
import { ErrEmptyWatcherRange, ErrWatcherDuplicateID } from './errors.ts';
import type { Event } from './kv.ts';
import type { ResponseHeader, WatchCreateRequest, WatchResponse } from './rpc.ts';
import type { WatchableStore } from './watchable-store.ts';
import type { MvccWatchResponse, Watcher } from './watcher-group.ts';

/** clientv3.InvalidWatchID: the watch ID of responses that belong to no watcher. */
export const invalidWatchID = -1;

export class WatchStream {
  private readonly watchers = new Map<number, Watcher>();
  private nextID = 0;
  /** Watch IDs with progress_notify → whether a progress notification is due at the next tick. */
  readonly progress = new Map<number, boolean>();
  private readonly prevKV = new Set<number>();
  private closed = false;

  constructor(
    private readonly store: WatchableStore,
    private readonly identity: ClusterIdentity,
    /** Sends one WatchResponse to the client; `answers` is true for the response to a request. */
    private readonly out: (resp: WatchResponse, answers: boolean) => void,
  ) {}

  get watcherCount(): number {
    return this.watchers.size;
  }

  create(creq: WatchCreateRequest): void {
    const key = creq.key ? creq.key : '\0';
    let end: string | undefined = creq.rangeEnd ? creq.rangeEnd : undefined;
    if (end === '\0') end = '';
    const wsrev = this.store.currentRev;
    const rev = creq.startRevision ? creq.startRevision : wsrev + 1;
    let id = creq.watchId ?? 0;
    let cancelReason = '';
    if (end !== undefined && end !== '' && !(key < end)) cancelReason = ErrEmptyWatcherRange;
    else if (this.closed) cancelReason = ErrEmptyWatcherRange;
    else if (id === 0) {
      while (this.watchers.has(this.nextID)) this.nextID++;
      id = this.nextID++;
    } else if (this.watchers.has(id)) cancelReason = ErrWatcherDuplicateID;

    if (cancelReason !== '') {
      this.out(this.response(wsrev, { watchId: invalidWatchID, created: true, canceled: true, cancelReason }), true);
      return;
    }
    const filters = creq.filters ?? [];
    if (creq.progressNotify) this.progress.set(id, true);
    if (creq.prevKv) this.prevKV.add(id);
    this.out(this.response(wsrev, { watchId: id, created: true }), true);
    // Registered after the created response, so a catch-up can never overtake it.
    const w = this.store.watch(key, end, rev, id, { noPut: filters.includes('NOPUT'), noDelete: filters.includes('NODELETE') },
      (resp) => this.deliver(resp));
    this.watchers.set(id, w);
  }

  cancel(watchId: number): void {
    const w = this.watchers.get(watchId);
    if (w === undefined) return;
    this.store.cancelWatcher(w);
    this.watchers.delete(watchId);
    this.out(this.response(this.store.currentRev, { watchId, canceled: true }), true);
    this.progress.delete(watchId);
    this.prevKV.delete(watchId);
  }

  /** etcd 3.4 answers a progress request at once, with watch ID -1, whatever its watchers' state. */
  requestProgress(): void {
    this.out(this.response(this.store.currentRev, { watchId: invalidWatchID }), true);
  }

  /** The progress ticker: a notification to each progress watcher that got no events since the last tick. */
  progressTick(): void {
    for (const [id, due] of this.progress) {
      if (due) {
        const w = this.watchers.get(id);
        if (w !== undefined) this.store.progress(w);
      }
      this.progress.set(id, true);
    }
  }

  close(): void {
    for (const w of this.watchers.values()) this.store.cancelWatcher(w);
    this.watchers.clear();
    this.progress.clear();
    this.prevKV.clear();
    this.closed = true;
  }

  /** The sendLoop: an mvcc response becomes a WatchResponse, with prev_kv filled in when asked for. */
  private deliver(wresp: MvccWatchResponse): void {
    let events: readonly Event[] = wresp.events;
    if (this.prevKV.has(wresp.watchId)) {
      events = events.map((ev) => {
        if (ev.type === 'PUT' && ev.kv.createRevision === ev.kv.modRevision) return ev;
        try {
          const prev = this.store.read().range(ev.kv.key, undefined, { rev: ev.kv.modRevision - 1 }).kvs[0];
          return prev === undefined ? ev : { ...ev, prevKv: prev };
        } catch {
          return ev;
        }
      });
    }
    // A compacted watcher keeps its ID on the stream until canceled, as in etcd.
    const canceled = wresp.compactRevision !== 0;
    this.out(this.response(wresp.revision, { watchId: wresp.watchId, events, compactRevision: wresp.compactRevision, canceled }), false);
    if (events.length > 0 && this.progress.get(wresp.watchId) === true) this.progress.set(wresp.watchId, false);
  }

  private response(revision: number, fields: Partial<WatchResponse>): WatchResponse {
    const header: ResponseHeader = { clusterId: this.identity.clusterId, memberId: this.identity.memberId, revision, raftTerm: this.identity.raftTerm };
    return {
      header, watchId: 0, created: false, canceled: false, compactRevision: 0, cancelReason: '', fragment: false, events: [],
      ...fields,
    };
  }
}

// One client watch served by the cacher. The cacher hands it every change of its resource; the watcher
// keeps those under its key whose object matches its predicate, and reports them from its own point
// of view (convertToWatchEvent):
//
//     matched before   matches now   event
//     no               yes           ADDED    (the new object)
//     yes              yes           MODIFIED (the new object)
//     yes              no / deleted  DELETED  (the last object it saw, at the change's resourceVersion)
//
// Initial events (synthetic ADDED for the current state, or the buffered changes after the requested
// resourceVersion) go first; afterwards only changes newer than the last initial one are sent.
//
// Bookmarks: with allowWatchBookmarks the watcher is due a BOOKMARK every minute, and one 2 s before its
// deadline. A WatchList watcher (sendInitialEvents) first waits for a bookmark at or after the
// resourceVersion its initial state was taken at; that one is sent annotated
// `k8s.io/initial-events-end: "true"`. A bookmark is only sent when it carries a resourceVersion newer
// than the watch's start, or is that pending initial-events-end bookmark.
//
// Models k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go (nonblockingAdd, nextBookmarkTime, the
// bookmark-after-RV states, convertToWatchEvent, processInterval, process). Not modelled: the input
// and result channels and the dispatch timeout that closes a watcher too slow to read (sinks never block).
//
// Sharing: ADDED and MODIFIED events hand out the watch cache's own (frozen) object, and an object's
// label and field attributes are computed once for all watchers, as upstream's watchCacheEvent carries
// ObjLabels/ObjFields computed once by the cache. Every predicate of one resource uses that resource's
// GetAttrs, so the first watcher's attributes are everyone's.

import type { Time } from '../../engine/index.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import { copyObject, copyWithResourceVersion } from './codec.ts';
import type { SelectionPredicate, StorageWatch, StorageWatchEvent, StorageWatchSink } from './interface.ts';
import { hasPathPrefix, selectsEverything } from './predicate.ts';
import { matchesFields } from '../../api/fields.ts';
import { matchesLabels } from '../../api/labels.ts';
import type { WatchCacheEvent } from './watch-cache.ts';

/** defaultBookmarkFrequency. */
export const bookmarkFrequency = 60_000;
/** A watcher gets its last bookmark this long before its deadline. */
export const preDeadlineBookmark = 2_000;
export const initialEventsEndAnnotation = 'k8s.io/initial-events-end';

type BookmarkState = 'waitingForBookmark' | 'bookmarkReceived' | 'bookmarkSent';

type Attrs = ReturnType<SelectionPredicate['getAttrs']>;
/** Attributes of the watch cache's (immutable) objects, computed once per object. */
const attrsOfCachedObject = new WeakMap<KubeObject, Attrs>();

export class CacheWatcher implements StorageWatch {
  private stopped = false;
  /** Changes at or below this resourceVersion were covered by the initial events. */
  private resourceVersion = 0;
  private bookmarkAfterResourceVersion = 0;
  private state: BookmarkState = 'bookmarkSent';

  constructor(
    private readonly key: string,
    private readonly predicate: SelectionPredicate,
    private readonly sink: StorageWatchSink,
    readonly allowWatchBookmarks: boolean,
    private readonly deadline: Time | undefined,
    /** Removes the watcher from its cacher. */
    private readonly forget: (watcher: CacheWatcher) => void,
  ) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.forget(this);
  }

  /** The cacher ends the watch (it is relisting): the client sees the stream close. */
  terminate(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.sink.end();
  }

  /** 0: no initial-events-end bookmark owed; N: the first bookmark at or after N is it. */
  setBookmarkAfterResourceVersion(rv: number): void {
    this.state = rv === 0 ? 'bookmarkSent' : 'waitingForBookmark';
    this.bookmarkAfterResourceVersion = rv;
  }

  /** Sends the initial events; live changes are sent from then on only if newer than `startRV` and the last of them. */
  processInterval(events: readonly WatchCacheEvent[], startRV: number): void {
    let rv = startRV;
    for (const event of events) {
      this.send(event);
      if (event.resourceVersion > rv) rv = event.resourceVersion;
    }
    this.resourceVersion = rv;
  }

  /** One change or bookmark dispatched by the cacher. */
  add(event: WatchCacheEvent): void {
    if (this.stopped) return;
    if (event.type === 'BOOKMARK') {
      if (event.resourceVersion < this.bookmarkAfterResourceVersion) return;
      if (this.state === 'waitingForBookmark') this.state = 'bookmarkReceived';
    }
    const pendingInitialEnd = event.type === 'BOOKMARK' && event.resourceVersion === this.resourceVersion && this.state !== 'bookmarkSent';
    if (event.resourceVersion > this.resourceVersion || pendingInitialEnd) this.send(event);
  }

  /**
   * When the next bookmark is due: -Infinity for "at the next tick" (an initial-events-end bookmark is
   * owed), null when none is (the deadline's bookmark is behind us).
   */
  nextBookmarkTime(now: Time): Time | null {
    if (this.state === 'waitingForBookmark') return Number.NEGATIVE_INFINITY;
    let heartbeat = now + bookmarkFrequency;
    if (this.deadline === undefined) return heartbeat;
    const preTimeout = this.deadline - preDeadlineBookmark;
    if (preTimeout < heartbeat) heartbeat = preTimeout;
    return heartbeat < now ? null : heartbeat;
  }

  private send(event: WatchCacheEvent): void {
    const watchEvent = this.convertToWatchEvent(event);
    if (watchEvent === null) return;
    this.sink.event(watchEvent);
    if (event.type === 'BOOKMARK') this.state = 'bookmarkSent';
  }

  private convertToWatchEvent(event: WatchCacheEvent): StorageWatchEvent | null {
    if (event.type === 'BOOKMARK') {
      const object = copyObject(event.object);
      if (this.state !== 'bookmarkSent') {
        object.metadata.annotations = { ...object.metadata.annotations, [initialEventsEndAnnotation]: 'true' };
      }
      return { type: 'BOOKMARK', object };
    }
    const curPasses = event.type !== 'DELETED' && this.matches(event.key, event.object);
    const oldPasses = event.prevObject !== null && this.matches(event.key, event.prevObject);
    if (curPasses) return { type: oldPasses ? 'MODIFIED' : 'ADDED', object: event.object };
    if (oldPasses) return { type: 'DELETED', object: copyWithResourceVersion(event.prevObject!, event.resourceVersion) };
    return null;
  }

  private matches(key: string, obj: KubeObject): boolean {
    if (!hasPathPrefix(key, this.key)) return false;
    if (selectsEverything(this.predicate)) return true;
    let attrs = attrsOfCachedObject.get(obj);
    if (attrs === undefined) attrsOfCachedObject.set(obj, (attrs = this.predicate.getAttrs(obj)));
    return matchesLabels(this.predicate.label, attrs.labels) && matchesFields(this.predicate.field, attrs.fields);
  }
}

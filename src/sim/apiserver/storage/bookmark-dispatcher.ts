// A cacher's bookmarks: watchers with allowWatchBookmarks get a BOOKMARK (an empty object of the kind
// carrying the RV of the last change the cacher saw) about every minute and 2 s before their deadline,
// never before the cacher has seen a change. The dispatcher's 1 s ticker is modelled as a background
// timer set only while a bookmark is due, firing within 1.25 s (a tick period with its jitter) of the due
// time.
//
// Models k8s.io/apiserver/pkg/storage/cacher/cacher.go (dispatchEvents' bookmark ticker,
// startDispatchingBookmarkEventsLocked, the bookmark event it builds from lastProcessedResourceVersion).

import type { KubeObject } from '../../api/types/meta.ts';
import { timerKind, type Duration, type Message, type Time, type TimerPayload } from '../../engine/index.ts';
import type { CacheWatcher } from './cache-watcher.ts';
import type { CacherHost } from './cacher.ts';
import { copyWithResourceVersion } from './codec.ts';
import type { WatchCacheEvent } from './watch-cache.ts';
import { WatcherBookmarkTimeBuckets } from './watcher-bookmark-buckets.ts';

/** The dispatcher ticks every 1 s plus up to 25 % jitter. */
export const maxDispatcherTickGap: Duration = 1_250;

/** Name of the cacher's background timer (payload data CacherTimerData). */
export const cacherBookmarkTimer = 'apiserver.cacherBookmarks';

interface CacherTimerData {
  readonly resourcePrefix: string;
  readonly tick: number;
}

/** The cacher a message is for (its bookmark timer), by resource prefix; undefined for other messages. */
export function cacherResourcePrefixOf(message: Message): string | undefined {
  if (message.kind !== timerKind) return undefined;
  const timer = message.payload as TimerPayload<CacherTimerData>;
  return timer.name === cacherBookmarkTimer ? timer.data.resourcePrefix : undefined;
}

export class BookmarkDispatcher {
  private readonly buckets: WatcherBookmarkTimeBuckets;
  /** RV of the last change or progress notification the dispatcher saw; 0 = none yet (no bookmarks). */
  private lastProcessedResourceVersion = 0;
  private readonly pendingTicks = new Map<number, Time>();
  private nextTick = 1;

  constructor(private readonly host: CacherHost, private readonly prefix: string, private readonly newFunc: () => KubeObject) {
    this.buckets = new WatcherBookmarkTimeBuckets(host.now());
  }

  /** The cacher dispatched a change, or etcd reported progress, at `rv`. */
  processed(rv: number): void {
    this.lastProcessedResourceVersion = rv;
  }

  /** Queues a new watcher that allows bookmarks for its first one. */
  add(watcher: CacheWatcher): void {
    if (this.buckets.add(watcher, this.host.now())) this.scheduleTick();
  }

  /** A bookmark timer of this cacher fired. */
  receive(message: Message): void {
    const tick = (message.payload as TimerPayload<CacherTimerData>).data.tick;
    this.pendingTicks.delete(tick);
    const now = this.host.now();
    const expired = this.buckets.popExpired(now).filter((w) => !w.isStopped);
    if (this.lastProcessedResourceVersion !== 0) {
      const rv = this.lastProcessedResourceVersion;
      const bookmark: WatchCacheEvent = {
        type: 'BOOKMARK', key: '', object: copyWithResourceVersion(this.newFunc(), rv), prevObject: null, resourceVersion: rv, recordTime: now,
      };
      for (const watcher of expired) watcher.add(bookmark);
    }
    for (const watcher of expired) if (!watcher.isStopped) this.buckets.add(watcher, now);
    this.scheduleTick();
  }

  /** Makes sure a tick comes within maxDispatcherTickGap of the earliest due bookmark. */
  private scheduleTick(): void {
    const due = this.buckets.nextDue();
    if (due === null) return;
    const now = this.host.now();
    const from = Math.max(now, due);
    for (const at of this.pendingTicks.values()) if (at <= from + maxDispatcherTickGap) return;
    const at = from + this.host.random() * maxDispatcherTickGap;
    const tick = this.nextTick++;
    this.pendingTicks.set(tick, at);
    this.host.setTimer<CacherTimerData>(at - now, cacherBookmarkTimer, { resourcePrefix: this.prefix, tick }, { background: true });
  }
}

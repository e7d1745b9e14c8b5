// Which watchers are due a bookmark when. Watchers are kept in one-second buckets counted from the
// cacher's creation; each dispatcher tick pops every bucket up to the current second. A watcher due
// "now" (or in the past) goes into the first bucket not yet popped, so it gets its bookmark at the next
// tick: a bookmark due at X arrives within about a second of X.
// Models k8s.io/apiserver/pkg/storage/cacher/cacher.go (watcherBookmarkTimeBuckets).

import type { Time } from '../../engine/index.ts';
import type { CacheWatcher } from './cache-watcher.ts';

const bucketWidth = 1_000;

export class WatcherBookmarkTimeBuckets {
  private readonly buckets = new Map<number, CacheWatcher[]>();
  private startBucketID = 0;

  constructor(private readonly createTime: Time) {}

  /** Queues the watcher for its next bookmark; false when none is due any more. */
  add(watcher: CacheWatcher, now: Time): boolean {
    const next = watcher.nextBookmarkTime(now);
    if (next === null) return false;
    const id = Math.max(this.bucketOf(next), this.startBucketID);
    const bucket = this.buckets.get(id);
    if (bucket) bucket.push(watcher);
    else this.buckets.set(id, [watcher]);
    return true;
  }

  /** The watchers of every bucket up to the current second, in bucket order. */
  popExpired(now: Time): CacheWatcher[] {
    const current = this.bucketOf(now);
    const out: CacheWatcher[] = [];
    for (; this.startBucketID <= current; this.startBucketID++) {
      const bucket = this.buckets.get(this.startBucketID);
      if (bucket) {
        this.buckets.delete(this.startBucketID);
        out.push(...bucket);
      }
    }
    return out;
  }

  /** The time from which the earliest queued bucket can be popped, or null when none is queued. */
  nextDue(): Time | null {
    let first: number | null = null;
    for (const id of this.buckets.keys()) if (first === null || id < first) first = id;
    return first === null ? null : this.createTime + first * bucketWidth;
  }

  private bucketOf(t: Time): number {
    return Math.trunc((t - this.createTime) / bucketWidth);
  }
}

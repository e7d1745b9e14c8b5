// The watch cache of one resource: the current state (one object per key) plus a sliding window of the
// most recent changes, both advanced by the cacher's reflector, and the resourceVersion up to which
// both are current. Lists and gets read the state; watches read the window.
//
// The window is a ring buffer indexed by two ever-growing counters; its live events are
// [startIndex, endIndex), slot i lives at cache[i % capacity]:
//
//     capacity 4, after events at RVs 11..16:   startIndex 2, endIndex 6
//     slots   [15][16][13][14]                  oldest buffered RV 13
//
// Sizing (1.28): the buffer starts at 100 events. When it is full and even its oldest event is less
// than 75 s old, it doubles (up to 100 × 1024); when it is full and the oldest event of its newest
// quarter is more than 75 s old, it halves (down to 100). Otherwise a full buffer drops its oldest event.
//
// "Too old": a watch from RV N can be served when N ≥ oldest − 1, where oldest is listRV + 1 if no
// event was dropped since the last relist (every change after the list is still buffered), else the
// RV of the oldest buffered event. Older → 410 Expired `too old resource version: N (oldest − 1)`.
//
// Models k8s.io/apiserver/pkg/storage/cacher/watch_cache.go (processEvent, updateCache,
// resizeCacheLocked, doCacheResizeLocked, Replace, UpdateResourceVersion, getAllEventsSinceLocked,
// WaitUntilFreshAndList/Get's store reads) and watch_cache_interval.go (newCacheIntervalFromStore).
// The waiting half (waitUntilFreshAndBlock) needs the engine and lives in the Cacher.

import { newTooOldResourceVersion } from '../../api/errors.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import type { Time } from '../../engine/index.ts';
import { compareKeys } from '../../etcd/index.ts';
import { deepFreeze, forgetEncoding, parseResourceVersion } from './codec.ts';

/** eventFreshDuration: how much history the window aims to keep. */
export const eventFreshDuration = 75_000;
export const defaultLowerBoundCapacity = 100;
export const defaultUpperBoundCapacity = 100 * 1024;
/**
 * Changes after which a current object that has not changed since forgets its encoded value (`idle`):
 * the value etcd stores for an idle key is kept small there (src/sim/etcd/backend.ts), and this entry
 * would keep it whole. A change to the key within them still reads the encoding without encoding
 * again; a later one encodes the cached object (stateFromObject in etcd3-store.ts). In a rollout a Pod's
 * status patches can come tens of seconds after its create (kube-scheduler binds ~100 Pods a second):
 * 8,192 changes of the pods' cache are ~2,000 Pods, and keep ~4 MB of Pod values whole at any size.
 */
export const encodingLag = 8192;

export type WatchCacheEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';

/**
 * One change as the cache recorded it: the object after the change (for DELETED, the object as the
 * etcd watch reported it, at the deletion revision) and the cache's previous object for the key, so
 * that each watcher can tell whether the change makes the object enter or leave its selection.
 * BOOKMARK events (progress) carry an empty object of the kind and no key. The objects are frozen
 * (see `deepFreeze`): the cache, every watcher's event and every receiver share them.
 */
export interface WatchCacheEvent {
  readonly type: WatchCacheEventType;
  readonly key: string;
  readonly object: KubeObject;
  readonly prevObject: KubeObject | null;
  readonly resourceVersion: number;
  /** When the cache recorded it (virtual time); drives the window's sizing. */
  readonly recordTime: Time;
}

export interface StoreElement {
  readonly key: string;
  readonly object: KubeObject;
}

/** What the watchers panel shows of one resource's watch cache. */
export interface WatchCacheWindow {
  readonly capacity: number;
  readonly bufferedEvents: number;
  /** Objects in the cache's current state. */
  readonly objects: number;
  /** The oldest resourceVersion a watch can start from (null before the first list). */
  readonly oldestServable: number | null;
  /** The resourceVersion the cache is current to. */
  readonly resourceVersion: number;
}

/**
 * Makes `next` (a decoded object not yet frozen) share with `prev` (a frozen object: the one the cache
 * held for the same key, else the newest of another key) every subtree that is equal in content and key
 * order, so the revisions of an object kept in the window, the stores and the informers hold each
 * unchanged part once: a Pod's spec, its managedFields entries and its older conditions, written once,
 * read by every revision after (and a new Pod's template parts, shared with its siblings'). Equal
 * subtrees serialize the same, so no reader sees a difference beyond identity. Returns whether `next` as
 * a whole equals `prev`.
 */
function shareUnchanged(next: unknown, prev: unknown): boolean {
  if (next === prev) return true;
  if (typeof next !== 'object' || next === null || typeof prev !== 'object' || prev === null) return false;
  const mutable = !Object.isFrozen(next);
  if (Array.isArray(next)) {
    if (!Array.isArray(prev)) return false;
    let equal = next.length === prev.length;
    for (let i = 0; i < next.length && i < prev.length; i++) {
      if (shareUnchanged(next[i], prev[i])) {
        if (mutable) next[i] = prev[i];
      } else equal = false;
    }
    return equal;
  }
  if (Array.isArray(prev)) return false;
  const a = next as Record<string, unknown>;
  const b = prev as Record<string, unknown>;
  const keys = Object.keys(a);
  const prevKeys = Object.keys(b);
  let equal = keys.length === prevKeys.length;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (equal && prevKeys[i] !== k) equal = false;
    if (!Object.hasOwn(b, k)) {
      equal = false;
      continue;
    }
    if (shareUnchanged(a[k], b[k])) {
      // `__proto__` as an own key (a label could be named so) is never assigned: that would set the prototype.
      if (mutable && a[k] !== b[k] && k !== '__proto__') a[k] = b[k];
    } else equal = false;
  }
  return equal;
}

/** What a new object shares its equal parts with before it is frozen (see shareUnchanged). */
class SharedParts {
  /** The newest object recorded, of any key: a new key's object shares its equal parts with it. */
  private lastObject: KubeObject | null = null;
  /** The newest `fieldsV1` set recorded per field manager, operation and subresource (frozen). */
  private readonly fieldSets = new Map<string, unknown>();

  /**
   * Makes `obj` (decoded, not yet frozen) share with its key's previous object (else the newest of any
   * key), and each managedFields entry's `fieldsV1` with the newest set of the same manager, operation
   * and subresource (the pods of one ReplicaSet, or the statuses one kubelet writes, repeat the same
   * field sets); then freezes it.
   */
  share(obj: KubeObject, prevObject: KubeObject | null): void {
    const sibling = prevObject ?? this.lastObject;
    if (sibling !== null) shareUnchanged(obj, sibling);
    for (const entry of obj.metadata.managedFields ?? []) {
      if (Object.isFrozen(entry) || entry.fieldsV1 === undefined) continue;
      const manager = `${entry.manager ?? ''}\0${entry.operation ?? ''}\0${entry.subresource ?? ''}`;
      const prev = this.fieldSets.get(manager);
      if (prev !== undefined && shareUnchanged(entry.fieldsV1, prev)) entry.fieldsV1 = prev as typeof entry.fieldsV1;
      else this.fieldSets.set(manager, entry.fieldsV1);
    }
    deepFreeze(obj);
    this.lastObject = obj;
  }
}

/** The cache's current objects by key; each forgets its encoding once idle for `encodingLag` changes. */
class CurrentObjects extends Map<string, KubeObject> {
  /** Changes so far. */
  private changes = 0;
  /** The keys changed within the last `encodingLag` changes, oldest first: the change that made each's object current. */
  private readonly recentlyChanged = new Map<string, number>();

  override set(key: string, obj: KubeObject): this {
    super.set(key, obj);
    this.changed(key, true);
    return this;
  }

  override delete(key: string): boolean {
    const had = super.delete(key);
    this.changed(key, false);
    return had;
  }

  override clear(): void {
    super.clear();
    this.recentlyChanged.clear();
  }

  private changed(key: string, current: boolean): void {
    this.changes++;
    this.recentlyChanged.delete(key);
    if (current) this.recentlyChanged.set(key, this.changes);
    for (const [oldest, at] of this.recentlyChanged) {
      if (at > this.changes - encodingLag) break;
      this.recentlyChanged.delete(oldest);
      const obj = this.get(oldest);
      if (obj !== undefined) forgetEncoding(obj);
    }
  }
}

export class WatchCache {
  /** The resourceVersion up to which the cache is current (last event, relist or progress bookmark). */
  resourceVersion = 0;
  /** The resourceVersion of the last relist. */
  listResourceVersion = 0;
  private cap: number;
  private cache: Array<WatchCacheEvent | undefined>;
  private startIndex = 0;
  private endIndex = 0;
  private removedEventSinceRelist = false;
  private readonly store = new CurrentObjects();
  private readonly sharing = new SharedParts();

  constructor(
    /** The storage key of an object (`/registry/pods/default/nginx`). */
    private readonly keyFunc: (obj: KubeObject) => string,
    private readonly lowerBoundCapacity = defaultLowerBoundCapacity,
    private readonly upperBoundCapacity = defaultUpperBoundCapacity,
  ) {
    this.cap = lowerBoundCapacity;
    this.cache = new Array<WatchCacheEvent | undefined>(lowerBoundCapacity);
  }

  /** Current size of the window. */
  get capacity(): number {
    return this.cap;
  }

  /** Number of events in the window. */
  get bufferedEvents(): number {
    return this.endIndex - this.startIndex;
  }

  /**
   * The window a watch can start from: a watch from resourceVersion N is served when
   * N ≥ `oldestServable` (older → 410), and gets the buffered events after N.
   */
  window(): WatchCacheWindow {
    const size = this.endIndex - this.startIndex;
    let oldest: number | null = null;
    if (this.listResourceVersion > 0 && !this.removedEventSinceRelist) oldest = this.listResourceVersion + 1;
    else if (size > 0) oldest = this.at(this.startIndex).resourceVersion;
    return {
      capacity: this.cap, bufferedEvents: size, objects: this.store.size,
      oldestServable: oldest === null ? null : oldest - 1, resourceVersion: this.resourceVersion,
    };
  }

  /** The reflector's relist: the state becomes `objects`, the window empties, the RV becomes `listRV`. */
  replace(objects: readonly KubeObject[], listRV: number): void {
    // startIndex never decreases, so positions computed before the relist stay invalid.
    this.startIndex = this.endIndex;
    this.removedEventSinceRelist = false;
    this.store.clear();
    for (const obj of objects) this.store.set(this.keyFunc(obj), deepFreeze(obj));
    this.listResourceVersion = listRV;
    this.resourceVersion = listRV;
  }

  add(obj: KubeObject, now: Time): WatchCacheEvent {
    return this.processEvent('ADDED', obj, now);
  }

  update(obj: KubeObject, now: Time): WatchCacheEvent {
    return this.processEvent('MODIFIED', obj, now);
  }

  delete(obj: KubeObject, now: Time): WatchCacheEvent {
    return this.processEvent('DELETED', obj, now);
  }

  /** A progress notification: nothing changed for this resource up to `rv`. */
  updateResourceVersion(rv: number): void {
    this.resourceVersion = rv;
  }

  getByKey(key: string): KubeObject | undefined {
    return this.store.get(key);
  }

  /** The current state (only the elements `keep` accepts, when given), ordered by key. */
  list(keep?: (key: string, object: KubeObject) => boolean): StoreElement[] {
    const out: StoreElement[] = [];
    for (const [key, object] of this.store) if (keep === undefined || keep(key, object)) out.push({ key, object });
    return out.sort((a, b) => compareKeys(a.key, b.key));
  }

  /**
   * The events a watch from `resourceVersion` must get: for 0, the current state as synthetic ADDED
   * events (positioned at the cache's RV); otherwise the buffered events after it. Throws the 410
   * when the window no longer reaches back to it.
   */
  getAllEventsSince(resourceVersion: number): WatchCacheEvent[] {
    const size = this.endIndex - this.startIndex;
    let oldest: number;
    if (this.listResourceVersion > 0 && !this.removedEventSinceRelist) oldest = this.listResourceVersion + 1;
    else if (size > 0) oldest = this.at(this.startIndex).resourceVersion;
    else throw new Error("watch cache isn't correctly initialized");

    if (resourceVersion === 0) return this.eventsFromStore();
    if (resourceVersion < oldest - 1) throw newTooOldResourceVersion(resourceVersion, oldest - 1);

    let lo = 0;
    let hi = size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.at(this.startIndex + mid).resourceVersion > resourceVersion) hi = mid;
      else lo = mid + 1;
    }
    const out: WatchCacheEvent[] = [];
    for (let i = this.startIndex + lo; i < this.endIndex; i++) out.push(this.at(i));
    return out;
  }

  /** The whole state as ADDED events at the cache's RV, in key order. */
  eventsFromStore(): WatchCacheEvent[] {
    return this.list().map(({ key, object }) => ({
      type: 'ADDED', key, object, prevObject: null, resourceVersion: this.resourceVersion, recordTime: 0,
    }));
  }

  private processEvent(type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: KubeObject, now: Time): WatchCacheEvent {
    const key = this.keyFunc(obj);
    const resourceVersion = parseResourceVersion(obj.metadata.resourceVersion ?? '');
    const prevObject = this.store.get(key) ?? null;
    this.sharing.share(obj, prevObject);
    const event: WatchCacheEvent = { type, key, object: obj, prevObject, resourceVersion, recordTime: now };
    this.updateCache(event);
    this.resourceVersion = resourceVersion;
    if (type === 'DELETED') this.store.delete(key);
    else this.store.set(key, obj);
    // The replaced object is now only history (the window's events): its value need not be kept whole.
    if (type === 'MODIFIED' && prevObject !== null) forgetEncoding(prevObject);
    return event;
  }

  private updateCache(event: WatchCacheEvent): void {
    this.resizeCache(event.recordTime);
    if (this.isFull()) {
      this.startIndex++;
      this.removedEventSinceRelist = true;
    }
    this.cache[this.endIndex % this.cap] = event;
    this.endIndex++;
  }

  private resizeCache(eventTime: Time): void {
    if (!this.isFull()) return;
    if (eventTime - this.at(this.startIndex).recordTime < eventFreshDuration) {
      const capacity = Math.min(this.cap * 2, this.upperBoundCapacity);
      if (capacity > this.cap) this.doCacheResize(capacity);
      return;
    }
    if (eventTime - this.at(this.endIndex - Math.trunc(this.cap / 4)).recordTime > eventFreshDuration) {
      const capacity = Math.max(Math.trunc(this.cap / 2), this.lowerBoundCapacity);
      if (capacity < this.cap) this.doCacheResize(capacity);
    }
  }

  private isFull(): boolean {
    return this.endIndex === this.startIndex + this.cap;
  }

  private doCacheResize(capacity: number): void {
    const resized = new Array<WatchCacheEvent | undefined>(capacity);
    if (capacity < this.cap) this.startIndex = this.endIndex - capacity;
    for (let i = this.startIndex; i < this.endIndex; i++) resized[i % capacity] = this.cache[i % this.cap];
    this.cache = resized;
    this.cap = capacity;
  }

  private at(index: number): WatchCacheEvent {
    const event = this.cache[index % this.cap];
    if (event === undefined) throw new Error(`watch cache slot ${index} is empty (window ${this.startIndex}..${this.endIndex})`);
    return event;
  }
}

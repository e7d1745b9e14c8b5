// The watch cache of one resource in front of its etcd storage (kube-apiserver 1.28).
//
// Feeding it: a reflector lists the resource prefix from etcd (pages of 10000: `key:"/registry/pods/"
// range_end:"/registry/pods0" limit:10000`), replaces the cache with the result, and watches etcd from
// the list revision + 1 with prev_kv and progress notifications. Each etcd event becomes a cache
// event dispatched, in the same step, to every client watcher; a progress notification only advances
// the cache's resourceVersion. When the etcd watch ends (its start revision was compacted, or etcd
// canceled it) the cache is not ready; a second later it terminates every client watch and relists.
//
// Serving (the reference's §D.2):
//   Get      RV ""  → etcd (quorum read); "0" → the cache (etcd while it is not ready); N → the cache
//            once its RV ≥ N.
//   GetList  etcd when RV is "", a continue token is given, limit > 0 with RV ≠ "0", or
//            resourceVersionMatch is set and not NotOlderThan; otherwise the cache (RV "0" or N, limit
//            ignored, list RV = the cache's RV).
//   Watch    always the cache: RV ""/"0" synthetic ADDED for the current state then changes; RV N the
//            buffered changes after N, or one ERROR 410 when the window no longer reaches back to N.
//   Writes   Create / GuaranteedUpdate / Delete go to etcd; updates and deletes hand the cached object
//            to the etcd store so that it can send its Txn without reading first.
// Waiting is visible: a request that must wait makes `apiserver.waitForCache` a step of its own (a stage
// of its component), then waits for the reply the cacher sends once it is ready and at RV N. A read
// waits at most 3 s for RV N, then fails with 504 `Timeout: Too large resource version: N, current: M`
// (Retry-After 1).
//
// Bookmarks: watchers with allowWatchBookmarks get a BOOKMARK (an empty object of the kind carrying the
// RV of the last change the cacher saw) about every minute and 2 s before their deadline, never before
// the cacher has seen a change. The dispatcher's 1 s ticker is modelled as a background timer set
// only while a bookmark is due, firing within 1.25 s (a tick period with its jitter) of the due time.
//
// Feature gates (1.28): WatchList (alpha, off) enables sendInitialEvents. With
// WatchFromStorageWithoutResourceVersion (off since 1.28.9; 1.28.0–1.28.8 behaved as if on) a watch
// with RV "" and no sendInitialEvents is served by etcd.
//
// Models k8s.io/apiserver/pkg/storage/cacher/cacher.go (NewCacherFromConfig, startCaching, Get,
// GetList, shouldDelegateList, Watch, dispatchEvents, processEvent, terminateAllWatchers,
// getCurrentResourceVersionFromStorage, getStartResourceVersionForWatchLockedFunc,
// getBookmarkAfterResourceVersionLockedFunc, newErrWatcher), ready.go, lister_watcher.go,
// watch_cache.go (waitUntilFreshAndBlock) and client-go tools/cache/reflector.go (ListAndWatch as the
// cacher drives it). Not modelled: the watch cache's indexes, the per-watcher channels and their
// dispatch timeouts.
//
// Trigger (cacher.go indexedWatchers, triggerValuesThreadUnsafe): a resource may name one field, as
// pods name spec.nodeName (registry/core/pod NodeNameTriggerFunc). A watcher whose field selector
// requires that field to equal V is dispatched only the changes whose object or previous object has V;
// the others could not match it and would send nothing. Dispatch keeps the watchers' registration order.

import { isStatusError, newTooLargeResourceVersion } from '../../api/errors.ts';
import { requiresExactFieldMatch, type FieldSelector } from '../../api/fields.ts';
import type { Pod } from '../../api/types/core.ts';
import type { KubeObject, Status } from '../../api/types/meta.ts';
import { awaitReply, sleep, timedOut, timerKind, type Co, type Duration, type Message, type Time, type TimerPayload } from '../../engine/index.ts';
import type { MessageKind, MessageMap } from '../../messages/index.ts';
import { CacheWatcher } from './cache-watcher.ts';
import { copyObject, copyWithResourceVersion, parseResourceVersion } from './codec.ts';
import { StorageError, storageErrors } from './errors.ts';
import type {
  GetOptions, ListOptions, ListResult, Preconditions, Storage, StorageWatch, StorageWatchEvent, StorageWatchSink, UpdateFunc,
  ValidateDeletion, WatchOptions,
} from './interface.ts';
import { everythingPredicate, hasPathPrefix, predicateMatches } from './predicate.ts';
import { WatchCache, type WatchCacheEvent } from './watch-cache.ts';
import { WatcherBookmarkTimeBuckets } from './watcher-bookmark-buckets.ts';

/** How long a read waits for the cache to reach the requested resourceVersion. */
export const blockTimeout: Duration = 3_000;
/** Retry-After of the 504 for a resourceVersion the cache has not reached. */
export const resourceVersionTooHighRetrySeconds = 1;
/** The reflector's page size when it lists etcd. */
export const storageWatchListPageSize = 10_000;
/** wait.Until's period: how long after its etcd watch ended the cacher relists. */
export const relistPeriod: Duration = 1_000;
/** The dispatcher ticks every 1 s plus up to 25 % jitter. */
export const maxDispatcherTickGap: Duration = 1_250;

export const cacherKinds = {
  /** The stage at which a request starts waiting for the cache (payload WaitForCache). */
  waitForCache: 'apiserver.waitForCache',
  /** The cacher's reply once the cache is ready and at the requested resourceVersion. */
  waitForCacheResponse: 'apiserver.waitForCacheResponse',
} as const;

/** Name of the cacher's background timer (payload data CacherTimerData). */
export const cacherBookmarkTimer = 'apiserver.cacherBookmarks';

export interface WaitForCache {
  readonly resourcePrefix: string;
  /** 0: until the cache is ready; N: until its resourceVersion is at least N. */
  readonly resourceVersion: number;
}

export interface WaitForCacheResponse {
  readonly resourcePrefix: string;
  /** The cache's resourceVersion when it answered. */
  readonly resourceVersion: number;
}

interface CacherTimerData {
  readonly resourcePrefix: string;
  readonly tick: number;
}

/**
 * What a cacher needs from the component that hosts it (kube-apiserver): the component's own engine
 * primitives. The component hands to `Cacher.receive` every message for which `cacherResourcePrefixOf`
 * names the cacher's prefix (its bookmark timers). Wiring, inside the component:
 *
 *     const watches = new EtcdWatchRouter(this.name, {
 *       call: (kind, payload) => this.call('etcd', kind, payload),
 *       send: (kind, payload) => { this.send('etcd', kind, payload); }, spawn: (co) => this.spawn(co),
 *     });
 *     const host: CacherHost = {
 *       now: () => this.now, random: () => this.rng.float(), spawn: (co) => this.spawn(co),
 *       stage: (kind, payload) => this.stage(kind, payload),
 *       reply: (m, kind, payload) => { this.reply(m, kind, payload); },
 *       setTimer: (delay, name, data, options) => { this.setTimer(delay, name, data, options); },
 *     };
 *     const watcher = new EtcdWatcher({ etcd, watches, groupResource, newFunc });
 *     const pods = new Cacher({ storage: new Etcd3Store(etcd, () => this.now, watcher), resourcePrefix: '/registry/pods',
 *       keyFunc, newFunc, host });
 *     pods.start();
 *     // receive(m): if (watches.route(m)) return; const p = cacherResourcePrefixOf(m); if (p) cachers.get(p)!.receive(m);
 */
export interface CacherHost {
  now(): Time;
  /** A float in [0, 1) from the engine's seeded RNG. */
  random(): number;
  /** Runs a coroutine as the component's own, starting now (the reflector; a relist). */
  spawn(co: Co<unknown>): void;
  /** Component.stage: sends `kind` to the component itself and resumes when it is delivered. */
  stage<K extends MessageKind>(kind: K, payload: MessageMap[K]): Co<Message<MessageMap[K]>>;
  /** Answers a message (here: a waitForCache stage, resuming the request that waits for the answer). */
  reply<K extends MessageKind>(request: Message, kind: K, payload: MessageMap[K]): void;
  setTimer<D>(delay: Duration, name: string, data: D, options: { readonly background: boolean }): void;
}

export interface CacherFeatureGates {
  /** WatchList: honour sendInitialEvents (1.28: alpha, off). */
  readonly watchList?: boolean;
  /** WatchFromStorageWithoutResourceVersion: serve watches with RV "" from etcd (off). */
  readonly watchFromStorageWithoutResourceVersion?: boolean;
}

export interface CacherConfig {
  /** The etcd storage underneath; its watch feeds the cache. */
  readonly storage: Storage;
  /** The resource's key prefix, e.g. `/registry/pods`. */
  readonly resourcePrefix: string;
  /** An object's storage key. */
  readonly keyFunc: (obj: KubeObject) => string;
  /** An empty object of the kind, for bookmarks. */
  readonly newFunc: () => KubeObject;
  readonly host: CacherHost;
  readonly featureGates?: CacherFeatureGates;
  /** The resource's trigger field and its value on an object (see the header). */
  readonly trigger?: CacherTrigger;
}

export interface CacherTrigger {
  /** The field selector label, e.g. `spec.nodeName`. */
  readonly field: string;
  readonly value: (obj: KubeObject) => string;
}

/** Pods' trigger: spec.nodeName, read as selectableFields reads it. Models pod.NodeNameTriggerFunc. */
export const podNodeNameTrigger: CacherTrigger = {
  field: 'spec.nodeName',
  value: (obj) => (obj as Pod).spec?.nodeName ?? '',
};

/** The cacher a message is for (its bookmark timer), by resource prefix; undefined for other messages. */
export function cacherResourcePrefixOf(message: Message): string | undefined {
  if (message.kind !== timerKind) return undefined;
  const timer = message.payload as TimerPayload<CacherTimerData>;
  return timer.name === cacherBookmarkTimer ? timer.data.resourcePrefix : undefined;
}

/** Whether a list must go to etcd. Models cacher.go shouldDelegateList (ConsistentListFromCache off). */
export function shouldDelegateList(opts: ListOptions): boolean {
  const consistentReadFromStorage = opts.resourceVersion === '';
  const hasContinuation = opts.predicate.continueToken !== '';
  const hasLimit = opts.predicate.limit > 0 && opts.resourceVersion !== '0';
  const unsupportedMatch = opts.resourceVersionMatch !== '' && opts.resourceVersionMatch !== 'NotOlderThan';
  return consistentReadFromStorage || hasContinuation || hasLimit || unsupportedMatch;
}

export class Cacher implements Storage {
  readonly watchCache: WatchCache;
  private readonly storage: Storage;
  private readonly host: CacherHost;
  private readonly prefix: string;
  private readonly gates: CacherFeatureGates;
  private isReady = false;
  private readyGeneration = 0;
  private readonly watchers = new Set<CacheWatcher>();
  /** With a trigger: watchers whose selector does not fix the trigger field, and the others by its value. */
  private readonly unindexedWatchers = new Set<CacheWatcher>();
  private readonly watchersByTriggerValue = new Map<string, Set<CacheWatcher>>();
  /** Registration order of each watcher, so that indexed dispatch keeps it. */
  private readonly watcherOrder = new Map<CacheWatcher, number>();
  private nextWatcherOrder = 0;
  private readonly bookmarkWatchers: WatcherBookmarkTimeBuckets;
  /** RV of the last change or progress notification the dispatcher saw; 0 = none yet (no bookmarks). */
  private lastProcessedResourceVersion = 0;
  private readonly pendingTicks = new Map<number, Time>();
  private nextTick = 1;
  /** Requests waiting for the cache, by their waitForCache stage message. */
  private waiters: Array<Message<WaitForCache>> = [];

  constructor(private readonly config: CacherConfig) {
    this.storage = config.storage;
    this.host = config.host;
    this.prefix = config.resourcePrefix;
    this.gates = config.featureGates ?? {};
    this.watchCache = new WatchCache(config.keyFunc);
    this.bookmarkWatchers = new WatcherBookmarkTimeBuckets(this.host.now());
  }

  get ready(): boolean {
    return this.isReady;
  }

  /** Number of client watches the cache is serving. */
  get watcherCount(): number {
    return this.watchers.size;
  }

  /** Starts the reflector: list, then watch. */
  start(): void {
    this.host.spawn(this.startCaching());
  }

  /** A message for this cacher (see `cacherResourcePrefixOf`). */
  receive(message: Message): void {
    if (cacherResourcePrefixOf(message) !== this.prefix) throw new Error(`cacher ${this.prefix}: unexpected message ${message.kind}`);
    this.onBookmarkTick((message.payload as TimerPayload<CacherTimerData>).data.tick);
  }

  *create(key: string, obj: KubeObject, ttlSeconds: number): Co<KubeObject> {
    return yield* this.storage.create(key, obj, ttlSeconds);
  }

  *get(key: string, opts: GetOptions): Co<KubeObject | null> {
    if (opts.resourceVersion === '') return yield* this.storage.get(key, opts);
    const getRV = parseResourceVersion(opts.resourceVersion);
    if (getRV === 0 && !this.isReady) return yield* this.storage.get(key, opts);
    yield* this.waitUntilReady();
    yield* this.waitUntilFresh(getRV);
    const obj = this.watchCache.getByKey(key);
    if (obj !== undefined) return copyObject(obj);
    if (opts.ignoreNotFound) return null;
    throw storageErrors.keyNotFound(key, this.watchCache.resourceVersion);
  }

  *getList(key: string, opts: ListOptions): Co<ListResult> {
    if (shouldDelegateList(opts)) return yield* this.storage.getList(key, opts);
    const listRV = parseResourceVersion(opts.resourceVersion);
    if (listRV === 0 && !this.isReady) return yield* this.storage.getList(key, opts);
    yield* this.waitUntilReady();
    yield* this.waitUntilFresh(listRV);
    const keep = (k: string, obj: KubeObject) => hasPathPrefix(k, key) && predicateMatches(opts.predicate, obj);
    const elements = opts.recursive ? this.watchCache.list(keep) : this.single(key).filter((e) => keep(e.key, e.object));
    const items = elements.map((e) => copyObject(e.object));
    return { items, resourceVersion: this.watchCache.resourceVersion, cost: { etcdRequests: 0, kvsRead: 0, bytesRead: 0 } };
  }

  *guaranteedUpdate(key: string, opts: { readonly ignoreNotFound: boolean; readonly preconditions?: Preconditions },
    tryUpdate: UpdateFunc, ttlSeconds = 0): Co<KubeObject> {
    // The cached object is frozen and the etcd3 store only reads it (tryUpdate gets its own copy): no copy here.
    return yield* this.storage.guaranteedUpdate(key, opts, tryUpdate, ttlSeconds, this.watchCache.getByKey(key));
  }

  *delete(key: string, preconditions: Preconditions | undefined, validateDeletion: ValidateDeletion): Co<KubeObject> {
    return yield* this.storage.delete(key, preconditions, validateDeletion, this.cachedCopy(key));
  }

  *watch(key: string, opts: WatchOptions, sink: StorageWatchSink): Co<StorageWatch> {
    const sendInitialEvents = this.gates.watchList ? opts.sendInitialEvents : undefined;
    if (this.gates.watchFromStorageWithoutResourceVersion && sendInitialEvents === undefined && opts.resourceVersion === '') {
      return yield* this.storage.watch(key, opts, sink);
    }
    const requestedWatchRV = parseResourceVersion(opts.resourceVersion);
    yield* this.waitUntilReady();
    const generation = this.readyGeneration;
    try {
      const bookmarkAfterRV = sendInitialEvents === true && opts.allowWatchBookmarks
        ? yield* this.commonResourceVersion(opts.resourceVersion, requestedWatchRV)
        : () => 0;
      const startRV = sendInitialEvents === false
        ? yield* this.commonResourceVersion(opts.resourceVersion, requestedWatchRV)
        : () => requestedWatchRV;
      if (sendInitialEvents === true) yield* this.waitUntilFresh(requestedWatchRV);
      const initial = sendInitialEvents === true ? this.watchCache.eventsFromStore() : this.watchCache.getAllEventsSince(startRV());
      if (!this.isReady || this.readyGeneration !== generation) {
        // The cache relisted while this watch was being set up: it is closed at once, as a new one would be.
        sink.end();
        return { stop: () => undefined };
      }
      const watcher = new CacheWatcher(key, opts.predicate, sink, opts.allowWatchBookmarks, opts.deadline, (w) => this.forgetWatcher(w));
      watcher.setBookmarkAfterResourceVersion(bookmarkAfterRV());
      this.addWatcher(watcher, opts.predicate.field);
      if (watcher.allowWatchBookmarks) this.queueForBookmark(watcher);
      watcher.processInterval(initial, startRV());
      return watcher;
    } catch (err) {
      return errWatcher(err, sink);
    }
  }

  /** The reflector's ListAndWatch, preceded by terminating the watchers of the previous generation. */
  private *startCaching(): Co<void> {
    this.terminateAllWatchers();
    try {
      const list = yield* this.listAll();
      this.watchCache.replace(list.items, list.resourceVersion);
      this.isReady = true;
      this.readyGeneration++;
      this.wakeWaiters();
      yield* this.storage.watch(this.prefix, {
        resourceVersion: String(list.resourceVersion),
        predicate: everythingPredicate,
        recursive: true,
        allowWatchBookmarks: false,
        progressNotify: true,
      }, { event: (e) => this.onStorageEvent(e), end: () => this.onStorageWatchEnded() });
    } catch (err) {
      if (!(err instanceof StorageError)) throw err;
      this.onStorageWatchEnded();
    }
  }

  private *listAll(): Co<{ items: KubeObject[]; resourceVersion: number }> {
    const items: KubeObject[] = [];
    let resourceVersion = 0;
    let continueToken = '';
    do {
      const page = yield* this.storage.getList(this.prefix, {
        resourceVersion: '',
        resourceVersionMatch: '',
        recursive: true,
        predicate: { ...everythingPredicate, limit: storageWatchListPageSize, continueToken },
      });
      if (resourceVersion === 0) resourceVersion = page.resourceVersion;
      items.push(...page.items);
      continueToken = page.continueToken ?? '';
    } while (continueToken !== '');
    return { items, resourceVersion };
  }

  private onStorageEvent(event: StorageWatchEvent): void {
    const now = this.host.now();
    switch (event.type) {
      case 'ADDED': return this.processEvent(this.watchCache.add(event.object, now));
      case 'MODIFIED': return this.processEvent(this.watchCache.update(event.object, now));
      case 'DELETED': return this.processEvent(this.watchCache.delete(event.object, now));
      case 'BOOKMARK': {
        const rv = parseResourceVersion(event.object.metadata.resourceVersion ?? '');
        this.watchCache.updateResourceVersion(rv);
        this.lastProcessedResourceVersion = rv;
        return this.wakeWaiters();
      }
      case 'ERROR': return;
    }
  }

  private addWatcher(watcher: CacheWatcher, field: FieldSelector): void {
    this.watchers.add(watcher);
    this.watcherOrder.set(watcher, this.nextWatcherOrder++);
    if (this.config.trigger === undefined) return;
    const value = requiresExactFieldMatch(field, this.config.trigger.field);
    if (value === undefined) {
      this.unindexedWatchers.add(watcher);
      return;
    }
    let set = this.watchersByTriggerValue.get(value);
    if (set === undefined) this.watchersByTriggerValue.set(value, (set = new Set()));
    set.add(watcher);
  }

  private forgetWatcher(watcher: CacheWatcher): void {
    this.watchers.delete(watcher);
    this.watcherOrder.delete(watcher);
    this.unindexedWatchers.delete(watcher);
    for (const [value, set] of this.watchersByTriggerValue) {
      if (set.delete(watcher) && set.size === 0) this.watchersByTriggerValue.delete(value);
    }
  }

  /** The watchers that may care about `event`, in registration order. */
  private watchersFor(event: WatchCacheEvent): Iterable<CacheWatcher> {
    const trigger = this.config.trigger;
    if (trigger === undefined) return this.watchers;
    const values = new Set([trigger.value(event.object)]);
    if (event.prevObject !== null) values.add(trigger.value(event.prevObject));
    const targets = [...this.unindexedWatchers];
    let indexed = false;
    for (const value of values) {
      const set = this.watchersByTriggerValue.get(value);
      if (set === undefined) continue;
      for (const w of set) targets.push(w);
      indexed = true;
    }
    if (indexed) targets.sort((a, b) => this.watcherOrder.get(a)! - this.watcherOrder.get(b)!);
    return targets;
  }

  private processEvent(event: WatchCacheEvent): void {
    for (const watcher of this.watchersFor(event)) watcher.add(event);
    this.lastProcessedResourceVersion = event.resourceVersion;
    this.wakeWaiters();
  }

  /** The etcd watch is over: not ready until the relist a second later. */
  private onStorageWatchEnded(): void {
    this.isReady = false;
    this.host.spawn(this.relistLater());
  }

  private *relistLater(): Co<void> {
    yield* sleep(relistPeriod, { reason: 'watch-cache-relist', resource: this.prefix });
    yield* this.startCaching();
  }

  private terminateAllWatchers(): void {
    const watchers = [...this.watchers];
    this.watchers.clear();
    this.watcherOrder.clear();
    this.unindexedWatchers.clear();
    this.watchersByTriggerValue.clear();
    for (const watcher of watchers) watcher.terminate();
  }

  /** Waits (without limit, as upstream's ready.wait) until the cache has listed. */
  private *waitUntilReady(): Co<void> {
    if (this.isReady) return;
    const request = yield* this.host.stage(cacherKinds.waitForCache, { resourcePrefix: this.prefix, resourceVersion: 0 });
    if (this.answer(request)) return;
    this.waiters.push(request);
    yield* awaitReply<WaitForCacheResponse>(request.id);
  }

  /** Waits up to blockTimeout for the cache to reach `rv`; then 504 Too large resource version. */
  private *waitUntilFresh(rv: number): Co<void> {
    if (this.watchCache.resourceVersion >= rv) return;
    const request = yield* this.host.stage(cacherKinds.waitForCache, { resourcePrefix: this.prefix, resourceVersion: rv });
    if (this.answer(request)) return;
    this.waiters.push(request);
    const reply = yield* awaitReply<WaitForCacheResponse>(request.id, blockTimeout);
    if (reply !== timedOut) return;
    this.waiters = this.waiters.filter((w) => w.id !== request.id);
    throw newTooLargeResourceVersion(rv, this.watchCache.resourceVersion, resourceVersionTooHighRetrySeconds);
  }

  private wakeWaiters(): void {
    if (this.waiters.length > 0) this.waiters = this.waiters.filter((w) => !this.answer(w));
  }

  /** Replies to a waiting request if the cache satisfies it. */
  private answer(request: Message<WaitForCache>): boolean {
    const want = request.payload.resourceVersion;
    const satisfied = want === 0 ? this.isReady : this.watchCache.resourceVersion >= want;
    if (satisfied) {
      this.host.reply(request, cacherKinds.waitForCacheResponse,
        { resourcePrefix: this.prefix, resourceVersion: this.watchCache.resourceVersion });
    }
    return satisfied;
  }

  /**
   * The resourceVersion a WatchList watch starts its bookmark (or a sendInitialEvents=false watch its
   * changes) from: RV "" → etcd's current revision; "0" → the cache's RV when the watch is registered;
   * N → N.
   */
  private *commonResourceVersion(rv: string, parsed: number): Co<() => number> {
    if (rv === '') {
      const current = yield* this.storage.getList(this.prefix, {
        resourceVersion: '', resourceVersionMatch: '', recursive: true, predicate: { ...everythingPredicate, limit: 1 },
      });
      return () => current.resourceVersion;
    }
    if (parsed === 0) return () => this.watchCache.resourceVersion;
    return () => parsed;
  }

  private single(key: string): Array<{ key: string; object: KubeObject }> {
    const obj = this.watchCache.getByKey(key);
    return obj === undefined ? [] : [{ key, object: obj }];
  }

  private cachedCopy(key: string): KubeObject | undefined {
    const obj = this.watchCache.getByKey(key);
    return obj === undefined ? undefined : copyObject(obj);
  }

  private queueForBookmark(watcher: CacheWatcher): void {
    if (this.bookmarkWatchers.add(watcher, this.host.now())) this.scheduleBookmarkTick();
  }

  /** Makes sure a tick comes within maxDispatcherTickGap of the earliest due bookmark. */
  private scheduleBookmarkTick(): void {
    const due = this.bookmarkWatchers.nextDue();
    if (due === null) return;
    const now = this.host.now();
    const from = Math.max(now, due);
    for (const at of this.pendingTicks.values()) if (at <= from + maxDispatcherTickGap) return;
    const at = from + this.host.random() * maxDispatcherTickGap;
    const tick = this.nextTick++;
    this.pendingTicks.set(tick, at);
    this.host.setTimer<CacherTimerData>(at - now, cacherBookmarkTimer, { resourcePrefix: this.prefix, tick }, { background: true });
  }

  private onBookmarkTick(tick: number): void {
    this.pendingTicks.delete(tick);
    const now = this.host.now();
    const expired = this.bookmarkWatchers.popExpired(now).filter((w) => !w.isStopped);
    if (this.lastProcessedResourceVersion !== 0) {
      const rv = this.lastProcessedResourceVersion;
      const bookmark: WatchCacheEvent = {
        type: 'BOOKMARK', key: '', object: copyWithResourceVersion(this.config.newFunc(), rv), prevObject: null, resourceVersion: rv, recordTime: now,
      };
      for (const watcher of expired) watcher.add(bookmark);
    }
    for (const watcher of expired) if (!watcher.isStopped) this.bookmarkWatchers.add(watcher, now);
    this.scheduleBookmarkTick();
  }
}

/** A watch that fails before it starts: one ERROR event with the failure as a Status, then the end. */
function errWatcher(err: unknown, sink: StorageWatchSink): StorageWatch {
  let status: Status;
  if (isStatusError(err)) status = err.status;
  else if (err instanceof StorageError) {
    status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: err.message, reason: 'InternalError', code: 500 };
  } else throw err;
  sink.event({ type: 'ERROR', object: status });
  sink.end();
  return { stop: () => undefined };
}

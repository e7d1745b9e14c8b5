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
// Waiting for the cache (ready.ts), the watchers and their trigger index (indexed-watchers.ts) and the
// bookmarks (bookmark-dispatcher.ts) have files of their own, as do the watch cache and its watchers.
//
// Feature gates (1.28): WatchList (alpha, off) enables sendInitialEvents. With
// WatchFromStorageWithoutResourceVersion (off since 1.28.9; 1.28.0–1.28.8 behaved as if on) a watch
// with RV "" and no sendInitialEvents is served by etcd.
//
// Models k8s.io/apiserver/pkg/storage/cacher/cacher.go (NewCacherFromConfig, startCaching, Get,
// GetList, shouldDelegateList, Watch, dispatchEvents, processEvent, terminateAllWatchers,
// getCurrentResourceVersionFromStorage, getStartResourceVersionForWatchLockedFunc,
// getBookmarkAfterResourceVersionLockedFunc, newErrWatcher), lister_watcher.go and client-go
// tools/cache/reflector.go (ListAndWatch as the cacher drives it). Not modelled: the watch cache's
// indexes, the per-watcher channels and their dispatch timeouts.
//
// Trigger: a resource may name one field, as pods name spec.nodeName (registry/core/pod
// NodeNameTriggerFunc); see indexed-watchers.ts.

import { isStatusError } from '../../api/errors.ts';
import type { Pod } from '../../api/types/core.ts';
import type { KubeObject, Status } from '../../api/types/meta.ts';
import { sleep, type Co, type Duration, type Message, type Time } from '../../engine/index.ts';
import type { MessageKind, MessageMap } from '../../messages/index.ts';
import { BookmarkDispatcher, cacherResourcePrefixOf } from './bookmark-dispatcher.ts';
import { CacheWatcher } from './cache-watcher.ts';
import { copyObject, parseResourceVersion } from './codec.ts';
import { StorageError, storageErrors } from './errors.ts';
import type {
  GetOptions, ListOptions, ListResult, Preconditions, Storage, StorageWatch, StorageWatchEvent, StorageWatchSink, UpdateFunc,
  ValidateDeletion, WatchOptions,
} from './interface.ts';
import { everythingPredicate, hasPathPrefix, predicateMatches } from './predicate.ts';
import { IndexedWatchers, type CacherTrigger } from './indexed-watchers.ts';
import { Ready } from './ready.ts';
import { WatchCache, type WatchCacheEvent } from './watch-cache.ts';

/** The reflector's page size when it lists etcd. */
export const storageWatchListPageSize = 10_000;
/** wait.Until's period: how long after its etcd watch ended the cacher relists. */
export const relistPeriod: Duration = 1_000;

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


/** Pods' trigger: spec.nodeName, read as selectableFields reads it. Models pod.NodeNameTriggerFunc. */
export const podNodeNameTrigger: CacherTrigger = {
  field: 'spec.nodeName',
  value: (obj) => (obj as Pod).spec?.nodeName ?? '',
};


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
  private readonly readiness: Ready;
  private readonly watchers: IndexedWatchers;
  private readonly bookmarks: BookmarkDispatcher;

  constructor(config: CacherConfig) {
    this.storage = config.storage;
    this.host = config.host;
    this.prefix = config.resourcePrefix;
    this.gates = config.featureGates ?? {};
    this.watchCache = new WatchCache(config.keyFunc);
    this.readiness = new Ready(this.host, this.prefix, this.watchCache);
    this.watchers = new IndexedWatchers(config.trigger);
    this.bookmarks = new BookmarkDispatcher(this.host, this.prefix, config.newFunc);
  }

  get ready(): boolean {
    return this.readiness.ready;
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
    this.bookmarks.receive(message);
  }

  *create(key: string, obj: KubeObject, ttlSeconds: number): Co<KubeObject> {
    return yield* this.storage.create(key, obj, ttlSeconds);
  }

  *get(key: string, opts: GetOptions): Co<KubeObject | null> {
    if (opts.resourceVersion === '') return yield* this.storage.get(key, opts, this.watchCache.getByKey(key));
    const getRV = parseResourceVersion(opts.resourceVersion);
    if (getRV === 0 && !this.readiness.ready) return yield* this.storage.get(key, opts);
    yield* this.readiness.waitUntilReady();
    yield* this.readiness.waitUntilFresh(getRV);
    const obj = this.watchCache.getByKey(key);
    if (obj !== undefined) return copyObject(obj);
    if (opts.ignoreNotFound) return null;
    throw storageErrors.keyNotFound(key, this.watchCache.resourceVersion);
  }

  *getList(key: string, opts: ListOptions): Co<ListResult> {
    if (shouldDelegateList(opts)) return yield* this.storage.getList(key, opts);
    const listRV = parseResourceVersion(opts.resourceVersion);
    if (listRV === 0 && !this.readiness.ready) return yield* this.storage.getList(key, opts);
    yield* this.readiness.waitUntilReady();
    yield* this.readiness.waitUntilFresh(listRV);
    const keep = (k: string, obj: KubeObject) => hasPathPrefix(k, key) && predicateMatches(opts.predicate, obj);
    const elements = opts.recursive ? this.watchCache.list(keep) : this.single(key).filter((e) => keep(e.key, e.object));
    const items = elements.map((e) => copyObject(e.object));
    return { items, resourceVersion: this.watchCache.resourceVersion, cost: { etcdRequests: 0, kvsRead: 0, bytesRead: 0 } };
  }

  *guaranteedUpdate(key: string, opts: { readonly ignoreNotFound: boolean; readonly preconditions?: Preconditions },
    tryUpdate: UpdateFunc, ttlSeconds = 0): Co<KubeObject> {
    // The cached object is frozen and the etcd3 store only reads it; tryUpdate gets a copy unless it says
    // it only reads the current object (opts.readsCurrentOnly: the registry copies before changing): no copy here.
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
    yield* this.readiness.waitUntilReady();
    const generation = this.readiness.generation;
    try {
      const bookmarkAfterRV = sendInitialEvents === true && opts.allowWatchBookmarks
        ? yield* this.commonResourceVersion(opts.resourceVersion, requestedWatchRV)
        : () => 0;
      const startRV = sendInitialEvents === false
        ? yield* this.commonResourceVersion(opts.resourceVersion, requestedWatchRV)
        : () => requestedWatchRV;
      if (sendInitialEvents === true) yield* this.readiness.waitUntilFresh(requestedWatchRV);
      const initial = sendInitialEvents === true ? this.watchCache.eventsFromStore() : this.watchCache.getAllEventsSince(startRV());
      if (!this.readiness.ready || this.readiness.generation !== generation) {
        // The cache relisted while this watch was being set up: it is closed at once, as a new one would be.
        sink.end();
        return { stop: () => undefined };
      }
      const watcher = new CacheWatcher(key, opts.predicate, sink, opts.allowWatchBookmarks, opts.deadline, (w) => this.watchers.forget(w));
      watcher.setBookmarkAfterResourceVersion(bookmarkAfterRV());
      this.watchers.add(watcher, opts.predicate.field);
      if (watcher.allowWatchBookmarks) this.bookmarks.add(watcher);
      watcher.processInterval(initial, startRV());
      return watcher;
    } catch (err) {
      return errWatcher(err, sink);
    }
  }

  /** The reflector's ListAndWatch, preceded by terminating the watchers of the previous generation. */
  private *startCaching(): Co<void> {
    this.watchers.terminateAll();
    try {
      const list = yield* this.listAll();
      this.watchCache.replace(list.items, list.resourceVersion);
      this.readiness.set(true);
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
        this.bookmarks.processed(rv);
        return this.readiness.wake();
      }
      case 'ERROR': return;
    }
  }

  private processEvent(event: WatchCacheEvent): void {
    for (const watcher of this.watchers.for(event)) watcher.add(event);
    this.bookmarks.processed(event.resourceVersion);
    this.readiness.wake();
  }

  /** The etcd watch is over: not ready until the relist a second later. */
  private onStorageWatchEnded(): void {
    this.readiness.set(false);
    this.host.spawn(this.relistLater());
  }

  private *relistLater(): Co<void> {
    yield* sleep(relistPeriod, { reason: 'watch-cache-relist', resource: this.prefix });
    yield* this.startCaching();
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

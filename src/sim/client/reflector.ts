// The Reflector keeps a store in step with the server: LIST, then WATCH from the list's
// resourceVersion, re-watching from the last seen resourceVersion when a watch ends and relisting when
// it cannot (410 Expired/Gone, errors). Every request is an engine message, so the trace shows each
// list, watch, relist and bookmark.
// Models k8s.io/client-go/tools/cache/reflector.go (v0.28: Run, ListAndWatch, list, watch,
// watchHandler, relistResourceVersion, resyncChan) and tools/pager/pager.go (ListPager.list).
//
// The 1.28 sequence, reproduced here:
//   LIST  ?limit=500&resourceVersion=0            first list: served by the watch cache, which ignores limit
//   WATCH ?allowWatchBookmarks=true&resourceVersion=<list RV>&timeoutSeconds=<[300,600)>&watch=true
//   watch ends normally            → WATCH again from the last RV (object or bookmark) seen
//   ERROR 410 Expired/Gone, other errors, or a "very short watch" (< 1 s, no events)
//                                  → wait the backoff (800 ms × 2ⁿ ≤ 30 s, jittered), LIST ?resourceVersion=<last RV>
//                                    (no limit: relists with an RV are served from the watch cache)
//   LIST answering Expired or "Too large resource version"
//                                  → LIST again at once with resourceVersion="" (a consistent read from etcd)
//   429 (opening a watch or ERROR) → wait the init-connection backoff, WATCH again
// Continue pages drop resourceVersion; an Expired continue page falls back to one full list.
//
// Backoff waits are background timers (`reflector.backoff`): a reflector that can only retry (a list
// refused with 403, a server that keeps failing) leaves the engine idle instead of busy forever, and
// whatever the retry then does is background work too.
//
// Not modelled: the WatchList (sendInitialEvents) streaming mode, which is off by default in 1.28; the
// expected-type and GVK checks on watch objects; the "InternalError retry" budget (an internal error
// ends the watch like any other error).

import { isStatusError, StatusError } from '../api/errors.ts';
import type { KubeObject, List, Status } from '../api/types/meta.ts';
import type { HttpWatchEvent } from '../wire/http.ts';
import type { Co, Duration } from '../engine/index.ts';
import { minute, second } from '../engine/index.ts';
import { ExponentialBackoffManager, reflectorBackoff } from './backoff.ts';
import type { ClientHost, TimerHandle } from './client-component.ts';
import type { ListOptions, ResourceClient, Watch } from './rest-client.ts';

/** What a Reflector writes to (cache.ReflectorStore). The informer implements it. */
export interface ReflectorStore<T> {
  /** The result of a (re)list: the store's new content at `resourceVersion`. */
  replace(items: readonly T[], resourceVersion: string): void;
  add(obj: T): void;
  update(obj: T): void;
  delete(obj: T): void;
  /** The resync timer fired. */
  resync(): void;
}

export interface ReflectorOptions {
  /** Watch one namespace; all namespaces when unset. */
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /** Store.Resync every this often (a background timer); 0 never. */
  readonly resyncPeriod?: Duration;
  /** WatchListPageSize; 0 leaves the pager's choice (500 for RV "0" or "", unpaged for RV N). */
  readonly pageSize?: number;
}

/** reflector.go minWatchTimeout: watches ask for a timeout in [5 min, 10 min). */
export const minWatchTimeout: Duration = 5 * minute;
/** pager.go defaultPageSize. */
export const defaultPageSize = 500;

/** isExpiredError: 410 with reason Expired or Gone. */
export function isExpiredError(err: unknown): boolean {
  return isStatusError(err) && (err.reason === 'Expired' || err.reason === 'Gone');
}

/** isTooLargeResourceVersionError: a ResourceVersionTooLarge cause (or its message on a 504 without one). */
export function isTooLargeResourceVersionError(err: unknown): boolean {
  if (!isStatusError(err)) return false;
  if (err.status.details?.causes?.some((c) => c.reason === 'ResourceVersionTooLarge')) return true;
  return err.reason === 'Timeout' && err.message.includes('Too large resource version');
}

export class Reflector<T extends KubeObject> {
  private lastSyncResourceVersion = '';
  private lastSyncResourceVersionUnavailable = false;
  /** The first RV "0" list came back in pages: the server honours limit, keep paging relists. */
  private paginatedResult = false;
  private readonly backoff: ExponentialBackoffManager;
  private readonly initConnBackoff: ExponentialBackoffManager;
  private watch: Watch | null = null;
  private resyncTimer: TimerHandle | null = null;
  private backoffTimer: TimerHandle | null = null;
  private running = false;
  /** Lists made so far (the first one included). */
  listCount = 0;

  constructor(private readonly host: ClientHost, private readonly client: ResourceClient<T>,
    private readonly store: ReflectorStore<T>, private readonly options: ReflectorOptions = {}) {
    this.backoff = new ExponentialBackoffManager(reflectorBackoff, () => host.rng);
    this.initConnBackoff = new ExponentialBackoffManager(reflectorBackoff, () => host.rng);
  }

  /** The resourceVersion of the last list, watch event or bookmark seen. */
  get lastSyncRV(): string {
    return this.lastSyncResourceVersion;
  }

  /** Starts ListAndWatch now (Reflector.Run). */
  run(): void {
    if (this.running) return;
    this.running = true;
    this.host.spawn(this.listAndWatch());
  }

  /** Stops the watch, the resync timer and every retry. */
  stop(): void {
    this.running = false;
    this.endRound();
  }

  /** relistResourceVersion: "" after an unavailable RV, "0" before the first sync, else the last RV. */
  relistResourceVersion(): string {
    if (this.lastSyncResourceVersionUnavailable) return '';
    return this.lastSyncResourceVersion === '' ? '0' : this.lastSyncResourceVersion;
  }

  private *listAndWatch(): Co<void> {
    let list: { items: T[]; resourceVersion: string };
    try {
      list = yield* this.list();
    } catch {
      this.relist();
      return;
    }
    if (!this.running) return;
    this.store.replace(list.items, list.resourceVersion);
    this.lastSyncResourceVersion = list.resourceVersion;
    this.startResync();
    yield* this.startWatch();
  }

  private *list(): Co<{ items: T[]; resourceVersion: string }> {
    this.listCount++;
    const resourceVersion = this.relistResourceVersion();
    let pageSize = defaultPageSize;
    if (this.options.pageSize) pageSize = this.options.pageSize;
    else if (!this.paginatedResult && resourceVersion !== '' && resourceVersion !== '0') pageSize = 0;
    let result: { items: T[]; resourceVersion: string; paginated: boolean };
    try {
      result = yield* this.listPages(resourceVersion, pageSize);
    } catch (err) {
      if (!isExpiredError(err) && !isTooLargeResourceVersionError(err)) throw err;
      this.lastSyncResourceVersionUnavailable = true;
      result = yield* this.listPages(this.relistResourceVersion(), pageSize);
    }
    if (resourceVersion === '0' && result.paginated) this.paginatedResult = true;
    this.lastSyncResourceVersionUnavailable = false;
    return result;
  }

  /** ListPager.list: pages follow `continue` without resourceVersion; an Expired later page falls back to a full list. */
  private *listPages(resourceVersion: string, pageSize: number): Co<{ items: T[]; resourceVersion: string; paginated: boolean }> {
    let options: ListOptions = { ...this.selectors(), resourceVersion, limit: pageSize };
    const items: T[] = [];
    let listRV: string | null = null;
    let paginated = false;
    for (;;) {
      let page: List<T>;
      try {
        page = yield* this.client.list(this.options.namespace, options);
      } catch (err) {
        if (!isExpiredError(err) || !options.continue) throw err;
        const full = yield* this.client.list(this.options.namespace, { ...this.selectors(), resourceVersion });
        return { items: full.items, resourceVersion: full.metadata.resourceVersion ?? '', paginated };
      }
      listRV ??= page.metadata.resourceVersion ?? '';
      items.push(...page.items);
      if (!page.metadata.continue) return { items, resourceVersion: listRV, paginated };
      options = { ...this.selectors(), limit: pageSize, continue: page.metadata.continue };
      paginated = true;
    }
  }

  private selectors(): ListOptions {
    const { labelSelector, fieldSelector } = this.options;
    return { ...(labelSelector ? { labelSelector } : {}), ...(fieldSelector ? { fieldSelector } : {}) };
  }

  private *startWatch(): Co<void> {
    if (!this.running) return;
    const timeoutSeconds = Math.floor((minWatchTimeout / second) * (this.host.rng.float() + 1));
    const options: ListOptions = {
      ...this.selectors(), resourceVersion: this.lastSyncResourceVersion, timeoutSeconds, allowWatchBookmarks: true,
    };
    const started = this.host.now;
    let events = 0;
    let watch: Watch;
    try {
      watch = yield* this.client.watch(this.options.namespace, options, {
        event: (e) => {
          events++;
          this.watchEvent(e);
        },
        end: () => {
          this.watch = null;
          if (!this.running) return;
          if (events === 0 && this.host.now - started < second) this.relist();
          else this.host.spawn(this.startWatch());
        },
      });
    } catch (err) {
      if (!this.running) return;
      if (isStatusError(err) && err.code === 429) this.afterBackoff(this.initConnBackoff, () => this.startWatch());
      else this.relist();
      return;
    }
    if (this.running) this.watch = watch;
    else watch.stop();
  }

  /** watchHandler for one event: store writes and the last RV; an ERROR ends this ListAndWatch. */
  private watchEvent(event: HttpWatchEvent): void {
    if (event.type === 'ERROR') {
      const err = new StatusError(event.object as Status);
      this.watch?.stop();
      this.watch = null;
      if (err.code === 429) this.afterBackoff(this.initConnBackoff, () => this.startWatch());
      else this.relist();
      return;
    }
    const obj = event.object as T;
    switch (event.type) {
      case 'ADDED': this.store.add(obj); break;
      case 'MODIFIED': this.store.update(obj); break;
      case 'DELETED': this.store.delete(obj); break;
      case 'BOOKMARK': break;
    }
    const rv = obj.metadata?.resourceVersion;
    if (rv) this.lastSyncResourceVersion = rv;
  }

  /** ListAndWatch returned: stop this round's watch and resync, then BackoffUntil runs it again. */
  private relist(): void {
    this.endRound();
    this.afterBackoff(this.backoff, () => this.listAndWatch());
  }

  /** Runs `next` after the manager's next backoff, on a background timer (see the module header). */
  private afterBackoff(manager: ExponentialBackoffManager, next: () => Co<void>): void {
    if (!this.running) return;
    this.backoffTimer = this.host.after(manager.next(this.host.now), 'reflector.backoff', () => {
      this.backoffTimer = null;
      if (this.running) this.host.spawn(next());
    }, { background: true });
  }

  private endRound(): void {
    this.backoffTimer?.cancel();
    this.backoffTimer = null;
    this.watch?.stop();
    this.watch = null;
    this.resyncTimer?.cancel();
    this.resyncTimer = null;
  }

  private startResync(): void {
    const period = this.options.resyncPeriod ?? 0;
    if (period <= 0) return;
    this.resyncTimer = this.host.after(period, 'reflector.resync', () => {
      this.store.resync();
      this.startResync();
    }, { background: true });
  }
}

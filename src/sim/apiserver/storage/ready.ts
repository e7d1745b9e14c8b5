// Whether a cacher may serve reads, and the requests waiting until it may: a cacher is ready once its
// reflector has listed and not ready from the end of its etcd watch until the relist. Each time it
// becomes ready its generation grows, so that a watch set up across a relist can tell.
//
// Waiting is visible: a request that must wait makes `apiserver.waitForCache` a step of its own (a stage
// of the host component), then waits for the reply sent once the cache is ready and at RV N. A wait for
// ready has no limit (as ready.wait); a wait for RV N lasts at most blockTimeout, then fails with 504
// `Timeout: Too large resource version: N, current: M` (Retry-After 1).
//
// Models k8s.io/apiserver/pkg/storage/cacher/ready.go (ready, wait, set, check) and watch_cache.go
// (waitUntilFreshAndBlock).

import { newTooLargeResourceVersion } from '../../api/errors.ts';
import { awaitReply, timedOut, type Co, type Duration, type Message } from '../../engine/index.ts';
import type { CacherHost } from './cacher.ts';
import type { WatchCache } from './watch-cache.ts';

/** How long a read waits for the cache to reach the requested resourceVersion. */
export const blockTimeout: Duration = 3_000;
/** Retry-After of the 504 for a resourceVersion the cache has not reached. */
export const resourceVersionTooHighRetrySeconds = 1;

export const cacherKinds = {
  /** The stage at which a request starts waiting for the cache (payload WaitForCache). */
  waitForCache: 'apiserver.waitForCache',
  /** The cacher's reply once the cache is ready and at the requested resourceVersion. */
  waitForCacheResponse: 'apiserver.waitForCacheResponse',
} as const;

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

export class Ready {
  private isReady = false;
  private readyGeneration = 0;
  /** Requests waiting for the cache, by their waitForCache stage message. */
  private waiters: Array<Message<WaitForCache>> = [];

  constructor(private readonly host: CacherHost, private readonly prefix: string, private readonly watchCache: WatchCache) {}

  get ready(): boolean {
    return this.isReady;
  }

  /** Grows each time the cache becomes ready. */
  get generation(): number {
    return this.readyGeneration;
  }

  /** Ready (a new generation; the requests it satisfies are answered) or not ready. */
  set(ready: boolean): void {
    this.isReady = ready;
    if (!ready) return;
    this.readyGeneration++;
    this.wake();
  }

  /** Waits (without limit, as upstream's ready.wait) until the cache has listed. */
  *waitUntilReady(): Co<void> {
    if (this.isReady) return;
    const request = yield* this.host.stage(cacherKinds.waitForCache, { resourcePrefix: this.prefix, resourceVersion: 0 });
    if (this.answer(request)) return;
    this.waiters.push(request);
    yield* awaitReply<WaitForCacheResponse>(request.id);
  }

  /** Waits up to blockTimeout for the cache to reach `rv`; then 504 Too large resource version. */
  *waitUntilFresh(rv: number): Co<void> {
    if (this.watchCache.resourceVersion >= rv) return;
    const request = yield* this.host.stage(cacherKinds.waitForCache, { resourcePrefix: this.prefix, resourceVersion: rv });
    if (this.answer(request)) return;
    this.waiters.push(request);
    const reply = yield* awaitReply<WaitForCacheResponse>(request.id, blockTimeout);
    if (reply !== timedOut) return;
    this.waiters = this.waiters.filter((w) => w.id !== request.id);
    throw newTooLargeResourceVersion(rv, this.watchCache.resourceVersion, resourceVersionTooHighRetrySeconds);
  }

  /** Answers the waiting requests the cache now satisfies (after its resourceVersion moved). */
  wake(): void {
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
}

// A watch served straight from etcd: what uncached resources (events, whose watch cache size is 0)
// give their clients, and what feeds the cacher's own cache.
//
//   RV "" or "0"  Range over the key (or prefix), one ADDED per KV, then an etcd watch from the Range's
//                 header revision + 1
//   RV N          an etcd watch from N + 1
//
// Every etcd watch asks for prev_kv, so that a DELETED event carries the object as it was (with the
// deletion's revision as resourceVersion) and a selector can see a MODIFIED object leave or enter it.
// PUT with create_revision == mod_revision → ADDED, other PUTs → MODIFIED, DELETE → DELETED. With
// `progressNotify`, etcd's progress notifications become BOOKMARK events (an empty object of the kind
// carrying the notification's revision). A compacted start revision ends the watch with one ERROR event:
// 410 Expired `The resourceVersion for the provided watch is too old.`; any other failure with a 500.
//
// Models k8s.io/apiserver/pkg/storage/etcd3/watcher.go (startWatching, sync, transform,
// transformErrorToEvent), etcd3/event.go (parseKV, parseEvent), etcd3/errors.go (interpretWatchError)
// and etcd3/store.go Watch.

import { expiredMessages, newInternalError, newInvalid, newResourceExpired, type StatusError } from '../../api/errors.ts';
import { FieldPath, fieldError } from '../../api/field.ts';
import type { GroupResource } from '../../api/gvk.ts';
import { goQuote } from '../../go/strconv.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import type { Co } from '../../engine/index.ts';
import { ErrGRPCFutureRev, prefixEnd, type Event, type WatchResponse } from '../../etcd/index.ts';
import { copyWithResourceVersion, decodeObject, decodeToFreeze, parseResourceVersion } from './codec.ts';
import type { EtcdClient } from './etcd-client.ts';
import type { EtcdWatch, EtcdWatchClient } from './etcd-watch-client.ts';
import type { StorageWatch, StorageWatchEvent, StorageWatchSink, WatchOptions } from './interface.ts';
import { predicateMatches, selectsEverything } from './predicate.ts';

export interface EtcdWatcherConfig {
  readonly etcd: EtcdClient;
  readonly watches: EtcdWatchClient;
  readonly groupResource: GroupResource;
  /** An empty object of the resource's kind (`{kind: 'Pod', apiVersion: 'v1', metadata: {}}`), for bookmarks. */
  readonly newFunc: () => KubeObject;
}

export class EtcdWatcher {
  constructor(private readonly config: EtcdWatcherConfig) {}

  /**
   * Starts a watch; returns once etcd has created it (after the initial Range for RV ""/"0"). Throws
   * for a resourceVersion that is not a number, and 422 for sendInitialEvents beyond what etcd can do.
   */
  *watch(key: string, opts: WatchOptions, sink: StorageWatchSink): Co<StorageWatch> {
    const legacyCompatible = !opts.allowWatchBookmarks && (opts.resourceVersion === '' || opts.resourceVersion === '0');
    if (opts.sendInitialEvents !== undefined && !legacyCompatible) {
      const { group, resource } = this.config.groupResource;
      throw newInvalid({ group, kind: resource }, '',
        [fieldError.forbidden(FieldPath.of('sendInitialEvents'), 'for watch is unsupported by an etcd cluster')]);
    }
    const rev = parseResourceVersion(opts.resourceVersion);
    const watchKey = opts.recursive && !key.endsWith('/') ? `${key}/` : key;
    const chan = new EtcdWatchChan(this.config, watchKey, opts, sink);
    yield* chan.start(rev);
    return chan;
  }
}

class EtcdWatchChan implements StorageWatch {
  private done = false;
  private etcdWatch: EtcdWatch | null = null;

  constructor(
    private readonly config: EtcdWatcherConfig,
    private readonly key: string,
    private readonly opts: WatchOptions,
    private readonly sink: StorageWatchSink,
  ) {}

  stop(): void {
    if (this.done) return;
    this.done = true;
    this.etcdWatch?.cancel();
  }

  *start(rev: number): Co<void> {
    const rangeEnd = this.opts.recursive ? prefixEnd(this.key) : undefined;
    let initialRev = rev;
    if (initialRev === 0) {
      const reply = yield* this.config.etcd.range({ key: this.key, ...(rangeEnd !== undefined ? { rangeEnd } : {}) });
      if (this.done) return;
      if (!reply.ok) return this.fail(newInternalError(reply.error.message));
      initialRev = reply.response.header.revision;
      for (const kv of reply.response.kvs) {
        const obj = decodeObject(kv.value, kv.modRevision);
        if (this.matches(obj)) this.sink.event({ type: 'ADDED', object: obj });
      }
    }
    const watch = yield* this.config.watches.watch({
      key: this.key,
      ...(rangeEnd !== undefined ? { rangeEnd } : {}),
      startRevision: initialRev + 1,
      prevKv: true,
      ...(this.opts.progressNotify ? { progressNotify: true } : {}),
    }, (response) => this.onResponse(response));
    if (this.done) {
      watch.cancel();
      return;
    }
    this.etcdWatch = watch;
    if (watch.created.canceled) this.fail(newInternalError(watch.created.cancelReason));
  }

  private onResponse(response: WatchResponse): void {
    if (this.done) return;
    if (response.compactRevision !== 0) return this.fail(newResourceExpired(expiredMessages.watch));
    if (response.canceled) return this.fail(newInternalError(response.cancelReason !== '' ? response.cancelReason : ErrGRPCFutureRev.message));
    if (response.events.length === 0) {
      if (!response.created && response.header.revision !== 0) {
        this.sink.event({ type: 'BOOKMARK', object: copyWithResourceVersion(this.config.newFunc(), response.header.revision) });
      }
      return;
    }
    for (const event of response.events) {
      const isCreate = event.type === 'PUT' && event.kv.createRevision === event.kv.modRevision;
      if (!isCreate && event.prevKv === undefined) {
        return this.fail(newInternalError(
          `etcd event received with PrevKv=nil (key=${goQuote(event.kv.key)}, modRevision=${event.kv.modRevision}, type=${event.type})`));
      }
      const out = this.transform(event, isCreate);
      if (out !== null) this.sink.event(out);
    }
  }

  /** `event.prevKv` is present unless the event creates the key. */
  private transform(event: Event, isCreate: boolean): StorageWatchEvent | null {
    const rev = event.kv.modRevision;
    const prevKv = event.prevKv;
    if (event.type === 'DELETE') {
      const old = decodeObject(prevKv!.value, rev);
      return this.matches(old) ? { type: 'DELETED', object: old } : null;
    }
    // The watch cache freezes it unchanged; one never frozen (a storage watch's client's) is not copied for others.
    const cur = decodeToFreeze(event.kv.value, rev);
    if (isCreate) return this.matches(cur) ? { type: 'ADDED', object: cur } : null;
    if (selectsEverything(this.opts.predicate)) return { type: 'MODIFIED', object: cur };
    const curPasses = this.matches(cur);
    const old = decodeObject(prevKv!.value, rev);
    const oldPasses = this.matches(old);
    if (curPasses) return { type: oldPasses ? 'MODIFIED' : 'ADDED', object: cur };
    return oldPasses ? { type: 'DELETED', object: old } : null;
  }

  private matches(obj: KubeObject): boolean {
    return predicateMatches(this.opts.predicate, obj);
  }

  private fail(err: StatusError): void {
    this.done = true;
    this.etcdWatch?.cancel();
    this.sink.event({ type: 'ERROR', object: err.status });
    this.sink.end();
  }
}

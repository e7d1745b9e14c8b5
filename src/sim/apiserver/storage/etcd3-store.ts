// The storage interface on etcd: every operation is one or a few etcd RPCs whose shape is what
// kube-apiserver 1.28 sends, so the request-stats lines the UI shows are the real ones:
//   Create           Txn  If mod_revision(key) == 0      Then Put(key, value[, lease])
//   GuaranteedUpdate Txn  If mod_revision(key) == orig   Then Put(key, value)       Else Range(key)
//   Delete           Txn  If mod_revision(key) == orig   Then DeleteRange(key)      Else Range(key)
//   Get / GetList    Range (a list ranges over `<prefix>/` to its prefix end; selectors are applied here,
//                   after decoding every KV: the cost the seeds warn about)
//   Watch            see EtcdWatcher
// Given a cached copy of the object (the watch cache's), GuaranteedUpdate and Delete skip their first
// Range and send the Txn at once, comparing against the cached mod_revision; they read etcd only when
// that Txn fails, or when a precondition, the update or the deletion check fails on data that may be
// stale (and fail only if it was not).
// Models k8s.io/apiserver/pkg/storage/etcd3/store.go (Create, Get, GetList, GuaranteedUpdate,
// conditionalDelete, getStateFromObject, validateMinimumResourceVersion, Watch) and etcd3/errors.go.

import { newBadRequest, newResourceExpired, newTooLargeResourceVersion, expiredMessages, newContinueExpired } from '../../api/errors.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import type { Co, Time } from '../../engine/index.ts';
import { ErrGRPCCompacted } from '../../etcd/errors.ts';
import { noLease, prefixEnd, type EtcdReply, type KeyValue, type LeaseID, type RangeRequest, type RangeResponse, type TxnResponse } from '../../etcd/index.ts';
import { decodeObject, encodeObject, parseResourceVersion, storedCopy, type StorageMediaType } from './codec.ts';
import { decodeContinue, encodeContinue } from './continue-token.ts';
import type { EtcdClient } from './etcd-client.ts';
import type { EtcdWatcher } from './etcd-watcher.ts';
import { storageErrors } from './errors.ts';
import {
  checkPreconditions, type GetOptions, type GuaranteedUpdateOptions, type ListOptions, type ListResult, type Preconditions, type Storage,
  type StorageWatch, type StorageWatchSink, type UpdateFunc, type ValidateDeletion, type WatchOptions,
} from './interface.ts';
import { LeaseManager } from './lease-manager.ts';
import { predicateMatches, selectsEverything } from './predicate.ts';
import { copyJson } from '../../api/json-copy.ts';

/** The most KVs one paging round asks etcd for once the limit has doubled (1.28). */
export const maxEtcdPageLimit = 10_000;

interface CurrentState {
  readonly obj: KubeObject | null;
  readonly data: string;
  readonly rev: number;
}

export class Etcd3Store implements Storage {
  readonly leaseManager: LeaseManager;

  /** `mediaType`: how values are written (`--storage-media-type`); values of either type are read. */
  constructor(private readonly etcd: EtcdClient, now: () => Time, private readonly watcher?: EtcdWatcher,
    readonly mediaType: StorageMediaType = 'protobuf') {
    this.leaseManager = new LeaseManager(etcd, now);
  }

  *create(key: string, obj: KubeObject, ttlSeconds: number): Co<KubeObject> {
    if (obj.metadata.resourceVersion) throw new Error('resourceVersion should not be set on objects to be created');
    const value = encodeObject(obj, this.mediaType);
    const stored = storedCopy(obj, value);
    const lease = ttlSeconds > 0 ? yield* this.leaseManager.getLease(ttlSeconds) : noLease;
    const response = ok(key, yield* this.etcd.txn({
      compare: [{ target: 'MOD', key, modRevision: 0 }],
      success: [{ requestPut: putRequest(key, value, lease) }],
      failure: [],
    }));
    if (!response.succeeded) throw storageErrors.keyExists(key);
    return stored.at(response.header.revision);
  }

  *get(key: string, opts: GetOptions, cachedObject?: KubeObject): Co<KubeObject | null> {
    const minRv = parseResourceVersion(opts.resourceVersion);
    const response = ok(key, yield* this.etcd.range({ key }));
    validateMinimumResourceVersion(minRv, response.header.revision);
    const kv = response.kvs[0];
    if (!kv) {
      if (opts.ignoreNotFound) return null;
      throw storageErrors.keyNotFound(key);
    }
    return decodeObject(kv.value, kv.modRevision, cachedObject);
  }

  *getList(key: string, opts: ListOptions): Co<ListResult> {
    const pred = opts.predicate;
    const keyPrefix = opts.recursive && !key.endsWith('/') ? `${key}/` : key;
    const paging = pred.limit > 0;
    const fromRv = parseResourceVersion(opts.resourceVersion);
    let withRev = 0;
    let rangeKey = opts.recursive ? keyPrefix : key;
    let continueKey = '';
    if (pred.continueToken !== '') {
      if (!opts.recursive) throw newBadRequest('continue key is not supported on non-recursive list');
      const decoded = decodeContinue(pred.continueToken, keyPrefix);
      if (!decoded.ok) throw newBadRequest(decoded.error);
      if (opts.resourceVersion !== '' && opts.resourceVersion !== '0') {
        throw newBadRequest('specifying resource version is not allowed when using continue');
      }
      rangeKey = decoded.value.fromKey;
      continueKey = decoded.value.fromKey;
      if (decoded.value.rv > 0) withRev = decoded.value.rv;
    } else if (fromRv > 0) {
      if (opts.resourceVersionMatch === 'Exact' || (opts.resourceVersionMatch === '' && paging)) withRev = fromRv;
    }

    const items: KubeObject[] = [];
    const cost = { etcdRequests: 0, kvsRead: 0, bytesRead: 0 };
    let etcdLimit = pred.limit;
    let lastKey = '';
    let hasMore: boolean;
    let last: RangeResponse;
    for (;;) {
      const request: RangeRequest = {
        key: rangeKey,
        ...(opts.recursive ? { rangeEnd: prefixEnd(keyPrefix) } : {}),
        ...(paging ? { limit: etcdLimit } : {}),
        ...(withRev > 0 ? { revision: withRev } : {}),
      };
      const reply = yield* this.etcd.range(request);
      if (!reply.ok) {
        if (reply.error.message === ErrGRPCCompacted.message) {
          if (paging && continueKey !== '') throw newContinueExpired(encodeContinue(continueKey, keyPrefix, -1));
          throw newResourceExpired(expiredMessages.list);
        }
        throw storageErrors.unreachable(key, reply.error.message);
      }
      last = reply.response;
      cost.etcdRequests++;
      cost.kvsRead += last.kvs.length;
      for (const kv of last.kvs) cost.bytesRead += kv.key.length + kv.value.length;
      validateMinimumResourceVersion(fromRv, last.header.revision);
      hasMore = last.more;
      if (last.kvs.length === 0 && hasMore) throw new Error('no results were found, but etcd indicated there were more values remaining');
      for (const kv of last.kvs) {
        if (paging && items.length >= pred.limit) {
          hasMore = true;
          break;
        }
        lastKey = kv.key;
        const obj = decodeObject(kv.value, kv.modRevision);
        if (predicateMatches(pred, obj)) items.push(obj);
      }
      if (withRev === 0) withRev = last.header.revision;
      if (!hasMore || !paging) break;
      if (items.length >= pred.limit) break;
      if (etcdLimit < maxEtcdPageLimit) etcdLimit = Math.min(etcdLimit * 2, maxEtcdPageLimit);
      rangeKey = `${lastKey}\u0000`;
    }
    if (hasMore) {
      const selectorless = selectsEverything(pred);
      return {
        items,
        resourceVersion: withRev,
        continueToken: encodeContinue(`${lastKey}\u0000`, keyPrefix, withRev),
        ...(selectorless ? { remainingItemCount: last.count - pred.limit } : {}),
        cost,
      };
    }
    return { items, resourceVersion: withRev, cost };
  }

  *guaranteedUpdate(key: string, opts: GuaranteedUpdateOptions,
    tryUpdate: UpdateFunc, ttlSeconds = 0, cachedExistingObject?: KubeObject): Co<KubeObject> {
    let state = cachedExistingObject ? stateFromObject(cachedExistingObject, this.mediaType) : yield* this.currentState(key, opts.ignoreNotFound);
    let isCurrent = cachedExistingObject === undefined;
    for (;;) {
      const current = state.obj ?? emptyObject();
      let updated: KubeObject;
      try {
        checkPreconditions(opts.preconditions, key, current);
        updated = yield* tryUpdate(opts.readsCurrentOnly === true ? current : structuredCloneObject(current));
      } catch (err) {
        // A failure on possibly stale cached data: read etcd, and fail only if the data was current.
        if (isCurrent) throw err;
        const cachedRev = state.rev;
        state = yield* this.currentState(key, opts.ignoreNotFound);
        isCurrent = true;
        if (state.rev === cachedRev) throw err;
        continue;
      }
      const data = encodeObject(updated, this.mediaType);
      if (state.obj && data === state.data) {
        // Nothing to write; with cached data, confirm against etcd first.
        if (!isCurrent) {
          state = yield* this.currentState(key, opts.ignoreNotFound);
          isCurrent = true;
          if (data !== state.data) continue;
        }
        return decodeObject(state.data, state.rev);
      }
      const stored = storedCopy(updated, data);
      const lease = ttlSeconds > 0 ? yield* this.leaseManager.getLease(ttlSeconds) : noLease;
      const response = ok(key, yield* this.etcd.txn({
        compare: [{ target: 'MOD', key, modRevision: state.rev }],
        success: [{ requestPut: putRequest(key, data, lease) }],
        failure: [{ requestRange: { key } }],
      }));
      if (response.succeeded) return stored.at(response.header.revision);
      state = stateFromRange(key, response, opts.ignoreNotFound);
      isCurrent = true;
    }
  }

  *delete(key: string, preconditions: Preconditions | undefined, validateDeletion: ValidateDeletion,
    cachedExistingObject?: KubeObject): Co<KubeObject> {
    let state = cachedExistingObject ? stateFromObject(cachedExistingObject, this.mediaType) : yield* this.currentState(key, false);
    let isCurrent = cachedExistingObject === undefined;
    for (;;) {
      const current = state.obj!;
      try {
        checkPreconditions(preconditions, key, current);
        validateDeletion(current);
      } catch (err) {
        if (isCurrent) throw err;
        const cachedRev = state.rev;
        state = yield* this.currentState(key, false);
        isCurrent = true;
        if (state.rev === cachedRev) throw err;
        continue;
      }
      const response = ok(key, yield* this.etcd.txn({
        compare: [{ target: 'MOD', key, modRevision: state.rev }],
        success: [{ requestDeleteRange: { key } }],
        failure: [{ requestRange: { key } }],
      }));
      if (response.succeeded) return decodeObject(state.data, response.header.revision);
      state = stateFromRange(key, response, false);
      isCurrent = true;
    }
  }

  *watch(key: string, opts: WatchOptions, sink: StorageWatchSink): Co<StorageWatch> {
    if (this.watcher === undefined) throw new Error(`Etcd3Store: watch of ${key} needs an EtcdWatcher (constructor argument)`);
    return yield* this.watcher.watch(key, opts, sink);
  }

  private *currentState(key: string, ignoreNotFound: boolean): Co<CurrentState> {
    const response = ok(key, yield* this.etcd.range({ key }));
    return stateFromKv(key, response.kvs[0], ignoreNotFound);
  }
}

function ok<R>(key: string, reply: EtcdReply<R>): R {
  if (!reply.ok) throw storageErrors.unreachable(key, reply.error.message);
  return reply.response;
}

function putRequest(key: string, value: string, lease: LeaseID): { key: string; value: string; lease?: LeaseID } {
  return lease === noLease ? { key, value } : { key, value, lease };
}

function stateFromRange(key: string, txn: TxnResponse, ignoreNotFound: boolean): CurrentState {
  const range = txn.responses[0]?.responseRange;
  if (!range) throw new Error(`txn on ${key} failed without the range response of its else branch`);
  return stateFromKv(key, range.kvs[0], ignoreNotFound);
}

/** The state a cached object stands for: its bytes as stored, at its resourceVersion. */
function stateFromObject(obj: KubeObject, mediaType: StorageMediaType): CurrentState {
  return { obj, data: encodeObject(obj, mediaType), rev: parseResourceVersion(obj.metadata.resourceVersion ?? '') };
}

function stateFromKv(key: string, kv: KeyValue | undefined, ignoreNotFound: boolean): CurrentState {
  if (!kv) {
    if (!ignoreNotFound) throw storageErrors.keyNotFound(key);
    return { obj: null, data: '', rev: 0 };
  }
  return { obj: decodeObject(kv.value, kv.modRevision), data: kv.value, rev: kv.modRevision };
}

/** Models etcd3/store.go validateMinimumResourceVersion: the etcd path fails at once, no Retry-After. */
function validateMinimumResourceVersion(minimum: number, actual: number): void {
  if (minimum > actual) throw newTooLargeResourceVersion(minimum, actual, 0);
}

function emptyObject(): KubeObject {
  return { metadata: {} };
}

function structuredCloneObject(obj: KubeObject): KubeObject {
  return copyJson(obj);
}

// The storage interface the registry sees: one implementation on etcd (`Etcd3Store`), one in front of it
// (the watch cache). Operations are coroutines (they wait on etcd replies); failures are thrown as
// StorageError (translated by the registry) or StatusError (already a Kubernetes answer).
// Models k8s.io/apiserver/pkg/storage/interfaces.go (Interface, Preconditions, ListOptions).

import type { FieldSelector } from '../../api/fields.ts';
import type { Selector } from '../../api/labels.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import type { Co, Time } from '../../engine/index.ts';
import { preconditionFailed } from './errors.ts';

export interface Preconditions {
  readonly uid?: string;
  readonly resourceVersion?: string;
}

/** Throws the storage precondition error when `obj` does not satisfy `p`. */
export function checkPreconditions(p: Preconditions | undefined, key: string, obj: KubeObject): void {
  if (!p) return;
  const meta = obj.metadata;
  if (p.uid !== undefined && p.uid !== (meta.uid ?? '')) throw preconditionFailed(key, 'UID', p.uid, meta.uid ?? '');
  if (p.resourceVersion !== undefined && p.resourceVersion !== (meta.resourceVersion ?? '')) {
    throw preconditionFailed(key, 'ResourceVersion', p.resourceVersion, meta.resourceVersion ?? '');
  }
}

export type ResourceVersionMatch = '' | 'Exact' | 'NotOlderThan';

/** Which objects a list or watch wants: selectors plus the attributes they are evaluated on. */
export interface SelectionPredicate {
  readonly label: Selector;
  readonly field: FieldSelector;
  /** Page size; 0 = no limit. */
  readonly limit: number;
  /** The continue token of the previous page, or ''. */
  readonly continueToken: string;
  readonly getAttrs: (obj: KubeObject) => { labels: Readonly<Record<string, string>>; fields: Readonly<Record<string, string>> };
}

export interface GetOptions {
  /** '' = most recent (quorum read), '0' = any, 'N' = not older than N. */
  readonly resourceVersion: string;
  readonly ignoreNotFound?: boolean;
}

export interface ListOptions {
  readonly resourceVersion: string;
  readonly resourceVersionMatch: ResourceVersionMatch;
  readonly predicate: SelectionPredicate;
  /** True for collections (a prefix), false for a single key. */
  readonly recursive: boolean;
}

export interface ListResult {
  readonly items: KubeObject[];
  /** The list's resourceVersion. */
  readonly resourceVersion: number;
  readonly continueToken?: string;
  readonly remainingItemCount?: number;
  /** What etcd sent to answer this list, for the cost the seeds warn about. */
  readonly cost: { readonly etcdRequests: number; readonly kvsRead: number; readonly bytesRead: number };
}

/**
 * Computes the desired object from the current one, or throws a StatusError. A coroutine, because the
 * registry runs admission in it; it runs again, on the fresh object, when the write loses a race.
 */
export type UpdateFunc = (current: KubeObject) => Co<KubeObject>;

/** Checks whether the current object may be deleted, or throws a StatusError. */
export type ValidateDeletion = (current: KubeObject) => void;

export type StorageWatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One event on a storage watch. ERROR events carry a Status object (e.g. 410 Expired). */
export interface StorageWatchEvent {
  readonly type: StorageWatchEventType;
  readonly object: KubeObject;
}

export interface WatchOptions {
  /** '' and '0': synthetic ADDED events for the current state first; 'N': changes after N only. */
  readonly resourceVersion: string;
  readonly predicate: SelectionPredicate;
  readonly recursive: boolean;
  readonly allowWatchBookmarks: boolean;
  /** WatchList (requires resourceVersionMatch=NotOlderThan). */
  readonly sendInitialEvents?: boolean;
  /** Virtual time at which the handler will end the watch (its timeoutSeconds); the cacher sends a last bookmark 2 s before. */
  readonly deadline?: Time;
  /** Ask etcd for progress notifications and pass them on as BOOKMARK events (the cacher's own watch). */
  readonly progressNotify?: boolean;
}

/**
 * Where a watch's events go, in order, each within the step that produced it. Events may arrive before
 * `watch` returns (the initial ADDED events, or an ERROR): a handler writes its response header first,
 * or buffers them.
 */
export interface StorageWatchSink {
  event(event: StorageWatchEvent): void;
  /**
   * The storage ended the watch: after an ERROR event, or when the cacher terminates its watchers to
   * relist. Called at most once, and never after `stop()`.
   */
  end(): void;
}

/** A running watch. `stop` ends it from the client side: no event and no `end` follow. */
export interface StorageWatch {
  stop(): void;
}

export interface GuaranteedUpdateOptions {
  readonly ignoreNotFound: boolean;
  readonly preconditions?: Preconditions;
  readonly readsCurrentOnly?: boolean;
}

export interface Storage {
  create(key: string, obj: KubeObject, ttlSeconds: number): Co<KubeObject>;
  /**
   * Null when the key does not exist and `ignoreNotFound` is set. `cachedObject`: the watch cache's
   * object of the key, if any; the etcd store still reads etcd, and when etcd's value is the one that
   * object was decoded from, copies it instead of decoding the value again.
   */
  get(key: string, opts: GetOptions, cachedObject?: KubeObject): Co<KubeObject | null>;
  getList(key: string, opts: ListOptions): Co<ListResult>;
  /**
   * `cachedExistingObject`: a possibly stale copy of the current object (the watch cache's). The etcd
   * store then skips its initial read and sends the Txn at once, reading only when the Txn, a
   * precondition or the update fails on it. `opts.readsCurrentOnly`: `tryUpdate` never changes the object
   * it is given (it copies it before changing anything), so the store may give it the cached object
   * itself, frozen, instead of a copy.
   */
  guaranteedUpdate(key: string, opts: GuaranteedUpdateOptions,
    tryUpdate: UpdateFunc, ttlSeconds?: number, cachedExistingObject?: KubeObject): Co<KubeObject>;
  delete(key: string, preconditions: Preconditions | undefined, validateDeletion: ValidateDeletion,
    cachedExistingObject?: KubeObject): Co<KubeObject>;
  /**
   * Starts a watch and returns once it is established; its events go to `sink`. Throws (for the
   * handler to answer) only for a malformed request; failures after that, such as 410 for a too old
   * resourceVersion, are one ERROR event followed by `sink.end()`.
   */
  watch(key: string, opts: WatchOptions, sink: StorageWatchSink): Co<StorageWatch>;
}

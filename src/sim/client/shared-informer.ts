// A shared informer: one Reflector per resource and selector feeding one Indexer and any number of
// event handlers. Controllers read the Indexer through listers and react to handler callbacks.
// Models k8s.io/client-go/tools/cache/shared_informer.go (sharedIndexInformer, HandleDeltas,
// AddEventHandler replaying the cache), controller.go (processDeltas) and delta_fifo.go (Replace,
// Delete, Resync, DeletedFinalStateUnknown).
//
// Simplification: no DeltaFIFO. client-go queues deltas per key and a single goroutine pops them into
// the Indexer and the handlers; here the Reflector's writes are applied at once, in the order the
// DeltaFIFO would pop them when nothing is backed up: Replace applies the list in list order
// (`Replaced`: update if known, else add) then deletes the known keys the list lacks (in key order) as
// DeletedFinalStateUnknown; a delete of an unknown object is dropped, as DeltaFIFO.Delete does.
// Handlers run synchronously in the delivery that carried the change (client-go runs each handler on
// its own goroutine with an unbounded buffer), and every handler resyncs on the informer's period
// (no per-handler resync periods).

import type { KubeObject } from '../api/types/meta.ts';
import type { ClientHost } from './client-component.ts';
import { Reflector, type ReflectorOptions, type ReflectorStore } from './reflector.ts';
import type { ResourceClient } from './rest-client.ts';
import { Indexer, metaNamespaceKey, namespaceIndex } from './store.ts';

/** What a handler's OnDelete gets when a relist, not a watch event, revealed the deletion. */
export class DeletedFinalStateUnknown<T> {
  constructor(readonly key: string, readonly obj: T) {}
}

/** cache.ResourceEventHandler; every callback is optional. */
export interface ResourceEventHandler<T> {
  /** `isInInitialList`: the object came with the informer's first list (before hasSynced). */
  onAdd?(obj: T, isInInitialList: boolean): void;
  /** Also called with old === new on resync and for unchanged objects of a relist. */
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T | DeletedFinalStateUnknown<T>): void;
}

export class SharedIndexInformer<T extends KubeObject> implements ReflectorStore<T> {
  readonly indexer = new Indexer<T>();
  readonly reflector: Reflector<T>;
  private readonly handlers: ResourceEventHandler<T>[] = [];
  private readonly syncWaiters: (() => void)[] = [];
  private synced = false;
  private started = false;

  constructor(host: ClientHost, readonly client: ResourceClient<T>, options: ReflectorOptions = {}) {
    this.reflector = new Reflector(host, client, this, options);
  }

  /** Registers a handler; once started, it first gets OnAdd(obj, true) for every cached object. */
  addEventHandler(handler: ResourceEventHandler<T>): void {
    this.handlers.push(handler);
    if (this.started) for (const obj of this.indexer.list()) handler.onAdd?.(obj, true);
  }

  run(): void {
    if (this.started) return;
    this.started = true;
    this.reflector.run();
  }

  stop(): void {
    this.reflector.stop();
  }

  /** True once the first list has been applied to the Indexer and the handlers. */
  hasSynced(): boolean {
    return this.synced;
  }

  /** Calls `f` once the informer has synced (at once if it has). */
  onSynced(f: () => void): void {
    if (this.synced) f();
    else this.syncWaiters.push(f);
  }

  /** Lister: the cached object, if any. */
  get(namespace: string, name: string): T | undefined {
    return this.indexer.getByKey(namespace ? `${namespace}/${name}` : name);
  }

  /** Lister: cached objects, all or in one namespace, in key order. */
  list(namespace?: string): T[] {
    return namespace === undefined ? this.indexer.list() : this.indexer.byIndex(namespaceIndex, namespace);
  }

  replace(items: readonly T[], _resourceVersion: string): void {
    const isInInitialList = !this.synced;
    const listed = new Set<string>();
    for (const obj of items) {
      listed.add(metaNamespaceKey(obj));
      this.upsert(obj, isInInitialList);
    }
    for (const key of this.indexer.listKeys()) {
      if (listed.has(key)) continue;
      const old = this.indexer.getByKey(key)!;
      this.indexer.deleteKey(key);
      const tombstone = new DeletedFinalStateUnknown(key, old);
      for (const h of this.handlers) h.onDelete?.(tombstone);
    }
    if (!this.synced) {
      this.synced = true;
      for (const f of this.syncWaiters.splice(0)) f();
    }
  }

  add(obj: T): void {
    this.upsert(obj, false);
  }

  update(obj: T): void {
    this.upsert(obj, false);
  }

  delete(obj: T): void {
    if (this.indexer.get(obj) === undefined) return;
    this.indexer.delete(obj);
    for (const h of this.handlers) h.onDelete?.(obj);
  }

  resync(): void {
    for (const obj of this.indexer.list()) for (const h of this.handlers) h.onUpdate?.(obj, obj);
  }

  private upsert(obj: T, isInInitialList: boolean): void {
    const old = this.indexer.get(obj);
    if (old !== undefined) {
      this.indexer.update(obj);
      for (const h of this.handlers) h.onUpdate?.(old, obj);
    } else {
      this.indexer.add(obj);
      for (const h of this.handlers) h.onAdd?.(obj, isInInitialList);
    }
  }
}

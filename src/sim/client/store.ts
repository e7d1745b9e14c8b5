// The informer's local cache: objects by `namespace/name` key, with named indexes. client-go's
// ThreadSafeStore guards a map with a lock; a component is single-threaded here, so it is a Map.
// Models k8s.io/client-go/tools/cache/store.go (MetaNamespaceKeyFunc, SplitMetaNamespaceKey),
// index.go (Indexers, MetaNamespaceIndexFunc) and thread_safe_store.go (index upkeep on every write).
//
// Contract: listers read what the informer last wrote; objects are the decoded watch/list objects and
// must be treated as read-only (client-go's "do not mutate cache objects" rule).

import type { KubeObject } from '../api/types/meta.ts';

/** `namespace/name`, or `name` for cluster-scoped objects (cache.MetaNamespaceKeyFunc). */
export function metaNamespaceKey(obj: KubeObject): string {
  const { namespace, name = '' } = obj.metadata;
  return namespace ? `${namespace}/${name}` : name;
}

/** The inverse of metaNamespaceKey: `[namespace, name]`, namespace `''` for cluster-scoped keys. */
export function splitMetaNamespaceKey(key: string): [string, string] {
  const parts = key.split('/');
  if (parts.length === 1) return ['', key];
  if (parts.length === 2) return [parts[0]!, parts[1]!];
  throw new Error(`unexpected key format: "${key}"`);
}

/** Values an object is indexed under for one index. */
export type IndexFunc<T> = (obj: T) => readonly string[];

/**
 * Told, for one index, every time a key joins or leaves an indexed value or the key's object is
 * replaced under it (an update with unchanged values). No client-go analogue: it lets a controller keep
 * a summary of one value's objects up to date instead of re-reading them all on every sync.
 */
export type IndexChangeListener = (value: string, key: string) => void;

/** The index every informer has: objects by namespace (cache.NamespaceIndex). */
export const namespaceIndex = 'namespace';

export function metaNamespaceIndexFunc(obj: KubeObject): readonly string[] {
  return [obj.metadata.namespace ?? ''];
}

/**
 * A set of keys with its sorted order and the objects in that order kept until they change: listers call
 * list and byIndex on every sync, and most writes replace an object without changing which keys a set
 * holds, so the sort is redone only after a key joins or leaves.
 */
class KeySet<T> {
  readonly keys = new Set<string>();
  private sorted: string[] | null = null;
  private objects: T[] | null = null;

  add(key: string): void {
    if (this.keys.has(key)) {
      this.objects = null;
      return;
    }
    this.keys.add(key);
    this.sorted = null;
    this.objects = null;
  }

  delete(key: string): void {
    if (!this.keys.delete(key)) return;
    this.sorted = null;
    this.objects = null;
  }

  /** One of the keys' objects was replaced. */
  changed(): void {
    this.objects = null;
  }

  sortedKeys(): readonly string[] {
    return (this.sorted ??= [...this.keys].sort());
  }

  /** A fresh array of the objects in key order. */
  list(items: ReadonlyMap<string, T>): T[] {
    this.objects ??= this.sortedKeys().map((k) => items.get(k)!);
    return this.objects.slice();
  }
}

export class Indexer<T extends KubeObject> {
  private readonly items = new Map<string, T>();
  private readonly all = new KeySet<T>();
  /** index name → indexed value → keys. */
  private readonly indices = new Map<string, Map<string, KeySet<T>>>();
  private readonly indexers = new Map<string, IndexFunc<T>>();
  private readonly listeners = new Map<string, IndexChangeListener[]>();

  constructor(indexers: Readonly<Record<string, IndexFunc<T>>> = { [namespaceIndex]: metaNamespaceIndexFunc }) {
    for (const [name, fn] of Object.entries(indexers)) this.addIndexer(name, fn);
  }

  /** Adds an index; existing objects are indexed at once. */
  addIndexer(name: string, fn: IndexFunc<T>): void {
    if (this.indexers.has(name)) throw new Error(`indexer conflict: ${name}`);
    this.indexers.set(name, fn);
    this.indices.set(name, new Map());
    for (const [key, obj] of this.items) this.indexOne(name, fn(obj), key);
  }

  /** True once an index of this name exists (AddIndexers refuses a second one). */
  hasIndexer(name: string): boolean {
    return this.indexers.has(name);
  }

  /** Calls `listener` on every change under the index `name` (see IndexChangeListener). */
  onIndexChange(name: string, listener: IndexChangeListener): void {
    if (!this.indexers.has(name)) throw new Error(`Index with name ${name} does not exist`);
    let list = this.listeners.get(name);
    if (!list) this.listeners.set(name, (list = []));
    list.push(listener);
  }

  /** Add and Update are the same write: replace the key's object and re-index it. */
  add(obj: T): void {
    this.put(metaNamespaceKey(obj), obj);
  }

  update(obj: T): void {
    this.put(metaNamespaceKey(obj), obj);
  }

  delete(obj: T): void {
    this.deleteKey(metaNamespaceKey(obj));
  }

  deleteKey(key: string): void {
    const old = this.items.get(key);
    if (old === undefined) return;
    for (const [name, fn] of this.indexers) this.unindexOne(name, fn(old), key);
    this.items.delete(key);
    this.all.delete(key);
  }

  get(obj: KubeObject): T | undefined {
    return this.items.get(metaNamespaceKey(obj));
  }

  getByKey(key: string): T | undefined {
    return this.items.get(key);
  }

  /** Keys in sorted order (client-go's map order is random; sorted is one deterministic choice). */
  listKeys(): string[] {
    return this.all.sortedKeys().slice();
  }

  /** Objects in key order. */
  list(): T[] {
    return this.all.list(this.items);
  }

  get size(): number {
    return this.items.size;
  }

  /** Objects whose `indexName` values include `value`, in key order. */
  byIndex(indexName: string, value: string): T[] {
    const index = this.indices.get(indexName);
    if (!index) throw new Error(`Index with name ${indexName} does not exist`);
    return index.get(value)?.list(this.items) ?? [];
  }

  /** Replaces the whole content (Store.Replace). */
  replace(objects: readonly T[]): void {
    for (const key of [...this.items.keys()]) this.deleteKey(key);
    for (const obj of objects) this.put(metaNamespaceKey(obj), obj);
  }

  private put(key: string, obj: T): void {
    const old = this.items.get(key);
    this.items.set(key, obj);
    this.all.add(key);
    for (const [name, fn] of this.indexers) {
      const values = fn(obj);
      if (old !== undefined) {
        const oldValues = fn(old);
        if (sameValues(oldValues, values)) {
          const index = this.indices.get(name)!;
          const listeners = this.listeners.get(name);
          for (const value of values) {
            index.get(value)!.changed();
            if (listeners) for (const listener of listeners) listener(value, key);
          }
          continue;
        }
        this.unindexOne(name, oldValues, key);
      }
      this.indexOne(name, values, key);
    }
  }

  private indexOne(name: string, values: readonly string[], key: string): void {
    const index = this.indices.get(name)!;
    const listeners = this.listeners.get(name);
    for (const value of values) {
      let keys = index.get(value);
      if (!keys) index.set(value, (keys = new KeySet()));
      keys.add(key);
      if (listeners) for (const listener of listeners) listener(value, key);
    }
  }

  private unindexOne(name: string, values: readonly string[], key: string): void {
    const index = this.indices.get(name)!;
    const listeners = this.listeners.get(name);
    for (const value of values) {
      const keys = index.get(value);
      if (!keys) continue;
      keys.delete(key);
      if (keys.keys.size === 0) index.delete(value);
      if (listeners) for (const listener of listeners) listener(value, key);
    }
  }
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

// A cacher's client watchers, indexed by the resource's trigger field when it has one (pods:
// spec.nodeName). A watcher whose field selector requires the trigger field to equal V is dispatched
// only the changes whose object or previous object has V; the others could not match it and would send
// nothing. Dispatch keeps the watchers' registration order.
//
// Models k8s.io/apiserver/pkg/storage/cacher/cacher.go (indexedWatchers, addWatcher, forgetWatcher,
// triggerValuesThreadUnsafe, startDispatching's watcher selection, terminateAllWatchers).

import { requiresExactFieldMatch, type FieldSelector } from '../../api/fields.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import type { CacheWatcher } from './cache-watcher.ts';
import type { WatchCacheEvent } from './watch-cache.ts';

export interface CacherTrigger {
  /** The field selector label, e.g. `spec.nodeName`. */
  readonly field: string;
  readonly value: (obj: KubeObject) => string;
}

export class IndexedWatchers {
  private readonly all = new Set<CacheWatcher>();
  /** With a trigger: watchers whose selector does not fix the trigger field, and the others by its value. */
  private readonly unindexed = new Set<CacheWatcher>();
  private readonly byTriggerValue = new Map<string, Set<CacheWatcher>>();
  /** Registration order of each watcher, so that indexed dispatch keeps it. */
  private readonly order = new Map<CacheWatcher, number>();
  private nextOrder = 0;

  constructor(private readonly trigger: CacherTrigger | undefined) {}

  get size(): number {
    return this.all.size;
  }

  add(watcher: CacheWatcher, field: FieldSelector): void {
    this.all.add(watcher);
    this.order.set(watcher, this.nextOrder++);
    if (this.trigger === undefined) return;
    const value = requiresExactFieldMatch(field, this.trigger.field);
    if (value === undefined) {
      this.unindexed.add(watcher);
      return;
    }
    let set = this.byTriggerValue.get(value);
    if (set === undefined) this.byTriggerValue.set(value, (set = new Set()));
    set.add(watcher);
  }

  forget(watcher: CacheWatcher): void {
    this.all.delete(watcher);
    this.order.delete(watcher);
    this.unindexed.delete(watcher);
    for (const [value, set] of this.byTriggerValue) {
      if (set.delete(watcher) && set.size === 0) this.byTriggerValue.delete(value);
    }
  }

  /** The watchers that may care about `event`, in registration order. */
  for(event: WatchCacheEvent): Iterable<CacheWatcher> {
    const trigger = this.trigger;
    if (trigger === undefined) return this.all;
    const values = new Set([trigger.value(event.object)]);
    if (event.prevObject !== null) values.add(trigger.value(event.prevObject));
    const targets = [...this.unindexed];
    let indexed = false;
    for (const value of values) {
      const set = this.byTriggerValue.get(value);
      if (set === undefined) continue;
      for (const w of set) targets.push(w);
      indexed = true;
    }
    if (indexed) targets.sort((a, b) => this.order.get(a)! - this.order.get(b)!);
    return targets;
  }

  /** Forgets every watcher, then terminates each (in registration order). */
  terminateAll(): void {
    const watchers = [...this.all];
    this.all.clear();
    this.order.clear();
    this.unindexed.clear();
    this.byTriggerValue.clear();
    for (const watcher of watchers) watcher.terminate();
  }
}

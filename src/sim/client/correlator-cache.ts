// The event correlator's caches: groupcache's LRU over small integer keys, and the pool of the strings
// those keys are made of. Models github.com/golang/groupcache/lru (the cache client-go's
// events_cache.go keeps its three caches in).

/**
 * The strings the correlator's keys are made of, each kept once for as long as an entry names it: a
 * string has a small id (reused after its last entry is gone) and a count of the entries holding it.
 */
export class StringPool {
  constructor(private readonly limit: number) {}

  private readonly ids = new Map<string, number>();
  private readonly strings: (string | undefined)[] = [];
  private readonly refs: number[] = [];
  private readonly free: number[] = [];

  id(s: string): number | undefined {
    return this.ids.get(s);
  }

  string(id: number): string {
    return this.strings[id]!;
  }

  acquire(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.free.pop() ?? this.strings.length;
      if (id >= this.limit) throw new Error('event correlator: more key strings than its caches can hold');
      this.ids.set(s, id);
      this.strings[id] = s;
      this.refs[id] = 0;
    }
    this.refs[id]!++;
    return id;
  }

  release(id: number): void {
    if (--this.refs[id]! > 0) return;
    this.ids.delete(this.strings[id]!);
    this.strings[id] = undefined;
    this.free.push(id);
  }
}

/**
 * Ids of live key strings stay below this: each cache entry names at most two, and 2 × 3 × 4096 live
 * entries fit, so `first * keySpan + second` is a small integer that names one pair.
 */
export const keySpan = 32_768;

/**
 * groupcache's lru.Cache: `get` and `set` make the entry the newest; past `size` entries the oldest goes.
 * `set` says whether the key is new; `dropped` hears of each entry evicted.
 */
export class LruCache<V> {
  private readonly entries = new Map<number, V>();

  constructor(private readonly size: number, private readonly dropped: (key: number, value: V) => void) {}

  get(key: number | undefined): V | undefined {
    if (key === undefined) return undefined;
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: number, value: V): boolean {
    const had = this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.size) {
      const [oldest, old] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.dropped(oldest, old);
    }
    return !had;
  }
}

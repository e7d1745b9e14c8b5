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
 * entries fit, so `first * keySpan + second` is a small integer (below 2³⁰) that names one pair.
 */
export const keySpan = 32_768;

/** Rows a table starts with; it doubles them as entries arrive, up to its size. */
const initialRows = 16;

/**
 * groupcache's lru.Cache over small integer keys, each entry a row of `width` numbers. `get` and `add`
 * make the entry the newest; an `add` past `size` entries evicts the oldest (`dropped` hears its key
 * and row first) and gives its row to the new entry. The recency order is a doubly linked list through
 * the rows, so a hit moves nothing but two links; the rows are typed arrays, grown by doubling.
 */
export class LruTable {
  private readonly rows = new Map<number, number>();
  private keys = new Int32Array(initialRows);
  private older = new Int32Array(initialRows);
  private newer = new Int32Array(initialRows);
  private values: Float64Array;
  private oldest = -1;
  private newest = -1;

  constructor(private readonly size: number, private readonly width: number, private readonly dropped: (key: number, row: number) => void) {
    this.values = new Float64Array(initialRows * width);
  }

  /** The entry's row, made the newest; -1 when the key is not cached. */
  get(key: number | undefined): number {
    const row = key === undefined ? undefined : this.rows.get(key);
    if (row === undefined) return -1;
    this.unlink(row);
    this.link(row);
    return row;
  }

  /** Adds an absent key as the newest entry and returns its row (zeroed). */
  add(key: number): number {
    let row: number;
    if (this.rows.size < this.size) {
      row = this.rows.size;
      if (row === this.keys.length) this.grow();
    } else {
      row = this.oldest;
      const evicted = this.keys[row]!;
      this.unlink(row);
      this.rows.delete(evicted);
      this.dropped(evicted, row);
      this.values.fill(0, row * this.width, (row + 1) * this.width);
    }
    this.rows.set(key, row);
    this.keys[row] = key;
    this.link(row);
    return row;
  }

  at(row: number, column: number): number {
    return this.values[row * this.width + column]!;
  }

  put(row: number, column: number, value: number): void {
    this.values[row * this.width + column] = value;
  }

  private grow(): void {
    const rows = Math.min(this.keys.length * 2, this.size);
    const widen = (a: Int32Array): Int32Array<ArrayBuffer> => {
      const b = new Int32Array(rows);
      b.set(a);
      return b;
    };
    this.keys = widen(this.keys);
    this.older = widen(this.older);
    this.newer = widen(this.newer);
    const values = new Float64Array(rows * this.width);
    values.set(this.values);
    this.values = values;
  }

  private unlink(row: number): void {
    const older = this.older[row]!;
    const newer = this.newer[row]!;
    if (older < 0) this.oldest = newer;
    else this.newer[older] = newer;
    if (newer < 0) this.newest = older;
    else this.older[newer] = older;
  }

  private link(row: number): void {
    this.older[row] = this.newest;
    this.newer[row] = -1;
    if (this.newest < 0) this.oldest = row;
    else this.newer[this.newest] = row;
    this.newest = row;
  }
}

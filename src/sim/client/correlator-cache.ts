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

/** A key's home slot in a table of `mask + 1` slots (a multiply-xorshift mix: the keys are pairs of small ids). */
function home(key: number, mask: number): number {
  const h = Math.imul(key ^ (key >>> 15), 0x2c1b3c6d);
  return (h ^ (h >>> 12)) & mask;
}

/**
 * groupcache's lru.Cache over small integer keys, each entry a row of `width` numbers. `get` and `add`
 * make the entry the newest; an `add` past `size` entries evicts the oldest (`dropped` hears its key
 * and row first) and gives its row to the new entry. The recency order is a doubly linked list through
 * the rows, so a hit moves nothing but two links; keys find their rows in an open-addressing table
 * (linear probing, at most half full, deletion by shifting back); all of it in typed arrays, grown by
 * doubling.
 */
export class LruTable {
  private count = 0;
  private slots = new Int32Array(initialRows * 2);
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
    if (key === undefined) return -1;
    const row = this.slots[this.slotOf(key)]! - 1;
    if (row < 0) return -1;
    this.unlink(row);
    this.link(row);
    return row;
  }

  /** Adds an absent key as the newest entry and returns its row (zeroed). */
  add(key: number): number {
    let row: number;
    if (this.count < this.size) {
      row = this.count++;
      if (row === this.keys.length) this.grow();
    } else {
      row = this.oldest;
      const evicted = this.keys[row]!;
      this.unlink(row);
      this.unslot(this.slotOf(evicted));
      this.dropped(evicted, row);
      this.values.fill(0, row * this.width, (row + 1) * this.width);
    }
    this.keys[row] = key;
    this.slots[this.slotOf(key)] = row + 1;
    this.link(row);
    return row;
  }

  at(row: number, column: number): number {
    return this.values[row * this.width + column]!;
  }

  put(row: number, column: number, value: number): void {
    this.values[row * this.width + column] = value;
  }

  /** The slot holding the key's row (as row + 1), or the empty slot where it would go. */
  private slotOf(key: number): number {
    const mask = this.slots.length - 1;
    for (let i = home(key, mask); ; i = (i + 1) & mask) {
      const r = this.slots[i]!;
      if (r === 0 || this.keys[r - 1] === key) return i;
    }
  }

  /** Empties a slot, shifting back the entries after it that probed past it. */
  private unslot(slot: number): void {
    const mask = this.slots.length - 1;
    let hole = slot;
    for (let j = (hole + 1) & mask; this.slots[j] !== 0; j = (j + 1) & mask) {
      const h = home(this.keys[this.slots[j]! - 1]!, mask);
      // The entry at j may fill the hole unless its home lies cyclically in (hole, j].
      if (hole < j ? h <= hole || h > j : h <= hole && h > j) {
        this.slots[hole] = this.slots[j]!;
        hole = j;
      }
    }
    this.slots[hole] = 0;
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
    let slots = this.slots.length;
    while (slots < rows * 2) slots *= 2;
    this.slots = new Int32Array(slots);
    for (let row = 0; row < this.count - 1; row++) this.slots[this.slotOf(this.keys[row]!)] = row + 1;
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

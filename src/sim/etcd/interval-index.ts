// An interval index for stabbing queries: which intervals [begin, end) contain a key. Intervals change
// rarely (a watch is created or canceled) and are queried on every event, so the index is an array
// sorted by begin, queried as an implicit balanced tree whose nodes know the largest end below them:
// a query visits O(log n + matches) nodes. `end === ''` means unbounded (etcd's affine string
// intervals). Plays the role of pkg/adt's IntervalTree in mvcc/watcher_group.go.

import { compareKeys } from './bytes.ts';

interface Entry<V> {
  readonly begin: string;
  readonly end: string;
  readonly value: V;
}

/** Compares interval ends, '' being +∞. */
function compareEnds(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return 1;
  if (b === '') return -1;
  return compareKeys(a, b);
}

export class IntervalIndex<V> {
  private entries: Array<Entry<V>> = [];
  /** maxEnd[mid]: largest end in the subtree whose root is `mid`. */
  private maxEnd: string[] = [];

  get size(): number {
    return this.entries.length;
  }

  /** The value stored for exactly [begin, end), if any. */
  find(begin: string, end: string): V | undefined {
    const i = this.indexOf(begin, end);
    return i >= 0 ? this.entries[i]!.value : undefined;
  }

  insert(begin: string, end: string, value: V): void {
    if (this.indexOf(begin, end) >= 0) throw new Error(`interval [${begin}, ${end}) is already indexed`);
    const entry = { begin, end, value };
    this.entries.splice(this.lowerBound(begin, end), 0, entry);
    this.rebuild();
  }

  delete(begin: string, end: string): boolean {
    const i = this.indexOf(begin, end);
    if (i < 0) return false;
    this.entries.splice(i, 1);
    this.rebuild();
    return true;
  }

  /** Values of every interval that contains `key`. */
  stab(key: string): V[] {
    const out: V[] = [];
    this.visit(0, this.entries.length, key, out);
    return out;
  }

  /** True when some interval contains `key`. */
  intersects(key: string): boolean {
    return this.stab(key).length > 0;
  }

  private visit(lo: number, hi: number, key: string, out: V[]): void {
    if (lo >= hi) return;
    const mid = (lo + hi) >>> 1;
    const maxEnd = this.maxEnd[mid]!;
    if (maxEnd !== '' && compareKeys(maxEnd, key) <= 0) return;
    this.visit(lo, mid, key, out);
    const e = this.entries[mid]!;
    if (compareKeys(e.begin, key) > 0) return; // everything right of mid begins after key
    if (e.end === '' || compareKeys(key, e.end) < 0) out.push(e.value);
    this.visit(mid + 1, hi, key, out);
  }

  private rebuild(): void {
    this.maxEnd = new Array<string>(this.entries.length);
    const build = (lo: number, hi: number): string | null => {
      if (lo >= hi) return null;
      const mid = (lo + hi) >>> 1;
      let max = this.entries[mid]!.end;
      for (const child of [build(lo, mid), build(mid + 1, hi)]) if (child !== null && compareEnds(child, max) > 0) max = child;
      this.maxEnd[mid] = max;
      return max;
    };
    build(0, this.entries.length);
  }

  private lowerBound(begin: string, end: string): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const e = this.entries[mid]!;
      const c = compareKeys(e.begin, begin) || compareEnds(e.end, end);
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private indexOf(begin: string, end: string): number {
    const i = this.lowerBound(begin, end);
    const e = this.entries[i];
    return e !== undefined && e.begin === begin && e.end === end ? i : -1;
  }
}

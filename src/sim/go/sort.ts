// Go's sort.Sort as of Go 1.19 (the toolchain etcd 3.4.23's Debian build uses): pattern-defeating
// quicksort over Less/Swap. It is not stable, so equal elements end up in an order only this exact
// algorithm reproduces; etcd sorts Range results with it (sort_target other than KEY), which makes the
// order of ties visible to clients. Up to 12 elements it is an insertion sort (stable).
// Models the pdqsort of Go 1.19's src/sort/zsortinterface.go and sort.go (xorshift, nextPowerOfTwo);
// goSliceStable is sort.SliceStable (zsortfunc.go's stable: insertion-sorted blocks, symmetric merges).

export interface SortData {
  less(i: number, j: number): boolean;
  swap(i: number, j: number): void;
}

const unknownHint = 0;
const increasingHint = 1;
const decreasingHint = 2;

/** bits.Len: the number of bits needed to represent n. */
function bitsLen(n: number): number {
  return n === 0 ? 0 : 32 - Math.clz32(n);
}

/** Sorts data[0:n) exactly as Go 1.19's sort.Sort does. */
export function goSort(data: SortData, n: number): void {
  if (n <= 1) return;
  pdqsort(data, 0, n, bitsLen(n));
}

/** Sorts `items` in place with Go's sort.Sort and the given less function. */
export function goSortArray<T>(items: T[], less: (a: T, b: T) => boolean): void {
  goSort({
    less: (i, j) => less(items[i]!, items[j]!),
    swap: (i, j) => {
      const t = items[i]!;
      items[i] = items[j]!;
      items[j] = t;
    },
  }, items.length);
}

function insertionSort(data: SortData, a: number, b: number): void {
  for (let i = a + 1; i < b; i++) {
    for (let j = i; j > a && data.less(j, j - 1); j--) data.swap(j, j - 1);
  }
}

function siftDown(data: SortData, lo: number, hi: number, first: number): void {
  let root = lo;
  for (;;) {
    let child = 2 * root + 1;
    if (child >= hi) return;
    if (child + 1 < hi && data.less(first + child, first + child + 1)) child++;
    if (!data.less(first + root, first + child)) return;
    data.swap(first + root, first + child);
    root = child;
  }
}

function heapSort(data: SortData, a: number, b: number): void {
  const first = a;
  const hi = b - a;
  for (let i = Math.trunc((hi - 1) / 2); i >= 0; i--) siftDown(data, i, hi, first);
  for (let i = hi - 1; i >= 0; i--) {
    data.swap(first, first + i);
    siftDown(data, 0, i, first);
  }
}

function pdqsort(data: SortData, a: number, b: number, limit: number): void {
  const maxInsertion = 12;
  let wasBalanced = true;
  let wasPartitioned = true;
  for (;;) {
    const length = b - a;
    if (length <= maxInsertion) {
      insertionSort(data, a, b);
      return;
    }
    if (limit === 0) {
      heapSort(data, a, b);
      return;
    }
    if (!wasBalanced) {
      breakPatterns(data, a, b);
      limit--;
    }
    let [pivot, hint] = choosePivot(data, a, b);
    if (hint === decreasingHint) {
      reverseRange(data, a, b);
      pivot = (b - 1) - (pivot - a);
      hint = increasingHint;
    }
    if (wasBalanced && wasPartitioned && hint === increasingHint) {
      if (partialInsertionSort(data, a, b)) return;
    }
    if (a > 0 && !data.less(a - 1, pivot)) {
      a = partitionEqual(data, a, b, pivot);
      continue;
    }
    const [mid, alreadyPartitioned] = partition(data, a, b, pivot);
    wasPartitioned = alreadyPartitioned;
    const leftLen = mid - a;
    const rightLen = b - mid;
    const balanceThreshold = Math.trunc(length / 8);
    if (leftLen < rightLen) {
      wasBalanced = leftLen >= balanceThreshold;
      pdqsort(data, a, mid, limit);
      a = mid + 1;
    } else {
      wasBalanced = rightLen >= balanceThreshold;
      pdqsort(data, mid + 1, b, limit);
      b = mid;
    }
  }
}

function partition(data: SortData, a: number, b: number, pivot: number): [number, boolean] {
  data.swap(a, pivot);
  let i = a + 1;
  let j = b - 1;
  while (i <= j && data.less(i, a)) i++;
  while (i <= j && !data.less(j, a)) j--;
  if (i > j) {
    data.swap(j, a);
    return [j, true];
  }
  data.swap(i, j);
  i++;
  j--;
  for (;;) {
    while (i <= j && data.less(i, a)) i++;
    while (i <= j && !data.less(j, a)) j--;
    if (i > j) break;
    data.swap(i, j);
    i++;
    j--;
  }
  data.swap(j, a);
  return [j, false];
}

function partitionEqual(data: SortData, a: number, b: number, pivot: number): number {
  data.swap(a, pivot);
  let i = a + 1;
  let j = b - 1;
  for (;;) {
    while (i <= j && !data.less(a, i)) i++;
    while (i <= j && data.less(a, j)) j--;
    if (i > j) break;
    data.swap(i, j);
    i++;
    j--;
  }
  return i;
}

function partialInsertionSort(data: SortData, a: number, b: number): boolean {
  const maxSteps = 5;
  const shortestShifting = 50;
  let i = a + 1;
  for (let step = 0; step < maxSteps; step++) {
    while (i < b && !data.less(i, i - 1)) i++;
    if (i === b) return true;
    if (b - a < shortestShifting) return false;
    data.swap(i, i - 1);
    if (i - a >= 2) {
      for (let j = i - 1; j >= 1; j--) {
        if (!data.less(j, j - 1)) break;
        data.swap(j, j - 1);
      }
    }
    if (b - i >= 2) {
      for (let j = i + 1; j < b; j++) {
        if (!data.less(j, j - 1)) break;
        data.swap(j, j - 1);
      }
    }
  }
  return false;
}

const mask64 = (1n << 64n) - 1n;

function breakPatterns(data: SortData, a: number, b: number): void {
  const length = b - a;
  if (length < 8) return;
  // xorshift seeded with the length (Go 1.19's shifts 13, 17, 5 on a uint64).
  let random = BigInt(length);
  const modulus = 1 << bitsLen(length);
  const half = Math.trunc(length / 4) * 2;
  for (let idx = a + half - 1; idx <= a + half + 1; idx++) {
    random ^= (random << 13n) & mask64;
    random ^= random >> 17n;
    random ^= (random << 5n) & mask64;
    let other = Number(random & BigInt(modulus - 1));
    if (other >= length) other -= length;
    data.swap(idx, a + other);
  }
}

function choosePivot(data: SortData, a: number, b: number): [number, number] {
  const shortestNinther = 50;
  const maxSwaps = 4 * 3;
  const l = b - a;
  const swaps = { n: 0 };
  let i = a + Math.trunc(l / 4) * 1;
  let j = a + Math.trunc(l / 4) * 2;
  let k = a + Math.trunc(l / 4) * 3;
  if (l >= 8) {
    if (l >= shortestNinther) {
      i = median(data, i - 1, i, i + 1, swaps);
      j = median(data, j - 1, j, j + 1, swaps);
      k = median(data, k - 1, k, k + 1, swaps);
    }
    j = median(data, i, j, k, swaps);
  }
  if (swaps.n === 0) return [j, increasingHint];
  if (swaps.n === maxSwaps) return [j, decreasingHint];
  return [j, unknownHint];
}

function median(data: SortData, a: number, b: number, c: number, swaps: { n: number }): number {
  const order2 = (x: number, y: number): [number, number] => {
    if (data.less(y, x)) {
      swaps.n++;
      return [y, x];
    }
    return [x, y];
  };
  let x = a;
  let y = b;
  [x, y] = order2(x, y);
  [y] = order2(y, c);
  [, y] = order2(x, y);
  return y;
}

function reverseRange(data: SortData, a: number, b: number): void {
  for (let i = a, j = b - 1; i < j; i++, j--) data.swap(i, j);
}

/** Go's sort.SliceStable: insertion sort in blocks of 20, then symmetric merges. */
export function goSliceStable<T>(data: T[], less: (a: T, b: T) => boolean): void {
  const n = data.length;
  const insertionSort = (a: number, b: number): void => {
    for (let i = a + 1; i < b; i++) for (let j = i; j > a && less(data[j]!, data[j - 1]!); j--) [data[j], data[j - 1]] = [data[j - 1]!, data[j]!];
  };
  const swapRange = (a: number, b: number, len: number): void => {
    for (let i = 0; i < len; i++) [data[a + i], data[b + i]] = [data[b + i]!, data[a + i]!];
  };
  const rotate = (a: number, m: number, b: number): void => {
    let i = m - a;
    let j = b - m;
    while (i !== j) {
      if (i > j) {
        swapRange(m - i, m, j);
        i -= j;
      } else {
        swapRange(m - i, m + j - i, i);
        j -= i;
      }
    }
    swapRange(m - i, m, i);
  };
  const symMerge = (a: number, m: number, b: number): void => {
    if (m - a === 1) {
      let i = m;
      let j = b;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (less(data[h]!, data[a]!)) i = h + 1;
        else j = h;
      }
      for (let k = a; k < i - 1; k++) [data[k], data[k + 1]] = [data[k + 1]!, data[k]!];
      return;
    }
    if (b - m === 1) {
      let i = a;
      let j = m;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (!less(data[m]!, data[h]!)) i = h + 1;
        else j = h;
      }
      for (let k = m; k > i; k--) [data[k], data[k - 1]] = [data[k - 1]!, data[k]!];
      return;
    }
    const mid = (a + b) >>> 1;
    const nn = mid + m;
    let start: number;
    let r: number;
    if (m > mid) {
      start = nn - b;
      r = mid;
    } else {
      start = a;
      r = m;
    }
    const p = nn - 1;
    while (start < r) {
      const c = (start + r) >>> 1;
      if (!less(data[p - c]!, data[c]!)) start = c + 1;
      else r = c;
    }
    const end = nn - start;
    if (start < m && m < end) rotate(start, m, end);
    if (a < start && start < mid) symMerge(a, start, mid);
    if (mid < end && end < b) symMerge(mid, end, b);
  };
  let blockSize = 20;
  let a = 0;
  let b = blockSize;
  while (b <= n) {
    insertionSort(a, b);
    a = b;
    b += blockSize;
  }
  insertionSort(a, n);
  while (blockSize < n) {
    a = 0;
    b = 2 * blockSize;
    while (b <= n) {
      symMerge(a, a + blockSize, b);
      a = b;
      b += 2 * blockSize;
    }
    const m = a + blockSize;
    if (m < n) symMerge(a, m, n);
    blockSize *= 2;
  }
}

// Binary search over anything sorted: the worker's sorted lists (trace rows by step, resources' keys,
// scheduling attempts by time) all ask for the first place where an ordered predicate turns false.

/** The first index in [0, `length`) at which `before` is false, `before` being true then false along it. */
export function partitionPoint(length: number, before: (index: number) => boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

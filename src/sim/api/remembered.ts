// A memo for the pure parses and formats the hot path repeats (a cluster's objects share a few
// timestamps, quantities and Accept headers). Bounded, and pure, so determinism is unaffected.

/**
 * A pure function of one argument remembered for the last `kept` distinct arguments (the whole memo is
 * dropped when full).
 */
export function remembered<A, R>(f: (a: A) => R, kept = 4096): (a: A) => R {
  const memo = new Map<A, R>();
  return (a) => {
    if (memo.has(a)) return memo.get(a)!;
    if (memo.size >= kept) memo.clear();
    const r = f(a);
    memo.set(a, r);
    return r;
  };
}

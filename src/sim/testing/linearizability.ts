// A linearizability checker for a key-value store of registers, Wing & Gong's search with Lowe's
// memoization (as Porcupine does): a history is linearizable if its operations can be put in one order
// that respects real time (an operation that returned before another was called comes first) and in
// which every read returns the last value written. Keys are independent registers, so each key's
// history is checked on its own (linearizability is compositional).
//
// An operation whose answer never came (its client gave up, its member died) has `returned: Infinity`:
// it may have taken effect at any point after its call, or never; a read without an answer says
// nothing and is left out.

export interface KvOperation {
  readonly key: string;
  readonly kind: 'put' | 'get';
  /** put: the value written; get: the value read ('' when the key is absent). */
  readonly value: string;
  readonly called: number;
  /** When the answer came; Infinity when it never did. */
  readonly returned: number;
}

export interface LinearizabilityResult {
  readonly ok: boolean;
  /** The first key whose history has no linearization. */
  readonly key?: string;
}

export function checkKvLinearizable(history: readonly KvOperation[]): LinearizabilityResult {
  const byKey = new Map<string, KvOperation[]>();
  for (const op of history) {
    if (op.kind === 'get' && op.returned === Infinity) continue;
    const ops = byKey.get(op.key) ?? [];
    ops.push(op);
    byKey.set(op.key, ops);
  }
  for (const [key, ops] of [...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!registerLinearizable(ops)) return { ok: false, key };
  }
  return { ok: true };
}

/**
 * One register, initially ''. Depth-first: at each point, any operation not yet linearized that was
 * called before every pending operation's return may go next, if the register allows it; states
 * already explored (linearized set, value) are not explored again. Unanswered puts need not be
 * linearized at all.
 */
function registerLinearizable(ops: readonly KvOperation[]): boolean {
  const n = ops.length;
  const done = new Array<boolean>(n).fill(false);
  const seen = new Set<string>();
  const mustFinish = ops.filter((o) => o.returned !== Infinity).length;
  const search = (value: string, finished: number): boolean => {
    if (finished === mustFinish) return true;
    const memo = `${done.map((d) => (d ? 1 : 0)).join('')}|${value}`;
    if (seen.has(memo)) return false;
    seen.add(memo);
    let horizon = Infinity;
    for (let i = 0; i < n; i++) if (!done[i]) horizon = Math.min(horizon, ops[i]!.returned);
    for (let i = 0; i < n; i++) {
      const op = ops[i]!;
      if (done[i] || op.called > horizon) continue;
      if (op.kind === 'get' && op.value !== value) continue;
      done[i] = true;
      const next = op.kind === 'put' ? op.value : value;
      if (search(next, finished + (op.returned !== Infinity ? 1 : 0))) return true;
      done[i] = false;
    }
    return false;
  };
  return search('', 0);
}

// What a write to etcd may touch and did touch, told from its request and response, and which watchers
// that reaches: the member reserves a watch response for each watcher a write may touch and keeps those
// the write did touch (see real-etcd-member.ts). Also the write as the model's WriteRecord, from what a
// real etcd's answer tells (no compare results, no events: they come on the watch streams).

import { etcdKinds, type RequestOp, type ResponseOp, type TxnRequest, type WatchCreateRequest, type WriteRecord } from '../../sim/etcd/index.ts';

/** What a write may change: single keys, and key ranges (range deletes). */
export interface Touched {
  readonly puts: string[];
  readonly deletes: string[];
  readonly ranges: Array<readonly [string, string]>;
}

/** A watcher on a stream: its range and filters, as created. */
export interface Watcher {
  readonly key: string;
  readonly rangeEnd: string;
  readonly noPut: boolean;
  readonly noDelete: boolean;
}


export function watcherOf(create: WatchCreateRequest): Watcher {
  return {
    key: create.key ?? '', rangeEnd: create.rangeEnd ?? '',
    noPut: create.filters?.includes('NOPUT') ?? false, noDelete: create.filters?.includes('NODELETE') ?? false,
  };
}

function watcherHasKey(w: Watcher, key: string): boolean {
  if (w.rangeEnd === '') return key === w.key;
  if (w.rangeEnd === '\u0000') return key >= w.key;
  return key >= w.key && key < w.rangeEnd;
}

function watcherOverlaps(w: Watcher, [from, to]: readonly [string, string]): boolean {
  const wEnd = w.rangeEnd === '' ? `${w.key}\u0000` : w.rangeEnd;
  const aboveFrom = w.rangeEnd === '\u0000' || wEnd > from;
  const belowTo = to === '\u0000' || w.key < to;
  return aboveFrom && belowTo;
}

export function watcherTouched(w: Watcher, t: Touched): boolean {
  if (!w.noPut && t.puts.some((k) => watcherHasKey(w, k))) return true;
  if (w.noDelete) return false;
  return t.deletes.some((k) => watcherHasKey(w, k)) || t.ranges.some((r) => watcherOverlaps(w, r));
}

function addOps(ops: readonly RequestOp[], into: Touched): void {
  for (const op of ops) {
    if (op.requestPut !== undefined) into.puts.push(op.requestPut.key);
    else if (op.requestDeleteRange !== undefined) {
      const { key, rangeEnd } = op.requestDeleteRange;
      if (rangeEnd === undefined || rangeEnd === '') into.deletes.push(key);
      else into.ranges.push([key, rangeEnd]);
    } else if (op.requestTxn !== undefined) {
      addOps(op.requestTxn.success ?? [], into);
      addOps(op.requestTxn.failure ?? [], into);
    }
  }
}

/** What a request may change, whichever branch a Txn takes. */
export function mayTouch(kind: string, payload: unknown): Touched {
  const touched: Touched = { puts: [], deletes: [], ranges: [] };
  if (kind === etcdKinds.put) addOps([{ requestPut: payload as never }], touched);
  else if (kind === etcdKinds.deleteRange) addOps([{ requestDeleteRange: payload as never }], touched);
  else if (kind === etcdKinds.txn) {
    const txn = payload as TxnRequest;
    addOps(txn.success ?? [], touched);
    addOps(txn.failure ?? [], touched);
  }
  return touched;
}

/** What the ops of the branch taken changed, by their responses. */
function addTaken(ops: readonly RequestOp[], responses: readonly ResponseOp[], into: Touched): void {
  ops.forEach((op, i) => {
    const response = responses[i];
    if (op.requestPut !== undefined) into.puts.push(op.requestPut.key);
    else if (op.requestDeleteRange !== undefined && (response?.responseDeleteRange?.deleted ?? 0) > 0) addOps([op], into);
    else if (op.requestTxn !== undefined && response?.responseTxn !== undefined) {
      const nested = response.responseTxn;
      addTaken((nested.succeeded ? op.requestTxn.success : op.requestTxn.failure) ?? [], nested.responses, into);
    }
  });
}

export function touchedBy(kind: string, payload: unknown, response: unknown): Touched {
  const touched: Touched = { puts: [], deletes: [], ranges: [] };
  if (kind === etcdKinds.put) touched.puts.push((payload as { key: string }).key);
  else if (kind === etcdKinds.deleteRange && (response as { deleted: number }).deleted > 0) addOps([{ requestDeleteRange: payload as never }], touched);
  else if (kind === etcdKinds.txn) {
    const txn = payload as TxnRequest;
    const r = response as { succeeded: boolean; responses: readonly ResponseOp[] };
    addTaken((r.succeeded ? txn.success : txn.failure) ?? [], r.responses, touched);
  }
  return touched;
}

export function writeRecord(kind: string, payload: unknown, response: unknown, touched: Touched): WriteRecord | null {
  const revision = (response as { header: { revision: number } }).header.revision;
  const changed = touched.puts.length + touched.deletes.length + touched.ranges.length > 0;
  if (kind === etcdKinds.put) return { revision, changed, compares: [], branch: 'success', ops: [{ requestPut: payload as never }], nested: [], events: [] };
  if (kind === etcdKinds.deleteRange) {
    return { revision, changed, compares: [], branch: 'success', ops: [{ requestDeleteRange: payload as never }], nested: [], events: [] };
  }
  if (kind === etcdKinds.txn) {
    const txn = payload as TxnRequest;
    const succeeded = (response as { succeeded: boolean }).succeeded;
    return {
      revision, changed, branch: succeeded ? 'success' : 'failure', nested: [], events: [],
      compares: (txn.compare ?? []).map((compare) => ({ compare, actual: [], result: succeeded ? true : null })),
      ops: (succeeded ? txn.success : txn.failure) ?? [],
    };
  }
  return null;
}


// Applying a Txn: evaluate every compare on the path the txn will take (nested txns included), check
// the ops of that path, then run them in one store transaction so that all writes share one revision.
// Models etcdserver/apply.go (applierV3backend.Txn, compareToPath, applyCompares, applyCompare,
// compareKV, checkRequests, checkRequestPut, checkRequestRange, applyTxn, newTxnResp).

import { applyDeleteRange, applyPut, applyRange, mkGteRange, revisionHeader } from './apply.ts';
import { compareKeys } from './bytes.ts';
import { EtcdError, ErrGRPCCompacted, ErrGRPCFutureRev, ErrGRPCKeyNotFound, ErrGRPCLeaseNotFound } from './errors.ts';
import type { KVStore } from './kv-store.ts';
import type { StoreTxnRead, StoreTxnWrite } from './kv-store-txn.ts';
import { noLease, type KeyValue } from './kv.ts';
import type { Compare, RequestOp, ResponseOp, TxnRequest, TxnResponse } from './rpc.ts';

/** One compare as evaluated: the stored values it saw (one per key in range) and its outcome. */
export interface EvaluatedCompare {
  readonly compare: Compare;
  /** The target field of each key in range; empty when no key exists (compared as zero). */
  readonly actual: ReadonlyArray<number | string>;
  /** null when an earlier compare already failed, so etcd never evaluated this one. */
  readonly result: boolean | null;
}

/** How a txn (or a nested txn) went: its compares and the branch taken. */
export interface TxnEvaluation {
  readonly compares: readonly EvaluatedCompare[];
  readonly succeeded: boolean;
  /** Evaluations of the nested txns in the branch taken, in op order. */
  readonly nested: readonly TxnEvaluation[];
}

export function isTxnReadonly(rt: TxnRequest): boolean {
  for (const u of rt.success ?? []) if (u.requestRange === undefined) return false;
  for (const u of rt.failure ?? []) if (u.requestRange === undefined) return false;
  return true;
}

function compareInt64(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareLeaseIds(a: string, b: string): number {
  if (a === b) return 0;
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * What a compare reads of a key: its value only for a VALUE compare (a value etcd keeps packed is rebuilt only
 * then; a compare on a revision, version or lease reads the key's other fields alone).
 */
type Compared = Omit<KeyValue, 'key' | 'value'> & { readonly value?: string };

/** The stored field a compare looks at. */
function targetValue(c: Compare, kv: Compared): number | string {
  switch (c.target ?? 'VERSION') {
    case 'VALUE': return kv.value ?? '';
    case 'CREATE': return kv.createRevision;
    case 'MOD': return kv.modRevision;
    case 'LEASE': return kv.lease;
    default: return kv.version;
  }
}

const noKeyValues: readonly Compared[] = [];
const zeroKeyValue: Compared = { createRevision: 0, modRevision: 0, version: 0, value: '', lease: noLease };

function compareKV(c: Compare, kv: Compared): boolean {
  let result: number;
  switch (c.target ?? 'VERSION') {
    case 'VALUE': result = compareKeys(kv.value ?? '', c.value ?? ''); break;
    case 'CREATE': result = compareInt64(kv.createRevision, c.createRevision ?? 0); break;
    case 'MOD': result = compareInt64(kv.modRevision, c.modRevision ?? 0); break;
    case 'LEASE': result = compareLeaseIds(kv.lease, c.lease ?? noLease); break;
    default: result = compareInt64(kv.version, c.version ?? 0);
  }
  switch (c.result ?? 'EQUAL') {
    case 'EQUAL': return result === 0;
    case 'NOT_EQUAL': return result !== 0;
    case 'GREATER': return result > 0;
    case 'LESS': return result < 0;
  }
  return true;
}

/** A compare holds when every key in its range satisfies it; a missing key compares as zeros, except
 * that a VALUE compare on a missing key always fails. */
function applyCompare(rv: StoreTxnRead, c: Compare, seen: Array<number | string> | null): boolean {
  let kvs: readonly Compared[];
  try {
    const end = mkGteRange(c.rangeEnd);
    if ((c.target ?? 'VERSION') !== 'VALUE') kvs = rv.metas(c.key, end);
    else if (end === undefined) {
      const kv = rv.get(c.key);
      kvs = kv === undefined ? noKeyValues : [kv];
    } else kvs = rv.range(c.key, end, {}).kvs;
  } catch {
    return false;
  }
  if (seen !== null) for (const kv of kvs) seen.push(targetValue(c, kv));
  if (kvs.length === 0) {
    if ((c.target ?? 'VERSION') === 'VALUE') return false;
    return compareKV(c, zeroKeyValue);
  }
  for (const kv of kvs) if (!compareKV(c, kv)) return false;
  return true;
}

/**
 * The outcome of every compare on the path, preorder: this txn's, then each nested txn's in the branch
 * taken, appended to `path`. Returns the evaluations when `record` is set.
 */
function compareToPath(rv: StoreTxnRead, rt: TxnRequest, path: boolean[], record: boolean): TxnEvaluation | null {
  const compares = rt.compare ?? [];
  let ok = true;
  const evaluated: EvaluatedCompare[] | null = record ? [] : null;
  for (const c of compares) {
    if (!ok) {
      evaluated?.push({ compare: c, actual: [], result: null });
      continue;
    }
    const seen = record ? [] as Array<number | string> : null;
    ok = applyCompare(rv, c, seen);
    evaluated?.push({ compare: c, actual: seen ?? [], result: ok });
  }
  path.push(ok);
  const nested: TxnEvaluation[] = [];
  for (const op of (ok ? rt.success : rt.failure) ?? []) {
    if (op.requestTxn === undefined) continue;
    const child = compareToPath(rv, op.requestTxn, path, record);
    if (child !== null) nested.push(child);
  }
  return evaluated === null ? null : { compares: evaluated, succeeded: ok, nested };
}

/** Walks the ops of the taken branches (a cursor over `path`) calling `f` on each non-txn op. */
function checkRequests(rt: TxnRequest, path: readonly boolean[], cursor: { i: number }, f: (op: RequestOp) => void): void {
  const ok = path[cursor.i++]!;
  for (const op of (ok ? rt.success : rt.failure) ?? []) {
    if (op.requestTxn !== undefined) checkRequests(op.requestTxn, path, cursor, f);
    else f(op);
  }
}

function checkRequestPut(rv: StoreTxnRead, s: KVStore, op: RequestOp): void {
  const p = op.requestPut;
  if (p === undefined) return;
  if (p.ignoreValue || p.ignoreLease) {
    if (rv.get(p.key) === undefined) throw new EtcdError(ErrGRPCKeyNotFound);
  }
  if (p.lease !== undefined && p.lease !== noLease && s.lessor.lookup(p.lease) === undefined) {
    throw new EtcdError(ErrGRPCLeaseNotFound);
  }
}

function checkRequestRange(rv: StoreTxnRead, op: RequestOp): void {
  const r = op.requestRange;
  if (r === undefined) return;
  const rev = r.revision ?? 0;
  if (rev === 0) return;
  if (rev > rv.rev()) throw new EtcdError(ErrGRPCFutureRev);
  if (rev < rv.firstRev) throw new EtcdError(ErrGRPCCompacted);
}

/**
 * A put with ignore_value/ignore_lease needs its key to exist when it runs. etcd checks that against the
 * state before the txn, so an earlier op of the same txn can delete the key (e.g. a delete with range
 * end '\0', which the duplicate-key check lets through) and etcd 3.4 then panics while applying the
 * txn ("unexpected error during txn": the member crashes, and again on every restart, since the entry
 * is committed). The simulation does not crash: it replays the path's existence changes first and
 * rejects such a txn with the error the check meant to give, before anything is written.
 */
function checkIgnoredKeysExist(rv: StoreTxnRead, rt: TxnRequest, path: readonly boolean[]): void {
  const overlay = new Map<string, boolean>();
  const exists = (key: string): boolean => overlay.get(key) ?? rv.range(key, undefined, {}).kvs.length > 0;
  checkRequests(rt, path, { i: 0 }, (op) => {
    if (op.requestPut !== undefined) {
      const p = op.requestPut;
      if ((p.ignoreValue || p.ignoreLease) && !exists(p.key)) throw new EtcdError(ErrGRPCKeyNotFound);
      overlay.set(p.key, true);
    } else if (op.requestDeleteRange !== undefined) {
      const d = op.requestDeleteRange;
      const end = mkGteRange(d.rangeEnd);
      for (const kv of rv.range(d.key, end, {}).kvs) overlay.set(kv.key, false);
      for (const key of overlay.keys()) {
        const inRange = end === undefined ? key === d.key : key >= d.key && (end === '' || key < end);
        if (inRange) overlay.set(key, false);
      }
    }
  });
}

function hasIgnoreFlags(rt: TxnRequest): boolean {
  return opsHaveIgnoreFlags(rt.success) || opsHaveIgnoreFlags(rt.failure);
}

function opsHaveIgnoreFlags(ops: readonly RequestOp[] | undefined): boolean {
  if (ops === undefined) return false;
  for (const op of ops) {
    if (op.requestPut?.ignoreValue || op.requestPut?.ignoreLease) return true;
    if (op.requestTxn !== undefined && hasIgnoreFlags(op.requestTxn)) return true;
  }
  return false;
}

function applyOps(txn: StoreTxnRead, write: StoreTxnWrite | null, rt: TxnRequest, path: readonly boolean[],
  cursor: { i: number }): TxnResponse {
  const succeeded = path[cursor.i++]!;
  const reqs = (succeeded ? rt.success : rt.failure) ?? [];
  const responses: ResponseOp[] = new Array(reqs.length);
  for (let i = 0; i < reqs.length; i++) {
    const op = reqs[i]!;
    if (op.requestRange !== undefined) responses[i] = { responseRange: applyRange(txn, op.requestRange) };
    else if (op.requestPut !== undefined) responses[i] = { responsePut: applyPut(write!, op.requestPut) };
    else if (op.requestDeleteRange !== undefined) responses[i] = { responseDeleteRange: applyDeleteRange(write!, op.requestDeleteRange) };
    else if (op.requestTxn !== undefined) responses[i] = { responseTxn: applyOps(txn, write, op.requestTxn, path, cursor) };
    else responses[i] = {};
  }
  return { header: revisionHeader(0), succeeded, responses };
}

export interface TxnResult {
  readonly response: TxnResponse;
  /** Filled when the caller asked for it (`record`). */
  readonly evaluation: TxnEvaluation | null;
  /** The changes the txn committed, in order (empty when it wrote nothing). */
  readonly changes: readonly KeyValue[];
}

/**
 * Applies a (validated) txn request. Throws the etcd error when an op on the taken path is invalid
 * (unknown lease, ignore_* on a missing key, a compacted or future range revision); nothing has been
 * written then.
 */
export function applyTxn(s: KVStore, rt: TxnRequest, record = false): TxnResult {
  const isWrite = !isTxnReadonly(rt);
  const rv = s.read();
  const path: boolean[] = [];
  const evaluation = compareToPath(rv, rt, path, record);
  if (isWrite) checkRequests(rt, path, { i: 0 }, (op) => checkRequestPut(rv, s, op));
  checkRequests(rt, path, { i: 0 }, (op) => checkRequestRange(rv, op));
  if (isWrite && hasIgnoreFlags(rt)) checkIgnoredKeysExist(rv, rt, path);

  const write = isWrite ? s.write() : null;
  const txn: StoreTxnRead = write ?? rv;
  const top = applyOps(txn, write, rt, path, { i: 0 });
  let rev = txn.rev();
  const changes = write !== null ? write.changes : [];
  if (changes.length !== 0) rev++;
  txn.end();
  return { response: { header: revisionHeader(rev), succeeded: top.succeeded, responses: top.responses }, evaluation, changes };
}

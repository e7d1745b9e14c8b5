// Applying Range, Put and DeleteRange to a store transaction and building etcd's responses.
// Models etcdserver/apply.go (applierV3backend.Range, Put, DeleteRange, pruneKVs, kvSort*, mkGteRange).
//
// Responses built here carry a header with only `revision` set; the server fills cluster ID, member ID
// and raft term into the top-level header (v3rpc/header.go), and sub-responses of a txn keep theirs.

import { compareKeys } from './bytes.ts';
import { EtcdError, ErrGRPCKeyNotFound } from './errors.ts';
import { goSortArray } from '../go/sort.ts';
import type { StoreTxnRead, StoreTxnWrite } from './kv-store-txn.ts';
import { noLease, type KeyValue } from './kv.ts';
import type { DeleteRangeRequest, DeleteRangeResponse, PutRequest, PutResponse, RangeRequest, RangeResponse, ResponseHeader } from './rpc.ts';

/** A header with only the revision set, as the appliers and txn sub-responses carry. */
export function revisionHeader(revision: number): ResponseHeader {
  return { clusterId: '0', memberId: '0', revision, raftTerm: 0 };
}

/** Range end as mvcc takes it: undefined for one key, '' for "every key ≥ key" ('\0'), else as given. */
export function mkGteRange(rangeEnd: string | undefined): string | undefined {
  if (rangeEnd === undefined || rangeEnd === '') return undefined;
  return rangeEnd === '\0' ? '' : rangeEnd;
}

export function applyRange(txn: StoreTxnRead, r: RangeRequest): RangeResponse {
  const sortOrderIn = r.sortOrder ?? 'NONE';
  const sortTarget = r.sortTarget ?? 'KEY';
  const minMod = r.minModRevision ?? 0;
  const maxMod = r.maxModRevision ?? 0;
  const minCreate = r.minCreateRevision ?? 0;
  const maxCreate = r.maxCreateRevision ?? 0;
  const requestLimit = r.limit ?? 0;
  let limit = requestLimit;
  // With sorting or filters everything is fetched, then filtered, sorted and truncated.
  if (sortOrderIn !== 'NONE' || minMod !== 0 || maxMod !== 0 || minCreate !== 0 || maxCreate !== 0) limit = 0;
  // One extra for the `more` flag.
  if (limit > 0) limit++;

  const rr = txn.range(r.key, mkGteRange(r.rangeEnd), { limit, rev: r.revision ?? 0, count: r.countOnly ?? false });
  let kvs = rr.kvs;
  if (maxMod !== 0) kvs = kvs.filter((kv) => !(kv.modRevision > maxMod));
  if (minMod !== 0) kvs = kvs.filter((kv) => !(kv.modRevision < minMod));
  if (maxCreate !== 0) kvs = kvs.filter((kv) => !(kv.createRevision > maxCreate));
  if (minCreate !== 0) kvs = kvs.filter((kv) => !(kv.createRevision < minCreate));

  let sortOrder = sortOrderIn;
  // The index returns keys in ascending order, so only a non-KEY target sorts by default.
  if (sortTarget !== 'KEY' && sortOrder === 'NONE') sortOrder = 'ASCEND';
  if (sortOrder !== 'NONE') kvs = sortKeyValues(kvs, sortTarget, sortOrder === 'DESCEND');

  let more = false;
  if (requestLimit > 0 && kvs.length > requestLimit) {
    kvs = kvs.slice(0, requestLimit);
    more = true;
  }
  if (r.keysOnly) kvs = kvs.map((kv) => (kv.value === '' ? kv : { ...kv, value: '' }));
  return { header: revisionHeader(rr.rev), kvs, more, count: rr.count };
}

/**
 * Sorts with Go's (unstable) sort.Sort over etcd's kvSort types, DESCEND through sort.Reverse, so that
 * equal sort values end up in etcd's order too.
 */
function sortKeyValues(kvs: readonly KeyValue[], target: string, descend: boolean): KeyValue[] {
  let less: (a: KeyValue, b: KeyValue) => boolean;
  switch (target) {
    case 'VERSION': less = (a, b) => a.version - b.version < 0; break;
    case 'CREATE': less = (a, b) => a.createRevision - b.createRevision < 0; break;
    case 'MOD': less = (a, b) => a.modRevision - b.modRevision < 0; break;
    case 'VALUE': less = (a, b) => compareKeys(a.value, b.value) < 0; break;
    default: less = (a, b) => compareKeys(a.key, b.key) < 0;
  }
  const sorted = kvs.slice();
  goSortArray(sorted, descend ? (a, b) => less(b, a) : less);
  return sorted;
}

/** Applies a put inside a write transaction (lease existence is checked before the transaction). */
export function applyPut(txn: StoreTxnWrite, p: PutRequest): PutResponse {
  let value = p.value ?? '';
  let lease = p.lease ?? noLease;
  let prev: KeyValue | undefined;
  if (p.ignoreValue || p.ignoreLease || p.prevKv) {
    prev = txn.range(p.key, undefined, {}).kvs[0];
  }
  if (p.ignoreValue || p.ignoreLease) {
    if (prev === undefined) throw new EtcdError(ErrGRPCKeyNotFound);
    if (p.ignoreValue) value = prev.value;
    if (p.ignoreLease) lease = prev.lease;
  }
  const revision = txn.put(p.key, value, lease);
  return p.prevKv && prev !== undefined ? { header: revisionHeader(revision), prevKv: prev } : { header: revisionHeader(revision) };
}

export function applyDeleteRange(txn: StoreTxnWrite, dr: DeleteRangeRequest): DeleteRangeResponse {
  const end = mkGteRange(dr.rangeEnd);
  const prevKvs = dr.prevKv ? txn.range(dr.key, end, {}).kvs : [];
  const [deleted, revision] = txn.deleteRange(dr.key, end);
  return { header: revisionHeader(revision), deleted, prevKvs };
}

// What a light trace record keeps in place of stored data (issue 20), and how it is read back from an etcd
// member's MVCC history: a stored key-value as its key and mod revision (KvRef), a stored value as the
// key and the revision that wrote it (ValueRef), a Kubernetes object as the key and revision whose
// value it was decoded from (ObjectRef; a List's item: ListItemRef). Each reads back the same data the
// delivered payload carried, while the member still has that revision; once compacted, `resolve` gives
// undefined and the trace shows the step's summary.

import { decodeObject } from './apiserver/storage/codec.ts';
import type { KeyValue } from './etcd/kv.ts';
import type { RangeOptions } from './etcd/kv-store-txn.ts';
import type { RequestOp } from './etcd/rpc.ts';

/** What the rebuilders read of a member: its MVCC store (EtcdServer's), by revision and by key at a revision. */
export interface HistoryMember {
  readonly name: string;
  readonly store?: {
    readonly currentRev: number;
    readonly backend?: { rangeRevisions(minMain: number, maxMain: number, f: (kv: KeyValue) => void): void };
    read(): { range(key: string, end: string | undefined, ro: RangeOptions): { readonly kvs: readonly KeyValue[] } };
  };
}

/** A stored key-value: read back from the member's backend at `modRevision`. */
export class KvRef {
  constructor(readonly key: string, readonly modRevision: number) {}
}

/** A stored value: the value `key` was written with at main revision `revision`. */
class ValueRef {
  constructor(readonly key: string, readonly revision: number) {}
}

/**
 * A Kubernetes object as kube-apiserver decodes it (storage/codec.ts decodeObject): the value `key` held
 * at revision `contentRevision`, with resourceVersion `resourceVersion` (a deleted object is its last
 * value at the deletion's revision).
 */
export class ObjectRef {
  constructor(readonly key: string, readonly resourceVersion: number, readonly contentRevision: number) {}
}

/** An item of a List: an ObjectRef without kind and apiVersion, as a List's items are served. */
export class ListItemRef extends ObjectRef {}

/** The key-value `key` changed to at main revision `modRevision`, while the member's backend still has it. */
function kvAt(member: HistoryMember, key: string, modRevision: number): KeyValue | undefined {
  let found: KeyValue | undefined;
  member.store?.backend?.rangeRevisions(modRevision, modRevision + 1, (kv) => {
    if (kv.key === key) found = kv;
  });
  return found;
}

/** The key-value `key` had at revision `rev` (undefined when absent, compacted, or not yet there). */
export function kvAsOf(member: HistoryMember, key: string, rev: number): KeyValue | undefined {
  const store = member.store;
  if (!store || rev > store.currentRev) return undefined;
  try {
    return store.read().range(key, undefined, { rev })?.kvs[0];
  } catch {
    // Compacted: the revision is gone from this member's history.
    return undefined;
  }
}

/** `object` without kind and apiVersion, as a List's items are served. */
function withoutTypeMeta(object: object): object {
  const { kind: _kind, apiVersion: _apiVersion, ...rest } = object as { kind?: unknown; apiVersion?: unknown };
  return rest;
}

/** The data a ref stands for, read from `members` (the first that still has it). */
function readRef(ref: KvRef | ValueRef | ObjectRef, members: readonly HistoryMember[]): unknown {
  for (const member of members) {
    if (ref instanceof KvRef) {
      const kv = kvAt(member, ref.key, ref.modRevision);
      if (kv) return kv;
    } else if (ref instanceof ValueRef) {
      const kv = kvAt(member, ref.key, ref.revision);
      if (kv) return kv.value;
    } else {
      const kv = kvAsOf(member, ref.key, ref.contentRevision);
      if (kv && kv.value !== '') return ref instanceof ListItemRef ? withoutTypeMeta(decodeObject(kv.value, ref.resourceVersion)) : decodeObject(kv.value, ref.resourceVersion);
    }
  }
  return undefined;
}

/**
 * `ref` with each KvRef, ValueRef and ObjectRef read back from `members`; undefined when one is gone.
 * Other class instances (a rebuilder's own refs) are left for the caller.
 */
export function resolve(ref: unknown, members: readonly HistoryMember[]): unknown {
  if (ref instanceof KvRef || ref instanceof ValueRef || ref instanceof ObjectRef) return readRef(ref, members);
  if (ref === null || typeof ref !== 'object' || Object.getPrototypeOf(ref) !== Object.prototype && !Array.isArray(ref)) return ref;
  if (Array.isArray(ref)) {
    const items: unknown[] = [];
    for (const item of ref) {
      const whole = resolve(item, members);
      if (whole === undefined && item !== undefined) return undefined;
      items.push(whole);
    }
    return items;
  }
  const whole: Record<string, unknown> = {};
  for (const [field, item] of Object.entries(ref)) {
    const value = resolve(item, members);
    if (value === undefined && item !== undefined) return undefined;
    whole[field] = value;
  }
  return whole;
}

/**
 * `op` with its put's value as a ValueRef when the member's backend holds that very value for the key at
 * main revision `revision`; else `op` itself.
 */
export function putValueRef(member: HistoryMember, op: RequestOp, revision: number): RequestOp {
  const put = op.requestPut;
  if (typeof put?.value !== 'string' || put.value === '' || kvAt(member, put.key, revision)?.value !== put.value) return op;
  return { ...op, requestPut: { ...put, value: new ValueRef(put.key, revision) as unknown as string } };
}

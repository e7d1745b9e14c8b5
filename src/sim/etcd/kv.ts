// The stored record and the change record: mvccpb.KeyValue and mvccpb.Event.
// Models mvcc/mvccpb/kv.proto. Field names are the proto3 JSON (lowerCamelCase) names; int64 fields are
// numbers except lease IDs, which are decimal strings because server-assigned IDs exceed 2^53.

/** A lease ID: a decimal int64. `'0'` means no lease. */
export type LeaseID = string;
export const noLease: LeaseID = '0';

export interface KeyValue {
  readonly key: string;
  /** Revision of the put that created the key's current generation; 0 on a tombstone. */
  readonly createRevision: number;
  /** Revision of the last modification (the deletion, on a tombstone). */
  readonly modRevision: number;
  /** Number of puts in the current generation; 0 on a tombstone. */
  readonly version: number;
  readonly value: string;
  readonly lease: LeaseID;
}

export type EventType = 'PUT' | 'DELETE';

/** A DELETE event's kv holds only `key` and `modRevision` (the deletion's revision). */
export interface Event {
  readonly type: EventType;
  readonly kv: KeyValue;
  readonly prevKv?: KeyValue;
}

/** A tombstone as stored and as carried by DELETE events. */
export function tombstone(key: string, revision: number): KeyValue {
  return { key, createRevision: 0, modRevision: revision, version: 0, value: '', lease: noLease };
}

export function isTombstone(kv: KeyValue): boolean {
  return kv.createRevision === 0;
}

/** The event a stored change produces (models mvcc/watchable_store_txn.go End). */
export function changeToEvent(kv: KeyValue): Event {
  return { type: kv.createRevision === 0 ? 'DELETE' : 'PUT', kv };
}

/** A stored change without its value, and the value's size in bytes: what a view listing keys reads. */
export type StoredMeta = Omit<KeyValue, 'value'> & { readonly size: number };

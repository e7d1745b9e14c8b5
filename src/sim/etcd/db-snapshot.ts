// The database a leader sends with a raft snapshot: raft's snapshot metadata merged with a copy of the
// sender's backend as it is when the snapshot is sent, whose consistent index says which entries it
// already holds (the receiver skips those when the leader's entries after the snapshot arrive).
// Models etcdserver/snapshot_merge.go (createMergedSnapshotMessage) and, on the receiving side,
// etcdserver/server.go (applySnapshot: the received database opened in place of the old one, the KV
// store and the lessor restored from it).
//
// A message's payload is plain data for the trace and the page: what they see of a DbSnapshot are its
// summary fields. The copy itself is a private field, handed over once: the member that loads it takes it,
// so a trace that keeps the message keeps only the summary.

import { KVStore } from './kv-store.ts';
import { Lessor } from './lease.ts';

/** What a member loads from a snapshot. */
export interface DbImage {
  readonly store: KVStore;
  readonly lessor: Lessor;
  readonly consistentIndex: number;
}

export class DbSnapshot {
  /** The copied store's revision and last compaction. */
  readonly revision: number;
  readonly compactRevision: number;
  /** The index of the last raft entry the copied store holds. */
  readonly consistentIndex: number;
  /** Keys with history in the copy, and its leases. */
  readonly keys: number;
  readonly leases: number;
  #image: DbImage | null;

  constructor(store: KVStore, lessor: Lessor, consistentIndex: number) {
    const leases = new Lessor(lessor.minLeaseTTL);
    const copy = new KVStore(leases);
    copy.restore(store);
    leases.copyFrom(lessor);
    this.revision = copy.currentRev;
    this.compactRevision = copy.compactMainRev;
    this.consistentIndex = consistentIndex;
    this.keys = copy.index.size;
    this.leases = leases.size;
    this.#image = { store: copy, lessor: leases, consistentIndex };
  }

  /** The copy, once: a second load (or a copy of the payload, which has no copy) throws. */
  take(): DbImage {
    const image = this.#image;
    if (image === null) throw new Error('db snapshot: the database was already loaded');
    this.#image = null;
    return image;
  }
}

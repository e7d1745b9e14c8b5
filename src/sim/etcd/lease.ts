// The lessor: leases with a TTL on the virtual clock, the keys attached to each, and revocation that
// deletes those keys in one write transaction. Models lease/lessor.go (primary lessor only).
//
// Time: expiry instants are virtual milliseconds. The lessor never schedules anything itself: the
// server sets an engine timer at each lease's expiry (and moves it on renewal) and calls `revoke`
// when it fires, as etcd's leader proposes a LeaseRevoke for each lease its expiry loop finds.
// Not modelled: checkpointing, the 500 ms granularity of etcd's expiry loop, demotion/promotion.

import { EtcdError, ErrGRPCLeaseExist, ErrGRPCLeaseNotFound, ErrGRPCLeaseTTLTooLarge } from './errors.ts';
import { noLease, type LeaseID } from './kv.ts';

/** lease.MaxLeaseTTL, seconds. */
export const maxLeaseTTL = 9_000_000_000;

/** The write transaction a revoke deletes keys in (the store's TxnWrite satisfies it). */
export interface LeaseTxnDelete {
  deleteRange(key: string, end: string | undefined): [number, number];
  end(): void;
}

export class Lease {
  /** Virtual ms at which the lease expires. */
  expiry = 0;
  readonly keys = new Set<string>();

  constructor(
    readonly id: LeaseID,
    /** Granted TTL, seconds (after raising to the minimum). */
    readonly ttl: number,
    /** Grant order, to order leases with equal expiry. */
    readonly seq: number,
  ) {}

  /** Remaining time in whole seconds, truncated as Go's int64(d.Seconds()) does. */
  remainingSeconds(now: number): number {
    return Math.trunc((this.expiry - now) / 1000);
  }

  /** Keys attached to the lease, in byte order. Real etcd answers in Go map order, which varies per run
   *  (lease/lessor.go Lease.Keys); byte order keeps the model deterministic. */
  sortedKeys(): string[] {
    return [...this.keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }
}

export class Lessor {
  private readonly leaseMap = new Map<LeaseID, Lease>();
  private readonly itemMap = new Map<string, LeaseID>();
  private rangeDeleter: (() => LeaseTxnDelete) | null = null;
  private grants = 0;

  constructor(
    /** Minimum TTL, seconds: ceil(1.5 × election timeout); 2 with etcd's default timers. */
    readonly minLeaseTTL = 2,
  ) {}

  setRangeDeleter(rd: () => LeaseTxnDelete): void {
    this.rangeDeleter = rd;
  }

  /**
   * Makes this lessor's leases copies of `from`'s (a member restoring a snapshot: etcd's lessor Recover
   * reads them from the restored database). Expiry times are copied; only a leader acts on them, and a
   * new leader renews every lease first.
   */
  copyFrom(from: Lessor): void {
    this.leaseMap.clear();
    this.itemMap.clear();
    for (const [id, lease] of from.leaseMap) {
      const copy = new Lease(id, lease.ttl, lease.seq);
      copy.expiry = lease.expiry;
      for (const key of lease.keys) copy.keys.add(key);
      this.leaseMap.set(id, copy);
    }
    for (const [key, id] of from.itemMap) this.itemMap.set(key, id);
    this.grants = from.grants;
  }

  /** Grants lease `id` (never '0': the server picks IDs) at virtual time `now`. */
  grant(id: LeaseID, ttl: number, now: number): Lease {
    if (id === noLease) throw new EtcdError(ErrGRPCLeaseNotFound);
    if (ttl > maxLeaseTTL) throw new EtcdError(ErrGRPCLeaseTTLTooLarge);
    if (this.leaseMap.has(id)) throw new EtcdError(ErrGRPCLeaseExist);
    const lease = new Lease(id, Math.max(ttl, this.minLeaseTTL), this.grants++);
    lease.expiry = now + lease.ttl * 1000;
    this.leaseMap.set(id, lease);
    return lease;
  }

  /** Revokes a lease: deletes its keys (sorted) in one write transaction, then forgets it. */
  revoke(id: LeaseID): void {
    const lease = this.leaseMap.get(id);
    if (lease === undefined) throw new EtcdError(ErrGRPCLeaseNotFound);
    if (this.rangeDeleter !== null) {
      const txn = this.rangeDeleter();
      for (const key of lease.sortedKeys()) txn.deleteRange(key, undefined);
      this.leaseMap.delete(id);
      txn.end();
    } else {
      this.leaseMap.delete(id);
    }
  }

  /** Renews a lease at `now`; returns its TTL in seconds. */
  renew(id: LeaseID, now: number): number {
    const lease = this.leaseMap.get(id);
    if (lease === undefined) throw new EtcdError(ErrGRPCLeaseNotFound);
    lease.expiry = now + lease.ttl * 1000;
    return lease.ttl;
  }

  lookup(id: LeaseID): Lease | undefined {
    return this.leaseMap.get(id);
  }

  /** Leases ordered by expiry (etcd: leasesByExpiry), equal expiries in grant order. */
  leases(): Lease[] {
    return [...this.leaseMap.values()].sort((a, b) => a.expiry - b.expiry || a.seq - b.seq);
  }

  attach(id: LeaseID, key: string): void {
    const lease = this.leaseMap.get(id);
    if (lease === undefined) throw new EtcdError(ErrGRPCLeaseNotFound);
    lease.keys.add(key);
    this.itemMap.set(key, id);
  }

  detach(id: LeaseID, key: string): void {
    const lease = this.leaseMap.get(id);
    if (lease === undefined) throw new EtcdError(ErrGRPCLeaseNotFound);
    lease.keys.delete(key);
    this.itemMap.delete(key);
  }

  /** The lease a key is attached to, or '0'. */
  getLease(key: string): LeaseID {
    return this.itemMap.get(key) ?? noLease;
  }

  get size(): number {
    return this.leaseMap.size;
  }
}

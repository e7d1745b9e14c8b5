// Leases for objects with a TTL (Events): one etcd lease is shared by every object written within a
// reuse window, so an event burst costs one LeaseGrant per minute rather than one per event. The manager's
// mutex is held across the LeaseGrant, so writes that need a lease while one is being granted wait for it
// and then reuse it: a burst of events (three kubelets starting at once) costs one grant, not one each.
// Models k8s.io/apiserver/pkg/storage/etcd3/lease_manager.go (GetLease, getReuseDurationSecondsLocked).

import { broadcast, Condition, waitOn, type Co, type Time } from '../../engine/index.ts';
import type { LeaseID } from '../../etcd/index.ts';
import type { EtcdClient } from './etcd-client.ts';
import { storageErrors } from './errors.ts';

export interface LeaseManagerConfig {
  /** Fraction of the TTL a lease may be reused for (default 0.05). */
  readonly reuseDurationPercent: number;
  /** Upper bound of the reuse window in seconds (default 60). */
  readonly reuseDurationSeconds: number;
  /** Objects attached to one lease before a new one is granted (default 1000). */
  readonly maxObjectCount: number;
}

export const defaultLeaseManagerConfig: LeaseManagerConfig = {
  reuseDurationPercent: 0.05,
  reuseDurationSeconds: 60,
  maxObjectCount: 1000,
};

export class LeaseManager {
  private prevLeaseId: LeaseID = '0';
  private prevExpiration: Time = 0;
  private attachedCount = 0;
  /** True while a LeaseGrant is in flight (leaseMu held across it). */
  private granting = false;
  private readonly unlocked = new Condition('lease-manager');

  constructor(
    private readonly etcd: EtcdClient,
    private readonly now: () => Time,
    private readonly config: LeaseManagerConfig = defaultLeaseManagerConfig,
  ) {}

  /** A lease that outlives `ttlSeconds` from now: the previous one if it fits the window, else a new one. */
  *getLease(ttlSeconds: number): Co<LeaseID> {
    while (this.granting) yield* waitOn(this.unlocked);
    const now = this.now();
    const reuse = Math.min(Math.trunc(this.config.reuseDurationPercent * ttlSeconds), this.config.reuseDurationSeconds);
    const valid = now + ttlSeconds * 1000 < this.prevExpiration;
    const sufficient = now + (ttlSeconds + reuse) * 1000 > this.prevExpiration;
    this.attachedCount++;
    if (valid && sufficient && this.attachedCount <= this.config.maxObjectCount) return this.prevLeaseId;

    const ttl = ttlSeconds + reuse;
    this.granting = true;
    const reply = yield* this.etcd.leaseGrant({ TTL: ttl });
    this.granting = false;
    if (reply.ok) {
      this.prevLeaseId = reply.response.ID;
      this.prevExpiration = now + ttl * 1000;
      this.attachedCount = 1;
    }
    yield* broadcast(this.unlocked);
    if (!reply.ok) throw storageErrors.unreachable('', reply.error.message);
    return reply.response.ID;
  }
}

// A member's Lease service and the lessor's expiry loop: grant, revoke, keep-alive, time-to-live and
// list, answered on the request path's terms (v3-server.ts), and one background timer per lease at its
// expiry. A single member revokes an expired lease itself; in a cluster only the leader runs the timers
// (`runsExpiry`) and revokes through the log.
// Models etcdserver/v3_server.go (LeaseGrant, LeaseRevoke, LeaseRenew, LeaseTimeToLive, LeaseLeases) and
// lease/lessor.go (runLoop, revokeExpiredLeases).

import type { Message } from '../engine/index.ts';
import type { EtcdReplyPayload, EtcdRequestKind } from '../messages/index.ts';
import { EtcdError, ErrGRPCLeaseNotFound, toRpcError, type RpcError } from './errors.ts';
import { noLease, type LeaseID } from './kv.ts';
import type { Lease, Lessor } from './lease.ts';
import { etcdKinds, memberTimers, replyKind, type EtcdReply, type MemberIO, type WriteRecord } from './messages.ts';
import { genericStats } from './request-stats.ts';
import type {
  LeaseGrantRequest, LeaseGrantResponse, LeaseKeepAliveRequest, LeaseKeepAliveResponse, LeaseLeasesResponse, LeaseRevokeRequest,
  LeaseRevokeResponse, LeaseTimeToLiveRequest, LeaseTimeToLiveResponse,
} from './rpc.ts';
import type { V3Server } from './v3-server.ts';
import type { WatchableStore } from './watchable-store.ts';

export class LeaseServer {
  private readonly timers = new Map<LeaseID, Message>();

  constructor(
    private readonly io: MemberIO,
    private readonly lessor: Lessor,
    private readonly store: WatchableStore,
    private readonly v3: V3Server,
    /** True where this member runs the expiry loop: a single member, or a cluster's leader. */
    private readonly runsExpiry: () => boolean,
  ) {}

  /** Serves a Lease request; false for any other kind. */
  serve(message: Message): boolean {
    switch (message.kind) {
      case etcdKinds.leaseGrant: this.serveLeaseGrant(message as Message<LeaseGrantRequest>); return true;
      case etcdKinds.leaseRevoke: this.serveLeaseRevoke(message as Message<LeaseRevokeRequest>); return true;
      case etcdKinds.leaseKeepAlive: this.serveLeaseKeepAlive(message as Message<LeaseKeepAliveRequest>); return true;
      case etcdKinds.leaseTimeToLive: this.serveLeaseTimeToLive(message as Message<LeaseTimeToLiveRequest>); return true;
      case etcdKinds.leaseLeases: this.serveLeaseLeases(message); return true;
      default:
        return false;
    }
  }

  private serveLeaseGrant(m: Message<LeaseGrantRequest>): void {
    let id = m.payload.ID ?? noLease;
    if (id === noLease) id = this.v3.ids().nextLeaseId();
    this.v3.ids().next();
    let resp: LeaseGrantResponse | null = null;
    let error: RpcError | null = null;
    try {
      const lease = this.lessor.grant(id, m.payload.TTL, this.io.now());
      this.scheduleExpiry(id, lease.expiry);
      resp = { header: this.v3.header(), ID: id, TTL: lease.ttl, error: '' };
    } catch (e) {
      error = toRpcError(e);
    }
    this.v3.answer(m, resp, error, genericStats('/etcdserverpb.Lease/LeaseGrant'), null, 'write');
  }

  private serveLeaseRevoke(m: Message<LeaseRevokeRequest>): void {
    this.v3.ids().next();
    let resp: LeaseRevokeResponse | null = null;
    let error: RpcError | null = null;
    let write: WriteRecord | null = null;
    const before = this.store.currentRev;
    try {
      this.revoke(m.payload.ID);
      resp = { header: this.v3.header() };
      write = this.v3.record(before, this.store.currentRev, [], 'success', [], []);
    } catch (e) {
      error = toRpcError(e);
    }
    this.v3.answer(m, resp, error, genericStats('/etcdserverpb.Lease/LeaseRevoke'), write, 'write');
  }

  /** An unknown lease is not an error: the reply carries TTL 0. */
  private serveLeaseKeepAlive(m: Message<LeaseKeepAliveRequest>): void {
    let ttl = 0;
    if (this.lessor.lookup(m.payload.ID) !== undefined) {
      ttl = this.lessor.renew(m.payload.ID, this.io.now());
      this.scheduleExpiry(m.payload.ID, this.lessor.lookup(m.payload.ID)!.expiry);
    }
    const resp: LeaseKeepAliveResponse = { header: this.v3.header(), ID: m.payload.ID, TTL: ttl };
    const payload: EtcdReply<LeaseKeepAliveResponse> = { ok: true, response: resp, stats: null, log: null, write: null };
    if (!this.v3.silent) this.io.reply(m, replyKind(m.kind as EtcdRequestKind), payload as EtcdReplyPayload);
  }

  /** An unknown lease is not an error: TTL -1. */
  private serveLeaseTimeToLive(m: Message<LeaseTimeToLiveRequest>): void {
    this.v3.ids().next();
    const lease = this.lessor.lookup(m.payload.ID);
    const resp: LeaseTimeToLiveResponse = lease === undefined
      ? { header: this.v3.header(), ID: m.payload.ID, TTL: -1, grantedTTL: 0, keys: [] }
      : {
        header: this.v3.header(), ID: m.payload.ID, TTL: lease.remainingSeconds(this.io.now()), grantedTTL: lease.ttl,
        keys: m.payload.keys ? lease.sortedKeys() : [],
      };
    this.v3.answer(m, resp, null, genericStats('/etcdserverpb.Lease/LeaseTimeToLive'), null, 'read');
  }

  private serveLeaseLeases(m: Message): void {
    this.v3.ids().next();
    const resp: LeaseLeasesResponse = { header: this.v3.header(), leases: this.lessor.leases().map((l) => ({ ID: l.id })) };
    this.v3.answer(m, resp, null, genericStats('/etcdserverpb.Lease/LeaseLeases'), null, 'read');
  }

  /** Revokes lease `id` (its keys are deleted) and stops its timer. */
  revoke(id: LeaseID): void {
    if (this.lessor.lookup(id) === undefined) throw new EtcdError(ErrGRPCLeaseNotFound);
    this.lessor.revoke(id);
    this.cancel(id);
  }

  /** (Re)arms lease `id`'s timer to fire at `expiry`, where this member runs the expiry loop. */
  scheduleExpiry(id: LeaseID, expiry: number): void {
    if (!this.runsExpiry()) return;
    this.cancel(id);
    this.timers.set(id, this.io.setTimer(Math.max(0, expiry - this.io.now()), memberTimers.leaseExpiry, id, { background: true }));
  }

  private cancel(id: LeaseID): void {
    const timer = this.timers.get(id);
    if (timer !== undefined) this.io.cancelTimer(timer);
    this.timers.delete(id);
  }

  /** Stops every timer (the member died or lost the leadership). */
  clear(): void {
    for (const timer of this.timers.values()) this.io.cancelTimer(timer);
    this.timers.clear();
  }

  /** Lease `id`'s timer fired: the lease, if it is still there and expired, or undefined. */
  fired(id: LeaseID): Lease | undefined {
    this.timers.delete(id);
    const lease = this.lessor.lookup(id);
    return lease !== undefined && lease.expiry <= this.io.now() ? lease : undefined;
  }
}

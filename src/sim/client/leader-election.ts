// Leader election over a coordination.k8s.io Lease, as kube-controller-manager and kube-scheduler run it:
// try to acquire every retry period (2 s) until the lease is ours, then start leading, then renew every
// retry period. A renewal by the leader is one optimistic PUT of the lease it last wrote (client-go's fast
// path); only when that fails does it read the lease again. Renewals are background work: a cluster
// whose only activity is leases renewing counts as idle. Acquiring records a `LeaderElection` event on the
// Lease ("<identity> became leader").
// Models k8s.io/client-go/tools/leaderelection/leaderelection.go (acquire, renew, tryAcquireOrRenew with
// the optimistic update, isLeaseValid), resourcelock/leaselock.go (Get/Create/Update, RecordEvent on the
// Lease) and the 1.28 defaults of both components (--leader-elect-lease-duration 15 s, renew deadline
// 10 s, retry period 2 s). Deviations: one instance per component, so the lease is never contended and
// the acquire loop's jitter (JitterFactor 1.2) is not drawn; a failed renewal is retried next period
// rather than after the renew deadline ends leadership.

import { isStatusError } from '../api/errors.ts';
import { formatMicroTimestamp, parseTimestamp } from '../api/time.ts';
import type { Lease } from '../api/types/coordination.ts';
import { second, type Co, type Duration } from '../engine/index.ts';
import type { ClientHost } from './client-component.ts';
import type { EventRecorder } from './event-recorder.ts';
import { typed } from './object-reference.ts';
import type { ResourceClient } from './rest-client.ts';

export const leaderElectionDefaults = { leaseDuration: 15 * second, renewDeadline: 10 * second, retryPeriod: 2 * second } as const;

export interface LeaderElectionConfig {
  readonly namespace: string;
  /** The lease name: `kube-controller-manager`, `kube-scheduler`. */
  readonly name: string;
  /** `<hostname>_<uuid>`. */
  readonly identity: string;
  readonly leases: ResourceClient<Lease>;
  readonly recorder?: EventRecorder;
  readonly retryPeriod?: Duration;
  readonly leaseDuration?: Duration;
  /** OnStartedLeading. */
  readonly onStartedLeading: () => void;
}

export class LeaderElector {
  /** The lease as last read or written. */
  private observed: Lease | null = null;
  private leading = false;
  private stopped = false;

  constructor(private readonly host: ClientHost, private readonly config: LeaderElectionConfig) {}

  get isLeader(): boolean {
    return this.leading;
  }

  get lease(): Lease | null {
    return this.observed;
  }

  /** Starts: tries to acquire now and every retry period until it leads. */
  run(): void {
    this.host.spawn(this.acquire());
  }

  /** The process stopped: no more renewals. */
  stop(): void {
    this.stopped = true;
  }

  private get retryPeriod(): Duration {
    return this.config.retryPeriod ?? leaderElectionDefaults.retryPeriod;
  }

  private *acquire(): Co<void> {
    if (this.stopped) return;
    const ok = yield* this.tryAcquireOrRenew();
    if (this.stopped) return;
    if (!ok) {
      this.host.after(this.retryPeriod, 'leader-election-acquire', () => this.host.spawn(this.acquire()));
      return;
    }
    this.leading = true;
    this.config.recorder?.event(typed(this.observed!, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' }), 'Normal', 'LeaderElection', `${this.config.identity} became leader`);
    this.config.onStartedLeading();
    this.scheduleRenew();
  }

  private scheduleRenew(): void {
    this.host.after(this.retryPeriod, 'leader-election-renew', () => this.host.spawn(this.renew()), { background: true });
  }

  private *renew(): Co<void> {
    if (this.stopped) return;
    yield* this.tryAcquireOrRenew();
    if (!this.stopped) this.scheduleRenew();
  }

  private *tryAcquireOrRenew(): Co<boolean> {
    const now = this.host.epochMs + this.host.now;
    const nowText = formatMicroTimestamp(now);
    const durationSeconds = Math.round((this.config.leaseDuration ?? leaderElectionDefaults.leaseDuration) / second);
    const { leases, namespace, name, identity } = this.config;
    // 1. The fast path: the leader updates the lease it last wrote.
    if (this.leading && this.observed) {
      try {
        this.observed = yield* leases.update({ ...this.observed, spec: { ...this.observed.spec, renewTime: nowText } });
        return true;
      } catch (err) {
        if (!isStatusError(err)) throw err;
      }
    }
    // 2. Get the lease, or create it.
    let current: Lease;
    try {
      current = yield* leases.get(namespace, name);
    } catch (err) {
      if (!isStatusError(err) || err.status.code !== 404) throw err;
      try {
        this.observed = yield* leases.create(namespace, {
          apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace },
          spec: { holderIdentity: identity, leaseDurationSeconds: durationSeconds, acquireTime: nowText, renewTime: nowText, leaseTransitions: 0 },
        });
        return true;
      } catch (createErr) {
        if (!isStatusError(createErr)) throw createErr;
        return false;
      }
    }
    // 3. Someone else holds a lease that has not expired: not ours.
    const spec = current.spec ?? {};
    const held = spec.holderIdentity ?? '';
    const renewed = spec.renewTime ? parseTimestamp(spec.renewTime) ?? 0 : 0;
    if (held !== '' && held !== identity && renewed + (spec.leaseDurationSeconds ?? 0) * 1000 > now) {
      this.observed = current;
      this.leading = false;
      return false;
    }
    // 4. Take or keep it.
    const transitions = held === identity ? spec.leaseTransitions ?? 0 : (spec.leaseTransitions ?? 0) + 1;
    try {
      this.observed = yield* leases.update({
        ...current,
        spec: {
          holderIdentity: identity, leaseDurationSeconds: durationSeconds,
          acquireTime: held === identity ? spec.acquireTime ?? nowText : nowText, renewTime: nowText, leaseTransitions: transitions,
        },
      });
      return true;
    } catch (err) {
      if (!isStatusError(err)) throw err;
      return false;
    }
  }
}

// The node lease controller: the kubelet's heartbeat. It makes sure the node's Lease exists in
// kube-node-lease (owned by the Node), then renews its renewTime every 10–10.4 s (leaseDurationSeconds 40,
// the renew interval a quarter of it, jittered by up to 4 %). From the second sync on it writes the
// Lease it last wrote with a new renewTime (a PUT only, no GET), and goes back to a GET only when that
// PUT fails: a conflict, or the Lease gone.
// Models k8s.io/component-helpers/apimachinery/lease/controller.go (Run's JitterUntil with factor 0.04,
// sliding; sync, backoffEnsureLease, ensureLease, retryUpdateLease, newLease) with the kubelet's
// SetNodeOwnerFunc (pkg/kubelet/util/nodelease.go) as pkg/kubelet/kubelet.go wires it.
//
// Not modelled: onRepeatedHeartbeatFailure (the kubelet closing its connections after repeated failures).

import { isStatusError } from '../api/errors.ts';
import { formatMicroTimestamp } from '../api/time.ts';
import type { Lease } from '../api/types/coordination.ts';
import type { ClientHost, ResourceClient } from '../client/index.ts';
import { jitter, type Co, type Duration, type Rng } from '../engine/index.ts';
import { runtimeDurations } from './runtime-service.ts';

/** Tries of one renewal's PUT (controller.go: maxUpdateRetries). */
const maxUpdateRetries = 5;
/** The longest wait between tries to ensure the Lease exists (controller.go: maxBackoff). */
const maxEnsureBackoff: Duration = 7_000;
/** The renew period's jitter (lease controller Run: wait.JitterUntil(sync, renewInterval, 0.04, true)). */
const renewJitterFactor = 0.04;

export class NodeLeaseController {
  /** Renewals done so far, the create included (a count: a list of every renewTime would grow with virtual time for as long as the node lives). */
  renewals = 0;
  /** The renewTime of the newest renewal ('' before the first). */
  lastRenewTime = '';
  /** The Lease as this controller last wrote or read it (controller.go: latestLease); null before the first sync. */
  private latest: Lease | null = null;

  /**
   * `nodeUid`: the Node's UID once registered (the lease's owner reference). `jitter`: the stream the renew
   * period's jitter is drawn from, one per kubelet, so heartbeats never shift the names and choices drawn elsewhere.
   */
  constructor(private readonly host: ClientHost, private readonly leases: ResourceClient<Lease>, private readonly node: string,
    private readonly nodeUid: () => string, private readonly jitter: () => Rng) {}

  /**
   * One sync now, then the next one a jittered renew interval after this one ends (background work).
   * The jitter is drawn before the sync, the timer started after it (JitterUntil with sliding = true).
   */
  *renewLease(): Co<void> {
    const period = jitter(runtimeDurations.leaseRenewInterval, renewJitterFactor, this.jitter());
    yield* this.sync();
    this.host.after(period, 'node-lease-renew', () => this.host.spawn(this.renewLease()), { background: true });
  }

  private *sync(): Co<void> {
    // Optimistically the Lease is unchanged since this controller wrote it: renew from that version, no GET.
    if (this.latest && (yield* this.retryUpdate(this.latest))) return;
    const { lease, created } = yield* this.backoffEnsure();
    this.latest = lease;
    if (!created) yield* this.retryUpdate(lease); // a failure waits for the next sync
  }

  /** Ensures the Lease exists, waiting 200 ms, 400 ms, … up to 7 s between tries until it does. */
  private *backoffEnsure(): Co<{ lease: Lease; created: boolean }> {
    let wait: Duration = 100;
    for (;;) {
      const ensured = yield* this.ensure();
      if (ensured) return ensured;
      wait = Math.min(2 * wait, maxEnsureBackoff);
      yield* this.host.sleep(wait, { reason: 'ensure-node-lease' });
    }
  }

  /** GETs the Lease, creating it when it is not found; null when a request failed. */
  private *ensure(): Co<{ lease: Lease; created: boolean } | null> {
    try {
      try {
        return { lease: yield* this.leases.get('kube-node-lease', this.node), created: false };
      } catch (err) {
        if (!isStatusError(err) || err.code !== 404) throw err;
      }
      const renewTime = this.renewTime();
      const lease = yield* this.leases.create('kube-node-lease', {
        apiVersion: 'coordination.k8s.io/v1', kind: 'Lease',
        metadata: {
          name: this.node, namespace: 'kube-node-lease',
          // SetNodeOwnerFunc: a new Lease is owned by its Node, so it goes when the Node goes.
          ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: this.node, uid: this.nodeUid() }],
        },
        spec: { holderIdentity: this.node, leaseDurationSeconds: runtimeDurations.leaseDurationSeconds, renewTime },
      });
      this.renewed(renewTime);
      return { lease, created: true };
    } catch (err) {
      if (!isStatusError(err)) throw err;
      return null;
    }
  }

  /** PUTs `base` with a new renewTime, up to 5 tries; on a conflict the next try starts from a fresh GET. True once one succeeded. */
  private *retryUpdate(base: Lease): Co<boolean> {
    for (let i = 0; i < maxUpdateRetries; i++) {
      const renewTime = this.renewTime();
      try {
        this.latest = yield* this.leases.update({ ...base, spec: { ...base.spec, renewTime } });
        this.renewed(renewTime);
        return true;
      } catch (err) {
        if (!isStatusError(err)) throw err;
        if (err.code === 409) base = (yield* this.backoffEnsure()).lease;
      }
    }
    return false;
  }

  private renewTime(): string {
    return formatMicroTimestamp(this.host.epochMs + this.host.now);
  }

  private renewed(renewTime: string): void {
    this.renewals++;
    this.lastRenewTime = renewTime;
  }
}

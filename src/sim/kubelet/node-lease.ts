// The node lease controller: the kubelet's heartbeat. It makes sure the node's Lease exists in
// kube-node-lease (owned by the Node), then renews its renewTime every 10 s (leaseDurationSeconds 40).
// Models k8s.io/component-helpers/apimachinery/lease/controller.go (ensureLease, renewLease, with the
// kubelet's setNodeOwnerFunc) as pkg/kubelet/nodelease wires it.

import { isStatusError } from '../api/errors.ts';
import { formatMicroTimestamp } from '../api/time.ts';
import type { Lease } from '../api/types/coordination.ts';
import type { ClientHost, ResourceClient } from '../client/index.ts';
import type { Co } from '../engine/index.ts';
import { runtimeDurations } from './runtime-service.ts';

export class NodeLeaseController {
  /** Renewals done so far (a count: a list of every renewTime would grow with virtual time for as long as the node lives). */
  renewals = 0;
  /** The renewTime of the newest renewal ('' before the first). */
  lastRenewTime = '';

  /** `nodeUid`: the Node's UID once registered (the lease's owner reference). */
  constructor(private readonly host: ClientHost, private readonly leases: ResourceClient<Lease>, private readonly node: string,
    private readonly nodeUid: () => string) {}

  /** Creates or renews the lease now, then again every renew interval (background work). */
  *renewLease(): Co<void> {
    const renewTime = formatMicroTimestamp(this.host.epochMs + this.host.now);
    try {
      let lease: Lease | undefined;
      try {
        lease = yield* this.leases.get('kube-node-lease', this.node);
      } catch (err) {
        if (!isStatusError(err) || err.code !== 404) throw err;
      }
      if (!lease) {
        yield* this.leases.create('kube-node-lease', {
          apiVersion: 'coordination.k8s.io/v1', kind: 'Lease',
          metadata: {
            name: this.node, namespace: 'kube-node-lease',
            ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: this.node, uid: this.nodeUid() }],
          },
          spec: { holderIdentity: this.node, leaseDurationSeconds: runtimeDurations.leaseDurationSeconds, renewTime },
        });
      } else {
        yield* this.leases.update({ ...lease, spec: { ...lease.spec, holderIdentity: this.node, renewTime } });
      }
      this.renewals++;
      this.lastRenewTime = renewTime;
    } catch (err) {
      if (!isStatusError(err)) throw err;
    }
    this.host.after(runtimeDurations.leaseRenewInterval, 'node-lease-renew', () => this.host.spawn(this.renewLease()), { background: true });
  }
}

// kube-apiserver's identity lease: kube-system/kube-apiserver-<hash>, held by `<id>_<uuid>`, one hour
// long, renewed every 10 s, labelled as an apiserver's heartbeat. The hash is
// base32(sha224(hostname)[:16]) lowercased; for the control-plane host's name `control-plane` worked out
// once (the model has no SHA-224): `kube-apiserver-m6v5cwonsdill5e7qwezc7bc5y`. A server process names
// its own (`ApiserverIdentity`, worked out by src/server/identity.ts), so that two on one etcd hold two leases.
// Models k8s pkg/controlplane/instance.go (start-kube-apiserver-identity-lease-controller,
// IdentityLeaseDurationSeconds 3600, IdentityLeaseRenewIntervalPeriod 10 s, labelAPIServerHeartbeatFunc),
// pkg/controlplane/apiserver/config.go (APIServerID) and component-helpers apimachinery/lease/controller.go.

import { StatusError } from '../api/errors.ts';
import { formatMicroTimestamp } from '../api/time.ts';
import type { Lease } from '../api/types/coordination.ts';
import type { KubeObject } from '../api/types/meta.ts';
import type { Co } from '../engine/index.ts';
import type { GenericStore, RegistryContext } from './registry/generic-store.ts';
import { StorageError } from './storage/errors.ts';

export const controlPlaneHostname = 'control-plane';
export const apiserverID = 'kube-apiserver-m6v5cwonsdill5e7qwezc7bc5y';

/** Who a kube-apiserver is: its host's name and its APIServerID (`kube-apiserver-<hash of the hostname>`). */
export interface ApiserverIdentity {
  readonly hostname: string;
  readonly id: string;
}

/** The model's control-plane host (the page's worker and a default server). */
export const controlPlaneIdentity: ApiserverIdentity = { hostname: controlPlaneHostname, id: apiserverID };
export const identityLeaseDurationSeconds = 3600;
export const identityLeaseRenewInterval = 10_000;
/** The renew period's jitter: the lease controller runs under wait.JitterUntil(sync, renewInterval, 0.04, sliding). */
export const identityLeaseJitterFactor = 0.04;
export const identityLeaseTimer = 'identity-lease-renew';

export function apiserverIdentityLease(uuid: string, renewTime: string, identity: ApiserverIdentity = controlPlaneIdentity): KubeObject {
  const lease: Lease = {
    apiVersion: 'coordination.k8s.io/v1', kind: 'Lease',
    metadata: {
      name: identity.id, namespace: 'kube-system',
      labels: { 'apiserver.kubernetes.io/identity': 'kube-apiserver', 'kubernetes.io/hostname': identity.hostname },
    },
    spec: { holderIdentity: `${identity.id}_${uuid}`, leaseDurationSeconds: identityLeaseDurationSeconds, renewTime },
  };
  return lease;
}

/** What the identity lease controller needs of kube-apiserver. */
export interface IdentityLeaseHost {
  /** The registry store of coordination.k8s.io leases. */
  leases(): GenericStore;
  /** The registry context of kube-apiserver itself (system:apiserver) in kube-system. */
  systemContext(): RegistryContext;
  /** The wall-clock time now, ms since the Unix epoch. */
  wallNow(): number;
  uuid(): string;
  /** This apiserver's identity. */
  readonly identity: ApiserverIdentity;
  /** Calls `renew` again after `identityLeaseRenewInterval` plus up to 4 % jitter (a background timer named `identityLeaseTimer`). */
  scheduleRenew(): void;
}

/** The identity lease controller: create kube-system/kube-apiserver-<hash>, then renew it every 10–10.4 s from the Lease last written (no GET). */
export class IdentityLeaseController {
  /** The identity lease as last written. */
  private lease: KubeObject | null = null;

  constructor(private readonly host: IdentityLeaseHost) {}

  /** The apiserver whose lease this is. */
  get identity(): ApiserverIdentity {
    return this.host.identity;
  }

  *renew(): Co<void> {
    const ctx = this.host.systemContext();
    const renewTime = formatMicroTimestamp(this.host.wallNow());
    const store = this.host.leases();
    try {
      if (this.lease === null) {
        this.lease = yield* store.create(ctx, apiserverIdentityLease(this.host.uuid(), renewTime, this.host.identity));
      } else {
        const current = this.lease as Lease;
        const { object } = yield* store.update(ctx, current.metadata.name ?? '', () => ({ ...current, spec: { ...current.spec, renewTime } }) as KubeObject);
        this.lease = object;
      }
    } catch (err) {
      // An error answer or etcd unreachable: logged by the real controller, which tries again next period.
      if (!(err instanceof StatusError) && !(err instanceof StorageError)) throw err;
      this.lease = null;
    }
    this.host.scheduleRenew();
  }
}

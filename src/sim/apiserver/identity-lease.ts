// kube-apiserver's identity lease: kube-system/kube-apiserver-<hash>, held by `<id>_<uuid>`, one hour
// long, renewed every 10 s, labelled as an apiserver's heartbeat. The hash is
// base32(sha224(hostname)[:16]) lowercased for the control-plane host's name `control-plane`, worked
// out once (the model has no SHA-224): `kube-apiserver-m6v5cwonsdill5e7qwezc7bc5y`.
// Models k8s pkg/controlplane/instance.go (start-kube-apiserver-identity-lease-controller,
// IdentityLeaseDurationSeconds 3600, IdentityLeaseRenewIntervalPeriod 10 s, labelAPIServerHeartbeatFunc),
// pkg/controlplane/apiserver/config.go (APIServerID) and component-helpers apimachinery/lease/controller.go.

import type { Lease } from '../api/types/coordination.ts';
import type { KubeObject } from '../api/types/meta.ts';

export const controlPlaneHostname = 'control-plane';
export const apiserverID = 'kube-apiserver-m6v5cwonsdill5e7qwezc7bc5y';
export const identityLeaseDurationSeconds = 3600;
export const identityLeaseRenewInterval = 10_000;
export const identityLeaseTimer = 'identity-lease-renew';

export function apiserverIdentityLease(uuid: string, renewTime: string): KubeObject {
  const lease: Lease = {
    apiVersion: 'coordination.k8s.io/v1', kind: 'Lease',
    metadata: {
      name: apiserverID, namespace: 'kube-system',
      labels: { 'apiserver.kubernetes.io/identity': 'kube-apiserver', 'kubernetes.io/hostname': controlPlaneHostname },
    },
    spec: { holderIdentity: `${apiserverID}_${uuid}`, leaseDurationSeconds: identityLeaseDurationSeconds, renewTime },
  };
  return lease;
}

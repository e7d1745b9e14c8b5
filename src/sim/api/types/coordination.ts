// coordination.k8s.io/v1 Lease: node heartbeats (`kube-node-lease/<node>`) and leader election.
// Models k8s.io/api/coordination/v1/types.go.

import type { KubeObject, MicroTimestamp } from './meta.ts';

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: MicroTimestamp;
  renewTime?: MicroTimestamp;
  leaseTransitions?: number;
}

export interface Lease extends KubeObject {
  spec?: LeaseSpec;
}

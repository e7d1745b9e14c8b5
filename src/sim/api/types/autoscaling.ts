// autoscaling/v1 Scale, the body of the deployments/scale and replicasets/scale subresources.
// Models k8s.io/api/autoscaling/v1/types.go.

import type { KubeObject } from './meta.ts';

export interface Scale extends KubeObject {
  spec?: { replicas?: number };
  /** `selector` is the label selector in string form (`app=nginx`). */
  status?: { replicas: number; selector?: string };
}

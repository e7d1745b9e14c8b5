// apps/v1 Deployment and ReplicaSet.
// Models k8s.io/api/apps/v1/types.go.

import type { IntOrString, PodTemplateSpec } from './core.ts';
import type { ConditionStatus, KubeObject, LabelSelector, Timestamp } from './meta.ts';

export interface RollingUpdateDeployment {
  maxUnavailable?: IntOrString;
  maxSurge?: IntOrString;
}

export interface DeploymentStrategy {
  type?: 'Recreate' | 'RollingUpdate';
  rollingUpdate?: RollingUpdateDeployment;
}

export interface DeploymentSpec {
  replicas?: number;
  selector: LabelSelector | null;
  template: PodTemplateSpec;
  strategy?: DeploymentStrategy;
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  paused?: boolean;
  progressDeadlineSeconds?: number;
}

export interface DeploymentCondition {
  type: 'Available' | 'Progressing' | 'ReplicaFailure' | string;
  status: ConditionStatus;
  lastUpdateTime?: Timestamp | null;
  lastTransitionTime?: Timestamp | null;
  reason?: string;
  message?: string;
}

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  conditions?: DeploymentCondition[];
  collisionCount?: number;
}

/** `spec` is always present on the wire (Go never omits a struct); `status` may be left out when writing. */
export interface Deployment extends KubeObject {
  spec: DeploymentSpec;
  status?: DeploymentStatus;
}

export interface ReplicaSetSpec {
  replicas?: number;
  minReadySeconds?: number;
  selector: LabelSelector | null;
  template?: PodTemplateSpec;
}

export interface ReplicaSetCondition {
  type: 'ReplicaFailure' | string;
  status: ConditionStatus;
  lastTransitionTime?: Timestamp | null;
  reason?: string;
  message?: string;
}

export interface ReplicaSetStatus {
  /** Always serialized (no omitempty upstream). */
  replicas: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  conditions?: ReplicaSetCondition[];
}

/** `spec` is always present on the wire (Go never omits a struct); `status` may be left out when writing. */
export interface ReplicaSet extends KubeObject {
  spec: ReplicaSetSpec;
  status?: ReplicaSetStatus;
}

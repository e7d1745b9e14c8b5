// The kinds kubectl's default prune allowlist names beyond the ones Podflow runs: core/v1 Secret,
// PersistentVolumeClaim, PersistentVolume and ReplicationController; apps/v1 DaemonSet and StatefulSet;
// batch/v1 Job and CronJob; networking.k8s.io/v1 Ingress. They are stored, validated, defaulted and
// printed as a 1.28 apiserver does; no controller acts on them (see the README). Only the fields the
// model reads are typed; the wire schema (schema-data.ts) has every field.
// Models k8s.io/api/{core,apps,batch,networking}/v1/types.go.

import type { IntOrString, ObjectReference, PodTemplateSpec, ResourceRequirements } from './core.ts';
import type { KubeObject, LabelSelector, ObjectMeta, Timestamp } from './meta.ts';

export interface Secret extends KubeObject {
  immutable?: boolean;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  type?: string;
}

export interface PersistentVolumeClaimSpec {
  accessModes?: string[];
  selector?: LabelSelector;
  resources?: ResourceRequirements;
  volumeName?: string;
  storageClassName?: string;
  volumeMode?: string;
}

export interface PersistentVolumeClaim extends KubeObject {
  spec?: PersistentVolumeClaimSpec;
  status?: { phase?: string; accessModes?: string[]; capacity?: Record<string, string> };
}

export interface PersistentVolumeSpec {
  capacity?: Record<string, string>;
  accessModes?: string[];
  claimRef?: ObjectReference;
  persistentVolumeReclaimPolicy?: string;
  storageClassName?: string;
  volumeMode?: string;
  /** The volume sources (hostPath, nfs, csi, local…), inlined as in PersistentVolumeSource. */
  [source: string]: unknown;
}

export interface PersistentVolume extends KubeObject {
  spec?: PersistentVolumeSpec;
  status?: { phase?: string; message?: string; reason?: string };
}

export interface ReplicationController extends KubeObject {
  spec?: { replicas?: number; minReadySeconds?: number; selector?: Record<string, string>; template?: PodTemplateSpec };
  status?: { replicas: number; readyReplicas?: number; availableReplicas?: number; observedGeneration?: number };
}

export interface DaemonSet extends KubeObject {
  spec: {
    selector: LabelSelector | null;
    template: PodTemplateSpec;
    updateStrategy?: { type?: string; rollingUpdate?: { maxUnavailable?: IntOrString; maxSurge?: IntOrString } };
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
  };
  status?: {
    currentNumberScheduled: number; numberMisscheduled: number; desiredNumberScheduled: number; numberReady: number;
    updatedNumberScheduled?: number; numberAvailable?: number;
  };
}

export interface StatefulSet extends KubeObject {
  spec: {
    replicas?: number;
    selector: LabelSelector | null;
    template: PodTemplateSpec;
    volumeClaimTemplates?: PersistentVolumeClaim[];
    serviceName: string;
    podManagementPolicy?: string;
    updateStrategy?: { type?: string; rollingUpdate?: { partition?: number; maxUnavailable?: IntOrString } };
    revisionHistoryLimit?: number;
    minReadySeconds?: number;
    persistentVolumeClaimRetentionPolicy?: { whenDeleted?: string; whenScaled?: string };
  };
  status?: { replicas: number; readyReplicas?: number; availableReplicas: number };
}

export interface JobSpec {
  parallelism?: number;
  completions?: number;
  activeDeadlineSeconds?: number;
  backoffLimit?: number;
  backoffLimitPerIndex?: number;
  selector?: LabelSelector;
  manualSelector?: boolean;
  template: PodTemplateSpec;
  ttlSecondsAfterFinished?: number;
  completionMode?: string;
  suspend?: boolean;
}

export interface Job extends KubeObject {
  spec: JobSpec;
  status?: { startTime?: Timestamp; completionTime?: Timestamp; active?: number; succeeded?: number; failed?: number };
}

export interface CronJob extends KubeObject {
  spec: {
    schedule: string;
    timeZone?: string;
    startingDeadlineSeconds?: number;
    concurrencyPolicy?: string;
    suspend?: boolean;
    jobTemplate: { metadata?: ObjectMeta; spec?: JobSpec };
    successfulJobsHistoryLimit?: number;
    failedJobsHistoryLimit?: number;
  };
  status?: { active?: ObjectReference[]; lastScheduleTime?: Timestamp; lastSuccessfulTime?: Timestamp };
}

export interface IngressBackend {
  service?: { name: string; port?: { name?: string; number?: number } };
  resource?: { apiGroup?: string | null; kind: string; name: string };
}

export interface HTTPIngressPath {
  path?: string;
  pathType?: string;
  backend: IngressBackend;
}

export interface IngressRule {
  host?: string;
  http?: { paths: HTTPIngressPath[] };
}

export interface Ingress extends KubeObject {
  spec?: {
    ingressClassName?: string;
    defaultBackend?: IngressBackend;
    tls?: Array<{ hosts?: string[]; secretName?: string }>;
    rules?: IngressRule[];
  };
  status?: { loadBalancer?: { ingress?: Array<{ ip?: string; hostname?: string }> } };
}

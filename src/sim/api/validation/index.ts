// Validation by kind, as the registry strategies call it: `validateCreate` for a new object,
// `validateUpdate` for a replacement of the main resource, `validateStatusUpdate` for the status
// subresource. Each returns the field errors that `newInvalid` turns into a 422.

import type { FieldError } from '../field.ts';
import type { GroupVersionKind } from '../gvk.ts';
import type { Event } from '../types/index.ts';
import type { KubeObject } from '../types/meta.ts';
import { validateDeployment, validateDeploymentStatusUpdate, validateDeploymentUpdate, validateReplicaSet, validateReplicaSetStatusUpdate, validateReplicaSetUpdate } from './apps.ts';
import {
  validateConfigMap, validateConfigMapUpdate, validateEvent, validateLease, validateLeaseUpdate, validateNamespace, validateNamespaceUpdate,
  validateNode, validateNodeUpdate, validateServiceAccount, validateServiceAccountUpdate,
} from './core.ts';
import { validateObjectMetaUpdate } from './meta.ts';
import {
  validateCronJob, validateCronJobUpdate, validateDaemonSet, validateDaemonSetUpdate, validateIngress, validateIngressUpdate, validateJob, validateJobUpdate,
  validatePersistentVolume, validatePersistentVolumeClaim, validatePersistentVolumeClaimUpdate, validatePersistentVolumeUpdate, validateReplicationController,
  validateReplicationControllerUpdate, validateSecret, validateSecretUpdate, validateStatefulSet, validateStatefulSetUpdate,
} from './workloads.ts';
import {
  validateEndpoints, validateEndpointSlice, validatePriorityClass, validatePriorityClassUpdate, validateService, validateServiceUpdate,
} from './service.ts';
import { validatePodBinding, validatePodCreate, validatePodUpdate } from './pod.ts';
import {
  validateClusterRole, validateClusterRoleBinding, validateClusterRoleBindingUpdate, validateClusterRoleUpdate, validateRole, validateRoleBinding,
  validateRoleBindingUpdate, validateRoleUpdate,
} from './rbac.ts';

type CreateValidator = (obj: never) => FieldError[];
type UpdateValidator = (obj: never, old: never) => FieldError[];

const onCreate: Readonly<Record<string, CreateValidator>> = {
  '/Pod': validatePodCreate,
  '/Binding': validatePodBinding,
  '/Namespace': validateNamespace,
  '/Node': validateNode,
  '/ConfigMap': validateConfigMap,
  '/ServiceAccount': validateServiceAccount,
  '/Event': validateEvent,
  'apps/Deployment': validateDeployment,
  'apps/ReplicaSet': validateReplicaSet,
  'coordination.k8s.io/Lease': validateLease,
  'rbac.authorization.k8s.io/Role': validateRole,
  'rbac.authorization.k8s.io/ClusterRole': validateClusterRole,
  'rbac.authorization.k8s.io/RoleBinding': validateRoleBinding,
  'rbac.authorization.k8s.io/ClusterRoleBinding': validateClusterRoleBinding,
  '/Service': validateService,
  '/Endpoints': validateEndpoints,
  'discovery.k8s.io/EndpointSlice': validateEndpointSlice,
  'scheduling.k8s.io/PriorityClass': validatePriorityClass,
  '/Secret': validateSecret,
  '/PersistentVolumeClaim': validatePersistentVolumeClaim,
  '/PersistentVolume': validatePersistentVolume,
  '/ReplicationController': validateReplicationController,
  'apps/DaemonSet': validateDaemonSet,
  'apps/StatefulSet': validateStatefulSet,
  'batch/Job': validateJob,
  'batch/CronJob': validateCronJob,
  'networking.k8s.io/Ingress': validateIngress,
};

const onUpdate: Readonly<Record<string, UpdateValidator>> = {
  '/Pod': validatePodUpdate,
  '/Namespace': validateNamespaceUpdate,
  '/Node': validateNodeUpdate,
  '/ConfigMap': validateConfigMapUpdate,
  '/ServiceAccount': validateServiceAccountUpdate,
  '/Event': (e: Event) => validateEvent(e),
  'apps/Deployment': validateDeploymentUpdate,
  'apps/ReplicaSet': validateReplicaSetUpdate,
  'coordination.k8s.io/Lease': validateLeaseUpdate,
  'rbac.authorization.k8s.io/Role': validateRoleUpdate,
  'rbac.authorization.k8s.io/ClusterRole': validateClusterRoleUpdate,
  'rbac.authorization.k8s.io/RoleBinding': validateRoleBindingUpdate,
  'rbac.authorization.k8s.io/ClusterRoleBinding': validateClusterRoleBindingUpdate,
  '/Service': validateServiceUpdate,
  '/Endpoints': (ep: never, old: never) => [...validateObjectMetaUpdate((ep as { metadata: never }).metadata, (old as { metadata: never }).metadata), ...validateEndpoints(ep)],
  'discovery.k8s.io/EndpointSlice': (s: never, old: never) => [...validateObjectMetaUpdate((s as { metadata: never }).metadata, (old as { metadata: never }).metadata), ...validateEndpointSlice(s)],
  'scheduling.k8s.io/PriorityClass': validatePriorityClassUpdate,
  '/Secret': validateSecretUpdate,
  '/PersistentVolumeClaim': validatePersistentVolumeClaimUpdate,
  '/PersistentVolume': validatePersistentVolumeUpdate,
  '/ReplicationController': validateReplicationControllerUpdate,
  'apps/DaemonSet': validateDaemonSetUpdate,
  'apps/StatefulSet': validateStatefulSetUpdate,
  'batch/Job': validateJobUpdate,
  'batch/CronJob': validateCronJobUpdate,
  'networking.k8s.io/Ingress': validateIngressUpdate,
};

const onStatusUpdate: Readonly<Record<string, UpdateValidator>> = {
  'apps/Deployment': validateDeploymentStatusUpdate,
  'apps/ReplicaSet': validateReplicaSetStatusUpdate,
};

const key = (gvk: GroupVersionKind): string => `${gvk.group}/${gvk.kind}`;

/** Field errors for creating this object. */
export function validateCreate(gvk: GroupVersionKind, obj: KubeObject): FieldError[] {
  return onCreate[key(gvk)]?.(obj as never) ?? [];
}

/** Field errors for replacing `old` with `obj`. */
export function validateUpdate(gvk: GroupVersionKind, obj: KubeObject, old: KubeObject): FieldError[] {
  return onUpdate[key(gvk)]?.(obj as never, old as never) ?? validateObjectMetaUpdate(obj.metadata, old.metadata);
}

/** Field errors for a status-subresource write; kinds without their own rules check metadata only. */
export function validateStatusUpdate(gvk: GroupVersionKind, obj: KubeObject, old: KubeObject): FieldError[] {
  return onStatusUpdate[key(gvk)]?.(obj as never, old as never) ?? validateObjectMetaUpdate(obj.metadata, old.metadata);
}


// Strategies of the kinds served for kubectl's default prune allowlist: Secrets, PersistentVolumeClaims,
// PersistentVolumes, ReplicationControllers, DaemonSets, StatefulSets, Jobs, CronJobs and Ingresses.
// Each clears status on create (the status subresource writes it) and keeps it on update; the workloads
// start at generation 1 and bump it when the spec changes. A Job's selector and labels are generated
// from its uid (unless spec.manualSelector), a DaemonSet carries its template generation as the
// `deprecated.daemonset.template.generation` annotation, and a Secret's stringData is merged into data
// (the v1 → internal conversion). No controller acts on these objects.
// Models k8s pkg/registry/core/{secret,persistentvolumeclaim,persistentvolume,replicationcontroller}/strategy.go,
// pkg/registry/apps/{daemonset,statefulset}/strategy.go, pkg/registry/batch/{job,cronjob}/strategy.go,
// pkg/registry/networking/ingress/strategy.go and pkg/apis/core/v1/conversion.go (Convert_v1_Secret_To_core_Secret).

import type { DaemonSet, Job, Secret } from '../../api/types/index.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import { validateCreate, validateStatusUpdate } from '../../api/validation/index.ts';
import { base64Encode, utf8ToByteString } from '../../etcd/bytes.ts';
import { deepEqual } from '../../api/json.ts';
import { field, resourceInfo, setField, strategy } from './base.ts';
import type { StatusStrategy } from './strategy.ts';

/** Status cleared (Go's zero value; canonicalization writes its non-omitempty fields) and generation 1. */
function freshWorkload(obj: KubeObject): void {
  setField(obj, 'status', {});
  obj.metadata.generation = 1;
}

/** Status kept; generation bumped when the spec changed. */
function keepStatusBumpGeneration(obj: KubeObject, old: KubeObject): void {
  setField(obj, 'status', field(old, 'status'));
  obj.metadata.generation = old.metadata.generation;
  if (!deepEqual(field(obj, 'spec'), field(old, 'spec'))) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
}

function keepStatus(obj: KubeObject, old: KubeObject): void {
  setField(obj, 'status', field(old, 'status'));
}

/** The status subresource: spec (and metadata other than labels and annotations) stays as stored. */
function statusStrategy(group: string, kind: string): StatusStrategy {
  return {
    prepareForUpdate(obj, old) {
      setField(obj, 'spec', field(old, 'spec'));
    },
    validateUpdate: (obj, old) => validateStatusUpdate({ group, version: 'v1', kind }, obj, old),
  };
}

/** stringData entries overwrite data entries, base64 of their UTF-8 bytes; stringData is never stored. */
function mergeStringData(obj: KubeObject): void {
  const secret = obj as Secret;
  if (secret.stringData === undefined) return;
  secret.data = { ...secret.data };
  for (const [k, v] of Object.entries(secret.stringData)) secret.data[k] = base64Encode(utf8ToByteString(v));
  delete secret.stringData;
}

export const secretStrategy = strategy(resourceInfo('', 'secrets'), {
  prepareForCreate: mergeStringData,
  prepareForUpdate: (obj) => mergeStringData(obj),
});

export const persistentVolumeClaimStrategy = strategy(resourceInfo('', 'persistentvolumeclaims'), {
  prepareForCreate: (obj) => setField(obj, 'status', {}),
  prepareForUpdate: keepStatus,
});
export const persistentVolumeStrategy = strategy(resourceInfo('', 'persistentvolumes'), {
  prepareForCreate: (obj) => setField(obj, 'status', {}),
  prepareForUpdate: keepStatus,
});

export const replicationControllerStrategy = strategy(resourceInfo('', 'replicationcontrollers'), {
  prepareForCreate: freshWorkload,
  prepareForUpdate: keepStatusBumpGeneration,
});

const templateGeneration = 'deprecated.daemonset.template.generation';

export const daemonSetStrategy = strategy(resourceInfo('apps', 'daemonsets'), {
  prepareForCreate(obj) {
    freshWorkload(obj);
    obj.metadata.annotations = { ...obj.metadata.annotations, [templateGeneration]: '1' };
  },
  prepareForUpdate(obj, old) {
    keepStatusBumpGeneration(obj, old);
    const previous = Number(old.metadata.annotations?.[templateGeneration] ?? '0');
    const changed = !deepEqual((obj as DaemonSet).spec.template, (old as DaemonSet).spec.template);
    obj.metadata.annotations = { ...obj.metadata.annotations, [templateGeneration]: String(changed ? previous + 1 : previous) };
  },
});

export const statefulSetStrategy = strategy(resourceInfo('apps', 'statefulsets'), {
  prepareForCreate: freshWorkload,
  prepareForUpdate: keepStatusBumpGeneration,
});

/**
 * generateSelector: the template gets `job-name`, `batch.kubernetes.io/job-name`, `controller-uid` and
 * `batch.kubernetes.io/controller-uid` labels, the selector matches the new controller-uid label.
 * Upstream runs it in the strategy's Validate, after the uid is assigned.
 */
function generateSelector(job: Job): void {
  const name = job.metadata.name ?? '';
  const uid = job.metadata.uid ?? '';
  const template = job.spec.template ?? (job.spec.template = {});
  template.metadata ??= {};
  const labels = template.metadata.labels ?? (template.metadata.labels = {});
  for (const key of ['job-name', 'batch.kubernetes.io/job-name']) labels[key] ??= name;
  for (const key of ['controller-uid', 'batch.kubernetes.io/controller-uid']) labels[key] ??= uid;
  job.spec.selector ??= {};
  job.spec.selector.matchLabels ??= {};
  job.spec.selector.matchLabels['batch.kubernetes.io/controller-uid'] ??= uid;
}

const jobGvk = { group: 'batch', version: 'v1', kind: 'Job' };

export const jobStrategy = strategy(resourceInfo('batch', 'jobs'), {
  prepareForCreate: freshWorkload,
  prepareForUpdate: keepStatusBumpGeneration,
  validate(obj) {
    const job = obj as Job;
    if (job.spec.manualSelector !== true) generateSelector(job);
    return validateCreate(jobGvk, obj);
  },
});

export const cronJobStrategy = strategy(resourceInfo('batch', 'cronjobs'), {
  prepareForCreate: freshWorkload,
  prepareForUpdate: keepStatusBumpGeneration,
});

export const ingressStrategy = strategy(resourceInfo('networking.k8s.io', 'ingresses'), {
  prepareForCreate: freshWorkload,
  prepareForUpdate: keepStatusBumpGeneration,
});

export const workloadStatusStrategies: ReadonlyArray<readonly [string, StatusStrategy]> = [
  ['/persistentvolumeclaims', statusStrategy('', 'PersistentVolumeClaim')],
  ['/persistentvolumes', statusStrategy('', 'PersistentVolume')],
  ['/replicationcontrollers', statusStrategy('', 'ReplicationController')],
  ['apps/daemonsets', statusStrategy('apps', 'DaemonSet')],
  ['apps/statefulsets', statusStrategy('apps', 'StatefulSet')],
  ['batch/jobs', statusStrategy('batch', 'Job')],
  ['batch/cronjobs', statusStrategy('batch', 'CronJob')],
  ['networking.k8s.io/ingresses', statusStrategy('networking.k8s.io', 'Ingress')],
];

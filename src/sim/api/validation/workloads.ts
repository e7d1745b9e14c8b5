// Validation of the kinds served for kubectl's default prune allowlist (Secret, PersistentVolumeClaim,
// PersistentVolume, ReplicationController, DaemonSet, StatefulSet, Job, CronJob, Ingress): object
// metadata and the required fields with upstream's paths and messages. Deeper rules (PVC spec
// immutability, Job pod-failure policies, Ingress class parameters…) are not modelled.
// Models k8s pkg/apis/core/validation/validation.go (ValidateSecret, ValidatePersistentVolumeClaim,
// ValidatePersistentVolume, ValidateReplicationController), pkg/apis/apps/validation/validation.go
// (ValidateDaemonSet, ValidateStatefulSet), pkg/apis/batch/validation/validation.go (ValidateJob,
// ValidateCronJob) and pkg/apis/networking/validation/validation.go (ValidateIngressCreate).

import { FieldPath, fieldError, type FieldError } from '../field.ts';
import { labelSelectorAsSelector, matchesLabels } from '../labels.ts';
import { validateLabelSelector } from './meta-v1.ts';
import { parseQuantity } from '../quantity.ts';
import type {
  CronJob, DaemonSet, HTTPIngressPath, Ingress, IngressBackend, Job, JobSpec, PersistentVolume, PersistentVolumeClaim,
  PodTemplateSpec, ReplicationController, Secret, StatefulSet,
} from '../types/index.ts';
import { nonNegative, validateSelector, validateTemplateForReplicaSet } from './apps.ts';
import { maxConfigMapSize } from './core.ts';
import { goStringMap } from './go-values.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from './meta.ts';
import { isConfigMapKey, isDNS1123Subdomain, isValidPortName, isValidPortNum, nameIsDNSSubdomain } from './names.ts';
import { validatePodTemplateSpec } from './pod.ts';

const spec = FieldPath.of('spec');
const immutable = 'field is immutable';

export function validateSecret(s: Secret): FieldError[] {
  const errs = validateObjectMeta(s.metadata, true, nameIsDNSSubdomain);
  let total = 0;
  for (const [key, value] of Object.entries(s.data ?? {})) {
    for (const msg of isConfigMapKey(key)) errs.push(fieldError.invalid(FieldPath.of('data').key(key), key, msg));
    total += Math.floor((value.replace(/=+$/, '').length * 3) / 4);
  }
  if (total > maxConfigMapSize) errs.push(fieldError.tooLong(FieldPath.of('data'), maxConfigMapSize));
  if (s.type === 'kubernetes.io/tls') {
    for (const key of ['tls.crt', 'tls.key']) if (!(key in (s.data ?? {}))) errs.push(fieldError.required(FieldPath.of('data').key(key)));
  }
  return errs;
}

export function validateSecretUpdate(s: Secret, old: Secret): FieldError[] {
  const errs = validateObjectMetaUpdate(s.metadata, old.metadata);
  if ((s.type ?? '') !== (old.type ?? '')) errs.push(fieldError.invalid(FieldPath.of('type'), s.type ?? '', immutable));
  if (old.immutable) {
    const msg = 'field is immutable when `immutable` is set';
    if (!s.immutable) errs.push(fieldError.forbidden(FieldPath.of('immutable'), msg));
    if (JSON.stringify(Object.entries(s.data ?? {}).sort()) !== JSON.stringify(Object.entries(old.data ?? {}).sort())) errs.push(fieldError.forbidden(FieldPath.of('data'), msg));
  }
  return [...errs, ...validateSecret(s)];
}

const accessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];

function validateAccessModes(modes: readonly string[] | undefined, path: FieldPath, requiredDetail: string): FieldError[] {
  if ((modes ?? []).length === 0) return [fieldError.required(path, requiredDetail)];
  return (modes ?? []).filter((m) => !accessModes.includes(m)).map((m) => fieldError.notSupported(path, m, accessModes));
}

/** ValidatePersistentVolumeClaimSpec: access modes and a positive storage request. */
function validateClaimSpec(claim: PersistentVolumeClaim, path: FieldPath): FieldError[] {
  const s = claim.spec ?? {};
  const errs = validateAccessModes(s.accessModes, path.child('accessModes'), 'at least 1 access mode is required');
  if (s.selector !== undefined) errs.push(...validateLabelSelector(s.selector, path.child('selector')));
  const storage = s.resources?.requests?.['storage'];
  const storagePath = path.child('resources').key('storage');
  if (storage === undefined) errs.push(fieldError.required(storagePath));
  else {
    const q = parseQuantity(String(storage));
    if (q.ok && q.value.unscaled <= 0n) errs.push(fieldError.invalid(storagePath, String(storage), 'must be greater than zero'));
  }
  return errs;
}

export function validatePersistentVolumeClaim(pvc: PersistentVolumeClaim): FieldError[] {
  return [...validateObjectMeta(pvc.metadata, true, nameIsDNSSubdomain), ...validateClaimSpec(pvc, spec)];
}

export function validatePersistentVolumeClaimUpdate(pvc: PersistentVolumeClaim, old: PersistentVolumeClaim): FieldError[] {
  return [...validateObjectMetaUpdate(pvc.metadata, old.metadata), ...validateClaimSpec(pvc, spec)];
}

/** The inlined PersistentVolumeSource fields; exactly one must be set. */
const volumeSources = [
  'gcePersistentDisk', 'awsElasticBlockStore', 'hostPath', 'glusterfs', 'nfs', 'rbd', 'iscsi', 'cinder', 'cephfs', 'fc', 'flocker', 'flexVolume',
  'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume', 'scaleIO', 'local', 'storageos', 'csi',
];
const reclaimPolicies = ['Delete', 'Recycle', 'Retain'];

function validatePersistentVolumeSpec(pv: PersistentVolume): FieldError[] {
  const s = pv.spec ?? {};
  const errs = validateAccessModes(s.accessModes, spec.child('accessModes'), '');
  if (Object.keys(s.capacity ?? {}).length === 0) errs.push(fieldError.required(spec.child('capacity')));
  const policy = s.persistentVolumeReclaimPolicy ?? '';
  if (!reclaimPolicies.includes(policy)) errs.push(fieldError.notSupported(spec.child('persistentVolumeReclaimPolicy'), policy, reclaimPolicies));
  const sources = volumeSources.filter((k) => s[k] !== undefined && s[k] !== null);
  if (sources.length === 0) errs.push(fieldError.required(spec, 'must specify a volume type'));
  else if (sources.length > 1) errs.push(fieldError.forbidden(spec.child(sources[1]!), 'may not specify more than 1 volume type'));
  return errs;
}

export function validatePersistentVolume(pv: PersistentVolume): FieldError[] {
  return [...validateObjectMeta(pv.metadata, false, nameIsDNSSubdomain), ...validatePersistentVolumeSpec(pv)];
}

export function validatePersistentVolumeUpdate(pv: PersistentVolume, old: PersistentVolume): FieldError[] {
  return [...validateObjectMetaUpdate(pv.metadata, old.metadata), ...validatePersistentVolumeSpec(pv)];
}

/** ValidateReplicationControllerSpec: a selector, a template whose labels it matches, restartPolicy Always. */
function validateReplicationControllerSpec(rc: ReplicationController): FieldError[] {
  const s = rc.spec ?? {};
  const errs = [...nonNegative(s.replicas, spec.child('replicas')), ...nonNegative(s.minReadySeconds, spec.child('minReadySeconds'))];
  const selector = s.selector ?? {};
  if (Object.keys(selector).length === 0) errs.push(fieldError.required(spec.child('selector')));
  if (s.template === undefined) errs.push(fieldError.required(spec.child('template')));
  else errs.push(...validateTemplateForReplicaSet(s.template, { matchLabels: selector }, spec.child('template'), spec.child('selector')));
  return errs;
}

export function validateReplicationController(rc: ReplicationController): FieldError[] {
  return [...validateObjectMeta(rc.metadata, true, nameIsDNSSubdomain), ...validateReplicationControllerSpec(rc)];
}

export function validateReplicationControllerUpdate(rc: ReplicationController, old: ReplicationController): FieldError[] {
  return [...validateObjectMetaUpdate(rc.metadata, old.metadata), ...validateReplicationControllerSpec(rc)];
}

function validateDaemonSetSpec(ds: DaemonSet): FieldError[] {
  const s = ds.spec;
  const errs = validateSelector(s.selector, spec.child('selector'), 'daemonset');
  errs.push(...validateTemplateForReplicaSet(s.template, s.selector, spec.child('template'), spec.child('selector')));
  errs.push(...nonNegative(s.minReadySeconds, spec.child('minReadySeconds')));
  if (s.revisionHistoryLimit !== undefined) errs.push(...nonNegative(s.revisionHistoryLimit, spec.child('revisionHistoryLimit')));
  const type = s.updateStrategy?.type ?? '';
  if (!['OnDelete', 'RollingUpdate'].includes(type)) errs.push(fieldError.notSupported(spec.child('updateStrategy', 'type'), type, ['OnDelete', 'RollingUpdate']));
  return errs;
}

export function validateDaemonSet(ds: DaemonSet): FieldError[] {
  return [...validateObjectMeta(ds.metadata, true, nameIsDNSSubdomain), ...validateDaemonSetSpec(ds)];
}

export function validateDaemonSetUpdate(ds: DaemonSet, old: DaemonSet): FieldError[] {
  return [...validateObjectMetaUpdate(ds.metadata, old.metadata), ...validateDaemonSetSpec(ds)];
}

function validateStatefulSetSpec(sts: StatefulSet): FieldError[] {
  const s = sts.spec;
  const errs: FieldError[] = [];
  const policy = s.podManagementPolicy ?? '';
  if (!['OrderedReady', 'Parallel'].includes(policy)) errs.push(fieldError.notSupported(spec.child('podManagementPolicy'), policy, ['OrderedReady', 'Parallel']));
  const type = s.updateStrategy?.type ?? '';
  if (!['OnDelete', 'RollingUpdate'].includes(type)) errs.push(fieldError.notSupported(spec.child('updateStrategy', 'type'), type, ['OnDelete', 'RollingUpdate']));
  errs.push(...nonNegative(s.replicas, spec.child('replicas')), ...nonNegative(s.minReadySeconds, spec.child('minReadySeconds')));
  errs.push(...validateSelector(s.selector, spec.child('selector'), 'statefulset'));
  errs.push(...validateTemplateForReplicaSet(s.template, s.selector, spec.child('template'), spec.child('selector')));
  return errs;
}

export function validateStatefulSet(sts: StatefulSet): FieldError[] {
  return [...validateObjectMeta(sts.metadata, true, nameIsDNSSubdomain), ...validateStatefulSetSpec(sts)];
}

/** Only replicas, ordinals, template, updateStrategy, the PVC retention policy and minReadySeconds may change. */
export function validateStatefulSetUpdate(sts: StatefulSet, old: StatefulSet): FieldError[] {
  const errs = [...validateObjectMetaUpdate(sts.metadata, old.metadata), ...validateStatefulSetSpec(sts)];
  const fixed = (x: StatefulSet): string => {
    const { replicas: _r, template: _t, updateStrategy: _u, persistentVolumeClaimRetentionPolicy: _p, minReadySeconds: _m, ...rest } = x.spec as StatefulSet['spec'] & { ordinals?: unknown };
    delete (rest as { ordinals?: unknown }).ordinals;
    return JSON.stringify(rest, Object.keys(rest).sort());
  };
  if (fixed(sts) !== fixed(old)) {
    errs.push(fieldError.forbidden(spec, "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"));
  }
  return errs;
}

/** A Job's pod template: the pod template rules and restartPolicy OnFailure or Never. */
function validateJobTemplate(template: PodTemplateSpec | undefined, path: FieldPath): FieldError[] {
  const t = template ?? {};
  const errs = validatePodTemplateSpec(t, path);
  const restartPolicy = t.spec?.restartPolicy ?? '';
  if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') errs.push(fieldError.notSupported(path.child('spec', 'restartPolicy'), restartPolicy, ['OnFailure', 'Never']));
  return errs;
}

function validateJobSpecCommon(s: JobSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished'] as const) {
    if (s[f] !== undefined) errs.push(...nonNegative(s[f], path.child(f)));
  }
  const mode = s.completionMode ?? 'NonIndexed';
  if (!['NonIndexed', 'Indexed'].includes(mode)) errs.push(fieldError.notSupported(path.child('completionMode'), mode, ['NonIndexed', 'Indexed']));
  if (mode === 'Indexed' && s.completions === undefined) errs.push(fieldError.required(path.child('completions'), 'when completion mode is Indexed'));
  errs.push(...validateJobTemplate(s.template, path.child('template')));
  return errs;
}

/** ValidateJob: the spec, and a selector (generated unless manualSelector) matching the template's labels. */
function validateJobSpec(job: Job): FieldError[] {
  const s = job.spec;
  const errs = validateJobSpecCommon(s, spec);
  if (s.selector === undefined) errs.push(fieldError.required(spec.child('selector')));
  else {
    errs.push(...validateLabelSelector(s.selector, spec.child('selector')));
    const parsed = labelSelectorAsSelector(s.selector);
    if (parsed.ok && !matchesLabels(parsed.value, s.template?.metadata?.labels)) {
      errs.push(fieldError.invalid(spec.child('template', 'metadata', 'labels'), goStringMap(s.template?.metadata?.labels), '`selector` does not match template `labels`'));
    }
  }
  return errs;
}

export function validateJob(job: Job): FieldError[] {
  return [...validateObjectMeta(job.metadata, true, nameIsDNSSubdomain), ...validateJobSpec(job)];
}

/** The selector, completions and (for a running Job) the template are immutable. */
export function validateJobUpdate(job: Job, old: Job): FieldError[] {
  const errs = [...validateObjectMetaUpdate(job.metadata, old.metadata), ...validateJobSpec(job)];
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
  if (!same(job.spec.selector, old.spec.selector)) errs.push(fieldError.invalid(spec.child('selector'), { goSyntax: 'v1.LabelSelector' }, immutable));
  if (job.spec.completions !== old.spec.completions) errs.push(fieldError.invalid(spec.child('completions'), job.spec.completions ?? null, immutable));
  if (!old.spec.suspend && !same(job.spec.template, old.spec.template)) {
    errs.push(fieldError.invalid(spec.child('template'), { goSyntax: 'core.PodTemplateSpec' }, immutable));
  }
  return errs;
}

/** robfig/cron's ParseStandard: five fields, or a `@every`/`@hourly`-style descriptor. */
function cronScheduleError(schedule: string): string | undefined {
  const fields = schedule.trim().split(/\s+/).filter((f) => f !== '');
  if (fields[0]?.startsWith('@')) {
    const known = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'];
    return known.includes(fields[0]) || fields[0] === '@every' ? undefined : `unrecognized descriptor: ${fields[0]}`;
  }
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
  return undefined;
}

function validateCronJobSpec(cj: CronJob): FieldError[] {
  const s = cj.spec;
  const errs: FieldError[] = [];
  if (!s.schedule) errs.push(fieldError.required(spec.child('schedule')));
  else {
    const err = cronScheduleError(s.schedule);
    if (err !== undefined) errs.push(fieldError.invalid(spec.child('schedule'), s.schedule, err));
  }
  if (s.startingDeadlineSeconds !== undefined) errs.push(...nonNegative(s.startingDeadlineSeconds, spec.child('startingDeadlineSeconds')));
  const policy = s.concurrencyPolicy ?? '';
  if (!['Allow', 'Forbid', 'Replace'].includes(policy)) errs.push(fieldError.notSupported(spec.child('concurrencyPolicy'), policy, ['Allow', 'Forbid', 'Replace']));
  for (const f of ['successfulJobsHistoryLimit', 'failedJobsHistoryLimit'] as const) if (s[f] !== undefined) errs.push(...nonNegative(s[f], spec.child(f)));
  const jobSpec = s.jobTemplate.spec ?? { template: {} };
  const jobPath = spec.child('jobTemplate', 'spec');
  errs.push(...validateJobSpecCommon(jobSpec, jobPath));
  if (jobSpec.selector !== undefined) errs.push(fieldError.invalid(jobPath.child('selector'), { goSyntax: '&v1.LabelSelector{}' }, '`selector` will be auto-generated'));
  return errs;
}

/** A CronJob's name leaves room for the 11-character suffix of the Jobs it creates: at most 52 characters. */
export function validateCronJob(cj: CronJob): FieldError[] {
  const errs = validateObjectMeta(cj.metadata, true, nameIsDNSSubdomain);
  const name = cj.metadata.name ?? '';
  if (name.length > 52) errs.push(fieldError.invalid(FieldPath.of('metadata', 'name'), name, 'must be no more than 52 characters'));
  return [...errs, ...validateCronJobSpec(cj)];
}

export function validateCronJobUpdate(cj: CronJob, old: CronJob): FieldError[] {
  return [...validateObjectMetaUpdate(cj.metadata, old.metadata), ...validateCronJobSpec(cj)];
}

/** validateIngressBackend: a service (name and one of port name or number) or a resource. */
function validateIngressBackend(b: IngressBackend, path: FieldPath): FieldError[] {
  if (b.service === undefined && b.resource === undefined) return [fieldError.invalid(path, '', 'resource or service backend is required')];
  if (b.service !== undefined && b.resource !== undefined) return [fieldError.invalid(path, '', 'cannot set both resource and service backends')];
  if (b.resource !== undefined) return [];
  const svc = b.service!;
  const errs: FieldError[] = [];
  const sp = path.child('service');
  if (!svc.name) errs.push(fieldError.required(sp.child('name')));
  else for (const msg of isDNS1123Subdomain(svc.name)) errs.push(fieldError.invalid(sp.child('name'), svc.name, msg));
  const port = svc.port ?? {};
  if (port.name && port.number) errs.push(fieldError.invalid(sp.child('port', 'name'), port.name, 'cannot set both port name & port number'));
  else if (port.name) for (const msg of isValidPortName(port.name)) errs.push(fieldError.invalid(sp.child('port', 'name'), port.name, msg));
  else if (port.number) for (const msg of isValidPortNum(port.number)) errs.push(fieldError.invalid(sp.child('port', 'number'), port.number, msg));
  else errs.push(fieldError.required(sp.child('port'), 'port name or number is required'));
  return errs;
}

const pathTypes = ['Exact', 'ImplementationSpecific', 'Prefix'];

function validateIngressPath(p: HTTPIngressPath, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (p.pathType === undefined) errs.push(fieldError.required(path.child('pathType'), 'pathType must be specified'));
  else if (!pathTypes.includes(p.pathType)) errs.push(fieldError.notSupported(path.child('pathType'), p.pathType, pathTypes));
  else if (p.pathType !== 'ImplementationSpecific' && !(p.path ?? '').startsWith('/')) errs.push(fieldError.invalid(path.child('path'), p.path ?? '', 'must be an absolute path'));
  errs.push(...validateIngressBackend(p.backend ?? {}, path.child('backend')));
  return errs;
}

function validateIngressSpec(ing: Ingress): FieldError[] {
  const s = ing.spec ?? {};
  const errs: FieldError[] = [];
  if ((s.rules ?? []).length === 0 && s.defaultBackend === undefined) {
    errs.push(fieldError.invalid(spec, { goSyntax: '[]networking.IngressRule(nil)' }, 'either `defaultBackend` or `rules` must be specified'));
  }
  if (s.defaultBackend !== undefined) errs.push(...validateIngressBackend(s.defaultBackend, spec.child('defaultBackend')));
  (s.rules ?? []).forEach((rule, i) => {
    const rp = spec.child('rules').index(i);
    if (rule.host) {
      const host = rule.host.startsWith('*.') ? rule.host.slice(2) : rule.host;
      for (const msg of isDNS1123Subdomain(host)) errs.push(fieldError.invalid(rp.child('host'), rule.host, msg));
    }
    if (rule.http !== undefined) {
      const hp = rp.child('http', 'paths');
      if ((rule.http.paths ?? []).length === 0) errs.push(fieldError.required(hp));
      (rule.http.paths ?? []).forEach((p, j) => errs.push(...validateIngressPath(p, hp.index(j))));
    }
  });
  return errs;
}

export function validateIngress(ing: Ingress): FieldError[] {
  return [...validateObjectMeta(ing.metadata, true, nameIsDNSSubdomain), ...validateIngressSpec(ing)];
}

export function validateIngressUpdate(ing: Ingress, old: Ingress): FieldError[] {
  return [...validateObjectMetaUpdate(ing.metadata, old.metadata), ...validateIngressSpec(ing)];
}


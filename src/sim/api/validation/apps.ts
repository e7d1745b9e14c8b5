// Deployment and ReplicaSet validation: replicas ≥ 0, a non-empty selector that matches the template
// labels (`` `selector` does not match template `labels` ``), a template that passes pod-template
// validation with restartPolicy Always, the rolling-update parameters, and status sanity on status
// updates.
// Models k8s pkg/apis/apps/validation/validation.go.

import { FieldPath, fieldError, type FieldError } from '../field.ts';
import { labelSelectorAsSelector, matchesLabels } from '../labels.ts';
import { validateLabelSelector } from './meta-v1.ts';
import type { Deployment, DeploymentSpec, DeploymentStatus, IntOrString, LabelSelector, PodTemplateSpec, ReplicaSet, ReplicaSetSpec, ReplicaSetStatus } from '../types/index.ts';
import { goIntOrString, goLabelSelector, goStringMap } from './go-values.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from './meta.ts';
import { isNegativeErrorMsg, isValidPercent, nameIsDNSSubdomain, type NameValidator } from './names.ts';
import { validatePodTemplateSpec } from './pod.ts';

export const validateDeploymentName: NameValidator = nameIsDNSSubdomain;
export const validateReplicaSetName: NameValidator = nameIsDNSSubdomain;

export function nonNegative(value: number | undefined, path: FieldPath): FieldError[] {
  return (value ?? 0) < 0 ? [fieldError.invalid(path, value ?? 0, isNegativeErrorMsg)] : [];
}

/** A required, non-empty selector (`empty selector is invalid for deployment`, `… for daemonset`, `… for statefulset`). */
export function validateSelector(selector: LabelSelector | null | undefined, path: FieldPath, kind = 'deployment'): FieldError[] {
  if (selector === null || selector === undefined) return [fieldError.required(path)];
  const errs = validateLabelSelector(selector, path);
  if (Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
    errs.push(fieldError.invalid(path, goLabelSelector(selector), `empty selector is invalid for ${kind}`));
  }
  return errs;
}

/** ValidatePodTemplateSpecForReplicaSet (also the DaemonSet's and StatefulSet's template checks). */
export function validateTemplateForReplicaSet(template: PodTemplateSpec | undefined, selector: LabelSelector | null | undefined, path: FieldPath, selectorPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const parsed = labelSelectorAsSelector(selector);
  if (!parsed.ok) return [fieldError.invalid(selectorPath, selector ? goLabelSelector(selector) : null, 'invalid label selector')];
  const t = template ?? {};
  // A nil selector selects nothing, so it never matches the template either.
  const empty = parsed.value.requirements.length === 0 && parsed.value.nothing !== true;
  if (!empty && !matchesLabels(parsed.value, t.metadata?.labels)) {
    errs.push(fieldError.invalid(path.child('metadata', 'labels'), goStringMap(t.metadata?.labels), '`selector` does not match template `labels`'));
  }
  errs.push(...validatePodTemplateSpec(t, path));
  const restartPolicy = t.spec?.restartPolicy ?? '';
  if (restartPolicy !== 'Always') errs.push(fieldError.notSupported(path.child('spec', 'restartPolicy'), restartPolicy, ['Always']));
  if (t.spec?.activeDeadlineSeconds !== undefined) {
    errs.push(fieldError.forbidden(path.child('spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in ReplicaSet is not Supported'));
  }
  return errs;
}

function percentValue(v: IntOrString): number | undefined {
  return typeof v === 'string' && isValidPercent(v).length === 0 ? Number(v.slice(0, -1)) : undefined;
}

function validateIntOrPercent(v: IntOrString, path: FieldPath): FieldError[] {
  if (typeof v === 'string') return isValidPercent(v).map((msg) => fieldError.invalid(path, goIntOrString(v), msg));
  return nonNegative(v, path);
}

function validateStrategy(spec: DeploymentSpec, path: FieldPath): FieldError[] {
  const strategy = spec.strategy ?? {};
  const errs: FieldError[] = [];
  switch (strategy.type) {
    case 'Recreate':
      if (strategy.rollingUpdate !== undefined) errs.push(fieldError.forbidden(path.child('rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'"));
      break;
    case 'RollingUpdate': {
      const ru = strategy.rollingUpdate;
      if (ru === undefined) {
        errs.push(fieldError.required(path.child('rollingUpdate'), 'this should be defaulted and never be nil'));
        break;
      }
      const rp = path.child('rollingUpdate');
      const maxUnavailable = ru.maxUnavailable ?? 0;
      const maxSurge = ru.maxSurge ?? 0;
      errs.push(...validateIntOrPercent(maxUnavailable, rp.child('maxUnavailable')));
      errs.push(...validateIntOrPercent(maxSurge, rp.child('maxSurge')));
      // IntOrString.IntValue: a string that is not a percentage reads as its integer value (or 0).
      const value = (v: IntOrString): number => percentValue(v) ?? (typeof v === 'number' ? v : /^[+-]?\d+$/.test(v) ? Number(v) : 0);
      if (value(maxUnavailable) === 0 && value(maxSurge) === 0) {
        errs.push(fieldError.invalid(rp.child('maxUnavailable'), goIntOrString(maxUnavailable), 'may not be 0 when `maxSurge` is 0'));
      }
      if ((percentValue(maxUnavailable) ?? 0) > 100) errs.push(fieldError.invalid(rp.child('maxUnavailable'), goIntOrString(maxUnavailable), 'must not be greater than 100%'));
      break;
    }
    default: {
      const ru = strategy.rollingUpdate === undefined ? '(*apps.RollingUpdateDeployment)(nil)' : '(*apps.RollingUpdateDeployment)(0xc000000000)';
      errs.push(fieldError.notSupported(path, { goSyntax: `apps.DeploymentStrategy{Type:${JSON.stringify(strategy.type ?? '')}, RollingUpdate:${ru}}` }, ['Recreate', 'RollingUpdate']));
    }
  }
  return errs;
}

/** ValidateDeploymentSpec. */
export function validateDeploymentSpec(spec: DeploymentSpec | undefined, path = FieldPath.of('spec')): FieldError[] {
  const s: DeploymentSpec = spec ?? { selector: null, template: {} };
  const errs = nonNegative(s.replicas, path.child('replicas'));
  errs.push(...validateSelector(s.selector, path.child('selector')));
  errs.push(...validateTemplateForReplicaSet(s.template, s.selector, path.child('template'), path.child('selector')));
  errs.push(...validateStrategy(s, path.child('strategy')));
  errs.push(...nonNegative(s.minReadySeconds, path.child('minReadySeconds')));
  if (s.revisionHistoryLimit !== undefined) errs.push(...nonNegative(s.revisionHistoryLimit, path.child('revisionHistoryLimit')));
  if (s.progressDeadlineSeconds !== undefined) {
    errs.push(...nonNegative(s.progressDeadlineSeconds, path.child('progressDeadlineSeconds')));
    if (s.progressDeadlineSeconds <= (s.minReadySeconds ?? 0)) {
      errs.push(fieldError.invalid(path.child('progressDeadlineSeconds'), s.progressDeadlineSeconds, 'must be greater than minReadySeconds'));
    }
  }
  return errs;
}

export function validateDeployment(d: Deployment): FieldError[] {
  return [...validateObjectMeta(d.metadata, true, validateDeploymentName), ...validateDeploymentSpec(d.spec)];
}

export function validateDeploymentUpdate(d: Deployment, old: Deployment): FieldError[] {
  return [...validateObjectMetaUpdate(d.metadata, old.metadata), ...validateDeploymentSpec(d.spec)];
}

const greaterThanReplicas = 'cannot be greater than status.replicas';

function validateDeploymentStatus(status: DeploymentStatus, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'collisionCount'] as const) {
    errs.push(...nonNegative(status[f], path.child(f)));
  }
  const replicas = status.replicas ?? 0;
  if ((status.updatedReplicas ?? 0) > replicas) errs.push(fieldError.invalid(path.child('updatedReplicas'), status.updatedReplicas!, greaterThanReplicas));
  if ((status.readyReplicas ?? 0) > replicas) errs.push(fieldError.invalid(path.child('readyReplicas'), status.readyReplicas!, greaterThanReplicas));
  if ((status.availableReplicas ?? 0) > replicas) errs.push(fieldError.invalid(path.child('availableReplicas'), status.availableReplicas!, greaterThanReplicas));
  if ((status.availableReplicas ?? 0) > (status.readyReplicas ?? 0)) errs.push(fieldError.invalid(path.child('availableReplicas'), status.availableReplicas!, 'cannot be greater than readyReplicas'));
  return errs;
}

export function validateDeploymentStatusUpdate(d: Deployment, old: Deployment): FieldError[] {
  const errs = [...validateObjectMetaUpdate(d.metadata, old.metadata), ...validateDeploymentStatus(d.status ?? {}, FieldPath.of('status'))];
  const newCount = d.status?.collisionCount;
  const oldCount = old.status?.collisionCount;
  if (oldCount !== undefined && (newCount === undefined || newCount < oldCount)) {
    errs.push(fieldError.invalid(FieldPath.of('status', 'collisionCount'), newCount ?? 0, 'cannot be decremented'));
  }
  return errs;
}

/** ValidateReplicaSetSpec. */
export function validateReplicaSetSpec(spec: ReplicaSetSpec | undefined, path = FieldPath.of('spec')): FieldError[] {
  const s: ReplicaSetSpec = spec ?? { selector: null };
  const errs = nonNegative(s.replicas, path.child('replicas'));
  errs.push(...nonNegative(s.minReadySeconds, path.child('minReadySeconds')));
  errs.push(...validateSelector(s.selector, path.child('selector')));
  errs.push(...validateTemplateForReplicaSet(s.template, s.selector, path.child('template'), path.child('selector')));
  return errs;
}

export function validateReplicaSet(rs: ReplicaSet): FieldError[] {
  return [...validateObjectMeta(rs.metadata, true, validateReplicaSetName), ...validateReplicaSetSpec(rs.spec)];
}

export function validateReplicaSetUpdate(rs: ReplicaSet, old: ReplicaSet): FieldError[] {
  return [...validateObjectMetaUpdate(rs.metadata, old.metadata), ...validateReplicaSetSpec(rs.spec)];
}

function validateReplicaSetStatus(status: ReplicaSetStatus, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'] as const) {
    errs.push(...nonNegative(status[f], path.child(f)));
  }
  const replicas = status.replicas ?? 0;
  if ((status.fullyLabeledReplicas ?? 0) > replicas) errs.push(fieldError.invalid(path.child('fullyLabeledReplicas'), status.fullyLabeledReplicas!, greaterThanReplicas));
  if ((status.readyReplicas ?? 0) > replicas) errs.push(fieldError.invalid(path.child('readyReplicas'), status.readyReplicas!, greaterThanReplicas));
  if ((status.availableReplicas ?? 0) > replicas) errs.push(fieldError.invalid(path.child('availableReplicas'), status.availableReplicas!, greaterThanReplicas));
  if ((status.availableReplicas ?? 0) > (status.readyReplicas ?? 0)) errs.push(fieldError.invalid(path.child('availableReplicas'), status.availableReplicas!, 'cannot be greater than readyReplicas'));
  return errs;
}

export function validateReplicaSetStatusUpdate(rs: ReplicaSet, old: ReplicaSet): FieldError[] {
  return [...validateObjectMetaUpdate(rs.metadata, old.metadata), ...validateReplicaSetStatus(rs.status ?? { replicas: 0 }, FieldPath.of('status'))];
}

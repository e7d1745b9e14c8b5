// Deployments and ReplicaSets: status cleared and generation 1 on create; an update keeps the status
// and bumps generation when the spec (for Deployments also the annotations) changed; the status
// subresource keeps the spec.
// Models k8s pkg/registry/apps/deployment/strategy.go and pkg/registry/apps/replicaset/strategy.go.

import type { Deployment, ReplicaSet } from '../../api/types/apps.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import { fieldError, FieldPath, type FieldError } from '../../api/field.ts';
import type { LabelSelector } from '../../api/types/meta.ts';
import { goLabelSelector } from '../../api/validation/go-values.ts';
import { validateStatusUpdate, validateUpdate } from '../../api/validation/index.ts';
import { deepEqual } from '../../api/json.ts';
import { resourceInfo, strategy } from './base.ts';

/**
 * apps/v1 may not change `spec.selector` (apivalidation.ValidateImmutableField in the strategies'
 * ValidateUpdate; only the removed apps/v1beta1 and extensions/v1beta1 allowed it).
 */
function immutableSelector(obj: KubeObject, old: KubeObject): FieldError[] {
  const next = (obj as Deployment).spec?.selector ?? null;
  const prev = (old as Deployment).spec?.selector ?? null;
  if (deepEqual(next, prev)) return [];
  const value = next === null ? { goSyntax: 'null' } : goLabelSelector(next as LabelSelector);
  return [fieldError.invalid(FieldPath.of('spec', 'selector'), value, 'field is immutable')];
}
import type { StatusStrategy } from './strategy.ts';

const deploymentGvk = { group: 'apps', version: 'v1', kind: 'Deployment' };
const replicaSetGvk = { group: 'apps', version: 'v1', kind: 'ReplicaSet' };

export const deploymentStrategy = strategy(resourceInfo('apps', 'deployments'), {
  validateUpdate: (obj, old) => [...validateUpdate(deploymentGvk, obj, old), ...immutableSelector(obj, old)],
  prepareForCreate(obj) {
    const d = obj as Deployment;
    d.status = {};
    d.metadata.generation = 1;
  },
  prepareForUpdate(obj, old) {
    const d = obj as Deployment;
    const o = old as Deployment;
    d.status = o.status;
    d.metadata.generation = o.metadata.generation;
    if (!deepEqual(d.spec, o.spec) || !deepEqual(d.metadata.annotations, o.metadata.annotations)) {
      d.metadata.generation = (o.metadata.generation ?? 0) + 1;
    }
  },
});

export const deploymentStatusStrategy: StatusStrategy = {
  prepareForUpdate(obj: KubeObject, old: KubeObject) {
    const d = obj as Deployment;
    const o = old as Deployment;
    d.spec = o.spec;
    if (o.metadata.labels !== undefined) d.metadata.labels = o.metadata.labels;
    else delete d.metadata.labels;
  },
  validateUpdate: (obj, old) => validateStatusUpdate({ group: 'apps', version: 'v1', kind: 'Deployment' }, obj, old),
};

export const replicaSetStrategy = strategy(resourceInfo('apps', 'replicasets'), {
  validateUpdate: (obj, old) => [...validateUpdate(replicaSetGvk, obj, old), ...immutableSelector(obj, old)],
  prepareForCreate(obj) {
    const rs = obj as ReplicaSet;
    rs.status = { replicas: 0 };
    rs.metadata.generation = 1;
  },
  prepareForUpdate(obj, old) {
    const rs = obj as ReplicaSet;
    const o = old as ReplicaSet;
    rs.status = o.status;
    rs.metadata.generation = o.metadata.generation;
    if (!deepEqual(rs.spec, o.spec)) rs.metadata.generation = (o.metadata.generation ?? 0) + 1;
  },
});

export const replicaSetStatusStrategy: StatusStrategy = {
  prepareForUpdate(obj: KubeObject, old: KubeObject) {
    (obj as ReplicaSet).spec = (old as ReplicaSet).spec;
  },
  validateUpdate: (obj, old) => validateStatusUpdate({ group: 'apps', version: 'v1', kind: 'ReplicaSet' }, obj, old),
};

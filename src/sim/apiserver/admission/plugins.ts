// The admission plugins the seeds talk about, in kube-apiserver 1.28's order: NamespaceLifecycle,
// ServiceAccount, AlwaysPullImages (off by default), Priority, DefaultTolerationSeconds.
// Models k8s plugin/pkg/admission/{namespace/lifecycle,serviceaccount,alwayspullimages,priority,
// defaulttolerationseconds}/admission.go.

import { newForbidden, newNotFound } from '../../api/errors.ts';
import type { Pod, PodSpec, Toleration, Volume } from '../../api/types/core.ts';
import type { AdmissionAttributes, AdmissionPlugin } from './admission.ts';

const immortalNamespaces = new Set(['default', 'kube-system', 'kube-public']);

function isPodCreate(a: AdmissionAttributes): boolean {
  return a.operation === 'CREATE' && a.resource.group === '' && a.resource.resource === 'pods' && a.subresource === '';
}

/** The pod spec of a pod being admitted (validation, which runs later, reports a missing one). */
function podSpec(a: AdmissionAttributes): PodSpec {
  const pod = a.object as Pod;
  pod.spec ??= { containers: [] };
  return pod.spec;
}

function gr(a: AdmissionAttributes): { group: string; resource: string } {
  return { group: a.resource.group, resource: a.resource.resource };
}

export const namespaceLifecycle: AdmissionPlugin = {
  name: 'NamespaceLifecycle',
  *admit(a, ctx) {
    if (a.resource.group === '' && a.resource.resource === 'namespaces') {
      if (a.operation === 'DELETE' && immortalNamespaces.has(a.name)) {
        throw newForbidden(gr(a), a.name, 'this namespace may not be deleted');
      }
      return 'namespaces themselves are not checked';
    }
    if (!a.resource.namespaced || a.operation !== 'CREATE') return 'nothing to check';
    const ns = yield* ctx.getNamespace(a.namespace);
    if (!ns) throw newNotFound({ group: '', resource: 'namespaces' }, a.namespace);
    if (ns.status?.phase === 'Terminating') {
      const err = newForbidden(gr(a), a.name || (a.object?.metadata.name ?? ''), `unable to create new content in namespace ${a.namespace} because it is being terminated`);
      const details = err.status.details ?? {};
      err.status.details = { ...details, causes: [...(details.causes ?? []), { reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' }] };
      throw err;
    }
    return `namespace ${a.namespace} is Active`;
  },
};

export const serviceAccountTokenMountPath = '/var/run/secrets/kubernetes.io/serviceaccount';

export const serviceAccount: AdmissionPlugin = {
  name: 'ServiceAccount',
  *admit(a, ctx) {
    if (!isPodCreate(a)) return 'not a pod create';
    const spec = podSpec(a);
    if (!spec.serviceAccountName) spec.serviceAccountName = 'default';
    if (spec.automountServiceAccountToken === false) return `serviceAccountName ${spec.serviceAccountName}; token not mounted`;
    const all = [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
    if (all.some((c) => (c.volumeMounts ?? []).some((m) => m.mountPath === serviceAccountTokenMountPath))) {
      return `serviceAccountName ${spec.serviceAccountName}; token already mounted`;
    }
    const volumeName = `kube-api-access-${ctx.rng.nameSuffix()}`;
    const volume: Volume = {
      name: volumeName,
      projected: {
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
          { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
        ],
        defaultMode: 420,
      },
    };
    spec.volumes = [...(spec.volumes ?? []), volume];
    for (const c of all) c.volumeMounts = [...(c.volumeMounts ?? []), { name: volumeName, readOnly: true, mountPath: serviceAccountTokenMountPath }];
    return `serviceAccountName ${spec.serviceAccountName}; mounted ${volumeName}`;
  },
};

export const alwaysPullImages: AdmissionPlugin = {
  name: 'AlwaysPullImages',
  *admit(a) {
    if (a.resource.group !== '' || a.resource.resource !== 'pods' || a.subresource !== '' || (a.operation !== 'CREATE' && a.operation !== 'UPDATE')) return 'not a pod';
    const spec = podSpec(a);
    for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) c.imagePullPolicy = 'Always';
    return 'imagePullPolicy: Always on every container';
  },
};

export const priority: AdmissionPlugin = {
  name: 'Priority',
  *admit(a) {
    if (!isPodCreate(a)) return 'not a pod create';
    const spec = podSpec(a);
    if (spec.priorityClassName) {
      throw newForbidden(gr(a), a.name, `no PriorityClass with name ${spec.priorityClassName} was found`);
    }
    spec.priority = 0;
    spec.preemptionPolicy = 'PreemptLowerPriority';
    return 'priority 0 (no default PriorityClass)';
  },
};

const notReadyTaint = 'node.kubernetes.io/not-ready';
const unreachableTaint = 'node.kubernetes.io/unreachable';

export const defaultTolerationSeconds: AdmissionPlugin = {
  name: 'DefaultTolerationSeconds',
  *admit(a) {
    if (!isPodCreate(a)) return 'not a pod create';
    const spec = podSpec(a);
    const tolerations: Toleration[] = [...(spec.tolerations ?? [])];
    const tolerates = (key: string) => tolerations.some((t) => (t.key === key || (t.key ?? '') === '' && t.operator === 'Exists')
      && (t.effect === 'NoExecute' || (t.effect ?? '') === ''));
    const added: string[] = [];
    for (const key of [notReadyTaint, unreachableTaint]) {
      if (tolerates(key)) continue;
      tolerations.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
      added.push(key);
    }
    spec.tolerations = tolerations;
    return added.length === 0 ? 'tolerations already present' : `added ${added.join(', ')} for 300s`;
  },
};

/** The default plugin set in order; `alwaysPullImages` joins it when enabled. */
export function defaultAdmissionPlugins(options: { readonly alwaysPullImages?: boolean } = {}): AdmissionPlugin[] {
  return [namespaceLifecycle, serviceAccount, ...(options.alwaysPullImages ? [alwaysPullImages] : []), priority, defaultTolerationSeconds];
}

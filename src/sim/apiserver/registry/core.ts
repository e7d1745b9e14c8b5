// The remaining core, coordination and RBAC resources: their strategies differ from the generic one
// only in a few switches (create on update, TTL, namespace phase).
// (Namespaces' deletion lifecycle is namespaces.ts.)
// Models k8s pkg/registry/core/{namespace,node,event,configmap,serviceaccount}/strategy.go,
// pkg/registry/coordination/lease/strategy.go and pkg/registry/rbac/*/strategy.go.

import type { Namespace } from '../../api/types/core.ts';
import { resourceInfo, strategy } from './base.ts';
import { deleteNamespace, finalizerKubernetes, shouldDeleteNamespaceDuringUpdate } from './namespaces.ts';

/** `--event-ttl` (default 1 h): every event is stored with an etcd lease. */
export const eventTTLSeconds = 3600;

export const namespaceStrategy = strategy(resourceInfo('', 'namespaces'), {
  prepareForCreate(obj) {
    const ns = obj as Namespace;
    ns.status = { phase: 'Active' };
    // On create the `kubernetes` finalizer is required (it may be removed over the namespace's life).
    const finalizers = ns.spec?.finalizers ?? [];
    ns.spec = { ...ns.spec, finalizers: finalizers.includes(finalizerKubernetes) ? finalizers : [...finalizers, finalizerKubernetes] };
  },
  restDelete: deleteNamespace,
  shouldDeleteDuringUpdate: shouldDeleteNamespaceDuringUpdate,
  prepareForUpdate(obj, old) {
    const ns = obj as Namespace;
    ns.spec = (old as Namespace).spec;
    ns.status = (old as Namespace).status;
  },
});

/** Nodes keep the status the kubelet registers them with. */
export const nodeStrategy = strategy(resourceInfo('', 'nodes'));

export const eventStrategy = strategy(resourceInfo('', 'events'), {
  allowCreateOnUpdate: true,
  ttlSeconds: eventTTLSeconds,
});

export const configMapStrategy = strategy(resourceInfo('', 'configmaps'));
export const serviceAccountStrategy = strategy(resourceInfo('', 'serviceaccounts'));
export const leaseStrategy = strategy(resourceInfo('coordination.k8s.io', 'leases'), { allowCreateOnUpdate: true });

const rbac = 'rbac.authorization.k8s.io';
export const roleStrategy = strategy(resourceInfo(rbac, 'roles'), { allowCreateOnUpdate: true });
export const clusterRoleStrategy = strategy(resourceInfo(rbac, 'clusterroles'), { allowCreateOnUpdate: true });
export const roleBindingStrategy = strategy(resourceInfo(rbac, 'rolebindings'), { allowCreateOnUpdate: true });
export const clusterRoleBindingStrategy = strategy(resourceInfo(rbac, 'clusterrolebindings'), { allowCreateOnUpdate: true });

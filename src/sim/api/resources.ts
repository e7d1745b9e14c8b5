// The table of every resource Podflow's kube-apiserver serves: its group, version, kind, names,
// scope, verbs, subresources, categories and etcd key prefix. Discovery, request routing, RBAC
// resource names, the storage keys and kubectl's short names are all read from here.
// Facts from a 1.28 kube-apiserver's discovery (`/api/v1`, `/apis/apps/v1`…) and
// k8s pkg/kubeapiserver/default_storage_factory_builder.go (nodes are stored under `minions`).

import type { GroupResource, GroupVersionKind } from './gvk.ts';

export type Verb = 'create' | 'delete' | 'deletecollection' | 'get' | 'list' | 'patch' | 'update' | 'watch';

export interface SubresourceInfo {
  /** `status`, `scale`, `binding`. */
  readonly name: string;
  /** The kind the subresource reads and writes: the parent kind for status, Scale for scale, Binding for binding. */
  readonly kind: GroupVersionKind;
  readonly verbs: readonly Verb[];
}

export interface ResourceInfo {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** The REST name: `pods`. */
  readonly resource: string;
  readonly singular: string;
  readonly shortNames: readonly string[];
  readonly namespaced: boolean;
  /** Sorted, as discovery lists them. */
  readonly verbs: readonly Verb[];
  readonly categories: readonly string[];
  readonly subresources: readonly SubresourceInfo[];
  /** The resource part of the etcd key: `/registry/<storageResource>/<ns>/<name>`. */
  readonly storageResource: string;
  /** `base64(sha256("<group>/<version>/<kind>")[:8])`, shown in discovery; precomputed ('' when not stored). */
  readonly storageVersionHash: string;
  /**
   * Answered at once and never stored in etcd: no storage, no watch cache. `review`: the access and identity
   * reviews (auth-reviews.ts); `probes`: ComponentStatus, read by probing the components (component-statuses.ts).
   */
  readonly unstored?: 'review' | 'probes';
}

const allVerbs: readonly Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const statusVerbs: readonly Verb[] = ['get', 'patch', 'update'];

function status(group: string, version: string, kind: string): SubresourceInfo {
  return { name: 'status', kind: { group, version, kind }, verbs: statusVerbs };
}

const scale: SubresourceInfo = { name: 'scale', kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: statusVerbs };

function resource(r: Omit<ResourceInfo, 'storageResource' | 'categories' | 'subresources' | 'shortNames' | 'verbs'>
  & Partial<Pick<ResourceInfo, 'storageResource' | 'categories' | 'subresources' | 'shortNames' | 'verbs'>>): ResourceInfo {
  return {
    shortNames: [], verbs: allVerbs, categories: [], subresources: [], storageResource: r.resource, ...r,
  };
}

const rbac = 'rbac.authorization.k8s.io';
const authentication = 'authentication.k8s.io';
const authorization = 'authorization.k8s.io';

/** A review: cluster-scoped, `create` only, answered by the authenticator or authorizer, never stored. */
function review(group: string, kind: string, plural: string): ResourceInfo {
  return resource({ group, version: 'v1', kind, resource: plural, singular: kind.toLowerCase(), namespaced: false, verbs: ['create'], storageVersionHash: '', unstored: 'review' });
}

/** Every served resource, in discovery order within a group-version (sorted by name). */
export const servedResources: readonly ResourceInfo[] = [
  // Deprecated in 1.19 (every request to it gets a Warning) and still served in 1.28: `kubectl get cs`.
  resource({
    group: '', version: 'v1', kind: 'ComponentStatus', resource: 'componentstatuses', singular: 'componentstatus', shortNames: ['cs'], namespaced: false,
    verbs: ['get', 'list'], storageVersionHash: '', unstored: 'probes',
  }),
  resource({ group: '', version: 'v1', kind: 'ConfigMap', resource: 'configmaps', singular: 'configmap', shortNames: ['cm'], namespaced: true, storageVersionHash: 'qFsyl6wFWjQ=' }),
  resource({ group: '', version: 'v1', kind: 'Endpoints', resource: 'endpoints', singular: 'endpoints', shortNames: ['ep'], namespaced: true, storageResource: 'services/endpoints', storageVersionHash: 'fWeeMqaN/OA=' }),
  resource({ group: '', version: 'v1', kind: 'Event', resource: 'events', singular: 'event', shortNames: ['ev'], namespaced: true, storageVersionHash: 'r2yiGXH7wu8=' }),
  resource({
    group: '', version: 'v1', kind: 'Namespace', resource: 'namespaces', singular: 'namespace', shortNames: ['ns'], namespaced: false,
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    subresources: [{ name: 'finalize', kind: { group: '', version: 'v1', kind: 'Namespace' }, verbs: ['update'] }, status('', 'v1', 'Namespace')],
    storageVersionHash: 'Q3oi5N2YM8M=',
  }),
  resource({
    group: '', version: 'v1', kind: 'Node', resource: 'nodes', singular: 'node', shortNames: ['no'], namespaced: false,
    subresources: [status('', 'v1', 'Node')], storageResource: 'minions', storageVersionHash: 'XwShjMxG9Fs=',
  }),
  resource({
    group: '', version: 'v1', kind: 'PersistentVolumeClaim', resource: 'persistentvolumeclaims', singular: 'persistentvolumeclaim', shortNames: ['pvc'],
    namespaced: true, subresources: [status('', 'v1', 'PersistentVolumeClaim')], storageVersionHash: 'QWTyNDq0dC4=',
  }),
  resource({
    group: '', version: 'v1', kind: 'PersistentVolume', resource: 'persistentvolumes', singular: 'persistentvolume', shortNames: ['pv'],
    namespaced: false, subresources: [status('', 'v1', 'PersistentVolume')], storageVersionHash: 'HN/zwEC+JgM=',
  }),
  resource({
    group: '', version: 'v1', kind: 'Pod', resource: 'pods', singular: 'pod', shortNames: ['po'], namespaced: true, categories: ['all'],
    subresources: [
      { name: 'attach', kind: { group: '', version: 'v1', kind: 'PodAttachOptions' }, verbs: ['create', 'get'] },
      { name: 'binding', kind: { group: '', version: 'v1', kind: 'Binding' }, verbs: ['create'] },
      { name: 'eviction', kind: { group: 'policy', version: 'v1', kind: 'Eviction' }, verbs: ['create'] },
      { name: 'exec', kind: { group: '', version: 'v1', kind: 'PodExecOptions' }, verbs: ['create', 'get'] },
      { name: 'log', kind: { group: '', version: 'v1', kind: 'Pod' }, verbs: ['get'] },
      { name: 'portforward', kind: { group: '', version: 'v1', kind: 'PodPortForwardOptions' }, verbs: ['create', 'get'] },
      status('', 'v1', 'Pod'),
    ],
    storageVersionHash: 'xPOwRZ+Yhw8=',
  }),
  resource({
    group: '', version: 'v1', kind: 'ReplicationController', resource: 'replicationcontrollers', singular: 'replicationcontroller', shortNames: ['rc'],
    namespaced: true, categories: ['all'], subresources: [scale, status('', 'v1', 'ReplicationController')], storageResource: 'controllers',
    storageVersionHash: 'Jond2If31h0=',
  }),
  resource({ group: '', version: 'v1', kind: 'Secret', resource: 'secrets', singular: 'secret', namespaced: true, storageVersionHash: 'S6u1pOWzb84=' }),
  resource({ group: '', version: 'v1', kind: 'ServiceAccount', resource: 'serviceaccounts', singular: 'serviceaccount', shortNames: ['sa'], namespaced: true, storageVersionHash: 'pbx9ZvyFpBE=' }),
  resource({
    group: '', version: 'v1', kind: 'Service', resource: 'services', singular: 'service', shortNames: ['svc'], namespaced: true, categories: ['all'],
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], subresources: [status('', 'v1', 'Service')], storageResource: 'services/specs', storageVersionHash: '0/CO1lhkEBI=',
  }),
  resource({
    group: 'apps', version: 'v1', kind: 'DaemonSet', resource: 'daemonsets', singular: 'daemonset', shortNames: ['ds'], namespaced: true,
    categories: ['all'], subresources: [status('apps', 'v1', 'DaemonSet')], storageVersionHash: 'dd7pWHUlMKQ=',
  }),
  resource({
    group: 'apps', version: 'v1', kind: 'Deployment', resource: 'deployments', singular: 'deployment', shortNames: ['deploy'], namespaced: true,
    categories: ['all'], subresources: [scale, status('apps', 'v1', 'Deployment')], storageVersionHash: '8aSe+NMegvE=',
  }),
  resource({
    group: 'apps', version: 'v1', kind: 'ReplicaSet', resource: 'replicasets', singular: 'replicaset', shortNames: ['rs'], namespaced: true,
    categories: ['all'], subresources: [scale, status('apps', 'v1', 'ReplicaSet')], storageVersionHash: 'P1RzHs8/mWQ=',
  }),
  resource({
    group: 'apps', version: 'v1', kind: 'StatefulSet', resource: 'statefulsets', singular: 'statefulset', shortNames: ['sts'], namespaced: true,
    categories: ['all'], subresources: [scale, status('apps', 'v1', 'StatefulSet')], storageVersionHash: 'H+vl74LkKdo=',
  }),
  review(authentication, 'SelfSubjectReview', 'selfsubjectreviews'),
  review(authorization, 'SelfSubjectAccessReview', 'selfsubjectaccessreviews'),
  review(authorization, 'SelfSubjectRulesReview', 'selfsubjectrulesreviews'),
  review(authorization, 'SubjectAccessReview', 'subjectaccessreviews'),
  resource({
    group: 'batch', version: 'v1', kind: 'CronJob', resource: 'cronjobs', singular: 'cronjob', shortNames: ['cj'], namespaced: true,
    categories: ['all'], subresources: [status('batch', 'v1', 'CronJob')], storageVersionHash: 'sd5LIXh4Fjs=',
  }),
  resource({
    group: 'batch', version: 'v1', kind: 'Job', resource: 'jobs', singular: 'job', namespaced: true,
    categories: ['all'], subresources: [status('batch', 'v1', 'Job')], storageVersionHash: 'mudhfqk/qZY=',
  }),
  resource({
    group: 'networking.k8s.io', version: 'v1', kind: 'Ingress', resource: 'ingresses', singular: 'ingress', shortNames: ['ing'], namespaced: true,
    subresources: [status('networking.k8s.io', 'v1', 'Ingress')], storageResource: 'ingress', storageVersionHash: '39NQlfNR+bo=',
  }),
  resource({ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', resource: 'leases', singular: 'lease', namespaced: true, storageVersionHash: 'gqkMMb/YqFM=' }),
  resource({ group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice', resource: 'endpointslices', singular: 'endpointslice', namespaced: true, storageVersionHash: 'qgS0xkrxYAI=' }),
  resource({ group: rbac, version: 'v1', kind: 'ClusterRoleBinding', resource: 'clusterrolebindings', singular: 'clusterrolebinding', namespaced: false, storageVersionHash: '48tpQ8gZHFc=' }),
  resource({ group: rbac, version: 'v1', kind: 'ClusterRole', resource: 'clusterroles', singular: 'clusterrole', namespaced: false, storageVersionHash: 'bYE5ZWDrJ44=' }),
  resource({ group: rbac, version: 'v1', kind: 'RoleBinding', resource: 'rolebindings', singular: 'rolebinding', namespaced: true, storageVersionHash: 'eGsCzGH6b1g=' }),
  resource({ group: rbac, version: 'v1', kind: 'Role', resource: 'roles', singular: 'role', namespaced: true, storageVersionHash: '7FuwZcIIItM=' }),
  resource({ group: 'scheduling.k8s.io', version: 'v1', kind: 'PriorityClass', resource: 'priorityclasses', singular: 'priorityclass', shortNames: ['pc'], namespaced: false, storageVersionHash: '1QwjyaZjj3Y=' }),
];

/** The served API groups in the order a 1.28 apiserver lists them in `/apis`; `''` is the core group at `/api`. */
export const servedGroups: readonly { readonly group: string; readonly versions: readonly string[] }[] = [
  { group: '', versions: ['v1'] },
  { group: 'apps', versions: ['v1'] },
  { group: authentication, versions: ['v1'] },
  { group: authorization, versions: ['v1'] },
  { group: 'batch', versions: ['v1'] },
  { group: 'networking.k8s.io', versions: ['v1'] },
  { group: rbac, versions: ['v1'] },
  { group: 'scheduling.k8s.io', versions: ['v1'] },
  { group: 'coordination.k8s.io', versions: ['v1'] },
  { group: 'discovery.k8s.io', versions: ['v1'] },
];

/** The resources of one group-version, in discovery order. */
export function resourcesOf(group: string, version: string): ResourceInfo[] {
  return servedResources.filter((r) => r.group === group && r.version === version);
}

/** The served resource with this group and plural name. */
export function lookupResource(group: string, resourceName: string): ResourceInfo | undefined {
  return servedResources.find((r) => r.group === group && r.resource === resourceName);
}

/** The served resource whose top-level kind this is (`apps/v1` `Deployment`). */
export function resourceForKind(gvk: GroupVersionKind): ResourceInfo | undefined {
  return servedResources.find((r) => r.group === gvk.group && r.version === gvk.version && r.kind === gvk.kind);
}

/**
 * Resolves what a kubectl user types as a resource: plural, singular, short name or kind (any case),
 * optionally qualified by group (`deployments.apps`, `deploy.apps`), the way kubectl's RESTMapper
 * does against discovery.
 */
export function findResource(typed: string): ResourceInfo | undefined {
  const lower = typed.toLowerCase();
  const matches = (r: ResourceInfo, name: string): boolean =>
    name === r.resource || name === r.singular || name === r.kind.toLowerCase() || r.shortNames.includes(name);
  const unqualified = servedResources.find((r) => matches(r, lower));
  if (unqualified !== undefined) return unqualified;
  const dot = lower.indexOf('.');
  if (dot < 0) return undefined;
  const name = lower.slice(0, dot);
  const group = lower.slice(dot + 1);
  return servedResources.find((r) => r.group === group && matches(r, name));
}

export function groupResourceOf(r: ResourceInfo): GroupResource {
  return { group: r.group, resource: r.resource };
}

/** `v1`, `apps/v1`. */
export function apiVersionOf(r: { readonly group: string; readonly version: string }): string {
  return r.group === '' ? r.version : `${r.group}/${r.version}`;
}

/**
 * The REST path of a collection: `/api/v1/namespaces/default/pods`, `/apis/apps/v1/deployments` (a
 * namespaced resource across all namespaces: `namespace` null), `/api/v1/nodes` (cluster-scoped: the
 * namespace is ignored).
 */
// Models k8s.io/client-go/rest/request.go (Request.URL: prefix, namespace segment, resource).
export function collectionPath(r: Pick<ResourceInfo, 'group' | 'version' | 'resource' | 'namespaced'>, namespace: string | null): string {
  const root = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  return `${root}${r.namespaced && namespace !== null ? `/namespaces/${namespace}` : ''}/${r.resource}`;
}

/** `PodList`, `DeploymentList`. */
export function listKindOf(r: ResourceInfo): string {
  return `${r.kind}List`;
}

/**
 * The etcd key of an object (`/registry/pods/default/nginx`, `/registry/minions/node-1`) or, with
 * `name` undefined, the prefix of a collection (`/registry/pods/default/`, `/registry/pods/`).
 */
export function storageKey(prefix: string, r: ResourceInfo, namespace: string | undefined, name?: string): string {
  const root = `${prefix}/${r.storageResource}/`;
  if (name === undefined) return r.namespaced && namespace ? `${root}${namespace}/` : root;
  return r.namespaced ? `${root}${namespace ?? ''}/${name}` : `${root}${name}`;
}

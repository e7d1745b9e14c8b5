// What kube-apiserver stores once it serves, through its own registry: the system namespaces, the RBAC
// bootstrap policy, the system priority classes, the Service IP and NodePort ranges, the `kubernetes`
// Service with its Endpoints and EndpointSlice. On an etcd that holds a cluster already, what is stored is
// kept (the bootstrap controllers create only what is missing).
// Models pkg/controlplane/controller/systemnamespaces (system_namespaces_controller.go),
// pkg/registry/rbac/rest/storage_rbac.go (PostStartHook rbac/bootstrap-roles),
// pkg/registry/scheduling/rest/storage_scheduling.go (scheduling/bootstrap-system-priority-classes),
// pkg/registry/core/service/ipallocator/controller and portallocator/controller (the repair loops'
// first pass) and pkg/controlplane/controller/kubernetesservice with the endpoint reconciler.

import { StatusError } from '../api/errors.ts';
import { applyDefaults } from '../api/defaults.ts';
import type { KubeObject } from '../api/types/meta.ts';
import type { Co } from '../engine/index.ts';
import {
  bootstrapPolicy, kubernetesEndpointSlice, kubernetesEndpoints, kubernetesService, systemNamespaces, systemPriorityClasses,
} from './bootstrap.ts';
import type { CommitObserver, RegistryContext } from './registry/generic-store.ts';
import type { ServiceAllocations } from './service-rest.ts';
import type { StorageFactory } from './storage-factory.ts';

export interface PostStartHookContext {
  /** Other kube-apiservers may write to this etcd: read before creating. */
  readonly shared: boolean;
  /** `--advertise-address`: the address in the `kubernetes` Endpoints and EndpointSlice. */
  readonly advertiseAddress: string;
  readonly storage: StorageFactory;
  readonly serviceAllocations: ServiceAllocations;
  /** The registry context of kube-apiserver itself (system:apiserver) in `namespace`. */
  readonly systemContext: (namespace: string) => RegistryContext;
  /** Told of an object kept as stored (kube-apiserver's namespace and RBAC views). */
  readonly observe: CommitObserver;
}

export function* runPostStartHooks(hooks: PostStartHookContext): Co<void> {
  const ctx = hooks.systemContext;
  for (const name of systemNamespaces) {
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } as KubeObject;
    applyDefaults({ group: '', version: 'v1', kind: 'Namespace' }, ns);
    yield* ensureCreated(hooks, '', 'namespaces', ctx(''), ns);
  }
  for (const item of bootstrapPolicy()) {
    yield* ensureCreated(hooks, item.group, item.resource, ctx(item.namespace), item.object);
  }
  for (const pc of systemPriorityClasses()) yield* ensureCreated(hooks, 'scheduling.k8s.io', 'priorityclasses', ctx(''), pc);
  // The repair controllers' first pass creates the ranges; the kubernetesservice controller then
  // creates the master Service (taking the range's first IP) and the reconciler its endpoints.
  const allocations = hooks.serviceAllocations;
  yield* allocations.ips.store.ensure();
  yield* allocations.ports.ensure();
  yield* ensureCreated(hooks, '', 'services', ctx('default'), kubernetesService(allocations.ips.ipAt(0)));
  yield* ensureCreated(hooks, '', 'endpoints', ctx('default'), kubernetesEndpoints(hooks.advertiseAddress));
  yield* ensureCreated(hooks, 'discovery.k8s.io', 'endpointslices', ctx('default'), kubernetesEndpointSlice(hooks.advertiseAddress));
}

/**
 * A start-up object's create, where one that exists already is kept and read instead: a kube-apiserver
 * started on an etcd that holds a cluster leaves its objects as they are (the bootstrap controllers
 * create what is missing), and its namespace and RBAC views start from what is stored. On a shared etcd
 * it reads first, as those controllers do (a create could fail otherwise, e.g. the kubernetes Service's
 * cluster IP is taken by the Service itself).
 */
function* ensureCreated(hooks: PostStartHookContext, group: string, resource: string, ctx: RegistryContext, obj: KubeObject): Co<void> {
  const store = hooks.storage.storeFor(group, resource);
  const name = obj.metadata.name ?? '';
  if (hooks.shared) {
    try {
      hooks.observe(resource, yield* store.get(ctx, name, ''), false);
      return;
    } catch (err) {
      if (!(err instanceof StatusError) || err.status.reason !== 'NotFound') throw err;
    }
  }
  try {
    yield* store.create(ctx, obj);
  } catch (err) {
    if (!(err instanceof StatusError) || err.status.reason !== 'AlreadyExists') throw err;
    hooks.observe(resource, yield* store.get(ctx, name, ''), false);
  }
}

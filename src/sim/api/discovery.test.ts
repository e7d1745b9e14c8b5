import { describe, expect, it } from 'vitest';
import { aggregatedDiscovery, aggregatedDiscoveryContentType, apiGroupList, apiResourceList, legacyAPIVersions } from './discovery.ts';

describe('legacy discovery', () => {
  it('answers /api and /apis as kubectl-wire.md §2B shows', () => {
    expect(JSON.stringify(legacyAPIVersions('127.0.0.1:6443'))).toBe(
      '{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"127.0.0.1:6443"}]}');
    const groups = apiGroupList();
    expect(groups.groups.map((g) => g.name)).toEqual(['apps', 'authentication.k8s.io', 'authorization.k8s.io', 'batch', 'networking.k8s.io', 'rbac.authorization.k8s.io', 'scheduling.k8s.io', 'coordination.k8s.io', 'discovery.k8s.io']);
    expect(JSON.stringify(groups.groups[0])).toBe('{"name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"}],"preferredVersion":{"groupVersion":"apps/v1","version":"v1"}}');
  });

  it('lists apps/v1 resources with subresources, Scale with its own group and version', () => {
    const list = apiResourceList('apps', 'v1')!;
    expect(list.groupVersion).toBe('apps/v1');
    expect(list.resources.map((r) => r.name)).toEqual([
      'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status',
      'statefulsets', 'statefulsets/scale', 'statefulsets/status',
    ]);
    expect(JSON.stringify(list.resources.slice(2, 5))).toBe(
      '[{"name":"deployments","singularName":"deployment","namespaced":true,"kind":"Deployment","verbs":["create","delete","deletecollection","get","list","patch","update","watch"],"shortNames":["deploy"],"categories":["all"],"storageVersionHash":"8aSe+NMegvE="},'
      + '{"name":"deployments/scale","singularName":"","namespaced":true,"group":"autoscaling","version":"v1","kind":"Scale","verbs":["get","patch","update"]},'
      + '{"name":"deployments/status","singularName":"","namespaced":true,"kind":"Deployment","verbs":["get","patch","update"]}]');
  });

  it('lists core resources as a 1.28 apiserver does', () => {
    const list = apiResourceList('', 'v1')!;
    expect(list.resources.map((r) => r.name)).toEqual([
      'componentstatuses', 'configmaps', 'endpoints', 'events', 'namespaces', 'namespaces/finalize', 'namespaces/status', 'nodes', 'nodes/status',
      'persistentvolumeclaims', 'persistentvolumeclaims/status', 'persistentvolumes', 'persistentvolumes/status',
      'pods', 'pods/attach', 'pods/binding', 'pods/eviction', 'pods/exec', 'pods/log', 'pods/portforward', 'pods/status',
      'replicationcontrollers', 'replicationcontrollers/scale', 'replicationcontrollers/status', 'secrets', 'serviceaccounts',
      'services', 'services/status',
    ]);
    // Read-only and never stored: no storageVersionHash.
    expect(list.resources.find((r) => r.name === 'componentstatuses')).toEqual({
      name: 'componentstatuses', singularName: 'componentstatus', namespaced: false, kind: 'ComponentStatus', verbs: ['get', 'list'], shortNames: ['cs'],
    });
    expect(list.resources.find((r) => r.name === 'pods/exec')).toEqual({ name: 'pods/exec', singularName: '', namespaced: true, kind: 'PodExecOptions', verbs: ['create', 'get'] });
    expect(list.resources.find((r) => r.name === 'pods/log')).toEqual({ name: 'pods/log', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get'] });
    expect(list.resources.find((r) => r.name === 'services')).toMatchObject({ shortNames: ['svc'], categories: ['all'], storageVersionHash: '0/CO1lhkEBI=' });
    expect(list.resources.find((r) => r.name === 'services')!.verbs).toEqual(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']);
    expect(list.resources.find((r) => r.name === 'pods/binding')).toEqual({ name: 'pods/binding', singularName: '', namespaced: true, kind: 'Binding', verbs: ['create'] });
    // kubectl drain looks for exactly this entry (CheckEvictionSupport) before it evicts instead of deleting.
    expect(list.resources.find((r) => r.name === 'pods/eviction')).toEqual({ name: 'pods/eviction', singularName: '', namespaced: true, group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] });
    expect(list.resources.find((r) => r.name === 'pods')).toMatchObject({ shortNames: ['po'], categories: ['all'], storageVersionHash: 'xPOwRZ+Yhw8=' });
    expect(list.resources.find((r) => r.name === 'namespaces')!.verbs).toEqual(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']);
    expect(list.resources.find((r) => r.name === 'secrets')).toEqual({
      name: 'secrets', singularName: 'secret', namespaced: true, kind: 'Secret', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      storageVersionHash: 'S6u1pOWzb84=',
    });
    expect(apiResourceList('batch', 'v1')!.resources.map((r) => r.name)).toEqual(['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']);
    expect(apiResourceList('networking.k8s.io', 'v1')!.resources.find((r) => r.name === 'ingresses')).toMatchObject({ shortNames: ['ing'], storageVersionHash: '39NQlfNR+bo=' });
    expect(apiResourceList('storage.k8s.io', 'v1')).toBeUndefined();
  });
});

describe('aggregated discovery', () => {
  it('has the shape kubectl-wire.md §2A shows', () => {
    const apis = aggregatedDiscovery(false, 'v2');
    expect(apis.apiVersion).toBe('apidiscovery.k8s.io/v2');
    const apps = apis.items[0]!;
    expect(apps.metadata).toEqual({ name: 'apps', creationTimestamp: null });
    expect(JSON.stringify(apps.versions[0]!.resources[1])).toBe(
      '{"resource":"deployments","responseKind":{"group":"apps","version":"v1","kind":"Deployment"},"scope":"Namespaced","singularResource":"deployment",'
      + '"verbs":["create","delete","deletecollection","get","list","patch","update","watch"],"shortNames":["deploy"],"categories":["all"],'
      + '"subresources":[{"subresource":"scale","responseKind":{"group":"autoscaling","version":"v1","kind":"Scale"},"verbs":["get","patch","update"]},'
      + '{"subresource":"status","responseKind":{"group":"apps","version":"v1","kind":"Deployment"},"verbs":["get","patch","update"]}]}');
    expect(apps.versions[0]!.freshness).toBe('Current');
  });

  it('puts the core group in one unnamed item at /api', () => {
    const api = aggregatedDiscovery(true, 'v2beta1');
    expect(api.apiVersion).toBe('apidiscovery.k8s.io/v2beta1');
    expect(api.items).toHaveLength(1);
    expect(api.items[0]!.metadata).toEqual({ creationTimestamp: null });
    expect(api.items[0]!.versions[0]!.resources.find((r) => r.resource === 'nodes')!.scope).toBe('Cluster');
    expect(aggregatedDiscoveryContentType('v2')).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
  });
});

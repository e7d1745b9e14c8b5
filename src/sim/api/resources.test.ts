import { describe, expect, it } from 'vitest';
import { apiVersionOf, findResource, listKindOf, lookupResource, resourceForKind, servedResources, storageKey } from './resources.ts';

describe('resource table', () => {
  it('has unique group/resource pairs, sorted by name within each group-version', () => {
    const keys = servedResources.map((r) => `${r.group}/${r.resource}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const gv of new Set(servedResources.map((r) => apiVersionOf(r)))) {
      const names = servedResources.filter((r) => apiVersionOf(r) === gv).map((r) => r.resource);
      expect(names).toEqual([...names].sort());
    }
  });

  it('resolves what kubectl users type', () => {
    expect(findResource('po')?.resource).toBe('pods');
    expect(findResource('Pod')?.resource).toBe('pods');
    expect(findResource('deploy')?.resource).toBe('deployments');
    expect(findResource('deployments.apps')?.group).toBe('apps');
    expect(findResource('rs')?.kind).toBe('ReplicaSet');
    expect(findResource('ns')?.namespaced).toBe(false);
    expect(findResource('no')?.resource).toBe('nodes');
    expect(findResource('ev')?.resource).toBe('events');
    expect(findResource('sa')?.resource).toBe('serviceaccounts');
    expect(findResource('cm')?.resource).toBe('configmaps');
    expect(findResource('leases')?.group).toBe('coordination.k8s.io');
    expect(findResource('deploy.extensions')).toBeUndefined();
    expect(findResource('foo')).toBeUndefined();
  });

  it('lists kubectl get all members by category', () => {
    expect(servedResources.filter((r) => r.categories.includes('all')).map((r) => r.resource)).toEqual([
      'pods', 'replicationcontrollers', 'services', 'daemonsets', 'deployments', 'replicasets', 'statefulsets', 'cronjobs', 'jobs',
    ]);
  });

  it('builds etcd keys as the registry does, nodes under minions', () => {
    const pods = lookupResource('', 'pods')!;
    const nodes = lookupResource('', 'nodes')!;
    const deployments = lookupResource('apps', 'deployments')!;
    expect(storageKey('/registry', pods, 'default', 'nginx')).toBe('/registry/pods/default/nginx');
    expect(storageKey('/registry', pods, 'default')).toBe('/registry/pods/default/');
    expect(storageKey('/registry', pods, undefined)).toBe('/registry/pods/');
    expect(storageKey('/registry', nodes, undefined, 'node-1')).toBe('/registry/minions/node-1');
    expect(storageKey('/registry', deployments, 'default', 'nginx-deployment')).toBe('/registry/deployments/default/nginx-deployment');
    expect(storageKey('/registry', lookupResource('coordination.k8s.io', 'leases')!, 'kube-node-lease', 'node-1')).toBe('/registry/leases/kube-node-lease/node-1');
  });

  it('maps kinds to resources', () => {
    expect(resourceForKind({ group: 'apps', version: 'v1', kind: 'Deployment' })?.resource).toBe('deployments');
    expect(resourceForKind({ group: 'apps', version: 'v1beta1', kind: 'Deployment' })).toBeUndefined();
    expect(listKindOf(lookupResource('', 'pods')!)).toBe('PodList');
  });
});

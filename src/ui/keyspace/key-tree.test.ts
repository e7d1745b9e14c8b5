import { describe, expect, it } from 'vitest';
import { KeyTree, placeOf } from './key-tree.ts';

const keyspaceRows = (keys: readonly string[], collapsed: ReadonlySet<string>, filter = '') => {
  const tree = new KeyTree(keys.filter((k) => k.includes(filter)), collapsed);
  return Array.from({ length: tree.rowCount }, (_, i) => tree.row(i));
};

describe('keyspace tree', () => {
  it('places keys by resource and namespace', () => {
    expect(placeOf('/registry/pods/default/a')).toEqual({ resource: 'pods', namespace: 'default', name: 'a' });
    expect(placeOf('/registry/namespaces/default')).toEqual({ resource: 'namespaces', namespace: null, name: 'default' });
    expect(placeOf('compact_rev_key')).toEqual({ resource: '(outside /registry)', namespace: null, name: 'compact_rev_key' });
  });

  it('groups sorted keys into rows with counts, collapsing and filtering', () => {
    const keys = ['/registry/namespaces/default', '/registry/namespaces/kube-system', '/registry/pods/default/a', '/registry/pods/default/b', '/registry/pods/kube-system/c'];
    expect(keyspaceRows(keys, new Set()).map((r) => `${r.type}:${r.type === 'key' ? r.name : `${r.label}(${r.count})`}`)).toEqual([
      'resource:namespaces(2)', 'key:default', 'key:kube-system',
      'resource:pods(3)', 'namespace:default(2)', 'key:a', 'key:b', 'namespace:kube-system(1)', 'key:c',
    ]);
    expect(keyspaceRows(keys, new Set(['pods/default', 'namespaces'])).map((r) => (r.type === 'key' ? r.name : r.id))).toEqual([
      'namespaces', 'pods', 'pods/default', 'pods/kube-system', 'c',
    ]);
    expect(keyspaceRows(keys, new Set(), '/b').map((r) => (r.type === 'key' ? r.name : r.id))).toEqual(['pods', 'pods/default', 'b']);
    expect(new KeyTree(keys, new Set()).rowOf('/registry/pods/default/b')).toBe(6);
    expect(new KeyTree(keys, new Set(['pods/default'])).rowOf('/registry/pods/default/b')).toBe(-1);
  });

  it('puts keys outside /registry in their own groups and mixes cluster-scoped runs with namespaces', () => {
    const keys = ['/a', '/registry/apiregistration.k8s.io/apiservices/v1.', '/registry/x/cluster-one', '/registry/x/ns/obj', 'compact_rev_key'];
    expect(keyspaceRows(keys, new Set()).map((r) => (r.type === 'key' ? `key:${r.name}${r.nested ? '*' : ''}` : `${r.label}(${r.count})`))).toEqual([
      '(outside /registry)(1)', 'key:/a',
      'apiregistration.k8s.io(1)', 'apiservices(1)', 'key:v1.*',
      'x(2)', 'key:cluster-one', 'ns(1)', 'key:obj*',
      '(outside /registry)(1)', 'key:compact_rev_key',
    ]);
  });
});

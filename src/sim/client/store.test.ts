import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types/meta.ts';
import { Indexer, metaNamespaceKey, namespaceIndex, splitMetaNamespaceKey } from './store.ts';

const obj = (namespace: string | undefined, name: string, labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { ...(namespace ? { namespace } : {}), name, labels },
});

describe('keys', () => {
  it.each([
    [obj('default', 'nginx'), 'default/nginx'],
    [obj(undefined, 'node-1'), 'node-1'],
  ])('metaNamespaceKey(%j) = %s', (o, key) => {
    expect(metaNamespaceKey(o)).toBe(key);
  });

  it.each([
    ['default/nginx', ['default', 'nginx']],
    ['node-1', ['', 'node-1']],
  ])('splitMetaNamespaceKey(%s)', (key, parts) => {
    expect(splitMetaNamespaceKey(key)).toEqual(parts);
  });

  it('rejects keys with two slashes', () => {
    expect(() => splitMetaNamespaceKey('a/b/c')).toThrow('unexpected key format');
  });
});

describe('Indexer', () => {
  it('keeps the namespace index in step with adds, updates, deletes and replace', () => {
    const indexer = new Indexer();
    indexer.add(obj('default', 'b'));
    indexer.add(obj('default', 'a'));
    indexer.add(obj('kube-system', 'c'));
    expect(indexer.byIndex(namespaceIndex, 'default').map((o) => o.metadata.name)).toEqual(['a', 'b']);
    indexer.delete(obj('default', 'a'));
    expect(indexer.byIndex(namespaceIndex, 'default').map((o) => o.metadata.name)).toEqual(['b']);
    indexer.replace([obj('other', 'x')]);
    expect(indexer.byIndex(namespaceIndex, 'default')).toEqual([]);
    expect(indexer.listKeys()).toEqual(['other/x']);
  });

  it('re-indexes an updated object under its new values', () => {
    const indexer = new Indexer({ app: (o) => (o.metadata.labels?.app ? [o.metadata.labels.app] : []) });
    indexer.add(obj('default', 'p', { app: 'web' }));
    indexer.update(obj('default', 'p', { app: 'db' }));
    expect(indexer.byIndex('app', 'web')).toEqual([]);
    expect(indexer.byIndex('app', 'db').map((o) => o.metadata.name)).toEqual(['p']);
  });

  it('indexes existing objects when an index is added later, and refuses duplicates', () => {
    const indexer = new Indexer();
    indexer.add(obj('default', 'p', { app: 'web' }));
    indexer.addIndexer('app', (o) => [o.metadata.labels?.app ?? '']);
    expect(indexer.byIndex('app', 'web')).toHaveLength(1);
    expect(() => indexer.addIndexer('app', () => [])).toThrow('indexer conflict');
    expect(() => indexer.byIndex('missing', 'x')).toThrow('does not exist');
  });

  it('lists and index lookups show updated objects and new keys, and hand out arrays the caller may change', () => {
    const indexer = new Indexer();
    indexer.add(obj('default', 'b', { v: '1' }));
    indexer.add(obj('default', 'a', { v: '1' }));
    const first = indexer.byIndex(namespaceIndex, 'default');
    first.pop();
    expect(indexer.byIndex(namespaceIndex, 'default').map((o) => o.metadata.name)).toEqual(['a', 'b']);
    indexer.update(obj('default', 'b', { v: '2' }));
    expect(indexer.byIndex(namespaceIndex, 'default').map((o) => o.metadata.labels?.v)).toEqual(['1', '2']);
    expect(indexer.list().map((o) => o.metadata.labels?.v)).toEqual(['1', '2']);
    indexer.add(obj('default', 'c'));
    indexer.deleteKey('default/a');
    expect(indexer.listKeys()).toEqual(['default/b', 'default/c']);
    expect(indexer.byIndex(namespaceIndex, 'default').map((o) => o.metadata.name)).toEqual(['b', 'c']);
  });

  it('tells index-change listeners of keys joining, leaving and being replaced under each value', () => {
    const indexer = new Indexer({ app: (o) => (o.metadata.labels?.app ? [o.metadata.labels.app] : []) });
    indexer.add(obj('default', 'before', { app: 'web' }));
    const seen: string[] = [];
    indexer.onIndexChange('app', (value, key) => seen.push(`${value} ${key}`));
    indexer.add(obj('default', 'p', { app: 'web' }));
    indexer.update(obj('default', 'p', { app: 'web' }));
    indexer.update(obj('default', 'p', { app: 'db' }));
    indexer.update(obj('default', 'p'));
    indexer.delete(obj('default', 'before', { app: 'web' }));
    expect(seen).toEqual(['web default/p', 'web default/p', 'web default/p', 'db default/p', 'db default/p', 'web default/before']);
    expect(indexer.hasIndexer('app')).toBe(true);
    expect(() => indexer.onIndexChange('missing', () => undefined)).toThrow('does not exist');
  });
});

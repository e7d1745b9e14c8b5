import { describe, expect, it } from 'vitest';
import type { Pod } from '../api/types/core.ts';
import { Indexer, namespaceIndex } from '../client/index.ts';
import { addPodControllerUIDIndexer, filterPodsByOwner, orphanPodIndexKeyForNamespace, podControllerUIDIndex } from './controller-utils.ts';

const pod = (namespace: string, name: string, controllerUid?: string): Pod => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: {
    namespace, name, uid: `pod-${name}`,
    ...(controllerUid ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: controllerUid, controller: true }] } : {}),
  },
  spec: { containers: [] },
});
const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { namespace: 'default', name: 'rs', uid: 'rs-1' } };

function indexerWith(pods: Pod[]): Indexer<Pod> {
  const indexer = new Indexer<Pod>();
  addPodControllerUIDIndexer(indexer);
  addPodControllerUIDIndexer(indexer); // a second controller on the same informer: no conflict
  for (const p of pods) indexer.add(p);
  return indexer;
}

describe('the pod controller-uid index (PodControllerUIDIndex)', () => {
  it('files pods under their controller\'s uid and orphans under their namespace\'s orphan key', () => {
    const indexer = indexerWith([pod('default', 'a', 'rs-1'), pod('default', 'b'), pod('other', 'c'), pod('default', 'd', 'rs-2')]);
    expect(indexer.byIndex(podControllerUIDIndex, 'rs-1').map((p) => p.metadata.name)).toEqual(['a']);
    expect(indexer.byIndex(podControllerUIDIndex, orphanPodIndexKeyForNamespace('default')).map((p) => p.metadata.name)).toEqual(['b']);
    expect(indexer.byIndex(podControllerUIDIndex, orphanPodIndexKeyForNamespace('other')).map((p) => p.metadata.name)).toEqual(['c']);
    expect(orphanPodIndexKeyForNamespace('default')).toBe('_ORPHAN_POD/default');
  });

  it('moves a pod to the orphans when its controller reference goes, and back when adopted', () => {
    const indexer = indexerWith([pod('default', 'a', 'rs-1')]);
    indexer.update(pod('default', 'a'));
    expect(indexer.byIndex(podControllerUIDIndex, 'rs-1')).toEqual([]);
    expect(filterPodsByOwner(indexer, owner).map((p) => p.metadata.name)).toEqual(['a']);
    indexer.update(pod('default', 'a', 'rs-2'));
    expect(filterPodsByOwner(indexer, owner)).toEqual([]);
  });
});

describe('filterPodsByOwner', () => {
  it('is the namespace list, in its key order, less the pods other controllers own and other namespaces\' pods', () => {
    const pods = [
      pod('default', 'web-9', 'rs-1'), pod('default', 'bare-2'), pod('default', 'web-1', 'rs-1'), pod('default', 'db-1', 'rs-2'),
      pod('default', 'aaa'), pod('default', 'zzz'), pod('default', 'web-5', 'rs-1'), pod('other', 'web-0', 'rs-1'), pod('other', 'bare-1'),
      pod('default-2', 'web-3', 'rs-1'),
    ];
    const indexer = indexerWith(pods);
    const namespaceList = indexer.byIndex(namespaceIndex, 'default');
    const expected = namespaceList.filter((p) => p.metadata.ownerReferences?.[0]?.uid === undefined || p.metadata.ownerReferences[0].uid === 'rs-1');
    const got = filterPodsByOwner(indexer, owner);
    expect(got).toEqual(expected);
    expect(got.map((p) => p.metadata.name)).toEqual(['aaa', 'bare-2', 'web-1', 'web-5', 'web-9', 'zzz']);
  });
});

// Test support: pod writes for the pod history's and the pods events' tests.
import type { KeyChange } from '../protocol/index.ts';

/** A pod as kube-apiserver stores it with `--storage-media-type=json`. */
export function podValue(name: string, node: string | null, phase: string): string {
  const containers = [{ name: 'web', image: 'nginx:1.14.2' }];
  return JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: node ? { nodeName: node, containers } : { containers }, status: { phase } });
}

/** 4,200 writes from revision 2 on: 40 pods created, bound, run and some deleted, over and over. */
export function writes(): KeyChange[] {
  const changes: KeyChange[] = [];
  let revision = 1;
  for (let round = 0; changes.length < 4_200; round++) {
    for (let i = 0; i < 40; i++) {
      const key = `/registry/pods/default/web-${i}`;
      const name = `web-${i}`;
      const created = ++revision;
      changes.push({ key, createRevision: created, modRevision: created, version: 1, lease: '0', value: podValue(name, null, 'Pending'), deleted: false, step: revision });
      changes.push({ key, createRevision: created, modRevision: ++revision, version: 2, lease: '0', value: podValue(name, `node-${(i + round) % 3}`, 'Pending'), deleted: false, step: revision });
      changes.push({ key, createRevision: created, modRevision: ++revision, version: 3, lease: '0', value: podValue(name, `node-${(i + round) % 3}`, 'Running'), deleted: false, step: revision });
      if (i % 4 === 0) changes.push({ key, modRevision: ++revision, deleted: true, step: revision });
    }
  }
  return changes;
}


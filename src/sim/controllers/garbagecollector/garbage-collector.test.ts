import { describe, expect, it } from 'vitest';
import type { Deployment, ReplicaSet } from '../../api/types/apps.ts';
import type { Pod } from '../../api/types/core.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import type { HttpRequest } from '../../wire/http.ts';
import { createCluster, type Cluster } from '../../cluster.ts';
import { runTwiceWithPerturbedHost } from '../../testing/determinism.ts';
import { adminCall } from '../../testing/http.ts';
import { stored } from '../testing.ts';

const nginx = (replicas: number) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nginx-deployment', labels: { app: 'nginx' } },
  spec: { replicas, selector: { matchLabels: { app: 'nginx' } }, template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.14.2' }] } } },
});

function deployed(seed: string, replicas = 2): Cluster {
  const cluster = createCluster({ seed });
  cluster.boot();
  const res = adminCall(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', nginx(replicas));
  expect(res.status).toBe(201);
  return cluster;
}

/** Every finalizer list seen on each key of `resource` in etcd, after every step from now on. */
function watchFinalizers(cluster: Cluster, resource: string): Map<string, Set<string>> {
  const seen = new Map<string, Set<string>>();
  cluster.engine.onDelivery(() => {
    for (const obj of stored<KubeObject>(cluster, resource)) {
      const name = obj.metadata.name ?? '';
      if (!seen.has(name)) seen.set(name, new Set());
      seen.get(name)!.add(JSON.stringify(obj.metadata.finalizers ?? []));
    }
  });
  return seen;
}

function deleteDeployment(cluster: Cluster, policy?: 'Background' | 'Foreground' | 'Orphan') {
  return adminCall(cluster, 'DELETE', '/apis/apps/v1/namespaces/default/deployments/nginx-deployment',
    policy ? { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: policy } : undefined);
}

/** The garbage collector's requests, as `METHOD path`. */
function gcRequests(cluster: Cluster, fromStep: number): string[] {
  return cluster.engine.trace.since(fromStep)
    .filter((m) => m.from === 'kube-controller-manager' && m.kind === 'http.request')
    .map((m) => m.payload as HttpRequest)
    .filter((r) => r.method !== 'GET' || !r.query.includes('watch'))
    .map((r) => `${r.method} ${r.path}`);
}

describe('garbage collector', () => {
  it('Background (the apps/v1 default): the Deployment goes at once, then its ReplicaSet, then the pods', () => {
    const cluster = deployed('gc-background');
    const rs = stored<ReplicaSet>(cluster, 'replicasets')[0]!;
    const before = cluster.engine.step;
    const res = deleteDeployment(cluster);
    expect(res.status).toBe(200);
    cluster.engine.runFor(60_000);
    expect(stored(cluster, 'deployments')).toEqual([]);
    expect(stored(cluster, 'replicasets')).toEqual([]);
    expect(stored(cluster, 'pods')).toEqual([]);
    const requests = gcRequests(cluster, before);
    // The informer saw the owner's deletion (absent-owner cache); the dependent itself is read live first.
    const getRs = requests.indexOf(`GET /apis/apps/v1/namespaces/default/replicasets/${rs.metadata.name}`);
    const deleteRs = requests.indexOf(`DELETE /apis/apps/v1/namespaces/default/replicasets/${rs.metadata.name}`);
    expect(getRs).toBeGreaterThanOrEqual(0);
    expect(deleteRs).toBeGreaterThan(getRs);
    const deletes = cluster.engine.trace.since(before).filter((m) => m.from === 'kube-controller-manager' && (m.payload as HttpRequest).method === 'DELETE');
    expect((deletes[0]!.payload as HttpRequest).body).toMatchObject({ propagationPolicy: 'Background', preconditions: { uid: rs.metadata.uid } });
  });

  it('Foreground: the owner waits with the foregroundDeletion finalizer until its dependents are gone', () => {
    const cluster = deployed('gc-foreground');
    const deploymentFinalizers = watchFinalizers(cluster, 'deployments');
    const rsFinalizers = watchFinalizers(cluster, 'replicasets');
    const res = deleteDeployment(cluster, 'Foreground');
    expect(res.status).toBe(200);
    expect((res.body as Deployment).metadata.finalizers).toEqual(['foregroundDeletion']);
    expect((res.body as Deployment).metadata.deletionTimestamp).toBeDefined();
    cluster.engine.runFor(60_000);
    expect(stored(cluster, 'deployments')).toEqual([]);
    expect(stored(cluster, 'replicasets')).toEqual([]);
    expect(stored(cluster, 'pods')).toEqual([]);
    expect([...deploymentFinalizers.get('nginx-deployment')!]).toContain('["foregroundDeletion"]');
    // The ReplicaSet was itself deleted in Foreground (it has dependents and its owner waits for it).
    expect([...rsFinalizers.values()].flatMap((s) => [...s])).toContain('["foregroundDeletion"]');
  });

  it('Foreground: the Deployment is removed only after its last pod is gone', () => {
    const cluster = deployed('gc-foreground-order');
    let lastPodGoneAt = -1;
    let deploymentGoneAt = -1;
    cluster.engine.onDelivery(() => {
      if (lastPodGoneAt < 0 && stored(cluster, 'pods').length === 0) lastPodGoneAt = cluster.engine.step;
      if (deploymentGoneAt < 0 && stored(cluster, 'deployments').length === 0) deploymentGoneAt = cluster.engine.step;
    });
    deleteDeployment(cluster, 'Foreground');
    cluster.engine.runFor(60_000);
    expect(lastPodGoneAt).toBeGreaterThan(0);
    expect(deploymentGoneAt).toBeGreaterThan(lastPodGoneAt);
  });

  it('Orphan: the ReplicaSet and pods stay, without the owner reference; the finalizer is removed', () => {
    const cluster = deployed('gc-orphan');
    const deploymentFinalizers = watchFinalizers(cluster, 'deployments');
    const rsBefore = stored<ReplicaSet>(cluster, 'replicasets')[0]!;
    expect(rsBefore.metadata.ownerReferences).toHaveLength(1);
    const res = deleteDeployment(cluster, 'Orphan');
    expect(res.status).toBe(200);
    cluster.engine.runFor(60_000);
    expect(stored(cluster, 'deployments')).toEqual([]);
    expect([...deploymentFinalizers.get('nginx-deployment')!]).toContain('["orphan"]');
    const rs = stored<ReplicaSet>(cluster, 'replicasets');
    expect(rs.map((r) => r.metadata.uid)).toEqual([rsBefore.metadata.uid]);
    expect(rs[0]!.metadata.ownerReferences).toBeUndefined();
    const pods = stored<Pod>(cluster, 'pods');
    expect(pods).toHaveLength(2);
    expect(pods.every((p) => p.metadata.ownerReferences?.[0]?.uid === rsBefore.metadata.uid && !p.metadata.deletionTimestamp)).toBe(true);
  });

  it('deleting a ReplicaSet (Background) collects its pods and drops it from the graph', () => {
    const cluster = deployed('gc-rs', 3);
    const rs = stored<ReplicaSet>(cluster, 'replicasets')[0]!;
    // Orphan the Deployment's ReplicaSet first so that the deployment controller does not recreate it.
    deleteDeployment(cluster, 'Orphan');
    cluster.engine.runFor(10_000);
    const res = adminCall(cluster, 'DELETE', `/apis/apps/v1/namespaces/default/replicasets/${rs.metadata.name}`);
    expect(res.status).toBe(200);
    cluster.engine.runFor(60_000);
    expect(stored(cluster, 'replicasets')).toEqual([]);
    expect(stored(cluster, 'pods')).toEqual([]);
    expect(cluster.controllerManager!.garbageCollector!.graph.uidToNode.has(rs.metadata.uid!)).toBe(false);
  });

  it('a pod whose owner reference dangles from the start is collected', () => {
    const cluster = deployed('gc-dangling', 1);
    const before = cluster.engine.step;
    const res = adminCall(cluster, 'POST', '/api/v1/namespaces/default/pods', {
      apiVersion: 'v1', kind: 'Pod',
      metadata: { name: 'stray', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'gone', uid: '00000000-0000-0000-0000-000000000001' }] },
      spec: { containers: [{ name: 'c', image: 'nginx:1.14.2' }] },
    });
    expect(res.status).toBe(201);
    cluster.engine.runFor(60_000);
    expect(stored<Pod>(cluster, 'pods').map((p) => p.metadata.name)).not.toContain('stray');
    // The virtual owner node is checked by a live GET (404) before the pod is deleted.
    const requests = gcRequests(cluster, before);
    const getOwner = requests.indexOf('GET /apis/apps/v1/namespaces/default/replicasets/gone');
    expect(getOwner).toBeGreaterThanOrEqual(0);
    expect(requests.indexOf('DELETE /api/v1/namespaces/default/pods/stray')).toBeGreaterThan(getOwner);
  });

  it('replays a cascade delete to a byte-identical trace', () => {
    const [a, b] = runTwiceWithPerturbedHost(() => {
      const cluster = deployed('gc-replay');
      deleteDeployment(cluster, 'Foreground');
      cluster.engine.runFor(60_000);
      return cluster.engine;
    });
    expect(b.hash).toBe(a.hash);
  });
});

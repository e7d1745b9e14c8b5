// The deployment and replicaset controllers together against the real kube-apiserver: seeds/000's nginx
// Deployment, scaling, a `kubectl set image` rolling update with pods marked Ready by hand (no kubelets
// here), Recreate, invariants after every step, determinism.

import { describe, expect, it } from 'vitest';
import type { Event, Pod } from '../../api/types/core.ts';
import type { Deployment, ReplicaSet } from '../../api/types/apps.ts';
import { httpKinds, type HttpRequest } from '../../wire/http.ts';
import type { Message } from '../../engine/index.ts';
import { runTwiceWithPerturbedHost } from '../../testing/determinism.ts';
import { controllerTestCluster, podsOwnedByExistingReplicaSets, stored } from '../testing.ts';
import { maxSurge } from './deployment-util.ts';

const nginx = (replicas = 1, strategy?: Deployment['spec']['strategy']): Deployment => ({
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: 'nginx-deployment', labels: { app: 'nginx' } },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'nginx' } },
    template: {
      metadata: { labels: { app: 'nginx' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1.14.2', ports: [{ containerPort: 80 }] }] },
    },
    ...(strategy ? { strategy } : {}),
  },
});

const deploymentsPath = '/apis/apps/v1/namespaces/default/deployments';

function setup(seed: string) {
  const t = controllerTestCluster(seed);
  const { cluster } = t;
  cluster.engine.addInvariant('pods owned by existing ReplicaSets', podsOwnedByExistingReplicaSets(cluster));
  cluster.engine.addInvariant('ReplicaSets owned by existing Deployments', () => {
    const uids = new Set(stored<Deployment>(cluster, 'deployments').map((d) => d.metadata.uid));
    const orphan = stored<ReplicaSet>(cluster, 'replicasets').find((rs) => rs.metadata.ownerReferences?.[0]?.kind === 'Deployment' && !uids.has(rs.metadata.ownerReferences[0].uid));
    return orphan && `ReplicaSet ${orphan.metadata.name} owned by a missing Deployment`;
  });
  cluster.engine.addInvariant('RollingUpdate: sum of ReplicaSet replicas ≤ replicas + maxSurge', () => {
    for (const d of stored<Deployment>(cluster, 'deployments')) {
      if (d.spec.strategy?.type === 'Recreate') continue;
      // Only once the controller has seen the current spec (a user's scale-down lowers the bound first).
      if ((d.status?.observedGeneration ?? 0) < (d.metadata.generation ?? 0)) continue;
      const total = stored<ReplicaSet>(cluster, 'replicasets').filter((rs) => rs.metadata.ownerReferences?.[0]?.uid === d.metadata.uid)
        .reduce((n, rs) => n + (rs.spec.replicas ?? 1), 0);
      const bound = (d.spec.replicas ?? 1) + maxSurge(d);
      if (total > bound) return `${d.metadata.name}: ${total} replicas > ${bound}`;
    }
    return undefined;
  });
  return t;
}

function txnKey(m: Message): string | undefined {
  if (m.kind !== 'etcd.Txn') return undefined;
  return /"requestPut":\{"key":"([^"]+)"/.exec(JSON.stringify(m.payload))?.[1];
}

function events(t: ReturnType<typeof setup>): Event[] {
  return (t.request('GET', '/api/v1/namespaces/default/events').body as { items: Event[] }).items;
}

function scalingMessages(t: ReturnType<typeof setup>): string[] {
  return events(t).filter((e) => e.reason === 'ScalingReplicaSet')
    .sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion))
    .map((e) => e.message!);
}

describe('deployment controller', () => {
  it('nginx Deployment (seeds/000): RS <name>-<hash> and one pod, in causal order, with events stored under leases', () => {
    const t = setup('deploy-nginx');
    const created = t.request('POST', deploymentsPath, nginx());
    expect(created.status).toBe(201);
    const d = created.body as Deployment;
    t.cluster.engine.runUntilIdle();

    const [rs] = t.replicaSets();
    expect(rs!.metadata.name).toMatch(/^nginx-deployment-[456789bcdf]{1,10}$/);
    const hash = rs!.metadata.name!.slice('nginx-deployment-'.length);
    expect(rs!.metadata.labels).toEqual({ app: 'nginx', 'pod-template-hash': hash });
    expect(rs!.spec.selector).toEqual({ matchLabels: { app: 'nginx', 'pod-template-hash': hash } });
    expect(rs!.spec.template!.metadata!.labels).toEqual({ app: 'nginx', 'pod-template-hash': hash });
    expect(rs!.spec.replicas).toBe(1);
    expect(rs!.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx-deployment', uid: d.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(rs!.metadata.annotations).toEqual({
      'deployment.kubernetes.io/desired-replicas': '1',
      'deployment.kubernetes.io/max-replicas': '2',
      'deployment.kubernetes.io/revision': '1',
    });

    const pods = t.pods();
    expect(pods).toHaveLength(1);
    expect(pods[0]!.metadata.name).toMatch(new RegExp(`^nginx-deployment-${hash}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
    expect(pods[0]!.metadata.labels).toEqual({ app: 'nginx', 'pod-template-hash': hash });
    expect(pods[0]!.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs!.metadata.name, uid: rs!.metadata.uid, controller: true, blockOwnerDeletion: true }]);

    // Causal order in the trace.
    const trace = t.cluster.engine.trace.all();
    const at = (pred: (m: Message) => boolean, from = 0) => {
      const i = trace.findIndex((m, j) => j >= from && pred(m));
      if (i < 0) throw new Error('step not found');
      return i;
    };
    const post = at((m) => m.kind === httpKinds.request && m.from === 'user' && (m.payload as HttpRequest).path === deploymentsPath);
    const dTxn = at((m) => txnKey(m) === '/registry/deployments/default/nginx-deployment', post);
    const dWatch = at((m) => m.kind === httpKinds.watchEvent && m.to === 'kube-controller-manager' && JSON.stringify(m.payload).includes('"kind":"Deployment"'), dTxn);
    const rsPost = at((m) => m.kind === httpKinds.request && m.from === 'kube-controller-manager' && (m.payload as HttpRequest).method === 'POST' && (m.payload as HttpRequest).path.endsWith('/replicasets'), dWatch);
    const rsTxn = at((m) => txnKey(m) === `/registry/replicasets/default/${rs!.metadata.name}`, rsPost);
    const rsWatch = at((m) => m.kind === httpKinds.watchEvent && m.to === 'kube-controller-manager' && JSON.stringify(m.payload).includes('"kind":"ReplicaSet"'), rsTxn);
    const podPost = at((m) => m.kind === httpKinds.request && m.from === 'kube-controller-manager' && (m.payload as HttpRequest).method === 'POST' && (m.payload as HttpRequest).path.endsWith('/pods'), rsWatch);
    const podTxn = at((m) => txnKey(m) === `/registry/pods/default/${pods[0]!.metadata.name}`, podPost);
    expect(podTxn).toBeGreaterThan(podPost);

    // Txn keys in the order of the seed's etcd log: deployment, replicaset, pod, then events.
    const keys = trace.map(txnKey).filter((k): k is string => k !== undefined && !k.startsWith('/registry/leases/') && !k.startsWith('/registry/masterleases/'));
    const firstOf = (prefix: string) => keys.findIndex((k) => k.startsWith(prefix));
    expect(firstOf('/registry/deployments/')).toBeLessThan(firstOf('/registry/replicasets/'));
    expect(firstOf('/registry/replicasets/')).toBeLessThan(firstOf('/registry/pods/'));
    expect(firstOf('/registry/pods/')).toBeLessThan(firstOf('/registry/events/'));
    const eventKvs = t.cluster.etcd.kv.range({ key: '/registry/events/default/', rangeEnd: '/registry/events/default0' }).kvs;
    expect(eventKvs.length).toBeGreaterThanOrEqual(2);
    expect(eventKvs.every((kv) => Number(kv.lease) !== 0)).toBe(true);

    expect(scalingMessages(t)).toEqual([`Scaled up replica set ${rs!.metadata.name} to 1`]);
    const scaling = events(t).find((e) => e.reason === 'ScalingReplicaSet')!;
    expect(scaling.source).toEqual({ component: 'deployment-controller' });
    expect(scaling.involvedObject).toMatchObject({ kind: 'Deployment', name: 'nginx-deployment', apiVersion: 'apps/v1' });

    const [after] = t.deployments();
    expect(after!.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
    expect(after!.status).toMatchObject({ observedGeneration: 1, replicas: 1, updatedReplicas: 1, unavailableReplicas: 1 });
    const conditions = Object.fromEntries(after!.status!.conditions!.map((c) => [c.type, c]));
    expect(conditions['Available']).toMatchObject({ status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' });
    expect(conditions['Progressing']).toMatchObject({ status: 'True', reason: 'ReplicaSetUpdated', message: `ReplicaSet "${rs!.metadata.name}" is progressing.` });

    // Once the pod is Ready the Deployment is Available and the rollout complete.
    t.markReady(pods[0]!.metadata.name!);
    t.cluster.engine.runUntilIdle();
    const [ready] = t.deployments();
    expect(ready!.status).toMatchObject({ replicas: 1, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1 });
    expect(ready!.status!.unavailableReplicas).toBeUndefined();
    const c2 = Object.fromEntries(ready!.status!.conditions!.map((c) => [c.type, c]));
    expect(c2['Available']).toMatchObject({ status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' });
    expect(c2['Progressing']).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${rs!.metadata.name}" has successfully progressed.` });
  });

  it('scales up from 1 to 3 and down to 2, with "Scaled up|down … to <new> from <old>" events', () => {
    const t = setup('deploy-scale');
    t.request('POST', deploymentsPath, nginx());
    t.request('PATCH', `${deploymentsPath}/nginx-deployment/scale`, { spec: { replicas: 3 } }, 'application/merge-patch+json');
    t.cluster.engine.runUntilIdle();
    expect(t.pods()).toHaveLength(3);
    const [rs] = t.replicaSets();
    expect(rs!.spec.replicas).toBe(3);
    expect(rs!.metadata.annotations?.['deployment.kubernetes.io/desired-replicas']).toBe('3');
    expect(rs!.metadata.annotations?.['deployment.kubernetes.io/max-replicas']).toBe('4');
    t.request('PATCH', `${deploymentsPath}/nginx-deployment/scale`, { spec: { replicas: 2 } }, 'application/merge-patch+json');
    t.cluster.engine.runUntilIdle();
    expect(t.pods().filter((p) => !p.metadata.deletionTimestamp)).toHaveLength(2);
    const name = rs!.metadata.name;
    expect(scalingMessages(t)).toEqual([
      `Scaled up replica set ${name} to 1`,
      `Scaled up replica set ${name} to 3 from 1`,
      `Scaled down replica set ${name} to 2 from 3`,
    ]);
  });

  it('set image rolls out step by step: a second RS, replicas moved over within maxSurge/maxUnavailable', () => {
    const t = setup('deploy-rollout');
    t.request('POST', deploymentsPath, nginx(3));
    t.cluster.engine.runUntilIdle();
    const markAllReady = () => {
      for (const p of t.pods()) if (!p.metadata.deletionTimestamp && p.status?.phase !== 'Running') t.markReady(p.metadata.name!);
      t.cluster.engine.runUntilIdle();
    };
    markAllReady();
    const [first] = t.replicaSets();
    expect(t.deployments()[0]!.status).toMatchObject({ availableReplicas: 3, updatedReplicas: 3 });

    // kubectl set image deployment/nginx-deployment nginx=nginx:1.16.1
    const patched = t.request('PATCH', `${deploymentsPath}/nginx-deployment`, { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.16.1' }] } } } }, 'application/strategic-merge-patch+json');
    expect(patched.status).toBe(200);
    t.cluster.engine.runUntilIdle();
    let rss = t.replicaSets();
    expect(rss).toHaveLength(2);
    const second = rss.find((rs) => rs.metadata.name !== first!.metadata.name)!;
    expect(second.spec.template!.spec!.containers[0]!.image).toBe('nginx:1.16.1');
    expect(second.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    // maxSurge 25% of 3 → 1 up; maxUnavailable 25% of 3 → 0 down until the new pod is available.
    expect(second.spec.replicas).toBe(1);
    expect(rss.find((rs) => rs.metadata.name === first!.metadata.name)!.spec.replicas).toBe(3);

    for (let round = 0; round < 10; round++) {
      markAllReady();
      t.cluster.engine.runUntilIdle();
    }
    rss = t.replicaSets();
    expect(rss.find((rs) => rs.metadata.name === second.metadata.name)!.spec.replicas).toBe(3);
    expect(rss.find((rs) => rs.metadata.name === first!.metadata.name)!.spec.replicas).toBe(0);
    const live = t.pods().filter((p) => !p.metadata.deletionTimestamp);
    expect(live).toHaveLength(3);
    expect(live.every((p) => p.spec.containers[0]!.image === 'nginx:1.16.1')).toBe(true);
    const d = t.deployments()[0]!;
    expect(d.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    expect(d.status).toMatchObject({ observedGeneration: 2, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 });
    const progressing = d.status!.conditions!.find((c) => c.type === 'Progressing')!;
    expect(progressing).toMatchObject({ reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${second.metadata.name}" has successfully progressed.` });
    const [o, n] = [first!.metadata.name, second.metadata.name];
    expect(scalingMessages(t)).toEqual([
      `Scaled up replica set ${o} to 3`,
      `Scaled up replica set ${n} to 1`,
      `Scaled down replica set ${o} to 2 from 3`,
      `Scaled up replica set ${n} to 2 from 1`,
      `Scaled down replica set ${o} to 1 from 2`,
      `Scaled up replica set ${n} to 3 from 2`,
      `Scaled down replica set ${o} to 0 from 1`,
    ]);
  });

  it('scaling in the middle of a rollout shares the new size out in proportion (old 3→6, new 1→2)', () => {
    const t = setup('deploy-proportional');
    t.request('POST', deploymentsPath, nginx(3));
    const [first] = t.replicaSets();
    for (const p of t.pods()) t.markReady(p.metadata.name!);
    t.request('PATCH', `${deploymentsPath}/nginx-deployment`, { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.16.1' }] } } } }, 'application/strategic-merge-patch+json');
    const second = t.replicaSets().find((rs) => rs.metadata.name !== first!.metadata.name)!;
    expect(second.spec.replicas).toBe(1);
    t.request('PATCH', `${deploymentsPath}/nginx-deployment/scale`, { spec: { replicas: 6 } }, 'application/merge-patch+json');
    // The rollout then goes on: 3 of the old pods are new and unready, so the unhealthy ones go first
    // (cleanupUnhealthyReplicas) within maxUnavailable (1), and the new RS grows into the freed surge.
    expect(scalingMessages(t).slice(2)).toEqual([
      `Scaled up replica set ${first!.metadata.name} to 6 from 3`,
      `Scaled up replica set ${second.metadata.name} to 2 from 1`,
      `Scaled down replica set ${first!.metadata.name} to 5 from 6`,
      `Scaled up replica set ${second.metadata.name} to 3 from 2`,
    ]);
    const sizes = Object.fromEntries(t.replicaSets().map((rs) => [rs.metadata.name, rs.spec.replicas]));
    expect(sizes).toEqual({ [first!.metadata.name!]: 5, [second.metadata.name!]: 3 });
  });

  it('Recreate: the old RS goes to 0 and its pods away before the new RS is scaled up', () => {
    const t = setup('deploy-recreate');
    t.request('POST', deploymentsPath, nginx(2, { type: 'Recreate' }));
    t.cluster.engine.runUntilIdle();
    const [first] = t.replicaSets();
    let checked = 0;
    t.cluster.engine.addInvariant('Recreate: never pods of two ReplicaSets at once', () => {
      const owners = new Set(stored<Pod>(t.cluster, 'pods').map((p) => p.metadata.ownerReferences?.[0]?.uid));
      checked++;
      return owners.size > 1 ? `pods of ${owners.size} ReplicaSets at once` : undefined;
    });
    t.request('PATCH', `${deploymentsPath}/nginx-deployment`, { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.16.1' }] } } } }, 'application/strategic-merge-patch+json');
    t.cluster.engine.runUntilIdle();
    const rss = t.replicaSets();
    expect(rss).toHaveLength(2);
    const second = rss.find((rs) => rs.metadata.name !== first!.metadata.name)!;
    expect(rss.find((rs) => rs.metadata.name === first!.metadata.name)!.spec.replicas).toBe(0);
    expect(second.spec.replicas).toBe(2);
    const live = t.pods().filter((p) => !p.metadata.deletionTimestamp);
    expect(live.every((p) => p.spec.containers[0]!.image === 'nginx:1.16.1')).toBe(true);
    expect(live).toHaveLength(2);
    expect(checked).toBeGreaterThan(50);
    expect(scalingMessages(t)).toEqual([
      `Scaled up replica set ${first!.metadata.name} to 2`,
      `Scaled down replica set ${first!.metadata.name} to 0 from 2`,
      `Scaled up replica set ${second.metadata.name} to 2`,
    ]);
  });

  it('a rollout that makes no progress for progressDeadlineSeconds (600) is ProgressDeadlineExceeded', () => {
    const t = setup('deploy-deadline');
    t.request('POST', deploymentsPath, nginx());
    const [rs] = t.replicaSets();
    t.cluster.engine.runFor(590_000);
    expect(t.deployments()[0]!.status!.conditions!.find((c) => c.type === 'Progressing')!.reason).toBe('ReplicaSetUpdated');
    t.cluster.engine.runFor(20_000);
    t.cluster.engine.runUntilIdle();
    expect(t.deployments()[0]!.status!.conditions!.find((c) => c.type === 'Progressing')).toMatchObject({
      status: 'False', reason: 'ProgressDeadlineExceeded', message: `ReplicaSet "${rs!.metadata.name}" has timed out progressing.`,
    });
  });

  it('deleting a managed pod brings a new one', () => {
    const t = setup('deploy-heal');
    t.request('POST', deploymentsPath, nginx(2));
    const [victim] = t.pods();
    t.request('DELETE', `/api/v1/namespaces/default/pods/${victim!.metadata.name}`, { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0 });
    t.cluster.engine.runUntilIdle();
    const pods: Pod[] = t.pods();
    expect(pods).toHaveLength(2);
    expect(pods.map((p) => p.metadata.name)).not.toContain(victim!.metadata.name);
  });

  it('is deterministic: same seed, same trace', () => {
    const [a, b] = runTwiceWithPerturbedHost(() => {
      const t = setup('deploy-determinism');
      t.request('POST', deploymentsPath, nginx(3));
      for (const p of t.pods()) t.markReady(p.metadata.name!);
      t.request('PATCH', `${deploymentsPath}/nginx-deployment`, { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.16.1' }] } } } }, 'application/strategic-merge-patch+json');
      t.cluster.engine.runFor(60_000);
      return t.cluster.engine;
    });
    expect(b).toEqual(a);
  });
});

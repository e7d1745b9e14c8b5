// The replicaset controller against the real kube-apiserver: seeds/004's my-replicaset (2 pods), scale
// up and down, self-healing, status, events, invariants after every step, determinism.

import { describe, expect, it } from 'vitest';
import type { Event, Pod } from '../../api/types/core.ts';
import type { ReplicaSet } from '../../api/types/apps.ts';
import { httpKinds, type HttpRequest } from '../../wire/http.ts';
import { runTwiceWithPerturbedHost } from '../../testing/determinism.ts';
import { controllerTestCluster, podsOwnedByExistingReplicaSets, stored } from '../testing.ts';

const myReplicaSet = (replicas = 2): ReplicaSet => ({
  apiVersion: 'apps/v1', kind: 'ReplicaSet',
  metadata: { namespace: 'default', name: 'my-replicaset' },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'my-app' } },
    template: {
      metadata: { labels: { app: 'my-app' } },
      spec: { containers: [{ name: 'my-container', image: 'nginx', ports: [{ containerPort: 80 }] }] },
    },
  },
});

function setup(seed: string) {
  const t = controllerTestCluster(seed, { controllers: ['replicaset'] });
  t.cluster.engine.addInvariant('pods owned by existing ReplicaSets', podsOwnedByExistingReplicaSets(t.cluster));
  t.cluster.engine.addInvariant('no more pods than desired (no surge for a bare ReplicaSet)', () => {
    const rs = stored<ReplicaSet>(t.cluster, 'replicasets').find((r) => r.metadata.name === 'my-replicaset');
    if (!rs) return undefined;
    const live = stored<Pod>(t.cluster, 'pods').filter((p) => !p.metadata.deletionTimestamp
      && p.metadata.ownerReferences?.[0]?.uid === rs.metadata.uid).length;
    // A scale-down lowers spec.replicas before the surplus pods go; a scale-up never overshoots.
    return live > Math.max(rs.spec.replicas ?? 1, rs.status?.replicas ?? 0) ? `${live} pods for ${rs.spec.replicas} replicas` : undefined;
  });
  return t;
}

const kcmWrites = (t: ReturnType<typeof setup>) => t.cluster.engine.trace.all()
  .filter((m) => m.from === 'kube-controller-manager' && m.kind === httpKinds.request)
  .map((m) => m.payload as HttpRequest)
  .filter((r) => r.method !== 'GET')
  .map((r) => `${r.method} ${r.path}`);

describe('replicaset controller', () => {
  it('creates my-replicaset\'s 2 pods from the template, with ownerReferences, events and status', () => {
    const t = setup('rs-create');
    const created = t.request('POST', '/apis/apps/v1/namespaces/default/replicasets', myReplicaSet());
    expect(created.status).toBe(201);
    const rs = created.body as ReplicaSet;
    const pods = t.pods();
    expect(pods).toHaveLength(2);
    for (const p of pods) {
      expect(p.metadata.name).toMatch(/^my-replicaset-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      expect(p.metadata.generateName).toBe('my-replicaset-');
      expect(p.metadata.labels).toEqual({ app: 'my-app' });
      expect(p.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'my-replicaset', uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true }]);
      expect(p.spec.containers[0]!.image).toBe('nginx');
    }
    // Slow start: a batch of 1, then a batch of 1 (min(2, remaining)); the status from the sync's
    // start (0 pods seen), then a second sync woken by the pods' ADDED events writes replicas 2.
    expect(kcmWrites(t)).toEqual([
      'POST /api/v1/namespaces/default/pods',
      'POST /api/v1/namespaces/default/events',
      'POST /api/v1/namespaces/default/pods',
      'PUT /apis/apps/v1/namespaces/default/replicasets/my-replicaset/status',
      'POST /api/v1/namespaces/default/events',
      'PUT /apis/apps/v1/namespaces/default/replicasets/my-replicaset/status',
    ]);

    const events = t.request('GET', '/api/v1/namespaces/default/events').body as { items: Event[] };
    const created2 = events.items.filter((e) => e.reason === 'SuccessfulCreate');
    expect(created2.map((e) => e.message).sort()).toEqual(pods.map((p) => `Created pod: ${p.metadata.name}`).sort());
    for (const e of created2) {
      expect(e.involvedObject).toMatchObject({ kind: 'ReplicaSet', name: 'my-replicaset', namespace: 'default', uid: rs.metadata.uid, apiVersion: 'apps/v1' });
      expect(e.source).toEqual({ component: 'replicaset-controller' });
      expect(e.type).toBe('Normal');
      expect(e.metadata.name).toMatch(/^my-replicaset\.[0-9a-f]+$/);
    }
    // Events are stored with a lease (--event-ttl).
    const eventKeys = t.cluster.etcd.kv.range({ key: '/registry/events/default/', rangeEnd: '/registry/events/default0' }).kvs;
    expect(eventKeys.length).toBeGreaterThanOrEqual(2);
    expect(eventKeys.every((kv) => Number(kv.lease) !== 0)).toBe(true);

    const [after] = t.replicaSets();
    expect(after!.status).toEqual({ replicas: 2, fullyLabeledReplicas: 2, observedGeneration: 1 });
  });

  it('seeds/004 steps 1-5 in causal order: POST → Txn → watch event → replicaset controller → 2 pod Txns', () => {
    const t = setup('rs-causal');
    t.request('POST', '/apis/apps/v1/namespaces/default/replicasets', myReplicaSet());
    const trace = t.cluster.engine.trace.all();
    const txnKey = (i: number) => /"requestPut":\{"key":"([^"]+)"/.exec(JSON.stringify(trace[i]!.payload))?.[1];
    const find = (from: number, pred: (i: number) => boolean) => {
      for (let i = from; i < trace.length; i++) if (pred(i)) return i;
      throw new Error('step not found');
    };
    const post = find(0, (i) => trace[i]!.from === 'user' && trace[i]!.kind === httpKinds.request);
    const rsTxn = find(post, (i) => trace[i]!.kind === 'etcd.Txn' && txnKey(i) === '/registry/replicasets/default/my-replicaset');
    const watch = find(rsTxn, (i) => trace[i]!.kind === httpKinds.watchEvent && trace[i]!.to === 'kube-controller-manager');
    const podPost = find(watch, (i) => trace[i]!.from === 'kube-controller-manager' && (trace[i]!.payload as HttpRequest).path === '/api/v1/namespaces/default/pods');
    const podTxns = trace.map((m, i) => (m.kind === 'etcd.Txn' && txnKey(i)?.startsWith('/registry/pods/default/my-replicaset-') ? i : -1)).filter((i) => i >= 0);
    expect(podTxns).toHaveLength(2);
    expect(podTxns[0]).toBeGreaterThan(podPost);
    // The watch event that woke the controller was caused by the ReplicaSet's Txn (through the watch cache).
    let cause: number | null = trace[watch]!.cause;
    const ids = new Set<number>();
    while (cause !== null) {
      ids.add(cause);
      cause = trace.find((m) => m.id === cause)?.cause ?? null;
    }
    expect(ids.has(trace[rsTxn]!.id)).toBe(true);
  });

  it('the first pod is created in one batch, the second in the next (slow start 1, 2, 4…)', () => {
    const t = setup('rs-slow-start');
    t.request('POST', '/apis/apps/v1/namespaces/default/replicasets', myReplicaSet(7));
    expect(t.pods()).toHaveLength(7);
    const joins = t.cluster.engine.trace.all().filter((m) => m.kind === 'kcm.join').map((m) => (m.payload as { tasks: number }).tasks);
    // Batches of 1 (no join needed), 2 and 4.
    expect(joins).toEqual([2, 4]);
  });

  it('scales up to 3 with one more pod, down to 1 by deleting the two newest unready pods', () => {
    const t = setup('rs-scale');
    t.request('POST', '/apis/apps/v1/namespaces/default/replicasets', myReplicaSet());
    const first = t.pods().map((p) => p.metadata.name!);
    t.cluster.engine.runFor(2000);
    t.markReady(first[0]!);
    const scaled = t.request('PATCH', '/apis/apps/v1/namespaces/default/replicasets/my-replicaset/scale', { spec: { replicas: 3 } }, 'application/merge-patch+json');
    expect(scaled.status).toBe(200);
    const three = t.pods();
    expect(three).toHaveLength(3);
    expect(three.filter((p) => first.includes(p.metadata.name!))).toHaveLength(2);
    expect(t.replicaSets()[0]!.status).toMatchObject({ replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 1, availableReplicas: 1, observedGeneration: 2 });

    t.request('PATCH', '/apis/apps/v1/namespaces/default/replicasets/my-replicaset/scale', { spec: { replicas: 1 } }, 'application/merge-patch+json');
    t.cluster.engine.runFor(60_000);
    t.cluster.engine.runUntilIdle();
    const left = t.pods().filter((p) => !p.metadata.deletionTimestamp);
    // The ready pod is kept: not-ready pods go first.
    expect(left.map((p) => p.metadata.name)).toEqual([first[0]]);
    const events = (t.request('GET', '/api/v1/namespaces/default/events').body as { items: Event[] }).items;
    expect(events.filter((e) => e.reason === 'SuccessfulDelete').map((e) => e.message).sort())
      .toEqual(three.filter((p) => p.metadata.name !== first[0]).map((p) => `Deleted pod: ${p.metadata.name}`).sort());
  });

  it('heals: a deleted pod is replaced', () => {
    const t = setup('rs-heal');
    t.request('POST', '/apis/apps/v1/namespaces/default/replicasets', myReplicaSet());
    const [victim] = t.pods();
    const deleted = t.request('DELETE', `/api/v1/namespaces/default/pods/${victim!.metadata.name}`, { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0 });
    expect(deleted.status).toBe(200);
    t.cluster.engine.runUntilIdle();
    const pods = t.pods();
    expect(pods).toHaveLength(2);
    expect(pods.map((p) => p.metadata.name)).not.toContain(victim!.metadata.name);
    expect(t.replicaSets()[0]!.status?.replicas).toBe(2);
  });

  it('adopts a matching orphan pod (uncached GET of the ReplicaSet, then a strategic merge PATCH) and creates only the rest', () => {
    const t = setup('rs-adopt');
    const bare = t.request('POST', '/api/v1/namespaces/default/pods', {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'stray', labels: { app: 'my-app' } },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    });
    expect(bare.status).toBe(201);
    const rs = t.request('POST', '/apis/apps/v1/namespaces/default/replicasets', myReplicaSet()).body as ReplicaSet;
    const pods = t.pods();
    expect(pods).toHaveLength(2);
    const stray = pods.find((p) => p.metadata.name === 'stray')!;
    expect(stray.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'my-replicaset', uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    const requests = t.cluster.engine.trace.all()
      .filter((m) => m.from === 'kube-controller-manager' && m.kind === httpKinds.request)
      .map((m) => m.payload as HttpRequest)
      .filter((r) => !r.query.includes('watch=true') && !r.query.includes('limit=500'))
      .map((r) => `${r.method} ${r.path}`);
    expect(requests.slice(0, 3)).toEqual([
      'GET /apis/apps/v1/namespaces/default/replicasets/my-replicaset',
      'PATCH /api/v1/namespaces/default/pods/stray',
      'POST /api/v1/namespaces/default/pods',
    ]);
  });

  it('releases a pod whose labels no longer match and replaces it', () => {
    const t = setup('rs-release');
    t.request('POST', '/apis/apps/v1/namespaces/default/replicasets', myReplicaSet());
    const [p] = t.pods();
    const relabeled = t.request('PATCH', `/api/v1/namespaces/default/pods/${p!.metadata.name}`, { metadata: { labels: { app: 'other' } } }, 'application/merge-patch+json');
    expect(relabeled.status).toBe(200);
    t.cluster.engine.runUntilIdle();
    const pods = t.pods();
    expect(pods).toHaveLength(3);
    expect(pods.find((x) => x.metadata.name === p!.metadata.name)!.metadata.ownerReferences).toBeUndefined();
    expect(pods.filter((x) => x.metadata.ownerReferences?.length)).toHaveLength(2);
  });

  it('adopts the namespace\'s orphans in key order, never touches pods another ReplicaSet controls, and counts only its own', () => {
    const t = setup('rs-owners');
    const bare = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'my-app' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    t.request('POST', '/api/v1/namespaces/default/pods', bare('z-orphan'));
    t.request('POST', '/api/v1/namespaces/default/pods', bare('a-orphan'));
    const a = t.request('POST', '/apis/apps/v1/namespaces/default/replicasets', myReplicaSet(3)).body as ReplicaSet;
    const b = t.request('POST', '/apis/apps/v1/namespaces/default/replicasets', { ...myReplicaSet(2), metadata: { namespace: 'default', name: 'other-replicaset' } }).body as ReplicaSet;
    t.cluster.engine.runUntilIdle();
    const owner = (p: Pod) => p.metadata.ownerReferences?.[0]?.uid;
    const pods = t.pods();
    // my-replicaset adopted both orphans (a-orphan first, the namespace list's order) and created one pod;
    // other-replicaset found no orphan left and created its two.
    expect(pods.filter((p) => owner(p) === a.metadata.uid).map((p) => p.metadata.name).filter((n) => n!.endsWith('orphan'))).toEqual(['a-orphan', 'z-orphan']);
    expect(pods.filter((p) => owner(p) === a.metadata.uid)).toHaveLength(3);
    expect(pods.filter((p) => owner(p) === b.metadata.uid)).toHaveLength(2);
    const podPatches = kcmWrites(t).filter((w) => w.startsWith('PATCH /api/v1/namespaces/default/pods/'));
    expect(podPatches).toEqual(['PATCH /api/v1/namespaces/default/pods/a-orphan', 'PATCH /api/v1/namespaces/default/pods/z-orphan']);
    expect(t.replicaSets().map((rs) => [rs.metadata.name, rs.status?.replicas])).toEqual([['my-replicaset', 3], ['other-replicaset', 2]]);

    // Scaling my-replicaset down to 1 deletes two of its own pods, none of the other's.
    const before = new Set(kcmWrites(t));
    t.request('PATCH', '/apis/apps/v1/namespaces/default/replicasets/my-replicaset/scale', { spec: { replicas: 1 } }, 'application/merge-patch+json');
    t.cluster.engine.runUntilIdle();
    const deleted = kcmWrites(t).filter((w) => w.startsWith('DELETE') && !before.has(w)).map((w) => w.split('/').pop());
    expect(deleted).toHaveLength(2);
    const others = new Set(pods.filter((p) => owner(p) === b.metadata.uid).map((p) => p.metadata.name));
    expect(deleted.filter((n) => others.has(n))).toEqual([]);
    expect(t.replicaSets().map((rs) => [rs.metadata.name, rs.status?.replicas])).toEqual([['my-replicaset', 1], ['other-replicaset', 2]]);
  });

  it('is deterministic: same seed, same trace', () => {
    const [a, b] = runTwiceWithPerturbedHost(() => {
      const t = setup('rs-determinism');
      t.request('POST', '/apis/apps/v1/namespaces/default/replicasets', myReplicaSet(3));
      const [p] = t.pods();
      t.request('DELETE', `/api/v1/namespaces/default/pods/${p!.metadata.name}`);
      t.cluster.engine.runFor(60_000);
      return t.cluster.engine;
    });
    expect(b).toEqual(a);
  });
});

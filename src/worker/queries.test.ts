import { describe, expect, it } from 'vitest';
import { createCluster } from '../sim/cluster.ts';
import { httpKinds } from '../sim/wire/http.ts';
import { builtinTokens } from '../sim/wire/credentials.ts';
import { causeChain, inspect } from './queries.ts';

const nginx = {
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nginx-deployment', labels: { app: 'nginx' } },
  spec: { replicas: 2, selector: { matchLabels: { app: 'nginx' } }, template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.14.2' }] } } },
};

/** A booted 2-node cluster after `kubectl create` of a 2-replica nginx Deployment, run until idle. */
function nginxCluster(tracePayloadLimit?: number) {
  const cluster = createCluster({ seed: 'queries', nodes: 2, ...(tracePayloadLimit ? { tracePayloadLimit } : {}) });
  cluster.boot();
  cluster.user.request('kube-apiserver', httpKinds.request, {
    method: 'POST', path: '/apis/apps/v1/namespaces/default/deployments', query: '',
    headers: { authorization: `Bearer ${builtinTokens.admin}`, 'content-type': 'application/json' },
    body: JSON.stringify(nginx),
  });
  cluster.engine.runUntilIdle();
  return cluster;
}

describe('inspection queries', () => {
  const cluster = nginxCluster();

  it('prints objects as kubectl does, resourceVersion equal to the key\'s mod_revision, owners as keys', () => {
    const { objects } = inspect(cluster, ['objects']);
    expect(objects?.listResourceVersion).toBe(String(cluster.etcd.store.currentRev));
    const table = (resource: string) => objects!.tables.find((t) => t.resource === resource)!;
    /** The rows of `resource`, a window from the first. */
    const rowsOf = (resource: string) => inspect(cluster, ['objects'], undefined, { objects: { resource } }).objects!.rows;
    expect(objects!.tables.map((t) => t.resource)).toEqual(['pods', 'replicasets', 'deployments', 'nodes', 'events']);
    expect(table('pods')).toMatchObject({ kind: 'Pod', prefix: '/registry/pods/', namespaced: true, count: 2 });
    expect(table('nodes')).toMatchObject({ prefix: '/registry/minions/', namespaced: false, count: 2 });
    expect(table('pods').columns).toEqual(['Name', 'Ready', 'Status', 'Restarts', 'Age', 'Node']);
    // Without a resource asked for, the pods' rows come.
    expect(objects).toMatchObject({ resource: 'pods', offset: 0, selected: null });
    const pods = objects!.rows;
    expect(pods).toHaveLength(2);
    for (const pod of pods) {
      const kv = cluster.etcd.kv.range({ key: pod.key }).kvs[0]!;
      expect(pod.resourceVersion).toBe(String(kv.modRevision));
      expect(pod.modRevision).toBe(kv.modRevision);
      expect(pod.cells[2]).toBe('Running');
      // AGE is measured on the cluster's clock (virtual time after its epoch), as creationTimestamp is.
      expect(pod.cells[4]).toMatch(/^\d+s$/);
      expect(pod.cells[5]).toMatch(/^node-[12]$/);
      expect(pod.conditions.map((c) => `${c.type}=${c.status}`)).toContain('Ready=True');
    }
    const rs = rowsOf('replicasets')[0]!;
    expect(pods[0]!.ownerReferences).toEqual([{ kind: 'ReplicaSet', name: rs.name, controller: true, key: rs.key }]);
    const deployment = rowsOf('deployments')[0]!;
    expect(rs.ownerReferences[0]?.key).toBe('/registry/deployments/default/nginx-deployment');
    expect(deployment).toMatchObject({ key: '/registry/deployments/default/nginx-deployment', generation: 1, observedGeneration: 1 });
    expect(deployment.cells.slice(0, 4)).toEqual(['nginx-deployment', '2/2', '2', '2']);
    expect(rowsOf('nodes').map((r) => r.key)).toEqual(['/registry/minions/node-1', '/registry/minions/node-2']);
    expect(rowsOf('events').some((r) => r.cells.includes('Scheduled'))).toBe(true);
    expect(rowsOf('events')).toHaveLength(table('events').count);
  });

  it('sends a window of rows in key order, and the selected key\'s row and place wherever it is', () => {
    const events = cluster.etcd.kv.range({ key: '/registry/events/', rangeEnd: '/registry/events0' }).kvs.map((kv) => kv.key);
    expect(events.length).toBeGreaterThan(4);
    const window = inspect(cluster, ['objects'], undefined, { objects: { resource: 'events', offset: 2, limit: 3 } }).objects!;
    expect(window).toMatchObject({ resource: 'events', offset: 2 });
    expect(window.rows.map((r) => r.key)).toEqual(events.slice(2, 5));
    // Past the end: clamped, no rows; a limit past the bound is the bound.
    expect(inspect(cluster, ['objects'], undefined, { objects: { resource: 'events', offset: 1e9 } }).objects).toMatchObject({ offset: events.length, rows: [] });
    // The selected key comes with its place in its own resource's list, whatever resource is shown.
    const last = events.at(-1)!;
    const selected = inspect(cluster, ['objects'], undefined, { objects: { resource: 'pods', key: last } }).objects!;
    expect(selected.resource).toBe('pods');
    expect(selected.selected).toMatchObject({ resource: 'events', index: events.length - 1, row: { key: last } });
    // A key no shown resource holds, or not stored: none.
    expect(inspect(cluster, ['objects'], undefined, { objects: { key: '/registry/namespaces/default' } }).objects!.selected).toBeNull();
    expect(inspect(cluster, ['objects'], undefined, { objects: { key: '/registry/pods/default/nope' } }).objects!.selected).toBeNull();
  });

  it('reports the scheduling attempts, and the one asked for with every node\'s filter verdicts and scores', () => {
    const { scheduler } = inspect(cluster, ['scheduler']);
    expect(scheduler).toMatchObject({ made: 2, dropped: 0, pod: '', matching: 2 });
    // Newest first, numbered among every attempt made.
    expect(scheduler!.attempts.map((a) => a.seq)).toEqual([2, 1]);
    expect(scheduler!.attempts.every((a) => a.bound && a.selected !== null)).toBe(true);
    // Without a choice the newest is detailed; asked for, the first.
    expect(scheduler!.detail?.seq).toBe(2);
    const first = inspect(cluster, ['scheduler'], undefined, { scheduler: { seq: 1 } }).scheduler!.detail!;
    expect(first).toMatchObject({ seq: 1, pod: scheduler!.attempts[1]!.pod });
    for (const attempt of [scheduler!.detail!, first]) {
      expect(attempt.bound).toBe(true);
      expect(attempt.nodes.map((n) => n.node).sort()).toEqual(['node-1', 'node-2']);
      const chosen = attempt.nodes.find((n) => n.node === attempt.selected)!;
      expect(chosen.feasible).toBe(true);
      expect(chosen.filters.every((f) => f.pass)).toBe(true);
      expect(chosen.finalScore).toBe(Math.max(...attempt.nodes.map((n) => n.finalScore ?? -1)));
    }
    // A filter on the pod's name lists only its attempts.
    const name = first.pod.split('/')[1]!;
    const filtered = inspect(cluster, ['scheduler'], undefined, { scheduler: { pod: name.slice(-5) } }).scheduler!;
    expect(filtered).toMatchObject({ matching: 1, attempts: [{ seq: 1 }], detail: { seq: 1 } });
    // Before the first attempt was made: none.
    const before = inspect(cluster, ['scheduler'], { step: 1, now: first.time - 1, revision: 1 }).scheduler!;
    expect(before).toMatchObject({ made: 0, matching: 0, attempts: [], detail: null });
  });

  it('walks a pod\'s Running status update back to the user\'s create', () => {
    const records = cluster.engine.trace.all();
    const running = [...records].reverse().find((m) => m.kind === httpKinds.request && m.from.startsWith('kubelet/')
      && /phase\\?":\\?"Running/.test(JSON.stringify((m.payload as { body?: unknown }).body ?? '')))!;
    expect(running).toBeDefined();
    const { chain, truncated } = causeChain(cluster.engine, running.id);
    expect(truncated).toBe(false);
    expect(chain[0]?.id).toBe(running.id);
    for (let i = 1; i < chain.length; i++) expect(chain[i]!.id).toBe(chain[i - 1]!.cause);
    const root = chain.at(-1)!;
    expect(root).toMatchObject({ from: 'user', to: 'kube-apiserver', kind: httpKinds.request, cause: null });
    expect((root.payload as { path: string }).path).toBe('/apis/apps/v1/namespaces/default/deployments');
    expect(chain.every((r, i) => i === 0 || r.step < chain[i - 1]!.step)).toBe(true);
  });

  it('refuses a message the trace never delivered', () => {
    expect(() => causeChain(cluster.engine, 1e9)).toThrow(/no delivered message/);
  });
});

describe('inspection at a past position', () => {
  it('reads the objects at that revision and keeps the attempts made by then', () => {
    const cluster = nginxCluster();
    const deploymentRevision = cluster.etcd.kv.range({ key: '/registry/deployments/default/nginx-deployment' }).kvs[0]!.createRevision;
    const past = inspect(cluster, ['objects', 'scheduler'], { step: 1, now: 0, revision: deploymentRevision });
    expect(past.objects?.listResourceVersion).toBe(String(deploymentRevision));
    const rows = (resource: string) => inspect(cluster, ['objects'], { step: 1, now: 0, revision: deploymentRevision }, { objects: { resource } }).objects!.rows;
    expect(rows('deployments').map((r) => r.resourceVersion)).toEqual([String(deploymentRevision)]);
    expect(rows('pods')).toEqual([]);
    expect(past.scheduler).toMatchObject({ made: 0, attempts: [], detail: null });
  });
});

describe('watchers', () => {
  it('lists the watches open at kube-apiserver (who, what, from which version) and etcd\'s watchers', () => {
    const cluster = nginxCluster();
    const { watchers } = inspect(cluster, ['watchers']);
    const api = watchers!.apiserver;
    const kubelet = api.find((w) => w.who === 'kubelet/node-1' && w.path === '/api/v1/pods');
    expect(kubelet?.fieldSelector).toBe('spec.nodeName=node-1');
    expect(Number(kubelet?.resourceVersion)).toBeGreaterThan(0);
    expect(api.some((w) => w.who === 'kube-controller-manager' && w.path === '/apis/apps/v1/deployments')).toBe(true);
    const scheduler = api.find((w) => w.who === 'kube-scheduler' && w.path === '/api/v1/pods')!;
    expect(scheduler.events).toBeGreaterThan(0);
    expect(Number(scheduler.lastResourceVersion)).toBeGreaterThanOrEqual(Number(scheduler.resourceVersion));
    const etcd = watchers!.etcd;
    expect(etcd.length).toBeGreaterThan(0);
    expect(etcd.some((w) => w.key === '/registry/pods/' && w.synced)).toBe(true);
    for (const w of etcd) expect(w.nextRevision).toBeLessThanOrEqual(cluster.etcd.store.currentRev + 1);
  });

  it('lists the same watches when the trace keeps only summaries of the steps that opened them', () => {
    const whole = inspect(nginxCluster(), ['watchers']).watchers!;
    const bounded = nginxCluster(100);
    expect(bounded.engine.trace.payloadsFrom).toBeGreaterThan(1_000);
    expect(inspect(bounded, ['watchers']).watchers!.apiserver).toEqual(whole.apiserver);
  });

  it('shows kube-apiserver\'s watch cache per resource: its objects, its window and the oldest servable resourceVersion', () => {
    const cluster = nginxCluster();
    const { watchers } = inspect(cluster, ['watchers']);
    const caches = watchers!.caches;
    const pods = caches.find((c) => c.resourcePrefix === '/registry/pods')!;
    const podKeys = cluster.etcd.kv.range({ key: '/registry/pods/', rangeEnd: '/registry/pods0', keysOnly: true }).kvs;
    expect(pods.objects).toBe(podKeys.length);
    expect(pods.capacity).toBe(100);
    expect(pods.bufferedEvents).toBeGreaterThan(0);
    expect(pods.oldestServable).not.toBeNull();
    expect(pods.oldestServable!).toBeLessThanOrEqual(pods.resourceVersion);
    expect(pods.resourceVersion).toBeLessThanOrEqual(cluster.etcd.store.currentRev);
    // Events are served from etcd, not from a watch cache.
    expect(caches.some((c) => c.resourcePrefix === '/registry/events')).toBe(false);
    expect(caches.map((c) => c.resourcePrefix)).toEqual([...caches.map((c) => c.resourcePrefix)].sort());
  });
});

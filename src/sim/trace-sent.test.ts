// What the trace shows of a message is what was sent: no component changes a payload after sending it.
// A sender that kept the object it sent and updated it from the answer (the deployment controller set
// the resourceVersion of the answer on the Deployment it had PUT, whose metadata the body shared) made
// the inspector show that PUT carrying the answer's resourceVersion instead of the one it was sent with.

import { describe, expect, it } from 'vitest';
import { builtinTokens } from './wire/credentials.ts';
import { httpKinds } from './wire/http.ts';
import { createCluster } from './cluster.ts';
import type { Engine } from './engine/index.ts';
import type { Pod } from './api/types/core.ts';
import { decodeStored } from './apiserver/storage/codec.ts';

const admin = { authorization: `Bearer ${builtinTokens.admin}`, 'content-type': 'application/json', 'user-agent': 'kubectl/v1.32.4 (linux/amd64) kubernetes/4cb5f07' };
const deployment = (image: string, replicas: number) => JSON.stringify({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nginx-deployment', labels: { app: 'nginx' } },
  spec: { replicas, selector: { matchLabels: { app: 'nginx' } }, template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image }] } } },
});

/** Every message's payload as JSON text at the moment it was queued, by message id. */
function recordSends(engine: Engine): Map<number, string> {
  const sent = new Map<number, string>();
  const send = engine.send.bind(engine);
  const fill = engine.fill.bind(engine);
  engine.send = ((...args: Parameters<Engine['send']>) => {
    const message = send(...args);
    sent.set(message.id, JSON.stringify(message.payload) ?? 'undefined');
    return message;
  }) as Engine['send'];
  engine.fill = ((...args: Parameters<Engine['fill']>) => {
    const message = fill(...args);
    sent.set(message.id, JSON.stringify(message.payload) ?? 'undefined');
    return message;
  }) as Engine['fill'];
  return sent;
}

/** How many of the trace's messages were compared with their sent payloads, and those that differ (up to 40). */
function compareWithTrace(engine: Engine, sent: ReadonlyMap<number, string>): { compared: number; changed: string[] } {
  const { trace } = engine;
  const changed: string[] = [];
  let compared = 0;
  for (let step = trace.firstStep; step <= trace.lastStep; step++) {
    const message = trace.at(step)!;
    const before = sent.get(message.id);
    if (before === undefined) continue;
    compared++;
    const now = JSON.stringify(trace.payloadAt(step)!.payload) ?? 'undefined';
    const { method, path } = message.payload as { method?: string; path?: string };
    if (now !== before && changed.length < 40) changed.push(`${message.from} → ${message.to} ${message.kind} ${method ?? ''} ${path ?? ''}`);
  }
  return { compared, changed };
}

describe('the trace holds each payload as it was sent', () => {
  it('through a Deployment created, exposed, rolled to a new image, scaled and deleted, and a bare Pod, every payload equals its sent one', () => {
    const cluster = createCluster({ seed: 'sent' });
    const sent = recordSends(cluster.engine);
    cluster.boot();
    const request = (method: 'POST' | 'PUT' | 'DELETE', path: string, body?: string, query = 'fieldManager=kubectl-client-side-apply') => {
      cluster.user.request('kube-apiserver', httpKinds.request, { method, path, query, headers: admin, ...(body !== undefined ? { body } : {}) });
      cluster.engine.runUntilIdle();
    };
    const deployments = '/apis/apps/v1/namespaces/default/deployments';
    request('POST', deployments, deployment('nginx:1.14.2', 2));
    request('POST', '/api/v1/namespaces/default/services', JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'nginx' }, spec: { selector: { app: 'nginx' }, ports: [{ port: 80 }] } }));
    request('PUT', `${deployments}/nginx-deployment`, deployment('nginx:1.16.1', 3));
    request('PUT', `${deployments}/nginx-deployment`, deployment('nginx:1.16.1', 1));
    request('POST', '/api/v1/namespaces/default/pods', JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bare', labels: { app: 'nginx' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } }));
    request('DELETE', '/api/v1/namespaces/default/pods/bare', undefined, '');
    request('DELETE', `${deployments}/nginx-deployment`, JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' }), '');

    const { compared, changed } = compareWithTrace(cluster.engine, sent);
    expect(compared).toBeGreaterThan(2_000);
    expect(changed).toEqual([]);
    // The run went where it was sent: the Deployment and its Pods are gone again, the Service's endpoints followed.
    const keys = cluster.etcd.kv.range({ key: '/registry/', rangeEnd: '/registry0', keysOnly: true }).kvs.map((kv) => kv.key);
    expect(keys.filter((k) => /\/(deployments|replicasets|pods)\/default\//.test(k))).toEqual([]);
    expect(keys).toContain('/registry/services/endpoints/default/nginx');
  });

  it('through server-side apply, a scale PATCH, crash loops, a node down and up, restarted components, broken watches and an orphaning delete, every payload equals its sent one', () => {
    const cluster = createCluster({ seed: 'sent-faults' });
    const sent = recordSends(cluster.engine);
    cluster.boot();
    const request = (method: 'PATCH' | 'DELETE', path: string, body: string, query: string, contentType = 'application/json') => {
      cluster.user.request('kube-apiserver', httpKinds.request, { method, path, query, headers: { ...admin, 'content-type': contentType }, body });
      cluster.engine.runUntilIdle();
    };
    const deployments = '/apis/apps/v1/namespaces/default/deployments';
    request('PATCH', `${deployments}/nginx-deployment`, deployment('nginx:1.14.2', 3), 'fieldManager=kubectl&force=true', 'application/apply-patch+yaml');
    request('PATCH', `${deployments}/nginx-deployment/scale`, JSON.stringify({ spec: { replicas: 4 } }), '', 'application/merge-patch+json');
    cluster.faults.crashImage('nginx:1.14.2', 5, 1);
    cluster.engine.runFor(60_000);
    const node = 'node-1';
    cluster.faults.nodeDown(node);
    cluster.engine.runFor(60_000);
    cluster.faults.nodeUp(node);
    cluster.faults.stop('kube-scheduler');
    cluster.faults.stop('kube-controller-manager');
    cluster.engine.runFor(20_000);
    cluster.faults.start('kube-scheduler');
    cluster.faults.start('kube-controller-manager');
    cluster.faults.compactNow();
    cluster.faults.breakEtcdWatches();
    cluster.faults.dropWatches();
    cluster.engine.runFor(60_000);
    request('DELETE', `${deployments}/nginx-deployment`, JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Orphan' }), '');
    cluster.engine.runFor(30_000);

    const { compared, changed } = compareWithTrace(cluster.engine, sent);
    expect(compared).toBeGreaterThan(2_000);
    expect(changed).toEqual([]);
    // The run went where it was sent: the Deployment is gone, its ReplicaSet orphaned (no owner), its Pods there.
    const keys = cluster.etcd.kv.range({ key: '/registry/', rangeEnd: '/registry0', keysOnly: true }).kvs.map((kv) => kv.key);
    expect(keys.filter((k) => k.startsWith('/registry/deployments/default/'))).toEqual([]);
    expect(keys.filter((k) => k.startsWith('/registry/replicasets/default/'))).toHaveLength(1);
    expect(keys.filter((k) => k.startsWith('/registry/pods/default/')).length).toBeGreaterThanOrEqual(4);
    const pods = cluster.etcd.kv.range({ key: '/registry/pods/default/', rangeEnd: '/registry/pods/default0' }).kvs.map((kv) => decodeStored(kv.value) as Pod);
    expect(pods.some((p) => (p.status?.containerStatuses?.[0]?.restartCount ?? 0) > 0)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import type { Pod } from '../api/types/core.ts';
import type { KubeObject, List } from '../api/types/meta.ts';
import type { Cluster } from '../cluster.ts';
import type { Message } from '../engine/index.ts';
import { builtinTokens } from '../wire/credentials.ts';
import { httpKinds, type HttpRequest, type HttpResponse } from '../wire/http.ts';
import { bootedCluster, call, causedBy } from './testing.ts';

describe('kube-apiserver: watch', () => {
  function watchFrom(cluster: Cluster, path: string, query: string, headers: Record<string, string> = {}): Message<HttpRequest> {
    return cluster.user.request('kube-apiserver', httpKinds.request, {
      method: 'GET', path, query, headers: { authorization: `Bearer ${builtinTokens.admin}`, accept: 'application/json', ...headers },
    });
  }

  function streamOf(cluster: Cluster, watch: Message) {
    const messages = cluster.user.received().filter((r) => r.requestId === watch.id).map((r) => r.message);
    return {
      opened: messages.find((m) => m.kind === httpKinds.response)?.payload as HttpResponse | undefined,
      events: messages.filter((m) => m.kind === httpKinds.watchEvent).map((m) => m.payload as { type: string; object: KubeObject & { status?: unknown } }),
      ended: messages.find((m) => m.kind === httpKinds.watchEnd)?.payload as { reason: string } | undefined,
    };
  }

  it('streams ADDED, MODIFIED and DELETED after the list resourceVersion, each caused by its etcd write', () => {
    const cluster = bootedCluster();
    const list = call(cluster, 'GET', '/api/v1/namespaces/default/pods').response.body as List;
    const watch = watchFrom(cluster, '/api/v1/namespaces/default/pods', `resourceVersion=${list.metadata.resourceVersion}&watch=true`);
    cluster.engine.runUntilIdle();
    expect(streamOf(cluster, watch).opened).toMatchObject({ status: 200, stream: true });
    const created = call(cluster, 'POST', '/api/v1/namespaces/default/pods', { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } });
    const createdPod = created.response.body as Pod;
    call(cluster, 'PATCH', '/api/v1/namespaces/default/pods/web', { headers: { 'content-type': 'application/merge-patch+json' }, body: { metadata: { labels: { tier: 'front' } } } });
    call(cluster, 'DELETE', '/api/v1/namespaces/default/pods/web');
    const { events, ended } = streamOf(cluster, watch);
    // Pods delete gracefully even with a zero grace period (CheckGracefulDelete): the registry first
    // writes deletionTimestamp and deletionGracePeriodSeconds 0 (MODIFIED), then removes the pod.
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'MODIFIED', 'DELETED']);
    expect(events[2]!.object.metadata).toMatchObject({ deletionGracePeriodSeconds: 0 });
    expect(events[0]!.object).toMatchObject({ kind: 'Pod', apiVersion: 'v1', metadata: { name: 'web', resourceVersion: createdPod.metadata.resourceVersion } });
    expect(ended).toBeUndefined();
    const addedMessage = cluster.engine.trace.all().find((m) => m.kind === httpKinds.watchEvent && m.replyTo === watch.id)!;
    expect(causedBy(cluster, created.request)).toContain(addedMessage);
  });

  it('starts with synthetic ADDED events for RV 0, and filters by label selector', () => {
    const cluster = bootedCluster();
    for (const [name, app] of [['a', 'nginx'], ['b', 'other'], ['c', 'nginx']] as const) {
      call(cluster, 'POST', '/api/v1/namespaces/default/pods', { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app } }, spec: { containers: [{ name: 'x', image: 'nginx' }] } } });
    }
    const watch = watchFrom(cluster, '/api/v1/namespaces/default/pods', 'labelSelector=app%3Dnginx&resourceVersion=0&watch=true');
    cluster.engine.runUntilIdle();
    expect(streamOf(cluster, watch).events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED a', 'ADDED c']);
  });

  it('answers a watch of uncached events from a compacted resourceVersion with one ERROR 410 Expired, then ends it', () => {
    const cluster = bootedCluster();
    const event = (name: string) => ({
      apiVersion: 'v1', kind: 'Event', metadata: { name },
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'web' }, reason: 'Test', message: 'hello', type: 'Normal', source: { component: 'test' },
    });
    for (let i = 0; i < 3; i++) expect(call(cluster, 'POST', '/api/v1/namespaces/default/events', { body: event(`e${i}`) }).response.status).toBe(201);
    cluster.engine.runFor(11 * 60_000);
    const watch = watchFrom(cluster, '/api/v1/namespaces/default/events', 'resourceVersion=2&watch=true');
    cluster.engine.runUntilIdle();
    const { events, ended } = streamOf(cluster, watch);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'The resourceVersion for the provided watch is too old.' } });
    expect(ended).toEqual({ reason: 'error' });
  });

  it('stops sending after the client cancels, and times out a watch by itself as background work', () => {
    const cluster = bootedCluster();
    const watch = watchFrom(cluster, '/api/v1/namespaces/default/pods', 'resourceVersion=0&watch=true&timeoutSeconds=30');
    cluster.engine.runUntilIdle();
    expect(cluster.engine.idle).toBe(true);
    cluster.engine.runFor(31_000);
    expect(streamOf(cluster, watch).ended).toEqual({ reason: 'timeout' });

    const second = watchFrom(cluster, '/api/v1/namespaces/default/pods', 'resourceVersion=0&watch=true');
    cluster.engine.runUntilIdle();
    cluster.user.request('kube-apiserver', httpKinds.cancel, { requestId: second.id });
    cluster.engine.runUntilIdle();
    call(cluster, 'POST', '/api/v1/namespaces/default/pods', { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'late' }, spec: { containers: [{ name: 'x', image: 'nginx' }] } } });
    expect(streamOf(cluster, second).events).toHaveLength(0);
  });

  it('sends one-row Tables to kubectl get -w: the first with the column definitions, the rest without', () => {
    const cluster = bootedCluster();
    const watch = watchFrom(cluster, '/api/v1/namespaces/default/pods', 'resourceVersion=0&watch=true', { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' });
    cluster.engine.runUntilIdle();
    call(cluster, 'POST', '/api/v1/namespaces/default/pods', { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { containers: [{ name: 'x', image: 'nginx' }] } } });
    call(cluster, 'POST', '/api/v1/namespaces/default/pods', { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'db' }, spec: { containers: [{ name: 'x', image: 'nginx' }] } } });
    const { opened, events } = streamOf(cluster, watch);
    // The stream's Content-Type is the serializer's (watch.go), not the Table's media type.
    expect(opened?.headers['content-type']).toBe('application/json');
    const first = events[0]!.object as unknown as { columnDefinitions: Array<{ name: string; priority: number }> | null };
    expect(first).toMatchObject({ kind: 'Table', rows: [{ cells: ['web', '0/1', 'Pending', '0', '0s', '<none>', '<none>', '<none>', '<none>'] }] });
    expect(first.columnDefinitions?.map((c) => c.name)).toEqual(['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP', 'Node', 'Nominated Node', 'Readiness Gates']);
    const later = events.slice(1);
    expect(later.length).toBeGreaterThan(0);
    for (const e of later) expect(e.object).toMatchObject({ kind: 'Table', columnDefinitions: null });
  });
});

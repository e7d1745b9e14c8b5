// The informer stack against the real kube-apiserver (watch cache included): a component's pod
// informer follows what the user does. The apiserver serves watches; the first test fails (the suite
// never skips) when a watch is not answered with a stream.

import { describe, expect, it } from 'vitest';
import type { Event, Pod } from '../api/types/core.ts';
import { builtinTokens } from '../wire/credentials.ts';
import { httpKinds, type HttpRequest, type HttpResponse } from '../wire/http.ts';
import type { Cluster } from '../cluster.ts';
import { apiserverName, defaultUserAgent } from './rest-client.ts';
import type { Co } from '../engine/index.ts';
import { EventBroadcaster } from './event-recorder.ts';
import { DeletedFinalStateUnknown } from './shared-informer.ts';
import { metaNamespaceKey, splitMetaNamespaceKey } from './store.ts';
import { RateLimitingQueue, runWorkers } from './workqueue.ts';
import { SharedInformerFactory } from './shared-informer-factory.ts';
import { runTwiceWithPerturbedHost } from '../testing/determinism.ts';
import { clientTestCluster } from './testing.ts';

const pod = (name: string, labels: Record<string, string> = { app: 'web' }): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels },
  spec: { containers: [{ name: 'c', image: 'nginx:1.14.2' }] },
});

function userRequest(cluster: Cluster, method: HttpRequest['method'], path: string, body?: object, contentType = 'application/json'): HttpResponse {
  const request = cluster.user.request(apiserverName, httpKinds.request, {
    method, path, query: '',
    headers: { authorization: `Bearer ${builtinTokens.admin}`, accept: 'application/json', ...(body ? { 'content-type': contentType } : {}) },
    ...(body ? { body } : {}),
  });
  cluster.engine.runUntilIdle();
  const reply = cluster.user.received().find((r) => r.requestId === request.id);
  if (!reply) throw new Error(`no response to ${method} ${path}`);
  return reply.message.payload as HttpResponse;
}

/** Whether kube-apiserver answers a watch with a stream (checked by sending one). */
function detectWatchServed(): boolean {
  const { cluster } = clientTestCluster('watch-probe');
  const request = cluster.user.request(apiserverName, httpKinds.request, {
    method: 'GET', path: '/api/v1/namespaces/default/pods', query: 'watch=true&timeoutSeconds=1',
    headers: { authorization: `Bearer ${builtinTokens.admin}`, accept: 'application/json' },
  });
  cluster.engine.runFor(500);
  const reply = cluster.user.received().find((r) => r.requestId === request.id);
  return (reply?.message.payload as HttpResponse | undefined)?.stream === true;
}

describe('pod informer against kube-apiserver', () => {
  it('kube-apiserver answers a watch with a stream (everything below needs it)', () => {
    expect(detectWatchServed()).toBe(true);
  });

  function setup(seed = 'informer-e2e') {
    const t = clientTestCluster(seed);
    const factory = new SharedInformerFactory(t.component.host, t.client);
    const pods = factory.informerFor<Pod>('pods');
    const seen: string[] = [];
    pods.addEventHandler({
      onAdd: (p, initial) => seen.push(`ADDED ${p.metadata.name}${initial ? ' (initial list)' : ''}`),
      onUpdate: (o, n) => seen.push(`MODIFIED ${n.metadata.name} ${o.metadata.resourceVersion}→${n.metadata.resourceVersion}`),
      onDelete: (p) => seen.push(`DELETED ${p instanceof DeletedFinalStateUnknown ? p.key : p.metadata.name}`),
    });
    return { ...t, factory, pods, seen };
  }

  it('lists with RV 0, watches from the list RV, and sees the user\'s create, update and delete', () => {
    const { cluster, factory, pods, seen } = setup();
    userRequest(cluster, 'POST', '/api/v1/namespaces/default/pods', pod('before'));
    let synced = false;
    factory.start();
    factory.onSynced(() => { synced = true; });
    cluster.engine.runUntilIdle();
    expect(synced).toBe(true);
    expect(seen).toEqual(['ADDED before (initial list)']);

    const requests = cluster.engine.trace.all()
      .filter((m) => m.from === 'kube-controller-manager' && m.kind === httpKinds.request)
      .map((m) => m.payload as HttpRequest);
    expect(requests.map((r) => `${r.path}?${r.query}`)).toEqual([
      '/api/v1/pods?limit=500&resourceVersion=0',
      expect.stringMatching(new RegExp(`^/api/v1/pods\\?allowWatchBookmarks=true&resourceVersion=${pods.reflector.lastSyncRV}&timeoutSeconds=\\d{3}&watch=true$`)),
    ]);
    expect(requests[0]!.headers['user-agent']).toBe(defaultUserAgent('kube-controller-manager'));

    const created = userRequest(cluster, 'POST', '/api/v1/namespaces/default/pods', pod('web-1')).body as Pod;
    const patched = userRequest(cluster, 'PATCH', '/api/v1/namespaces/default/pods/web-1', { metadata: { labels: { app: 'web', v: '2' } } }, 'application/merge-patch+json').body as Pod;
    userRequest(cluster, 'DELETE', '/api/v1/namespaces/default/pods/web-1', { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0 });
    cluster.engine.runUntilIdle();
    expect(seen.slice(1)).toEqual([
      'ADDED web-1',
      `MODIFIED web-1 ${created.metadata.resourceVersion}→${patched.metadata.resourceVersion}`,
      // A pod deletes gracefully even at grace period 0: deletionTimestamp and deletionGracePeriodSeconds 0 are written first.
      expect.stringMatching(new RegExp(`^MODIFIED web-1 ${patched.metadata.resourceVersion}→\\d+$`)),
      'DELETED web-1',
    ]);
    expect(pods.list('default').map((p) => p.metadata.name)).toEqual(['before']);
    expect(Number(pods.reflector.lastSyncRV)).toBeGreaterThan(Number(patched.metadata.resourceVersion));
  });

  it('re-watches from the last resourceVersion when the server ends the watch, without relisting', () => {
    const { cluster, factory, pods, seen } = setup('informer-rewatch');
    factory.start();
    cluster.engine.runUntilIdle();
    cluster.engine.runFor(11 * 60 * 1000);
    userRequest(cluster, 'POST', '/api/v1/namespaces/default/pods', pod('late'));
    cluster.engine.runUntilIdle();
    expect(seen).toEqual(['ADDED late']);
    expect(pods.reflector.listCount).toBe(1);
    const watches = cluster.engine.trace.all()
      .filter((m) => m.from === 'kube-controller-manager' && m.kind === httpKinds.request)
      .filter((m) => (m.payload as HttpRequest).query.includes('watch=true'));
    expect(watches.length).toBeGreaterThanOrEqual(2);
  });

  it('a label-selected informer from the same factory is a separate informer with its own watch', () => {
    const { cluster, factory, pods } = setup('informer-selector');
    const db = factory.informerFor<Pod>('pods', '', { labelSelector: 'app=db' });
    expect(db).not.toBe(pods);
    expect(factory.informerFor<Pod>('pods')).toBe(pods);
    factory.start();
    cluster.engine.runUntilIdle();
    userRequest(cluster, 'POST', '/api/v1/namespaces/default/pods', pod('w', { app: 'web' }));
    userRequest(cluster, 'POST', '/api/v1/namespaces/default/pods', pod('d', { app: 'db' }));
    cluster.engine.runUntilIdle();
    expect(db.list().map((p) => p.metadata.name)).toEqual(['d']);
    expect(pods.list().map((p) => p.metadata.name)).toEqual(['d', 'w']);
    expect(factory.hasSynced()).toBe(true);
  });

  it('a controller built from the pieces: informer → workqueue → worker → PATCH and an Event', () => {
    const { cluster, component, client, factory, pods } = setup('informer-controller');
    const queue = new RateLimitingQueue(component.host, 'pod-labeler');
    const recorder = new EventBroadcaster(component.host, client).newRecorder({ component: 'pod-labeler' });
    const podClient = client.resource<Pod>('pods');
    const enqueue = (p: Pod) => queue.add(metaNamespaceKey(p));
    pods.addEventHandler({ onAdd: enqueue, onUpdate: (_old, p) => enqueue(p) });
    function* sync(key: string): Co<void> {
      const [namespace, name] = splitMetaNamespaceKey(key);
      const cached = pods.get(namespace, name);
      if (!cached || cached.metadata.labels?.labeled === 'true') {
        queue.forget(key);
        return;
      }
      try {
        const updated = yield* podClient.patch(namespace, name, 'application/merge-patch+json', { metadata: { labels: { labeled: 'true' } } });
        recorder.event({ ...updated, apiVersion: 'v1', kind: 'Pod' }, 'Normal', 'Labeled', `Labeled pod ${name}`);
        queue.forget(key);
      } catch {
        queue.addRateLimited(key);
      }
    }
    factory.start();
    factory.onSynced(() => runWorkers(component.host, queue, 2, sync));
    cluster.engine.runUntilIdle();
    userRequest(cluster, 'POST', '/api/v1/namespaces/default/pods', pod('a'));
    userRequest(cluster, 'POST', '/api/v1/namespaces/default/pods', pod('b'));
    cluster.engine.runUntilIdle();

    expect(pods.list().map((p) => p.metadata.labels?.labeled)).toEqual(['true', 'true']);
    const writes = cluster.engine.trace.all()
      .filter((m) => m.from === 'kube-controller-manager' && m.kind === httpKinds.request)
      .map((m) => m.payload as HttpRequest)
      .filter((r) => r.method !== 'GET')
      .map((r) => `${r.method} ${r.path}`);
    expect(writes).toEqual([
      'PATCH /api/v1/namespaces/default/pods/a',
      'POST /api/v1/namespaces/default/events',
      'PATCH /api/v1/namespaces/default/pods/b',
      'POST /api/v1/namespaces/default/events',
    ]);
    expect(queue.length).toBe(0);
  });

  it('relists after a compaction makes its re-watch too old (events: the uncached etcd watch path)', () => {
    const { cluster, component, client } = clientTestCluster('informer-compaction', 'kube-controller-manager', builtinTokens.admin);
    const factory = new SharedInformerFactory(component.host, client);
    const events = factory.informerFor<Event>('events');
    factory.start();
    cluster.engine.runUntilIdle();
    for (let i = 0; i < 3; i++) userRequest(cluster, 'POST', '/api/v1/namespaces/default/pods', pod(`p${i}`));
    cluster.engine.runFor(30 * 60 * 1000, 200_000);
    const listRV = events.reflector.lastSyncRV;
    const log = cluster.engine.trace.all()
      .filter((m) => m.to === 'kube-controller-manager' && m.kind === httpKinds.watchEvent
        || m.from === 'kube-controller-manager' && m.kind === httpKinds.request)
      .map((m) => m.kind === httpKinds.request
        ? `GET ${(m.payload as HttpRequest).query.replace(/timeoutSeconds=\d+/, 'timeoutSeconds=T')}`
        : `${(m.payload as { type: string }).type} ${JSON.stringify((m.payload as { object: unknown }).object)}`);
    const error = log.findIndex((l) => l.startsWith('ERROR'));
    expect(error).toBeGreaterThan(0);
    expect(log[error]).toContain('"reason":"Expired","code":410');
    const lastRV = /resourceVersion=(\d+)/.exec(log[error - 1]!)![1];
    expect(log[error + 1]).toBe(`GET resourceVersion=${lastRV}`);
    expect(log[error + 2]).toMatch(/^GET allowWatchBookmarks=true&resourceVersion=\d+&timeoutSeconds=T&watch=true$/);
    expect(Number(listRV)).toBeGreaterThan(Number(lastRV));
    // Leases renewing move the revision on, so each later compaction can expire the events watch again.
    expect(events.reflector.listCount).toBeGreaterThanOrEqual(2);
  });

  it('is deterministic: same seed, same trace, whatever the host clock and Math.random say', () => {
    const [a, b] = runTwiceWithPerturbedHost(() => {
      const { cluster, factory } = setup('informer-determinism');
      factory.start();
      cluster.engine.runUntilIdle();
      userRequest(cluster, 'POST', '/api/v1/namespaces/default/pods', pod('a'));
      cluster.engine.runFor(20 * 60 * 1000, 100_000);
      return cluster.engine;
    });
    expect(b).toEqual(a);
  });

  it('an informer whose list is forbidden retries on background timers and leaves the engine idle', () => {
    // alice (the restricted user) has no bindings in a fresh cluster: her lists are forbidden.
    const { cluster, component, client } = clientTestCluster('informer-forbidden', 'kube-controller-manager', builtinTokens.restricted);
    const events = new SharedInformerFactory(component.host, client).informerFor<Event>('events');
    events.run();
    expect(cluster.engine.runUntilIdle().reason).toBe('idle');
    cluster.engine.runFor(60_000);
    expect(events.hasSynced()).toBe(false);
    expect(events.reflector.listCount).toBeGreaterThan(3);
    const retries = cluster.engine.trace.all().filter((m) => m.to === 'kube-controller-manager' && m.kind === 'timer');
    expect(retries.every((m) => m.background && (m.payload as { name: string }).name === 'reflector.backoff')).toBe(true);
  });
});

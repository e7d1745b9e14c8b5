import { describe, expect, it } from 'vitest';
import type { StatusError } from '../api/errors.ts';
import { isStatusError } from '../api/errors.ts';
import type { Deployment } from '../api/types/apps.ts';
import type { Pod } from '../api/types/core.ts';
import type { Status } from '../api/types/meta.ts';
import type { HttpRequest } from '../wire/http.ts';
import { defaultUserAgent, encodeListOptions, errorFromResponse } from './rest-client.ts';
import { clientTestCluster } from './testing.ts';
import { createCluster } from '../cluster.ts';
import type { HttpResponse } from '../wire/http.ts';

const pod = (name: string, labels: Record<string, string> = { app: 'web' }): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels },
  spec: { containers: [{ name: 'c', image: 'nginx:1.14.2' }] },
});

describe('encodeListOptions', () => {
  it.each([
    [{}, false, ''],
    [{ limit: 500, resourceVersion: '0' }, false, 'limit=500&resourceVersion=0'],
    [{ labelSelector: 'app=nginx,tier!=db' }, false, 'labelSelector=app%3Dnginx%2Ctier%21%3Ddb'],
    [{ fieldSelector: 'spec.nodeName=node-1' }, false, 'fieldSelector=spec.nodeName%3Dnode-1'],
    [{ resourceVersion: '42', allowWatchBookmarks: true, timeoutSeconds: 417 }, true,
      'allowWatchBookmarks=true&resourceVersion=42&timeoutSeconds=417&watch=true'],
  ] as const)('%j (watch %s) → %s', (options, watch, query) => {
    expect(encodeListOptions(options, watch)).toBe(query);
  });
});

describe('errorFromResponse', () => {
  it('keeps a Status body as it is', () => {
    const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'pods "x" not found', reason: 'NotFound', details: { name: 'x', kind: 'pods' }, code: 404 };
    const err = errorFromResponse({ status: 404, headers: {}, body: status });
    expect(err.status).toEqual(status);
  });

  it('turns a plain-text answer into a generic server error with the HTTP code', () => {
    const err = errorFromResponse({ status: 429, headers: {}, body: 'Too many requests, please try again later.\n' });
    expect(err.code).toBe(429);
    expect(err.reason).toBe('TooManyRequests');
  });
});

describe('RestClient against kube-apiserver', () => {
  it('sends client-go headers and a Go-encoded list query', () => {
    const { cluster, client, run } = clientTestCluster();
    const pods = client.resource<Pod>('pods');
    run(() => pods.list('default', { labelSelector: 'app=web', limit: 500 }));
    const sent = cluster.engine.trace.all().filter((m) => m.from === 'kube-controller-manager' && m.kind === 'http.request');
    const request = sent.at(-1)!.payload as HttpRequest;
    expect(request.path).toBe('/api/v1/namespaces/default/pods');
    expect(request.query).toBe('labelSelector=app%3Dweb&limit=500');
    expect(request.headers['user-agent']).toBe(defaultUserAgent('kube-controller-manager'));
    expect(request.headers['user-agent']).toBe('kube-controller-manager/v1.28.15 (linux/amd64) kubernetes/8418565');
    expect(request.headers.accept).toBe('application/json');
    expect(request.headers.authorization).toMatch(/^Bearer /);
  });

  it('creates, gets, lists, updates, patches and deletes', () => {
    const { client, run } = clientTestCluster();
    const pods = client.resource<Pod>('pods');
    const created = run(() => pods.create('default', pod('a')));
    expect(created.metadata.uid).toBeTruthy();
    expect(run(() => pods.get('default', 'a')).metadata.resourceVersion).toBe(created.metadata.resourceVersion);
    const list = run(() => pods.list('default'));
    expect(list.items.map((p) => p.metadata.name)).toEqual(['a']);
    expect(Number(list.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(created.metadata.resourceVersion));

    const updated = run(() => pods.update({ ...created, metadata: { ...created.metadata, labels: { app: 'db' } } }));
    expect(updated.metadata.labels).toEqual({ app: 'db' });
    const patched = run(() => pods.patch('default', 'a', 'application/merge-patch+json', { metadata: { annotations: { note: 'x' } } }));
    expect(patched.metadata.annotations).toEqual({ note: 'x' });
    run(() => pods.delete('default', 'a', { gracePeriodSeconds: 0 }));
    const err = catchStatus(() => run(() => pods.get('default', 'a')));
    expect(err.reason).toBe('NotFound');
  });

  it('throws the Status of a failed write', () => {
    const { client, run } = clientTestCluster();
    const pods = client.resource<Pod>('pods');
    const created = run(() => pods.create('default', pod('a')));
    expect(catchStatus(() => run(() => pods.create('default', pod('a')))).reason).toBe('AlreadyExists');
    run(() => pods.patch('default', 'a', 'application/merge-patch+json', { metadata: { labels: { v: '2' } } }));
    const conflict = catchStatus(() => run(() => pods.update(created)));
    expect(conflict.code).toBe(409);
    expect(conflict.reason).toBe('Conflict');
  });

  it('builds group paths and the status subresource', () => {
    const { client } = clientTestCluster();
    const deployments = client.resource<Deployment>('deployments', 'apps');
    expect(deployments.path('default', 'web', 'status')).toBe('/apis/apps/v1/namespaces/default/deployments/web/status');
    expect(deployments.path(undefined)).toBe('/apis/apps/v1/deployments');
    expect(client.resource('nodes').path('default', 'node-1')).toBe('/api/v1/nodes/node-1');
    expect(() => client.resource('widgets')).toThrow('no served resource');
  });
});

function catchStatus(f: () => unknown): StatusError {
  try {
    f();
  } catch (err) {
    if (isStatusError(err)) return err;
    throw err;
  }
  throw new Error('expected a StatusError');
}

describe('Retry-After', () => {
  it('sends a request refused with 429 Retry-After: 1 again a second later, so every kubelet registers', () => {
    const cluster = createCluster({ seed: 'retry-after', nodes: 6, apiserver: { maxInFlight: { readOnly: 2, mutating: 2 } }, components: { controllerManager: false, scheduler: false } });
    cluster.boot();
    const responses = cluster.engine.trace.all().filter((m) => m.kind === 'http.response' && m.to.startsWith('kubelet/'));
    const refused = responses.filter((m) => (m.payload as HttpResponse).status === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expect((r.payload as HttpResponse).headers['retry-after']).toBe('1');
    // The same request goes out again from the same kubelet one virtual second after its 429 arrived.
    const first = refused[0]!;
    const again = cluster.engine.trace.all().find((m) => m.kind === 'http.request' && m.from === first.to && m.sentAt === first.deliverAt + 1000);
    expect(again).toBeDefined();
    const nodes = cluster.etcd.kv.range({ key: '/registry/minions/', rangeEnd: '/registry/minions0', keysOnly: true });
    expect(nodes.kvs.map((kv) => kv.key)).toEqual([1, 2, 3, 4, 5, 6].map((i) => `/registry/minions/node-${i}`));
  });
});

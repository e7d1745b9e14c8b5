// A real client in CI: @kubernetes/client-node (1.4) runs an informer (list, then watch) on ConfigMaps
// against the Podflow apiserver; through creates, merge patches and deletes made by another client its
// cache converges to the server's list, object for object and resourceVersion for resourceVersion.

import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';
import { afterAll, describe, expect, test } from 'vitest';
import { defaultServerOptions, startPodflowServer, type PodflowServer } from '../../src/server/server.ts';
import { until } from '../wait.ts';

let server: PodflowServer | null = null;

afterAll(async () => {
  await server?.close();
});

describe('@kubernetes/client-node', () => {
  test('an informer converges to the server\'s list through creates, patches and deletes', async () => {
    server = await startPodflowServer({ ...defaultServerOptions, fastForward: true, port: 0, seed: 'client-node' });
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'podflow', server: server.url, skipTLSVerify: true }],
      users: [{ name: 'admin', token: server.token }],
      contexts: [{ name: 'podflow', cluster: 'podflow', user: 'admin', namespace: 'default' }],
      currentContext: 'podflow',
    });
    const api = kc.makeApiClient(CoreV1Api);
    const informer = makeInformer<V1ConfigMap>(kc, '/api/v1/namespaces/default/configmaps', () => api.listNamespacedConfigMap({ namespace: 'default' }));
    const events: string[] = [];
    const errors: unknown[] = [];
    informer.on('add', (o) => events.push(`add ${o.metadata?.name}`));
    informer.on('update', (o) => events.push(`update ${o.metadata?.name}`));
    informer.on('delete', (o) => events.push(`delete ${o.metadata?.name}`));
    informer.on('error', (e) => errors.push(e));
    await informer.start();

    // Another client writes (plain HTTP), so the informer learns everything from its watch.
    const write = async (method: string, path: string, body: unknown, contentType = 'application/json') => {
      const res = await fetch(`${server!.url}${path}`, { method, headers: { 'content-type': contentType, authorization: `Bearer ${server!.token}` }, body: JSON.stringify(body) });
      expect(res.status, `${method} ${path}`).toBeLessThan(300);
    };
    const base = '/api/v1/namespaces/default/configmaps';
    for (let i = 0; i < 30; i++) await write('POST', base, { metadata: { name: `cm-${i}` }, data: { n: String(i) } });
    for (let i = 0; i < 30; i += 2) await write('PATCH', `${base}/cm-${i}`, { data: { n: `patched-${i}` } }, 'application/merge-patch+json');
    for (let i = 0; i < 30; i += 3) await write('DELETE', `${base}/cm-${i}`, {});

    const serverState = async () => {
      const list = (await (await fetch(`${server!.url}${base}`, { headers: { authorization: `Bearer ${server!.token}` } })).json()) as { items: V1ConfigMap[] };
      return new Map(list.items.map((c) => [c.metadata!.name!, `${c.metadata!.resourceVersion} ${JSON.stringify(c.data)}`]));
    };
    const informerState = () => new Map(informer.list().map((c) => [c.metadata!.name!, `${c.metadata!.resourceVersion} ${JSON.stringify(c.data)}`]));
    const expected = await serverState();
    await until('the informer\'s cache equals the server\'s list', () => JSON.stringify([...informerState()].sort()) === JSON.stringify([...expected].sort()), { timeoutMs: 20_000 });
    expect(errors).toEqual([]);
    await informer.stop();

    // 20 of ours, and the root-CA publisher's kube-root-ca.crt.
    expect([...expected.keys()].filter((n) => /^cm-\d+$/.test(n)).length).toBe(20);
    expect(expected.has('kube-root-ca.crt')).toBe(true);
    expect(expected.get('cm-2')).toMatch(/ {"n":"patched-2"}$/);
    expect(expected.has('cm-3')).toBe(false);
    // Every change was seen once, from the watch: 30 adds, 15 updates, 10 deletes (kube-root-ca.crt aside).
    const mine = events.filter((e) => / cm-\d+$/.test(e));
    expect(mine.filter((e) => e.startsWith('add')).length).toBe(30);
    expect(mine.filter((e) => e.startsWith('update')).length).toBe(15);
    expect(mine.filter((e) => e.startsWith('delete')).length).toBe(10);
  }, 60_000);
});

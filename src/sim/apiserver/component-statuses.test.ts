import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../cluster.ts';
import type { ComponentStatus } from '../api/types/core.ts';
import type { Status, Table } from '../api/types/meta.ts';
import { builtinTokens } from '../wire/credentials.ts';
import { httpKinds, type HttpRequest, type HttpResponse } from '../wire/http.ts';
import { adminCall } from '../testing/http.ts';

function booted(): Cluster {
  const cluster = createCluster({ seed: 'component-statuses' });
  cluster.engine.runUntilIdle();
  return cluster;
}

/** kubectl get's request: a Table, as kubectl asks for one. */
function getTable(cluster: Cluster, path: string): HttpResponse {
  const request = cluster.user.request('kube-apiserver', httpKinds.request, {
    method: 'GET', path, query: 'limit=500',
    headers: { authorization: `Bearer ${builtinTokens.admin}`, accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json' },
  });
  cluster.engine.runUntilIdle();
  return cluster.user.received().find((r) => r.requestId === request.id)!.message.payload as HttpResponse;
}

const list = (cluster: Cluster) => adminCall(cluster, 'GET', '/api/v1/componentstatuses');
const items = (response: HttpResponse) => (response.body as { items: ComponentStatus[] }).items;

/** The /healthz requests kube-apiserver sent, by the component they went to. */
function probesSent(cluster: Cluster): string[] {
  return cluster.engine.trace.all()
    .filter((r) => r.kind === httpKinds.request && r.from === 'kube-apiserver' && (r.payload as HttpRequest | undefined)?.path === '/healthz')
    .map((r) => r.to);
}

describe('componentstatuses (kubectl get cs)', () => {
  it('lists the scheduler, the controller-manager and etcd as Healthy, probing each when asked, with the deprecation warning', () => {
    const cluster = booted();
    expect(probesSent(cluster)).toEqual([]);
    const response = list(cluster);
    expect(response.status).toBe(200);
    expect(response.headers.warning).toBe('299 - "v1 ComponentStatus is deprecated in v1.19+"');
    const body = response.body as { kind: string; apiVersion: string; metadata: unknown };
    expect(body.kind).toBe('ComponentStatusList');
    expect(body.metadata).toEqual({});
    expect(items(response)).toEqual([
      { metadata: { name: 'scheduler', creationTimestamp: null }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] },
      { metadata: { name: 'controller-manager', creationTimestamp: null }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] },
      { metadata: { name: 'etcd-0', creationTimestamp: null }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] },
    ]);
    // The probes are real requests: one /healthz each to the two components, at the moment of the list.
    expect(probesSent(cluster)).toEqual(['kube-scheduler', 'kube-controller-manager']);
    list(cluster);
    expect(probesSent(cluster)).toHaveLength(4);
  });

  it('reports a stopped scheduler Unhealthy with the refused connection, and Healthy again once it runs', () => {
    const cluster = booted();
    cluster.fault({ type: 'stop', component: 'kube-scheduler' });
    cluster.engine.runUntilIdle();
    const scheduler = items(list(cluster)).find((i) => i.metadata.name === 'scheduler')!;
    expect(scheduler.conditions).toEqual([{
      type: 'Healthy', status: 'False', message: 'Get "https://127.0.0.1:10259/healthz": dial tcp 127.0.0.1:10259: connect: connection refused',
    }]);
    expect(items(list(cluster)).find((i) => i.metadata.name === 'controller-manager')!.conditions![0]!.status).toBe('True');
    cluster.fault({ type: 'start', component: 'kube-scheduler' });
    cluster.engine.runUntilIdle();
    expect(items(list(cluster)).find((i) => i.metadata.name === 'scheduler')!.conditions![0]!.status).toBe('True');
  });

  it('answers kubectl get cs with a Table of NAME, STATUS, MESSAGE and ERROR', () => {
    const cluster = booted();
    cluster.fault({ type: 'stop', component: 'kube-controller-manager' });
    cluster.engine.runUntilIdle();
    const response = getTable(cluster, '/api/v1/componentstatuses');
    expect(response.headers.warning).toContain('v1 ComponentStatus is deprecated in v1.19+');
    const table = response.body as Table;
    expect(table.kind).toBe('Table');
    expect(table.columnDefinitions!.map((c) => c.name)).toEqual(['Name', 'Status', 'Message', 'Error']);
    expect(table.rows.map((r) => r.cells)).toEqual([
      ['scheduler', 'Healthy', 'ok', ''],
      ['controller-manager', 'Unhealthy', 'Get "https://127.0.0.1:10257/healthz": dial tcp 127.0.0.1:10257: connect: connection refused', ''],
      ['etcd-0', 'Healthy', 'ok', ''],
    ]);
  });

  it('gets one component by name; a name it does not probe is a plain 500', () => {
    const cluster = booted();
    const one = adminCall(cluster, 'GET', '/api/v1/componentstatuses/etcd-0');
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: 'etcd-0', creationTimestamp: null }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] });
    const missing = adminCall(cluster, 'GET', '/api/v1/componentstatuses/etcd-1');
    expect(missing.status).toBe(500);
    expect(missing.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Component not found: etcd-1', reason: '', code: 500 } satisfies Status);
  });

  it('is read-only and unwatched: a create is 405, and discovery lists it with get and list and the short name cs', () => {
    const cluster = booted();
    const create = adminCall(cluster, 'POST', '/api/v1/componentstatuses', { apiVersion: 'v1', kind: 'ComponentStatus', metadata: { name: 'x' } });
    expect(create.status).toBe(405);
    const discovery = adminCall(cluster, 'GET', '/api/v1').body as { resources: Array<{ name: string; verbs: string[]; shortNames?: string[]; namespaced: boolean; kind: string }> };
    const cs = discovery.resources.find((r) => r.name === 'componentstatuses');
    expect(cs).toMatchObject({ kind: 'ComponentStatus', namespaced: false, verbs: ['get', 'list'], shortNames: ['cs'] });
  });
});

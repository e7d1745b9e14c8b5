import { describe, expect, it } from 'vitest';
import type { Deployment } from '../../api/types/apps.ts';
import type { KubeObject, List } from '../../api/types/meta.ts';
import { bootedCluster, call, causedBy, nginxDeployment, status, type Call } from '../testing.ts';

describe('the generic registry store, through kube-apiserver', () => {
  it('answers a second create with 409 AlreadyExists', () => {
    const cluster = bootedCluster();
    call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', { body: nginxDeployment });
    const again = call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', { body: nginxDeployment });
    expect(again.response.status).toBe(409);
    expect(status(again)).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'deployments.apps "nginx-deployment" already exists',
      reason: 'AlreadyExists', details: { name: 'nginx-deployment', group: 'apps', kind: 'deployments' }, code: 409,
    });
  });

  it('rejects a stale update with the registry\'s 409 Conflict', () => {
    const cluster = bootedCluster();
    const created = call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', { body: nginxDeployment }).response.body as Deployment;
    const scaled = { ...created, spec: { ...created.spec, replicas: 2 } };
    const ok = call(cluster, 'PUT', '/apis/apps/v1/namespaces/default/deployments/nginx-deployment', { body: scaled });
    expect(ok.response.status).toBe(200);
    expect((ok.response.body as Deployment).metadata.generation).toBe(2);
    const stale = call(cluster, 'PUT', '/apis/apps/v1/namespaces/default/deployments/nginx-deployment', { body: { ...created, spec: { ...created.spec, replicas: 3 } } });
    expect(stale.response.status).toBe(409);
    expect(status(stale).message).toBe('Operation cannot be fulfilled on deployments.apps "nginx-deployment": the object has been modified; please apply your changes to the latest version and try again');
  });

  it('dryRun=All goes through admission and validation and writes nothing: create, update, patch, delete', () => {
    const cluster = bootedCluster();
    const path = '/api/v1/namespaces/default/configmaps';
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } };
    const writes = (c: Call) => causedBy(cluster, c.request).filter((m) => m.kind === 'etcd.Txn').length;
    const revision = () => cluster.etcd.kv.store.rev();
    const before = revision();
    const dry = call(cluster, 'POST', path, { query: 'dryRun=All', body: cm });
    expect(dry.response.status).toBe(201);
    const created = dry.response.body as KubeObject;
    expect(created.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata.creationTimestamp).toBeDefined();
    expect(created.metadata.resourceVersion).toBeUndefined();
    expect(writes(dry)).toBe(0);
    expect(revision()).toBe(before);
    expect(call(cluster, 'GET', `${path}/cm`).response.status).toBe(404);
    // An invalid object is refused just the same.
    expect(call(cluster, 'POST', path, { query: 'dryRun=All', body: { ...cm, metadata: { name: 'Bad_Name' } } }).response.status).toBe(422);
    expect(call(cluster, 'POST', path, { body: cm }).response.status).toBe(201);
    const stored = revision();
    expect(call(cluster, 'POST', path, { query: 'dryRun=All', body: cm }).response.status).toBe(409);
    const put = call(cluster, 'PUT', `${path}/cm`, { query: 'dryRun=All', body: { ...cm, data: { a: '2' } } });
    expect(put.response.status, JSON.stringify(put.response.body)).toBe(200);
    expect((put.response.body as { data: unknown; metadata: KubeObject['metadata'] })).toMatchObject({ data: { a: '2' }, metadata: { resourceVersion: String(stored) } });
    const patch = call(cluster, 'PATCH', `${path}/cm`, { query: 'dryRun=All', body: { data: { b: '3' } }, headers: { 'content-type': 'application/merge-patch+json' } });
    expect((patch.response.body as { data: unknown }).data).toEqual({ a: '1', b: '3' });
    const del = call(cluster, 'DELETE', `${path}/cm`, { query: 'dryRun=All' });
    expect(del.response.status).toBe(200);
    expect([put, patch, del].map(writes)).toEqual([0, 0, 0]);
    expect(revision()).toBe(stored);
    expect((call(cluster, 'GET', `${path}/cm`).response.body as { data: unknown }).data).toEqual({ a: '1' });
    const bad = call(cluster, 'POST', path, { query: 'dryRun=Some', body: cm });
    expect(bad.response.status).toBe(422);
    expect(status(bad).message).toBe('CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Some"}: supported values: "All"');
  });

  it('PUT and every patch type read the current object without changing it: the watch cache\'s revision stays as it was', () => {
    const cluster = bootedCluster();
    const path = '/api/v1/namespaces/default/configmaps';
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', labels: { a: '1' } }, data: { a: '1', list: 'x' } };
    const created = call(cluster, 'POST', path, { body: cm }).response.body as KubeObject;
    const asCreated = JSON.stringify(created);
    const writes: Array<[string, object, string]> = [
      ['application/json-patch+json', [{ op: 'replace', path: '/data/a', value: '2' }, { op: 'remove', path: '/metadata/labels/a' }], '{"a":"2","list":"x"}'],
      ['application/merge-patch+json', { data: { a: '3', list: null } }, '{"a":"3"}'],
      ['application/strategic-merge-patch+json', { data: { b: '4' }, metadata: { labels: { c: '5' } } }, '{"a":"3","b":"4"}'],
    ];
    let rv = created.metadata.resourceVersion;
    for (const [contentType, body, data] of writes) {
      const r = call(cluster, 'PATCH', `${path}/cm`, { body, headers: { 'content-type': contentType } });
      expect(r.response.status, JSON.stringify(r.response.body)).toBe(200);
      expect(JSON.stringify((r.response.body as { data: unknown }).data)).toBe(data);
      expect((r.response.body as KubeObject).metadata.resourceVersion).not.toBe(rv);
      rv = (r.response.body as KubeObject).metadata.resourceVersion;
    }
    const current = call(cluster, 'GET', `${path}/cm`).response.body as KubeObject;
    expect(current.metadata.labels).toEqual({ c: '5' });
    const put = call(cluster, 'PUT', `${path}/cm`, { body: { ...current, data: { z: '9' } } });
    expect(put.response.status, JSON.stringify(put.response.body)).toBe(200);
    expect((put.response.body as { data: unknown }).data).toEqual({ z: '9' });
    // The object each write started from was the watch cache's, frozen: a write that changed it would
    // have thrown (a 500 above). The client's own copy of the first revision is as it was.
    expect(JSON.stringify(created)).toBe(asCreated);
  });

  it('keeps an object with a foreground-deletion finalizer, marked for deletion', () => {
    const cluster = bootedCluster();
    call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', { body: nginxDeployment });
    const r = call(cluster, 'DELETE', '/apis/apps/v1/namespaces/default/deployments/nginx-deployment', { body: { propagationPolicy: 'Foreground' } });
    expect(r.response.status).toBe(200);
    const d = r.response.body as Deployment;
    expect(d.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(d.metadata.deletionTimestamp).toBeDefined();
    expect(d.metadata.generation).toBe(2);
    expect(cluster.etcd.kv.range({ key: '/registry/deployments/default/nginx-deployment' }).kvs).toHaveLength(1);
  });

  it('deletes a collection by label selector', () => {
    const cluster = bootedCluster();
    for (const [name, app] of [['a', 'x'], ['b', 'y'], ['c', 'x']] as const) {
      call(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app } } } });
    }
    const r = call(cluster, 'DELETE', '/api/v1/namespaces/default/configmaps', { query: 'labelSelector=app%3Dx' });
    expect((r.response.body as List).items.map((i) => i.metadata.name)).toEqual(['a', 'c']);
    const left = call(cluster, 'GET', '/api/v1/namespaces/default/configmaps').response.body as List;
    expect(left.items.map((i) => i.metadata.name)).toEqual(['b']);
  });
});

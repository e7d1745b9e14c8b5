import { describe, expect, it } from 'vitest';
import type { Deployment } from '../api/types/apps.ts';
import type { Pod } from '../api/types/core.ts';
import type { KubeObject, List, Status } from '../api/types/meta.ts';
import { createCluster, type Cluster } from '../cluster.ts';
import type { Message } from '../engine/index.ts';
import type { EtcdReply, TxnResponse } from '../etcd/index.ts';
import { builtinTokens } from '../wire/credentials.ts';
import { httpKinds, type HttpMethod, type HttpRequest, type HttpResponse } from '../wire/http.ts';
import { decodeStored } from './storage/codec.ts';

// The seeds' Deployment (seeds/000: `kubectl create -f nginx.yaml`).
const nginxDeployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'nginx-deployment', labels: { app: 'nginx' } },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'nginx' } },
    template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.14.2', ports: [{ containerPort: 80 }] }] } },
  },
};

function bootedCluster(seed = 'apiserver', apiserver: Parameters<typeof createCluster>[0]['apiserver'] = {}): Cluster {
  const cluster = createCluster({ seed, apiserver });
  cluster.engine.runUntilIdle();
  expect(cluster.apiserver.ready).toBe(true);
  return cluster;
}

interface Call {
  readonly request: Message<HttpRequest>;
  readonly response: HttpResponse;
}

function call(cluster: Cluster, method: HttpMethod, path: string, options: { token?: string; body?: unknown; query?: string; headers?: Record<string, string> } = {}): Call {
  const request = cluster.user.request('kube-apiserver', httpKinds.request, {
    method,
    path,
    query: options.query ?? '',
    headers: {
      authorization: `Bearer ${options.token ?? builtinTokens.admin}`,
      accept: 'application/json',
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(options.body !== undefined ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) } : {}),
  });
  cluster.engine.runUntilIdle();
  const reply = cluster.user.received().find((r) => r.requestId === request.id);
  if (!reply) throw new Error(`no response to ${method} ${path}`);
  return { request, response: reply.message.payload as HttpResponse };
}

/** Every message caused, directly or not, by `root`, in delivery order. */
function causedBy(cluster: Cluster, root: Message): Message[] {
  const ids = new Set([root.id]);
  const out: Message[] = [];
  for (const m of cluster.engine.trace.all()) {
    if (m.cause !== null && ids.has(m.cause)) {
      ids.add(m.id);
      out.push(m);
    }
  }
  return out;
}

function status(c: Call): Status {
  return c.response.body as Status;
}

describe('kube-apiserver: creating the seeds\' nginx Deployment', () => {
  it('runs the filter chain and admission as steps, then writes one create-if-absent Txn', () => {
    const cluster = bootedCluster();
    const created = call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', {
      query: 'fieldManager=kubectl-create&fieldValidation=Strict', body: nginxDeployment,
    });
    expect(created.response.status).toBe(201);
    const deployment = created.response.body as Deployment;

    const flow = causedBy(cluster, created.request);
    // The etcd watch event for the new key (to the deployments watch cache) is caused by the same Txn;
    // etcd notifies its watchers as the Txn ends, before the Txn's own reply leaves.
    expect(flow.map((m) => m.kind)).toEqual([
      'apiserver.authentication', 'apiserver.audit', 'apiserver.max-in-flight', 'apiserver.authorization',
      'apiserver.admission.mutating', 'apiserver.registry.strategy', 'apiserver.admission.validating',
      'etcd.Txn', 'etcd.WatchResponse', 'etcd.TxnResponse', 'http.response',
    ]);
    const key = '/registry/deployments/default/nginx-deployment';
    const kv = cluster.etcd.kv.range({ key }).kvs[0]!;
    const txnReply = flow.find((m) => m.kind === 'etcd.TxnResponse')!.payload as EtcdReply<TxnResponse>;
    expect(txnReply.stats?.requestContent).toBe(
      `compare:<target:MOD key:"${key}" mod_revision:0 > success:<request_put:<key:"${key}" value_size:${kv.value.length} >> failure:<>`,
    );
    expect(deployment.metadata.resourceVersion).toBe(String(kv.modRevision));
    expect(deployment.metadata.generation).toBe(1);
    expect(deployment.status).toEqual({});
    expect(deployment.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
    expect(deployment.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(deployment.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(created.response.headers['audit-id']).toMatch(/^[0-9a-f-]{36}$/);

    const audit = cluster.apiserver.audit.all().filter((e) => e.auditID === created.response.headers['audit-id']);
    expect(audit.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
    expect(audit[1]).toMatchObject({ verb: 'create', user: { username: 'kubernetes-admin' }, objectRef: { resource: 'deployments', namespace: 'default', apiGroup: 'apps' }, responseStatus: { code: 201 } });
  });

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

  it('forbids the restricted user with RBAC\'s exact text, and lets it read pods', () => {
    const cluster = bootedCluster();
    // A fresh 1.28 cluster gives alice nothing: bind her a pod-reader Role in default, as the seeds do.
    call(cluster, 'POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', {
      body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'pod-reader' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }] },
    });
    call(cluster, 'POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', {
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'alice-pod-reader' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }],
      },
    });
    const denied = call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', { token: builtinTokens.restricted, body: nginxDeployment });
    expect(denied.response.status).toBe(403);
    expect(status(denied).message).toBe('deployments.apps is forbidden: User "alice" cannot create resource "deployments" in API group "apps" in the namespace "default"');
    expect(status(denied).reason).toBe('Forbidden');
    const flow = causedBy(cluster, denied.request);
    expect(flow.some((m) => m.kind === 'etcd.Txn')).toBe(false);
    expect(call(cluster, 'GET', '/api/v1/namespaces/default/pods', { token: builtinTokens.restricted }).response.status).toBe(200);
    const otherNs = call(cluster, 'GET', '/api/v1/namespaces/kube-system/pods', { token: builtinTokens.restricted });
    expect(status(otherNs).message).toBe('pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "kube-system"');
  });

  it('lets the admin impersonate alice (kubectl --as) and alice is then forbidden', () => {
    const cluster = bootedCluster();
    const asAlice = call(cluster, 'DELETE', '/api/v1/namespaces/default/pods/x', { headers: { 'impersonate-user': 'alice' } });
    expect(asAlice.response.status).toBe(403);
    expect(status(asAlice).message).toBe('pods "x" is forbidden: User "alice" cannot delete resource "pods" in API group "" in the namespace "default"');
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

  it('reads back with resourceVersion = mod_revision and lists with the store revision', () => {
    const cluster = bootedCluster();
    call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', { body: nginxDeployment });
    const got = call(cluster, 'GET', '/apis/apps/v1/namespaces/default/deployments/nginx-deployment').response.body as Deployment;
    const kv = cluster.etcd.kv.range({ key: '/registry/deployments/default/nginx-deployment' });
    expect(got.metadata.resourceVersion).toBe(String(kv.kvs[0]!.modRevision));
    const list = call(cluster, 'GET', '/apis/apps/v1/namespaces/default/deployments', { query: 'limit=500' }).response.body as List;
    expect(list.kind).toBe('DeploymentList');
    expect(list.metadata.resourceVersion).toBe(String(kv.header.revision));
    expect(list.items.map((i) => i.metadata.name)).toEqual(['nginx-deployment']);
    // Items of a list carry no TypeMeta (a single GET does), from etcd and from the watch cache alike.
    expect(got).toMatchObject({ kind: 'Deployment', apiVersion: 'apps/v1' });
    expect(list.items[0]).not.toHaveProperty('kind');
    expect(list.items[0]).not.toHaveProperty('apiVersion');
    const cached = call(cluster, 'GET', '/apis/apps/v1/namespaces/default/deployments', { query: 'resourceVersion=0' }).response.body as List;
    expect(cached.items.map((i) => [i.metadata.name, i.kind, i.apiVersion])).toEqual([['nginx-deployment', undefined, undefined]]);
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

  it('validates: a selector that does not match the template labels is 422 Invalid with its cause', () => {
    const cluster = bootedCluster();
    const bad = { ...nginxDeployment, spec: { ...nginxDeployment.spec, selector: { matchLabels: { app: 'other' } } } };
    const r = call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', { body: bad });
    expect(r.response.status).toBe(422);
    expect(status(r).reason).toBe('Invalid');
    expect(status(r).message).toContain('Deployment.apps "nginx-deployment" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"nginx"}: `selector` does not match template `labels`');
    expect(status(r).details?.causes?.[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'spec.template.metadata.labels' });
  });

  it('decodes strictly when asked (kubectl create sends fieldValidation=Strict) and warns by default', () => {
    const cluster = bootedCluster();
    const withTypo = { ...nginxDeployment, spec: { ...nginxDeployment.spec, replica: 3 } };
    const strict = call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', { query: 'fieldValidation=Strict', body: withTypo });
    expect(strict.response.status).toBe(400);
    expect(status(strict).message).toBe('Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"');
    const warned = call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', { body: withTypo });
    expect(warned.response.status).toBe(201);
    expect(warned.response.headers.warning).toBe('299 - "unknown field \\"spec.replica\\""');
  });

  it('deletes a Deployment with a Success Status naming it', () => {
    const cluster = bootedCluster();
    const created = call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', { body: nginxDeployment }).response.body as Deployment;
    const deleted = call(cluster, 'DELETE', '/apis/apps/v1/namespaces/default/deployments/nginx-deployment', { query: 'propagationPolicy=Background' });
    expect(deleted.response.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success',
      details: { name: 'nginx-deployment', group: 'apps', kind: 'deployments', uid: created.metadata.uid },
    });
    const missing = call(cluster, 'GET', '/apis/apps/v1/namespaces/default/deployments/nginx-deployment');
    expect(status(missing).message).toBe('deployments.apps "nginx-deployment" not found');
  });
});

describe('kube-apiserver: what kubectl scale, set image and get send', () => {
  it('stores the canonical object: status {}, template creationTimestamp null, container resources {}', () => {
    const cluster = bootedCluster();
    call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', { body: nginxDeployment });
    const stored = decodeStored(cluster.etcd.kv.range({ key: '/registry/deployments/default/nginx-deployment' }).kvs[0]!.value) as Deployment;
    expect(stored.status).toEqual({});
    expect(stored.spec.template.metadata?.creationTimestamp).toBeNull();
    expect(stored.spec.template.spec!.containers[0]!.resources).toEqual({});
    expect(Object.keys(stored)).toEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status']);
  });

  it('records managedFields as kubectl create does: the fields it set, under its manager name', () => {
    const cluster = bootedCluster();
    const created = call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', { query: 'fieldManager=kubectl-create&fieldValidation=Strict', body: nginxDeployment }).response.body as Deployment;
    const [entry, ...others] = created.metadata.managedFields ?? [];
    expect(others).toEqual([]);
    expect(entry).toMatchObject({ manager: 'kubectl-create', operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', time: created.metadata.creationTimestamp });
    // The shape a real 1.28 apiserver records for this manifest.
    expect(entry!.fieldsV1).toEqual({
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': {
        'f:progressDeadlineSeconds': {}, 'f:replicas': {}, 'f:revisionHistoryLimit': {}, 'f:selector': {},
        'f:strategy': { 'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} }, 'f:type': {} },
        'f:template': {
          'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
          'f:spec': {
            'f:containers': {
              'k:{"name":"nginx"}': {
                '.': {}, 'f:image': {}, 'f:imagePullPolicy': {}, 'f:name': {},
                'f:ports': { '.': {}, 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} } },
                'f:resources': {}, 'f:terminationMessagePath': {}, 'f:terminationMessagePolicy': {},
              },
            },
            'f:dnsPolicy': {}, 'f:restartPolicy': {}, 'f:schedulerName': {}, 'f:securityContext': {}, 'f:terminationGracePeriodSeconds': {},
          },
        },
      },
    });
  });

  it('moves a field to the manager that changed it (kubectl scale takes spec.replicas, under subresource scale)', () => {
    const cluster = bootedCluster();
    call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', { query: 'fieldManager=kubectl-create', body: nginxDeployment });
    call(cluster, 'PATCH', '/apis/apps/v1/namespaces/default/deployments/nginx-deployment/scale', {
      body: { spec: { replicas: 3 } }, headers: { 'content-type': 'application/merge-patch+json', 'user-agent': 'kubectl/v1.32.4 (linux/amd64) kubernetes/4cb5f07' },
    });
    const d = call(cluster, 'GET', '/apis/apps/v1/namespaces/default/deployments/nginx-deployment').response.body as Deployment;
    const byManager = new Map((d.metadata.managedFields ?? []).map((e) => [`${e.manager}/${e.subresource ?? ''}`, e.fieldsV1 as Record<string, Record<string, unknown>>]));
    // Entries sort by operation, time (seconds), then manager: both writes fell in the same second.
    expect([...byManager.keys()]).toEqual(['kubectl/scale', 'kubectl-create/']);
    expect(byManager.get('kubectl/scale')).toEqual({ 'f:spec': { 'f:replicas': {} } });
    expect(byManager.get('kubectl-create/')!['f:spec']!['f:replicas']).toBeUndefined();
    expect(byManager.get('kubectl-create/')!['f:spec']!['f:selector']).toEqual({});
  });

  it('kubectl scale: a merge patch on deployments/scale answers an autoscaling/v1 Scale', () => {
    const cluster = bootedCluster();
    call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', { body: nginxDeployment });
    const scaled = call(cluster, 'PATCH', '/apis/apps/v1/namespaces/default/deployments/nginx-deployment/scale', {
      body: { spec: { replicas: 3 } }, headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(scaled.response.status).toBe(200);
    expect(scaled.response.body).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 3 }, status: { replicas: 0, selector: 'app=nginx' } });
    const d = call(cluster, 'GET', '/apis/apps/v1/namespaces/default/deployments/nginx-deployment').response.body as Deployment;
    expect(d.spec.replicas).toBe(3);
    expect(d.metadata.generation).toBe(2);
  });

  it('kubectl set image: a strategic merge patch replaces the container image by name', () => {
    const cluster = bootedCluster();
    call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', { body: nginxDeployment });
    const patched = call(cluster, 'PATCH', '/apis/apps/v1/namespaces/default/deployments/nginx-deployment', {
      query: 'fieldManager=kubectl-set',
      headers: { 'content-type': 'application/strategic-merge-patch+json' },
      body: { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'nginx' }], containers: [{ image: 'nginx:1.16', name: 'nginx' }] } } } },
    });
    expect(patched.response.status).toBe(200);
    const d = patched.response.body as Deployment;
    expect(d.spec.template.spec!.containers).toHaveLength(1);
    expect(d.spec.template.spec!.containers[0]).toMatchObject({ name: 'nginx', image: 'nginx:1.16', ports: [{ containerPort: 80, protocol: 'TCP' }] });
    const txn = causedBy(cluster, patched.request).find((m) => m.kind === 'etcd.TxnResponse')!.payload as EtcdReply<TxnResponse>;
    expect(txn.ok && txn.response.succeeded).toBe(true);
  });

  it('rejects a JSON patch that cannot apply with the generic 422, and an unknown patch type with 415', () => {
    const cluster = bootedCluster();
    call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', { body: nginxDeployment });
    const bad = call(cluster, 'PATCH', '/apis/apps/v1/namespaces/default/deployments/nginx-deployment', {
      headers: { 'content-type': 'application/json-patch+json' }, body: [{ op: 'remove', path: '/spec/nope' }],
    });
    expect(bad.response.status).toBe(422);
    const unknown = call(cluster, 'PATCH', '/apis/apps/v1/namespaces/default/deployments/nginx-deployment', {
      headers: { 'content-type': 'text/plain' }, body: '{}',
    });
    expect(unknown.response.status).toBe(415);
    expect(status(unknown).reason).toBe('UnsupportedMediaType');
  });

  it('answers kubectl get with a Table: the pod printer\'s columns, one row per pod', () => {
    const cluster = bootedCluster();
    call(cluster, 'POST', '/api/v1/namespaces/default/pods', { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } });
    const table = call(cluster, 'GET', '/api/v1/namespaces/default/pods', {
      query: 'limit=500', headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json' },
    }).response.body as { kind: string; columnDefinitions: Array<{ name: string; priority: number }>; rows: Array<{ cells: unknown[]; object: { kind: string } }> };
    expect(table.kind).toBe('Table');
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP', 'Node', 'Nominated Node', 'Readiness Gates']);
    expect(table.rows).toHaveLength(1);
    // 1.28 prints RESTARTS as a string column ("0", or "2 (5m ago)").
    expect(table.rows[0]!.cells.slice(0, 4)).toEqual(['web', '0/1', 'Pending', '0']);
    expect(table.rows[0]!.object.kind).toBe('PartialObjectMetadata');
  });
});

describe('kube-apiserver: pods', () => {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { generateName: 'web-' }, spec: { containers: [{ name: 'web', image: 'nginx' }] } };

  it('defaults and admits a pod: service account token, tolerations, priority, Pending status', () => {
    const cluster = bootedCluster();
    const created = call(cluster, 'POST', '/api/v1/namespaces/default/pods', { body: pod });
    expect(created.response.status).toBe(201);
    const p = created.response.body as Pod;
    expect(p.metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(p.spec.serviceAccountName).toBe('default');
    expect(p.spec.volumes?.[0]?.name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(p.spec.containers[0]!.volumeMounts).toEqual([{ name: p.spec.volumes?.[0]?.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }]);
    expect(p.spec.containers[0]!.imagePullPolicy).toBe('Always');
    expect(p.spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    expect(p.spec.priority).toBe(0);
    expect(p.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
  });

  it('binds a pod to a node once, with a Txn comparing the pod\'s mod_revision', () => {
    const cluster = bootedCluster();
    const p = call(cluster, 'POST', '/api/v1/namespaces/default/pods', { body: pod }).response.body as Pod;
    const name = p.metadata.name!;
    const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { apiVersion: 'v1', kind: 'Node', name: 'node-2' } };
    const bound = call(cluster, 'POST', `/api/v1/namespaces/default/pods/${name}/binding`, { token: 'podflow-kube-scheduler-token', body: binding });
    expect(bound.response.status).toBe(201);
    expect(bound.response.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    const txn = causedBy(cluster, bound.request).find((m) => m.kind === 'etcd.TxnResponse')!.payload as EtcdReply<TxnResponse>;
    expect(txn.stats?.requestContent).toContain(`compare:<target:MOD key:"/registry/pods/default/${name}" mod_revision:${p.metadata.resourceVersion} >`);
    const after = call(cluster, 'GET', `/api/v1/namespaces/default/pods/${name}`).response.body as Pod;
    expect(after.spec.nodeName).toBe('node-2');
    expect(after.status?.conditions?.[0]).toMatchObject({ type: 'PodScheduled', status: 'True' });
    const again = call(cluster, 'POST', `/api/v1/namespaces/default/pods/${name}/binding`, { body: binding });
    expect(status(again).message).toBe(`Operation cannot be fulfilled on pods "${name}": pod ${name} is already assigned to node "node-2"`);
  });

  it('deletes a bound pod gracefully (marks it) and an unbound one at once (returns it)', () => {
    const cluster = bootedCluster();
    const unbound = call(cluster, 'POST', '/api/v1/namespaces/default/pods', { body: pod }).response.body as Pod;
    const gone = call(cluster, 'DELETE', `/api/v1/namespaces/default/pods/${unbound.metadata.name}`);
    expect(gone.response.status).toBe(200);
    expect((gone.response.body as Pod).metadata.name).toBe(unbound.metadata.name);
    expect(cluster.etcd.kv.range({ key: `/registry/pods/default/${unbound.metadata.name}` }).kvs).toHaveLength(0);

    const bound = call(cluster, 'POST', '/api/v1/namespaces/default/pods', { body: { ...pod, spec: { ...pod.spec, nodeName: 'node-1' } } }).response.body as Pod;
    const marked = call(cluster, 'DELETE', `/api/v1/namespaces/default/pods/${bound.metadata.name}`);
    const markedPod = marked.response.body as Pod;
    expect(markedPod.metadata.deletionGracePeriodSeconds).toBe(30);
    expect(markedPod.metadata.deletionTimestamp).toBeDefined();
    expect(cluster.etcd.kv.range({ key: `/registry/pods/default/${bound.metadata.name}` }).kvs).toHaveLength(1);
  });

  it('refuses content in a namespace that does not exist', () => {
    const cluster = bootedCluster();
    const r = call(cluster, 'POST', '/api/v1/namespaces/nope/pods', { body: pod });
    expect(r.response.status).toBe(404);
    expect(status(r).message).toBe('namespaces "nope" not found');
  });

  it('rejects malformed bodies and wrong kinds with 400 and writes nothing', () => {
    const cluster = bootedCluster();
    const before = cluster.etcd.kv.range({ key: 'x' }).header.revision;
    const broken = call(cluster, 'POST', '/api/v1/namespaces/default/pods', { body: '{"kind": "Pod", ' });
    expect(broken.response.status).toBe(400);
    expect(status(broken).reason).toBe('BadRequest');
    const wrongVersion = call(cluster, 'POST', '/api/v1/namespaces/default/pods', { body: { ...pod, apiVersion: 'apps/v1' } });
    expect(status(wrongVersion).message).toBe('the API version in the data (apps/v1) does not match the expected API version (v1)');
    expect(cluster.etcd.kv.range({ key: 'x' }).header.revision).toBe(before);
  });

  it('answers unknown paths like kube-apiserver: plain 404 outside served groups, Status inside', () => {
    const cluster = bootedCluster();
    const outside = call(cluster, 'GET', '/apis/nope.example.com/v1/things');
    expect(outside.response).toMatchObject({ status: 404, body: '404 page not found\n' });
    const inside = call(cluster, 'GET', '/api/v1/namespaces/default/widgets');
    expect(inside.response.status).toBe(404);
    expect(status(inside).message).toBe('the server could not find the requested resource');
  });

  it('answers an unknown bearer token with 401', () => {
    const cluster = bootedCluster();
    const r = call(cluster, 'GET', '/api/v1/namespaces/default/pods', { token: 'who-knows' });
    expect(r.response.status).toBe(401);
    expect(status(r)).toMatchObject({ reason: 'Unauthorized', message: 'Unauthorized' });
  });
});

describe('kube-apiserver: flow control, finalizers, collections', () => {
  it('answers mutating requests beyond the in-flight limit with a plain-text 429 and Retry-After, but not system:masters', () => {
    const cluster = bootedCluster('apf', { maxInFlight: { readOnly: 400, mutating: 1 }, stageDelay: 0.01 });
    // alice (not in system:masters) may create ConfigMaps in default.
    for (const [resource, body] of [
      ['roles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'cm-writer' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create'] }] }],
      ['rolebindings', {
        apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'alice-cm-writer' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-writer' }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }],
      }],
    ] as const) call(cluster, 'POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/default/${resource}`, { body });
    const send = (token: string, name: string) => cluster.user.request('kube-apiserver', httpKinds.request, {
      method: 'POST', path: '/api/v1/namespaces/default/configmaps', query: '',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } }),
    });
    const first = send(builtinTokens.restricted, 'a');
    const second = send(builtinTokens.restricted, 'b');
    const admin = send(builtinTokens.admin, 'c');
    cluster.engine.runUntilIdle();
    const answer = (m: Message) => cluster.user.received().find((r) => r.requestId === m.id)!.message.payload as HttpResponse;
    expect(answer(first).status).toBe(201);
    expect(answer(second)).toMatchObject({ status: 429, body: 'Too many requests, please try again later.\n', headers: { 'retry-after': '1', 'content-type': 'text/plain; charset=utf-8' } });
    expect(answer(admin).status).toBe(201);
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

describe('kube-apiserver: compactor', () => {
  it('compacts etcd every 5 virtual minutes as background work', () => {
    const cluster = bootedCluster();
    expect(cluster.engine.idle).toBe(true);
    cluster.engine.runFor(5 * 60_000 + 1);
    const firstTurn = cluster.etcd.kv.range({ key: 'compact_rev_key' }).kvs[0];
    expect(firstTurn?.version).toBe(1);
    call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', { body: nginxDeployment });
    cluster.engine.runFor(5 * 60_000);
    const compacts = cluster.engine.trace.all().filter((m) => m.kind === 'etcd.Compact');
    expect(compacts).toHaveLength(1);
    expect(compacts[0]!.background).toBe(true);
    // The first turn's own put of compact_rev_key made a revision: that is the one the second turn compacts.
    expect((compacts[0]!.payload as { revision: number }).revision).toBe(firstTurn!.modRevision);
    expect(cluster.engine.idle).toBe(true);
  });
});

describe('kube-apiserver: bootstrap', () => {
  it('stores the system namespaces and RBAC policy under /registry at start', () => {
    const cluster = bootedCluster();
    const keys = cluster.etcd.kv.range({ key: '/registry/', rangeEnd: '/registry0', keysOnly: true }).kvs.map((kv) => kv.key);
    expect(keys).toContain('/registry/namespaces/default');
    expect(keys).toContain('/registry/namespaces/kube-node-lease');
    expect(keys).toContain('/registry/clusterroles/cluster-admin');
    expect(keys).toContain('/registry/clusterrolebindings/system:kube-scheduler');
    expect(keys).toContain('/registry/services/specs/default/kubernetes');
    expect(keys).toContain('/registry/priorityclasses/system-node-critical');
    expect(keys.some((k) => k.startsWith('/registry/rolebindings/'))).toBe(false);
    const ns = decodeStored(cluster.etcd.kv.range({ key: '/registry/namespaces/default' }).kvs[0]!.value) as KubeObject & { status: unknown };
    expect(ns.status).toEqual({ phase: 'Active' });
  });
});

describe('kube-apiserver: discovery and version', () => {
  const aggregatedAccept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

  it('answers aggregated discovery with the content type kubectl requires, legacy otherwise', () => {
    const cluster = bootedCluster();
    const apis = call(cluster, 'GET', '/apis', { headers: { accept: aggregatedAccept } });
    expect(apis.response.headers['content-type']).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    const apps = (apis.response.body as { items: Array<{ metadata: { name: string }; versions: Array<{ resources: Array<{ resource: string; shortNames?: string[] }> }> }> }).items.find((i) => i.metadata.name === 'apps');
    expect(apps?.versions[0]?.resources.find((r) => r.resource === 'deployments')?.shortNames).toEqual(['deploy']);
    const legacy = call(cluster, 'GET', '/api');
    expect(legacy.response.body).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const v1 = call(cluster, 'GET', '/api/v1').response.body as { resources: Array<{ name: string }> };
    expect(v1.resources.map((r) => r.name)).toContain('pods/binding');
  });

  it('serves /version to anyone, and discovery to authenticated users only', () => {
    const cluster = bootedCluster();
    const version = call(cluster, 'GET', '/version', { token: '' , headers: { authorization: '' } });
    expect(version.response.status).toBe(200);
    expect(version.response.body).toMatchObject({ major: '1', minor: '32' });
    const anonymous = call(cluster, 'GET', '/apis', { headers: { authorization: '' } });
    expect(anonymous.response.status).toBe(403);
    expect(status(anonymous).message).toBe('forbidden: User "system:anonymous" cannot get path "/apis"');
    expect(call(cluster, 'GET', '/apis', { token: builtinTokens.restricted }).response.status).toBe(200);
  });
});

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

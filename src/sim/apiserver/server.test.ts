import { describe, expect, it } from 'vitest';
import type { Deployment } from '../api/types/apps.ts';
import type { Pod } from '../api/types/core.ts';
import type { KubeObject, List } from '../api/types/meta.ts';
import type { EtcdReply, TxnResponse } from '../etcd/index.ts';
import { decodeStored } from './storage/codec.ts';
import { bootedCluster, call, causedBy, nginxDeployment, status } from './testing.ts';

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

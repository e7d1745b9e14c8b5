import { describe, expect, it } from 'vitest';
import type { Message } from '../engine/index.ts';
import { builtinTokens } from '../wire/credentials.ts';
import { httpKinds, type HttpResponse } from '../wire/http.ts';
import { bootedCluster, call, causedBy, nginxDeployment, status } from './testing.ts';

describe('kube-apiserver: the filter chain', () => {
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

  it('records audit events with the fields in audit.Event\'s order, optional ones only when set', () => {
    const cluster = bootedCluster();
    const created = call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', { body: nginxDeployment, headers: { 'user-agent': 'kubectl/v1.28.0' } });
    const missing = call(cluster, 'GET', '/api/v1/namespaces/default/pods/nope/log');
    const events = cluster.apiserver.audit.all();
    const done = (id: string | undefined) => events.find((e) => e.auditID === id && e.stage === 'ResponseComplete')!;
    const shape = (e: object) => JSON.stringify(e, (k, v: unknown) => (k.endsWith('Timestamp') || k === 'auditID' || k === 'groups' ? undefined : v));
    expect(shape(done(created.response.headers['audit-id']))).toBe(JSON.stringify({
      level: 'Metadata', stage: 'ResponseComplete', requestURI: '/apis/apps/v1/namespaces/default/deployments', verb: 'create',
      user: { username: 'kubernetes-admin' }, userAgent: 'kubectl/v1.28.0',
      objectRef: { resource: 'deployments', namespace: 'default', apiGroup: 'apps', apiVersion: 'v1' }, responseStatus: { code: 201 },
    }));
    expect(shape(done(missing.response.headers['audit-id']))).toBe(JSON.stringify({
      level: 'Metadata', stage: 'ResponseComplete', requestURI: '/api/v1/namespaces/default/pods/nope/log', verb: 'get',
      user: { username: 'kubernetes-admin' },
      objectRef: { resource: 'pods', namespace: 'default', name: 'nope', apiGroup: '', apiVersion: 'v1', subresource: 'log' },
      responseStatus: { code: 404, status: 'Failure', reason: 'NotFound', message: 'pods "nope" not found' },
    }));
    expect(Object.keys(done(created.response.headers['audit-id'])).slice(-2)).toEqual(['requestReceivedTimestamp', 'stageTimestamp']);
  });

  it('answers an unknown bearer token with 401', () => {
    const cluster = bootedCluster();
    const r = call(cluster, 'GET', '/api/v1/namespaces/default/pods', { token: 'who-knows' });
    expect(r.response.status).toBe(401);
    expect(status(r)).toMatchObject({ reason: 'Unauthorized', message: 'Unauthorized' });
  });

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
});

import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../cluster.ts';
import { builtinTokens } from '../wire/credentials.ts';
import { httpKinds, type HttpResponse } from '../wire/http.ts';
import { adminCall } from '../testing/http.ts';

function booted(): Cluster {
  const cluster = createCluster({ seed: 'reviews' });
  cluster.engine.runUntilIdle();
  return cluster;
}

function post(cluster: Cluster, path: string, body: unknown, token: string = builtinTokens.admin): HttpResponse {
  const request = cluster.user.request('kube-apiserver', httpKinds.request, {
    method: 'POST', path, query: '',
    headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  cluster.engine.runUntilIdle();
  return cluster.user.received().find((r) => r.requestId === request.id)!.message.payload as HttpResponse;
}

const ssar = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
const sar = '/apis/authorization.k8s.io/v1/subjectaccessreviews';
const ssrr = '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews';
const ssr = '/apis/authentication.k8s.io/v1/selfsubjectreviews';

/** A fresh 1.28 cluster gives alice nothing but system:basic-user: bind her a pod-reader Role in default. */
function grantPodReader(cluster: Cluster): void {
  adminCall(cluster, 'POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'pod-reader', namespace: 'default' },
    rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }],
  });
  adminCall(cluster, 'POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'alice-pod-reader', namespace: 'default' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }],
  });
}

describe('access and identity reviews', () => {
  it('answers a SelfSubjectAccessReview with the authorizer’s decision, echoing the spec, and stores nothing', () => {
    const cluster = booted();
    const revision = cluster.etcd.store.rev();
    const res = post(cluster, ssar, { kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null }, spec: { resourceAttributes: { namespace: 'default', verb: 'create', resource: 'pods' } } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null },
      spec: { resourceAttributes: { namespace: 'default', verb: 'create', resource: 'pods' } }, status: { allowed: true },
    });
    expect(cluster.etcd.store.rev()).toBe(revision);
  });

  it('denies what RBAC does not grant and allows what a Role does, for the restricted user', () => {
    const cluster = booted();
    grantPodReader(cluster);
    const ask = (verb: string, resource: string, namespace = 'default'): unknown =>
      (post(cluster, ssar, { spec: { resourceAttributes: { namespace, verb, resource } } }, builtinTokens.restricted).body as { status: unknown }).status;
    expect(ask('list', 'pods')).toEqual({ allowed: true, reason: 'RBAC: allowed by RoleBinding "alice-pod-reader/default" of Role "pod-reader" to User "alice"' });
    expect(ask('create', 'pods')).toEqual({ allowed: false });
    expect(ask('list', 'pods', 'kube-system')).toEqual({ allowed: false });
  });

  it('refuses a review without the basic-user rules (403) and an empty spec (422)', () => {
    const cluster = booted();
    // The bootstrap binding of system:basic-user to every authenticated user is what lets alice review herself.
    adminCall(cluster, 'DELETE', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/system:basic-user');
    expect(post(cluster, ssar, { spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } }, builtinTokens.restricted).status).toBe(403);
    const invalid = post(cluster, ssar, { spec: {} });
    expect(invalid.status).toBe(422);
    expect((invalid.body as { message: string }).message).toContain('exactly one of nonResourceAttributes or resourceAttributes must be specified');
    const noSubject = post(cluster, sar, { spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } });
    expect(noSubject.status).toBe(422);
    expect((noSubject.body as { message: string }).message).toContain('at least one of user or group must be specified');
  });

  it('answers a SubjectAccessReview for the user and groups it names', () => {
    const cluster = booted();
    grantPodReader(cluster);
    const review = (spec: object): unknown => (post(cluster, sar, { spec }).body as { status: unknown }).status;
    expect(review({ user: 'alice', resourceAttributes: { namespace: 'default', verb: 'watch', resource: 'pods' } })).toMatchObject({ allowed: true });
    expect(review({ user: 'alice', resourceAttributes: { namespace: 'default', verb: 'delete', resource: 'pods' } })).toEqual({ allowed: false });
    expect(review({ user: 'bob', groups: ['system:masters'], resourceAttributes: { verb: 'delete', resource: 'nodes' } })).toEqual({ allowed: true });
    expect(review({ user: 'bob', groups: ['system:authenticated'], nonResourceAttributes: { verb: 'get', path: '/version' } })).toMatchObject({ allowed: true });
  });

  it('lists the rules RBAC grants in a namespace (SelfSubjectRulesReview)', () => {
    const cluster = booted();
    grantPodReader(cluster);
    const res = post(cluster, ssrr, { spec: { namespace: 'default' } }, builtinTokens.restricted);
    expect(res.status).toBe(201);
    const status = (res.body as { status: { resourceRules: unknown[]; nonResourceRules: { nonResourceURLs: string[] }[]; incomplete: boolean } }).status;
    expect(status.incomplete).toBe(false);
    expect(status.resourceRules).toContainEqual({ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] });
    expect(status.resourceRules).toContainEqual({ verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] });
    expect(status.nonResourceRules.flatMap((r) => r.nonResourceURLs)).toContain('/version');
    const elsewhere = post(cluster, ssrr, { spec: { namespace: 'kube-system' } }, builtinTokens.restricted);
    expect((elsewhere.body as { status: { resourceRules: unknown[] } }).status.resourceRules).not.toContainEqual({ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] });
    expect(post(cluster, ssrr, { spec: {} }).status).toBe(400);
  });

  it('tells the requester who it is (SelfSubjectReview), after impersonation too', () => {
    const cluster = booted();
    const res = post(cluster, ssr, { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1', metadata: { creationTimestamp: null }, status: { userInfo: {} } });
    expect(res.status).toBe(201);
    const body = res.body as { metadata: { creationTimestamp: string }; status: unknown };
    expect(body.status).toEqual({ userInfo: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] } });
    expect(body.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('is in discovery as create-only, cluster-scoped resources', () => {
    const cluster = booted();
    const list = adminCall(cluster, 'GET', '/apis/authorization.k8s.io/v1').body as { resources: { name: string; verbs: string[]; namespaced: boolean }[] };
    expect(list.resources.map((r) => r.name)).toEqual(['selfsubjectaccessreviews', 'selfsubjectrulesreviews', 'subjectaccessreviews']);
    for (const r of list.resources) expect(r).toMatchObject({ verbs: ['create'], namespaced: false });
  });
});

import { describe, expect, it } from 'vitest';
import { builtinTokens } from '../wire/credentials.ts';
import { bootedCluster, call, status } from './testing.ts';

describe('kube-apiserver: routes', () => {
  it('answers unknown paths like kube-apiserver: plain 404 outside served groups, Status inside', () => {
    const cluster = bootedCluster();
    const outside = call(cluster, 'GET', '/apis/nope.example.com/v1/things');
    expect(outside.response).toMatchObject({ status: 404, body: '404 page not found\n' });
    const inside = call(cluster, 'GET', '/api/v1/namespaces/default/widgets');
    expect(inside.response.status).toBe(404);
    expect(status(inside).message).toBe('the server could not find the requested resource');
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

import { describe, expect, it } from 'vitest';
import { parseRequestInfo, resolveRoute, type QueryParams, type RequestInfo } from './request-info.ts';

/** Splits `path?query` and decodes the query, as an HTTP front would. */
function query(search: string): QueryParams {
  const params = new Map<string, string>();
  for (const pair of search.split('&').filter((p) => p !== '')) {
    const [k, v = ''] = pair.split('=');
    params.set(decodeURIComponent(k!), decodeURIComponent(v));
  }
  return { get: (name) => params.get(name) ?? null };
}

function info(method: string, url: string): RequestInfo {
  const [path, search = ''] = url.split('?');
  const r = parseRequestInfo(method, path!, query(search));
  if ('error' in r) throw new Error(r.error);
  return r;
}

describe('parseRequestInfo', () => {
  // Cases from apiserver endpoints/request/requestinfo_test.go TestGetAPIRequestInfo.
  it.each([
    ['GET', '/api/v1/namespaces', 'list', '', '', 'namespaces', '', ''],
    ['GET', '/api/v1/namespaces/other', 'get', 'other', '', 'namespaces', '', 'other'],
    ['GET', '/api/v1/namespaces/other/pods', 'list', 'other', '', 'pods', '', ''],
    ['GET', '/api/v1/namespaces/other/pods/foo', 'get', 'other', '', 'pods', '', 'foo'],
    ['HEAD', '/api/v1/namespaces/other/pods/foo', 'get', 'other', '', 'pods', '', 'foo'],
    ['GET', '/api/v1/pods', 'list', '', '', 'pods', '', ''],
    ['GET', '/api/v1/namespaces/other/pods/foo/status', 'get', 'other', '', 'pods', 'status', 'foo'],
    ['GET', '/api/v1/namespaces/other/pods?watch=true', 'watch', 'other', '', 'pods', '', ''],
    ['GET', '/api/v1/namespaces/other/pods?watch=false', 'list', 'other', '', 'pods', '', ''],
    ['GET', '/api/v1/watch/namespaces/other/pods', 'watch', 'other', '', 'pods', '', ''],
    ['GET', '/api/v1/watch/namespaces/other/pods/foo', 'watch', 'other', '', 'pods', '', 'foo'],
    ['POST', '/api/v1/namespaces/other/pods', 'create', 'other', '', 'pods', '', ''],
    ['POST', '/api/v1/namespaces/other/pods/foo/binding', 'create', 'other', '', 'pods', 'binding', 'foo'],
    ['PUT', '/api/v1/namespaces/other/pods/foo', 'update', 'other', '', 'pods', '', 'foo'],
    ['PATCH', '/apis/apps/v1/namespaces/other/deployments/foo/scale', 'patch', 'other', 'apps', 'deployments', 'scale', 'foo'],
    ['DELETE', '/api/v1/namespaces/other/pods/foo', 'delete', 'other', '', 'pods', '', 'foo'],
    ['DELETE', '/api/v1/namespaces/other/pods', 'deletecollection', 'other', '', 'pods', '', ''],
    ['GET', '/api/v1/namespaces/other/pods?fieldSelector=metadata.name%3Dfoo', 'list', 'other', '', 'pods', '', 'foo'],
    ['PUT', '/api/v1/namespaces/other/finalize', 'update', 'other', '', 'namespaces', 'finalize', 'other'],
    ['PUT', '/api/v1/namespaces/other/status', 'update', 'other', '', 'namespaces', 'status', 'other'],
  ])('%s %s', (method, url, verb, namespace, apiGroup, resource, subresource, name) => {
    expect(info(method, url)).toMatchObject({ isResourceRequest: true, verb, namespace, apiGroup, resource, subresource, name });
  });

  it('leaves non-resource paths as they are', () => {
    expect(info('GET', '/healthz')).toMatchObject({ isResourceRequest: false, verb: 'get', path: '/healthz' });
    expect(info('GET', '/api/v1')).toMatchObject({ isResourceRequest: false });
    expect(info('GET', '/apis/apps/v1')).toMatchObject({ isResourceRequest: false });
  });

  it('rejects a bare watch prefix', () => {
    expect(parseRequestInfo('GET', '/api/v1/watch', query(''))).toEqual({ error: 'unable to determine kind and namespace from url, /api/v1/watch' });
  });
});

describe('resolveRoute', () => {
  const route = (method: string, url: string) => resolveRoute(method, info(method, url));
  const notFound = { kind: 'status', status: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 } };
  const notAllowed = { kind: 'status', status: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server does not allow this method on the requested resource', reason: 'MethodNotAllowed', details: {}, code: 405 } };
  const pageNotFound = { kind: 'text', code: 404, contentType: 'text/plain; charset=utf-8', body: '404 page not found\n' };

  it('resolves served routes to their resource and subresource', () => {
    const r = route('POST', '/api/v1/namespaces/default/pods/x/binding');
    expect('resource' in r && r.resource.resource).toBe('pods');
    expect('subresource' in r && r.subresource?.kind.kind).toBe('Binding');
    expect('resource' in route('GET', '/api/v1/pods')).toBe(true);
    expect('resource' in route('GET', '/api/v1/nodes/node-1')).toBe(true);
    expect('resource' in route('PATCH', '/api/v1/nodes/node-1/status')).toBe(true);
    expect('resource' in route('PUT', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1')).toBe(true);
    expect('resource' in route('DELETE', '/api/v1/namespaces/x')).toBe(true);
  });

  it.each([
    ['GET', '/apis/storage.k8s.io/v1/storageclasses'],
    ['GET', '/apis/apps/v2/namespaces/default/deployments'],
    ['GET', '/api/apps/v1/deployments'],
    ['GET', '/healthz'],
  ])('answers plain text 404 for %s %s', (method, url) => {
    expect(route(method, url)).toEqual(pageNotFound);
  });

  it.each([
    ['GET', '/api/v1/namespaces/default/foos'],
    ['GET', '/api/v1/namespaces/default/pods/x/proxy'],
    ['GET', '/api/v1/namespaces/default/nodes/x'],
    ['GET', '/api/v1/deployments'],
    ['GET', '/api/v1/namespaces/default/pods/x/status/more'],
  ])('answers a NotFound Status for %s %s', (method, url) => {
    expect(route(method, url)).toEqual(notFound);
  });

  it.each([
    ['POST', '/api/v1/namespaces/default/pods/x'],
    ['POST', '/api/v1/pods'],
    ['DELETE', '/api/v1/namespaces'],
    ['GET', '/api/v1/namespaces/default/pods/x/binding'],
    ['PUT', '/api/v1/namespaces/default/pods/x/log'],
    ['DELETE', '/api/v1/namespaces/default/pods/x/exec'],
    ['PUT', '/api/v1/namespaces/default/pods'],
    ['OPTIONS', '/api/v1/namespaces/default/pods'],
  ])('answers MethodNotAllowed for %s %s', (method, url) => {
    expect(route(method, url)).toEqual(notAllowed);
  });
});

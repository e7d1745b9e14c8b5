import { describe, expect, it } from 'vitest';
import { parseRequestTarget } from './request-path.ts';

describe('parseRequestTarget (Go\'s ParseRequestURI, then URL.Path)', () => {
  it('decodes %XX without resolving dot segments', () => {
    expect(parseRequestTarget('/api/v1/namespaces/%2e%2e/configmaps?limit=1')).toEqual({ ok: true, path: '/api/v1/namespaces/../configmaps', rawQuery: 'limit=1' });
    expect(parseRequestTarget('/api/../v1/./x')).toEqual({ ok: true, path: '/api/../v1/./x', rawQuery: '' });
    expect(parseRequestTarget('/a%2Fb/%C3%BC')).toEqual({ ok: true, path: '/a/b/ü', rawQuery: '' });
    // The query stays raw: the apiserver decodes it parameter by parameter.
    expect(parseRequestTarget('/x?a=%2e%2e&b=%zz')).toEqual({ ok: true, path: '/x', rawQuery: 'a=%2e%2e&b=%zz' });
  });

  it('takes the absolute form and "*"', () => {
    expect(parseRequestTarget('http://host:6443/version?x=1')).toEqual({ ok: true, path: '/version', rawQuery: 'x=1' });
    expect(parseRequestTarget('http://host')).toEqual({ ok: true, path: '/', rawQuery: '' });
    expect(parseRequestTarget('*')).toEqual({ ok: true, path: '*', rawQuery: '' });
  });

  it('refuses bad escapes, control characters and relative targets', () => {
    for (const bad of ['/api/%zz', '/api/%', '/api/%4', '/a\u0001b', 'version', 'a/b', 'http//x']) expect(parseRequestTarget(bad), bad).toEqual({ ok: false });
  });

  it('keeps invalid UTF-8 as replacement characters', () => {
    expect(parseRequestTarget('/x/%ff')).toEqual({ ok: true, path: '/x/\ufffd', rawQuery: '' });
  });
});

import { describe, expect, it } from 'vitest';
import { base64UrlEncode, decodeContinue, encodeContinue } from './continue-token.ts';

describe('continue tokens', () => {
  it('encodes the reference example exactly', () => {
    // reference/semantics.md C.5: {"v":"meta.k8s.io/v1","rv":12345,"start":"default/nginx-abc\u0000"}
    const token = encodeContinue('/registry/pods/default/nginx-abc\u0000', '/registry/pods/', 12345);
    expect(token).toBe('eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzNDUsInN0YXJ0IjoiZGVmYXVsdC9uZ2lueC1hYmNcdTAwMDAifQ');
  });

  it('decodes what it encodes', () => {
    const token = encodeContinue('/registry/pods/default/x\u0000', '/registry/pods/', 77);
    expect(decodeContinue(token, '/registry/pods/')).toEqual({ ok: true, value: { fromKey: '/registry/pods/default/x\u0000', rv: 77 } });
  });

  it.each([
    ['not base64 at all!', 'invalid continue token: illegal base64 data'],
    [base64UrlEncode('{"v":"v2","rv":1,"start":"a"}'), 'invalid continue token: continue key is not valid: server does not recognize this encoded key'],
    [base64UrlEncode('{"v":"meta.k8s.io/v1","rv":0,"start":"a"}'), 'invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)'],
    [base64UrlEncode('{"v":"meta.k8s.io/v1","rv":5,"start":""}'), 'invalid continue token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)'],
    [base64UrlEncode('{"v":"meta.k8s.io/v1","rv":5,"start":"../secrets"}'), 'invalid continue token: continue key is not valid: ../secrets'],
  ])('rejects %s', (token, error) => {
    expect(decodeContinue(token, '/registry/pods/')).toEqual({ ok: false, error });
  });
});

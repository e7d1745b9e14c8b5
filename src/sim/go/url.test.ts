import { describe, expect, it } from 'vitest';
import { formatQuery, parseQuery } from './url.ts';

describe('query strings', () => {
  it('encodes like client-go: sorted keys, Go query escaping', () => {
    // The request lines kubectl 1.32 sends (reference/kubectl-wire.md §3.3, §3.5).
    expect(formatQuery([['limit', '500'], ['labelSelector', 'app=nginx,tier!=db']]))
      .toBe('labelSelector=app%3Dnginx%2Ctier%21%3Ddb&limit=500');
    expect(formatQuery([['fieldValidation', 'Strict'], ['fieldManager', 'kubectl-create']]))
      .toBe('fieldManager=kubectl-create&fieldValidation=Strict');
    expect(formatQuery([['fieldSelector', 'spec.nodeName=node 1']])).toBe('fieldSelector=spec.nodeName%3Dnode+1');
  });

  it('decodes what it encodes, first value wins, malformed escapes are dropped', () => {
    const q = parseQuery('labelSelector=app%3Dnginx%2Ctier%21%3Ddb&limit=500&limit=7&bad=%zz&flag');
    expect(q.get('labelSelector')).toBe('app=nginx,tier!=db');
    expect(q.get('limit')).toBe('500');
    expect(q.has('bad')).toBe(false);
    expect(q.get('flag')).toBe('');
    expect(parseQuery('').size).toBe(0);
  });
});

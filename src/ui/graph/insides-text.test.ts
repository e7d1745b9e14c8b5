import { describe, expect, it } from 'vitest';
import { shortKey, shortName, shortPod } from './insides-text.ts';

describe('short forms for the component boxes', () => {
  it('elides the generated middle of a name, keeping its start and its random suffix', () => {
    expect(shortName('nginx-deployment-66b6c48dd5-4jw2p')).toBe('nginx-deployment-…-4jw2p');
    expect(shortName('nginx-deployment-66b6c48dd5-4jw2p', 16)).toBe('nginx-…-4jw2p');
    expect(shortName('my-replicaset-x2k9q')).toBe('my-replicaset-x2k9q');
    expect(shortName('nginx-deployment-7f4d79f7d7', 16)).toBe('nginx-…f4d79f7d7');
    expect(shortName('averyveryverylongnamewithoutdashes', 20)).toBe('averyveryvery…dashes');
  });

  it('leaves the default namespace out of a pod and keeps others', () => {
    expect(shortPod('default/nginx-deployment-66b6c48dd5-4jw2p')).toBe('nginx-deployment-…-4jw2p');
    expect(shortPod('kube-system/coredns-5d78c9869d-abcde', 30)).toBe('kube-system/coredns-…-abcde');
  });

  it('drops /registry and shortens the name of a key', () => {
    expect(shortKey('/registry/pods/default/nginx-deployment-66b6c48dd5-4jw2p')).toBe('pods/…/nginx-deployment-…-4jw2p');
    expect(shortKey('/registry/replicasets/default/nginx-deployment-66b6c48dd5')).toBe('replicasets/…/nginx-…-66b6c48dd5');
    expect(shortKey('/registry/deployments/default/nginx-deployment')).toBe('deployments/…/nginx-deployment');
    expect(shortKey('/registry/namespaces/demo')).toBe('namespaces/demo');
    expect(shortKey('foo')).toBe('foo');
    for (const key of ['/registry/pods/default/nginx-deployment-66b6c48dd5-4jw2p', '/registry/replicasets/default/nginx-deployment-66b6c48dd5']) expect(shortKey(key).length).toBeLessThanOrEqual(34);
  });
});

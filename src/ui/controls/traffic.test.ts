import { describe, expect, it } from 'vitest';
import type { ComponentView, Topology } from '../../protocol/index.ts';
import { etcdctlTarget } from './traffic.ts';

function topology(etcdModelled: boolean, linked = true): Topology {
  const components: ComponentView[] = [
    { name: 'user', role: 'user', modelled: true },
    { name: 'etcd-0', role: 'etcd', modelled: etcdModelled },
  ];
  return { components, links: linked ? [{ a: 'user', b: 'etcd-0', latency: 5, jitter: 0 }] : [] };
}

describe('etcdctlTarget', () => {
  it('offers etcdctl only once etcd is modelled and linked to the user, by its topology name', () => {
    expect(etcdctlTarget(undefined)).toBeNull();
    expect(etcdctlTarget(topology(false))).toBeNull();
    expect(etcdctlTarget(topology(true, false))).toBeNull();
    expect(etcdctlTarget(topology(true))).toBe('etcd-0');
  });
});

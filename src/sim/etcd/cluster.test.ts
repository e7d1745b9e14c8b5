import { describe, expect, it } from 'vitest';
import { clusterId, clusterMembers, defaultCluster, hexId, memberId } from './cluster.ts';

describe('member and cluster IDs', () => {
  it("give a default single etcd's IDs (8e9e05c52164694d in cluster cdf818194e3a8c32)", () => {
    const id = memberId(['http://localhost:2380'], 'etcd-cluster');
    expect(id).toBe(defaultCluster.memberId);
    expect(hexId(id)).toBe('8e9e05c52164694d');
    expect(clusterId([id])).toBe(defaultCluster.clusterId);
  });

  it('do not depend on the order members are listed in', () => {
    const a = clusterMembers([{ name: 'a', peerURLs: ['http://a:2380'], clientURLs: [] }, { name: 'b', peerURLs: ['http://b:2380'], clientURLs: [] }], 't');
    const b = clusterMembers([{ name: 'b', peerURLs: ['http://b:2380'], clientURLs: [] }, { name: 'a', peerURLs: ['http://a:2380'], clientURLs: [] }], 't');
    expect(a.clusterId).toBe(b.clusterId);
    expect(a.members[0]!.id).toBe(b.members[1]!.id);
  });
});

// The identity of the simulated etcd: one member, cluster and member IDs of a default single-member
// etcd (name "default", peer URL http://localhost:2380, token "etcd-cluster"), raft term 2.
// Models etcdserver/api/membership (member and cluster ID generation) and v3rpc/header.go (fill).

import type { ResponseHeader } from './rpc.ts';

export interface ClusterIdentity {
  /** uint64, decimal: first 8 bytes of SHA-1 over the sorted member IDs. */
  readonly clusterId: string;
  /** uint64, decimal: first 8 bytes of SHA-1 over the sorted peer URLs and the cluster token. */
  readonly memberId: string;
  readonly raftTerm: number;
}

export const defaultCluster: ClusterIdentity = Object.freeze({
  clusterId: '14841639068965178418', // 0xcdf818194e3a8c32
  memberId: '10276657743932975437', // 0x8e9e05c52164694d
  raftTerm: 2,
});

/** The top-level header: IDs and term from the server, revision kept if set, else the current one. */
export function fillHeader(h: ResponseHeader, id: ClusterIdentity, currentRev: number): ResponseHeader {
  return { clusterId: id.clusterId, memberId: id.memberId, revision: h.revision !== 0 ? h.revision : currentRev, raftTerm: id.raftTerm };
}

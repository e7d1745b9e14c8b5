// The identity of the simulated etcd: the cluster's members, their IDs and the cluster ID, computed as
// etcd computes them for `--initial-cluster` and `--initial-cluster-token`, and the response header's
// fill. A single member is etcd's default (name "default", peer URL http://localhost:2380, token
// "etcd-cluster"), whose header shows raft term 2 (the bootstrap entries are term 1; its election makes
// term 2). Models etcdserver/api/membership/member.go (NewMember), cluster.go (genID) and
// v3rpc/header.go (fill).

import { utf8Encode } from './bytes.ts';
import type { ResponseHeader } from './rpc.ts';
import { sha1 } from './sha1.ts';

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

export interface MemberConfig {
  /** `--name`. */
  readonly name: string;
  /** `--initial-advertise-peer-urls`. */
  readonly peerURLs: readonly string[];
  /** `--advertise-client-urls`. */
  readonly clientURLs: readonly string[];
}

export interface Member extends MemberConfig {
  /** uint64, decimal. */
  readonly id: string;
}

/** The first 8 bytes of a SHA-1, as a decimal uint64. */
function idOf(bytes: Uint8Array): string {
  let id = 0n;
  for (const b of sha1(bytes).subarray(0, 8)) id = (id << 8n) | BigInt(b);
  return id.toString();
}

/** NewMember: SHA-1 over the sorted peer URLs, then the cluster token. */
export function memberId(peerURLs: readonly string[], token: string): string {
  return idOf(utf8Encode([...peerURLs].sort().join('') + token));
}

/** genID: SHA-1 over the member IDs, sorted, as big-endian uint64s. */
export function clusterId(memberIds: readonly string[]): string {
  const sorted = memberIds.map(BigInt).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const bytes = new Uint8Array(8 * sorted.length);
  const view = new DataView(bytes.buffer);
  sorted.forEach((id, i) => view.setBigUint64(8 * i, id));
  return idOf(bytes);
}

/** The members of a cluster started with the same `--initial-cluster` and token, in the given order. */
export function clusterMembers(configs: readonly MemberConfig[], token: string): { readonly clusterId: string; readonly members: readonly Member[] } {
  const members = configs.map((c) => ({ ...c, id: memberId(c.peerURLs, token) }));
  return { clusterId: clusterId(members.map((m) => m.id)), members };
}

/** `--initial-cluster-token` default. */
export const defaultClusterToken = 'etcd-cluster';

/** The members of an n-member cluster as Podflow names them: etcd-1 … etcd-n, one host each. */
export function memberConfigs(n: number): MemberConfig[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `etcd-${i + 1}`, peerURLs: [`http://etcd-${i + 1}:2380`], clientURLs: [`http://etcd-${i + 1}:2379`],
  }));
}

/** Hex as etcd prints member IDs (`%x`). */
export function hexId(id: string): string {
  return BigInt(id).toString(16);
}

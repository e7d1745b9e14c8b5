// What a member answers on its own, without raft: Maintenance.Status (its identity, version, raft
// state and the bbolt file's size) and Cluster.MemberList (the membership it knows, sorted by ID).
// Models etcdserver/api/v3rpc/maintenance.go (Status: leader, raft index and term, applied index,
// `etcdserver: no leader` when the member knows none) and member.go / membership/cluster.go (Members,
// sorted by ID; 3.4 serves the list from the member's own store).
// Deviation: the model has no bbolt file. Its size is an estimate: a fresh etcd's 20 kB (meta, freelist
// and bucket pages) plus the stored revisions (17-byte revision key, the KeyValue's key and value, ~24
// bytes of fields) in 4 KiB pages; `dbSizeInUse` is that size too.

import type { Member } from './cluster.ts';
import type { MemberListResponse, ResponseHeader, StatusResponse } from './rpc.ts';

export const etcdVersion = '3.4.23';

/** etcdserver's ErrNoLeader as Status reports it. */
export const errNoLeader = 'etcdserver: no leader';

/** A single member's membership: etcd's defaults (`--name default`, localhost URLs). */
export function defaultMembers(memberId: string): Member[] {
  return [{ id: memberId, name: 'default', peerURLs: ['http://localhost:2380'], clientURLs: ['http://localhost:2379'] }];
}

/** The estimated bbolt file size of a store holding these revisions. */
export function estimatedDbSize(sizes: (f: (key: string, valueLength: number) => void) => void): number {
  let revisions = 0;
  let bytes = 0;
  sizes((key, valueLength) => {
    revisions++;
    bytes += key.length + valueLength;
  });
  return 20480 + Math.ceil((bytes + revisions * (17 + 24)) / 4096) * 4096;
}

/** What Status reads from the member. `leader` is the leader's member ID ('0': none known). */
export interface MemberState {
  readonly header: ResponseHeader;
  readonly dbSize: number;
  readonly leader: string;
  readonly raftIndex: number;
  readonly raftAppliedIndex: number;
}

export function statusResponse(s: MemberState): StatusResponse {
  return {
    header: s.header, version: etcdVersion, dbSize: s.dbSize, leader: s.leader, raftIndex: s.raftIndex, raftTerm: s.header.raftTerm,
    raftAppliedIndex: s.raftAppliedIndex, errors: s.leader === '0' ? [errNoLeader] : [], dbSizeInUse: s.dbSize, isLearner: false,
  };
}

export function memberListResponse(header: ResponseHeader, members: readonly Member[]): MemberListResponse {
  const sorted = [...members].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0));
  return {
    header: { ...header, revision: 0 },
    members: sorted.map((m) => ({ ID: m.id, name: m.name, peerURLs: m.peerURLs, clientURLs: m.clientURLs, isLearner: false })),
  };
}

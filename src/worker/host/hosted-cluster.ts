// What a host runs and shows: the cluster it is handed (HostedCluster), the spec it was built from
// (ClusterSpec) and checks of that spec, and what the timeline records of the cluster after every delivery.
// Every piece of the host (src/worker/host/*.ts) and the server's host (src/server/cluster-host.ts) read
// these; nothing here holds state.

import type { EtcdMemberCount } from '../../protocol/index.ts';
import { etcdMemberCounts, maxNodes } from '../../protocol/index.ts';
import type { ClusterTopology } from '../../sim/cluster.ts';
import type { Engine } from '../../sim/engine/index.ts';
import type { User } from '../../sim/user/user.ts';
import type { AuditSource } from '../console/logs.ts';
import { errorLabel } from '../error-markers.ts';
import type { KeyspaceSource } from '../keyspace.ts';
import type { InspectedCluster } from '../queries.ts';
import type { StepSample, Timeline } from '../timeline.ts';

/** What the host needs of a cluster (`Cluster` from src/sim/cluster.ts is one). */
export interface HostedCluster {
  readonly engine: Engine;
  readonly user: User;
  readonly topology: ClusterTopology;
  /** The etcd member whose keyspace the UI mirrors; absent in clusters without one. */
  readonly etcd?: KeyspaceSource;
  /** kube-scheduler's attempt records, for the scheduler table; absent or null without a scheduler. */
  readonly scheduler?: InspectedCluster['scheduler'];
  /** kube-apiserver, whose audit log feeds the logs panel; absent in clusters without one. */
  readonly apiserver?: { readonly audit: AuditSource } & InspectedCluster['apiserver'];
  /** Brings the control plane up (the host calls it before `ready`); without it the host runs until idle. */
  boot?(): number;
}

export interface ClusterSpec {
  readonly seed: string | number;
  readonly nodes: number;
  /** kube-apiserver's `--storage-media-type`; absent means protobuf. */
  readonly storageMediaType?: 'protobuf' | 'json';
  /** etcd members (1, 3 or 5); absent means 1. */
  readonly etcdMembers?: EtcdMemberCount;
}

/**
 * A cluster's options where they are not the defaults (protobuf storage, one etcd member), as every saved
 * form of a cluster carries them: commands, saved records, export files, `ready`.
 */
export function specOptions(spec: Pick<ClusterSpec, 'storageMediaType' | 'etcdMembers'>): { storageMediaType?: 'json'; etcdMembers?: 3 | 5 } {
  return {
    ...(spec.storageMediaType === 'json' ? { storageMediaType: 'json' as const } : {}),
    ...(spec.etcdMembers === 3 || spec.etcdMembers === 5 ? { etcdMembers: spec.etcdMembers } : {}),
  };
}

export function checkSpec({ seed, nodes, etcdMembers }: ClusterSpec): void {
  if (etcdMembers !== undefined && !etcdMemberCounts.includes(etcdMembers)) throw new RangeError(`etcd members must be 1, 3 or 5, got ${String(etcdMembers)}`);
  if (!(typeof seed === 'string' ? seed !== '' : Number.isFinite(seed))) throw new RangeError('seed must be a non-empty string or a finite number');
  requirePositiveInteger('node count', nodes);
  if (nodes > maxNodes) throw new RangeError(`node count must be at most ${maxNodes}, got ${nodes}`);
}

export function requirePositiveInteger(what: string, value: number): void {
  if (!(Number.isInteger(value) && value >= 1)) throw new RangeError(`${what} must be a positive integer, got ${value}`);
}

/** What the timeline records of a cluster after a delivery. */
export function sampleOf(cluster: HostedCluster): StepSample {
  const { engine } = cluster;
  return { now: engine.now, pending: engine.pending, idle: engine.idle, revision: cluster.etcd?.store.currentRev ?? 0, sent: engine.lastMessageId };
}

/** Records every delivery of `cluster` on `timeline`: the sample after it, and a marker when it was an error. */
export function recordDeliveries(cluster: HostedCluster, timeline: Timeline): void {
  cluster.engine.onDelivery((message) => {
    timeline.record(sampleOf(cluster));
    const error = errorLabel(message);
    if (error !== null) timeline.mark(timeline.head, 'error', error);
  });
}

// Replay after reload equals the live run, at any size. The live run is driven as the page drives it: a
// cluster built as the worker's host builds it, the user's commands applied through applyUserCommand and
// logged with their step and instant (`kubectl create -f` of a Deployment of N replicas, and mid-way a
// `kubectl get` typed in the console), fast-forwarded in chunks of virtual time that move the clock past
// the last delivery, until the Deployment is Available. The replay is the reload's: a fresh cluster, the
// log and the live run's step handed to replay.ts. Both runs are summed up by the same digest (the trace
// hash of every record kept, the etcd keyspace's hash, kube-scheduler's attempts), which must be equal.
// `npm run bench -- replay` runs it at the bench's size; replay-proof.test.ts at a few nodes.

import type { LoggableCommand } from '../protocol/index.ts';
import type { Deployment } from '../sim/api/types/apps.ts';
import { decodeStored } from '../sim/apiserver/storage/codec.ts';
import { createCluster, type Cluster } from '../sim/cluster.ts';
import { traceHash, type Message } from '../sim/engine/index.ts';
import { webDeployment } from '../sim/scenarios/scale-build.ts';
import { productBounds } from './host/bounds.ts';
import { bootCluster, logEntry, replayNow, type LogEntry } from './replay.ts';
import { applyUserCommand } from './user-commands.ts';

export interface ProofSize {
  readonly nodes: number;
  readonly pods: number;
}

/** What two runs must agree on. */
export interface RunDigest {
  readonly step: number;
  /** The hash of every trace record kept (the newest `productBounds.traceRetention`). */
  readonly trace: string;
  /** The hash of every etcd key with its revisions and value. */
  readonly etcd: string;
  readonly keys: number;
  /** The hash of kube-scheduler's attempt records. */
  readonly scheduler: string;
  readonly available: number;
}

export interface LiveRun {
  readonly digest: RunDigest;
  readonly log: readonly LogEntry<LoggableCommand>[];
  /** Whether every Pod was Available (not stopped first). */
  readonly converged: boolean;
}

/** The cluster as the page's worker builds it for `size` (host.ts `buildCluster`). */
function proofCluster(size: ProofSize, seed = 'replay-proof'): Cluster {
  return createCluster({ seed, nodes: size.nodes, traceLimit: productBounds.traceRetention, tracePayloadLimit: productBounds.tracePayloadRetention, schedulerAttemptLimit: productBounds.schedulerAttempts });
}

export interface LiveRunOptions {
  /** Sees the progress after every chunk: Pods available, steps delivered. */
  readonly afterChunk?: (available: number, step: number) => void;
  /** Asked after every chunk: true ends the run before the Deployment is Available. */
  readonly stop?: () => boolean;
}

/**
 * The live run: boots, applies the commands as the host does (logging each), and fast-forwards one virtual
 * second a chunk until the Deployment is Available or `stop` says so.
 */
export function liveRun(size: ProofSize, options: LiveRunOptions = {}): LiveRun {
  const cluster = proofCluster(size);
  bootCluster(cluster);
  const log: LogEntry<LoggableCommand>[] = [];
  const apply = (command: LoggableCommand) => {
    log.push(logEntry(cluster.engine, command));
    applyUserCommand(cluster, command);
  };
  apply({ type: 'applyManifest', yaml: webDeployment(size.pods).yaml });
  let available = 0;
  let typed = false;
  while (available < size.pods && !(options.stop?.() ?? false)) {
    cluster.engine.run({ until: cluster.engine.now + 1000 });
    available = availableReplicas(cluster);
    if (!typed && available >= size.pods / 2) {
      apply({ type: 'consoleRun', id: 1, line: 'kubectl get deployment web' });
      typed = true;
    }
    options.afterChunk?.(available, cluster.engine.step);
  }
  return { digest: digest(cluster), log, converged: available >= size.pods };
}

/** The reload: a fresh cluster replays `log` to `step`. */
export function replayedRun(size: ProofSize, log: readonly LogEntry<LoggableCommand>[], step: number): RunDigest {
  const cluster = proofCluster(size);
  replayNow(cluster, log, step);
  return digest(cluster);
}

function digest(cluster: Cluster): RunDigest {
  const kvs = cluster.etcd.kv.range({ key: '\0', rangeEnd: '\0' }).kvs;
  return {
    step: cluster.engine.step,
    trace: traceHash(cluster.engine.trace.all()),
    // traceHash reads each item's JSON: any JSON-serialisable items hash the same way.
    etcd: traceHash(kvs as unknown as readonly Message[]),
    keys: kvs.length,
    scheduler: traceHash((cluster.scheduler?.attempts ?? []) as unknown as readonly Message[]),
    available: availableReplicas(cluster),
  };
}

/** Deployment `web`'s status.availableReplicas as stored in etcd (0 before it exists). */
function availableReplicas(cluster: Cluster): number {
  const kv = cluster.etcd.kv.range({ key: '/registry/deployments/default/web' }).kvs[0];
  return kv ? ((decodeStored(kv.value) as Deployment).status?.availableReplicas ?? 0) : 0;
}

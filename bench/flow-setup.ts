// The flow bench's cluster and Deployment, shared by bench/flow.bench.ts and the profiling tools:
// `PODFLOW_BENCH_REPLICAS` and `PODFLOW_BENCH_NODES` pick the size (default 1,000 on 50),
// `PODFLOW_BENCH_STORAGE` the storage media type (protobuf, the default, or json),
// `PODFLOW_BENCH_ETCD_MEMBERS` etcd's members (1, the default, 3 or 5),
// `PODFLOW_BENCH_TRACE_PAYLOADS` the newest steps whose trace records keep whole payloads (default
// 10,000 of the 100,000 records kept; `all` keeps every payload, as before session 8).

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { builtinTokens } from '../src/sim/wire/credentials.ts';
import { httpKinds } from '../src/sim/wire/http.ts';
import type { Deployment } from '../src/sim/api/types/apps.ts';
import { createCluster, type Cluster } from '../src/sim/cluster.ts';
import { decodeStored } from '../src/sim/apiserver/storage/codec.ts';

export const benchReplicas = Number(process.env.PODFLOW_BENCH_REPLICAS ?? 1000);
export const benchNodes = Number(process.env.PODFLOW_BENCH_NODES ?? 50);
/** kube-apiserver's --storage-media-type for the run: protobuf (the default) or json. */
const storageMediaType = process.env.PODFLOW_BENCH_STORAGE === 'json' ? 'json' : 'protobuf';
/** The trace's tracePayloadLimit: older records keep their payloads' summaries. */
const benchTracePayloads = process.env.PODFLOW_BENCH_TRACE_PAYLOADS === 'all' ? 100_000 : Number(process.env.PODFLOW_BENCH_TRACE_PAYLOADS ?? 10_000);
/** etcd's members (`PODFLOW_BENCH_ETCD_MEMBERS`: 1, the default, 3 or 5). */
export const benchEtcdMembers = ([1, 3, 5] as const).find((n) => String(n) === process.env.PODFLOW_BENCH_ETCD_MEMBERS) ?? 1;

/** The bench's cluster; `tracePayloads`: its tracePayloadLimit (default `PODFLOW_BENCH_TRACE_PAYLOADS`'s). */
export function createBenchCluster(tracePayloads = benchTracePayloads): Cluster {
  // Beyond 100 nodes the cluster raises --max-requests-inflight / --max-mutating-requests-inflight itself
  // (largeClusterMaxInFlight in src/sim/cluster.ts), as the bench did before.
  return createCluster({ seed: 'bench-flow', nodes: benchNodes, traceLimit: 100_000, tracePayloadLimit: tracePayloads, schedulerAttemptLimit: 1_000, storageMediaType, etcdMembers: benchEtcdMembers });
}

/** Sends the user's POST of Deployment `web` with `replicas` replicas (it takes effect as the engine runs). */
export function postDeployment(cluster: Cluster, replicas = benchReplicas, name = 'web'): void {
  cluster.user.request('kube-apiserver', httpKinds.request, {
    method: 'POST', path: '/apis/apps/v1/namespaces/default/deployments', query: '',
    headers: { authorization: `Bearer ${builtinTokens.admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
      spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image: 'nginx:1.14.2' }] } } },
    }),
  });
}

/** The Deployment's status.availableReplicas as stored in etcd (0 before it exists). */
export function availableReplicas(cluster: Cluster, name = 'web'): number {
  const kv = cluster.etcd.kv.range({ key: `/registry/deployments/default/${name}` }).kvs[0];
  return kv ? ((decodeStored(kv.value) as Deployment).status?.availableReplicas ?? 0) : 0;
}

/** A full garbage collection on demand without `--expose-gc` on the command line (the bench runner is plain tsx). */
export function forcedGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

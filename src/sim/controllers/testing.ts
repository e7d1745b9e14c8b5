// Test support for the controllers: a booted cluster with kube-controller-manager linked to
// kube-apiserver, requests as the admin user, and invariants checked after every step.

import { builtinTokens } from '../wire/credentials.ts';
import { httpKinds, type HttpRequest, type HttpResponse } from '../wire/http.ts';
import { createCluster, type Cluster } from '../cluster.ts';
import type { Pod } from '../api/types/core.ts';
import type { Deployment, ReplicaSet } from '../api/types/apps.ts';
import type { List } from '../api/types/meta.ts';
import { KubeControllerManager, kubeControllerManagerName, type KubeControllerManagerOptions } from './kube-controller-manager.ts';
import { getControllerOf } from './controller-utils.ts';
import { formatTimestamp } from '../api/time.ts';
import { decodeStored } from '../apiserver/storage/codec.ts';

/** Objects of one resource read straight from etcd's store (no message, no trace step), for invariants. */
export function stored<T>(cluster: Cluster, resource: string, namespace = 'default'): T[] {
  const prefix = `/registry/${resource}/${namespace}/`;
  const end = prefix.slice(0, -1) + '0';
  return cluster.etcd.kv.range({ key: prefix, rangeEnd: end }).kvs.map((kv) => decodeStored(kv.value) as T);
}

export interface ControllerTestCluster {
  readonly cluster: Cluster;
  readonly kcm: KubeControllerManager;
  request(method: HttpRequest['method'], path: string, body?: object, contentType?: string): HttpResponse;
  pods(namespace?: string): Pod[];
  replicaSets(namespace?: string): ReplicaSet[];
  deployments(namespace?: string): Deployment[];
  /** Marks a pod Running and Ready (what a kubelet would do) by PATCHing its status as the admin. */
  markReady(name: string, namespace?: string): void;
}

export function controllerTestCluster(seed: string, options: KubeControllerManagerOptions = {}): ControllerTestCluster {
  const cluster = createCluster({ seed, components: { controllerManager: false, scheduler: false, kubelets: false } });
  cluster.engine.runUntilIdle();
  // A controller's tests leave leader election out (its own tests are in client/leader-election.test.ts).
  const kcm = cluster.engine.add(new KubeControllerManager({ leaderElect: false, ...options }));
  cluster.engine.link(kubeControllerManagerName, 'kube-apiserver', { latency: 2 });
  kcm.start();
  cluster.engine.runUntilIdle();

  function request(method: HttpRequest['method'], path: string, body?: object, contentType = 'application/json'): HttpResponse {
    const [p, q] = path.split('?') as [string, string | undefined];
    const sent = cluster.user.request('kube-apiserver', httpKinds.request, {
      method, path: p, query: q ?? '',
      headers: { authorization: `Bearer ${builtinTokens.admin}`, accept: 'application/json', ...(body ? { 'content-type': contentType } : {}) },
      ...(body ? { body } : {}),
    });
    cluster.engine.runUntilIdle();
    const reply = cluster.user.received().find((r) => r.requestId === sent.id);
    if (!reply) throw new Error(`no response to ${method} ${path}`);
    return reply.message.payload as HttpResponse;
  }
  const list = <T>(path: string) => (request('GET', path).body as List<T & { metadata: object }>).items as T[];
  const t: ControllerTestCluster = {
    cluster, kcm, request,
    pods: (ns = 'default') => list<Pod>(`/api/v1/namespaces/${ns}/pods`),
    replicaSets: (ns = 'default') => list<ReplicaSet>(`/apis/apps/v1/namespaces/${ns}/replicasets`),
    deployments: (ns = 'default') => list<Deployment>(`/apis/apps/v1/namespaces/${ns}/deployments`),
    markReady(name, ns = 'default') {
      const now = formatTimestamp(cluster.engine.epochMs + cluster.engine.now);
      const res = request('PATCH', `/api/v1/namespaces/${ns}/pods/${name}/status`, {
        status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: now }] },
      }, 'application/merge-patch+json');
      if (res.status !== 200) throw new Error(`mark ${name} ready: ${res.status} ${JSON.stringify(res.body)}`);
    },
  };
  return t;
}

/** Invariant: every pod whose controller is a ReplicaSet names a stored ReplicaSet with that uid. */
export function podsOwnedByExistingReplicaSets(cluster: Cluster): () => string | undefined {
  return () => {
    const uids = new Set(stored<ReplicaSet>(cluster, 'replicasets').map((rs) => rs.metadata.uid));
    for (const p of stored<Pod>(cluster, 'pods')) {
      const ref = getControllerOf(p);
      if (ref?.kind === 'ReplicaSet' && !uids.has(ref.uid)) return `pod ${p.metadata.name} owned by missing ReplicaSet ${ref.name}`;
    }
    return undefined;
  };
}

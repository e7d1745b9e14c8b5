import { describe, expect, it } from 'vitest';
import { builtinTokens } from './wire/credentials.ts';
import { httpKinds } from './wire/http.ts';
import type { Deployment } from './api/types/apps.ts';
import type { Pod } from './api/types/core.ts';
import { createCluster } from './cluster.ts';
import { runTwiceWithPerturbedHost } from './testing/determinism.ts';
import { decodeStored } from './apiserver/storage/codec.ts';

// The seeds' nginx Deployment (seeds/000), through the whole control plane.
const nginx = {
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nginx-deployment', labels: { app: 'nginx' } },
  spec: { replicas: 1, selector: { matchLabels: { app: 'nginx' } }, template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.14.2', ports: [{ containerPort: 80 }] }] } } },
};

function bootAndCreate(seed: string) {
  const cluster = createCluster({ seed });
  cluster.boot();
  cluster.user.request('kube-apiserver', httpKinds.request, {
    method: 'POST', path: '/apis/apps/v1/namespaces/default/deployments', query: 'fieldManager=kubectl-create&fieldValidation=Strict',
    headers: { authorization: `Bearer ${builtinTokens.admin}`, 'content-type': 'application/json', 'user-agent': 'kubectl/v1.32.4 (linux/amd64) kubernetes/4cb5f07' },
    body: JSON.stringify(nginx),
  });
  cluster.engine.runUntilIdle();
  return cluster;
}

describe('the whole flow: kubectl create deployment → running pod', () => {
  it('boots nodes and controllers, then the seeds\' nginx Deployment ends Available with its pod Running on a node', () => {
    const cluster = bootAndCreate('flow');
    const get = (key: string) => decodeStored(cluster.etcd.kv.range({ key }).kvs[0]!.value) as unknown;
    const keys = cluster.etcd.kv.range({ key: '/registry/', rangeEnd: '/registry0', keysOnly: true }).kvs.map((kv) => kv.key);
    expect(keys.filter((k) => k.startsWith('/registry/minions/'))).toEqual(['/registry/minions/node-1', '/registry/minions/node-2', '/registry/minions/node-3']);
    const rsKey = keys.find((k) => k.startsWith('/registry/replicasets/default/nginx-deployment-'))!;
    const podKey = keys.find((k) => k.startsWith('/registry/pods/default/nginx-deployment-'))!;
    expect(rsKey).toMatch(/^\/registry\/replicasets\/default\/nginx-deployment-[456789bcdf]{1,10}$/);
    const pod = get(podKey) as Pod;
    expect(pod.spec.nodeName).toMatch(/^node-[123]$/);
    expect(pod.status?.phase).toBe('Running');
    expect(pod.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    const deployment = get('/registry/deployments/default/nginx-deployment') as Deployment;
    expect(deployment.status?.availableReplicas).toBe(1);
    expect(deployment.status?.conditions?.find((c) => c.type === 'Available')).toMatchObject({ status: 'True', reason: 'MinimumReplicasAvailable' });
    expect(cluster.engine.idle).toBe(true);
  });

  it('replays the whole flow to a byte-identical trace', () => {
    const [a, b] = runTwiceWithPerturbedHost(() => bootAndCreate('flow-replay').engine);
    expect(b.hash).toBe(a.hash);
  });
});

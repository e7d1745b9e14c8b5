// Behaviours a Kubernetes client test suite checks against a real 1.28 cluster, each with the real
// answer: status code, reason and message (issue 17's nine behaviours that belong to the registry,
// the controllers and validation), plus the pod's QoS class kept through the kubelet's status writes.

import { describe, expect, it } from 'vitest';
import type { Deployment, ReplicaSet } from '../../api/types/apps.ts';
import type { Pod } from '../../api/types/core.ts';
import type { List, Status } from '../../api/types/meta.ts';
import { parseTimestamp } from '../../api/time.ts';
import { createCluster, type Cluster } from '../../cluster.ts';
import { builtinTokens } from '../../wire/credentials.ts';
import { httpKinds, type HttpMethod, type HttpResponse } from '../../wire/http.ts';

function booted(seed: string): Cluster {
  const cluster = createCluster({ seed });
  cluster.boot();
  return cluster;
}

function call(cluster: Cluster, method: HttpMethod, path: string, body?: unknown, contentType = 'application/json'): HttpResponse {
  const [p, q] = path.split('?') as [string, string | undefined];
  const request = cluster.user.request('kube-apiserver', httpKinds.request, {
    method, path: p, query: q ?? '',
    headers: { authorization: `Bearer ${builtinTokens.admin}`, accept: 'application/json', ...(body !== undefined ? { 'content-type': contentType } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  cluster.engine.runUntilIdle();
  const reply = cluster.user.received().find((r) => r.requestId === request.id);
  if (!reply) throw new Error(`no response to ${method} ${path}`);
  return reply.message.payload as HttpResponse;
}

const status = (r: HttpResponse) => r.body as Status;

const deployment = (name: string, app: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
  spec: {
    replicas: 1, selector: { matchLabels: { app } }, ...extra,
    template: { metadata: { labels: { app } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } },
  },
});

const podManifest = (name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, ...metadata }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }], ...spec },
});

describe('the registry as a 1.28 cluster answers', () => {
  it('renaming an object by PATCH: 400 BadRequest, the name of the object does not match the name on the URL', () => {
    const cluster = booted('rename');
    expect(call(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }).status).toBe(201);
    for (const [type, patch] of [
      ['application/merge-patch+json', { metadata: { name: 'b' } }],
      ['application/strategic-merge-patch+json', { metadata: { name: 'b' } }],
      ['application/json-patch+json', [{ op: 'replace', path: '/metadata/name', value: 'b' }]],
    ] as const) {
      const r = call(cluster, 'PATCH', '/api/v1/namespaces/default/configmaps/a', patch, type);
      expect(r.status, type).toBe(400);
      expect(status(r)).toMatchObject({ reason: 'BadRequest', code: 400, message: 'the name of the object (b) does not match the name on the URL (a)' });
    }
    expect(call(cluster, 'GET', '/api/v1/namespaces/default/configmaps/b').status).toBe(404);
  });

  it('a Deployment\'s or ReplicaSet\'s spec.selector is immutable: 422 with the field path and Go value', () => {
    const cluster = booted('selector');
    expect(call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', deployment('web', 'web')).status).toBe(201);
    const r = call(cluster, 'PUT', '/apis/apps/v1/namespaces/default/deployments/web', deployment('web', 'web2'));
    expect(r.status).toBe(422);
    expect(status(r)).toMatchObject({
      reason: 'Invalid',
      message: 'Deployment.apps "web" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
      details: { name: 'web', group: 'apps', kind: 'Deployment', causes: [{ reason: 'FieldValueInvalid', field: 'spec.selector' }] },
    });
    const rs = {
      apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs' },
      spec: { replicas: 0, selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a', tier: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    };
    expect(call(cluster, 'POST', '/apis/apps/v1/namespaces/default/replicasets', rs).status).toBe(201);
    const patched = call(cluster, 'PATCH', '/apis/apps/v1/namespaces/default/replicasets/rs', { spec: { selector: { matchLabels: { tier: 'x' } } } }, 'application/merge-patch+json');
    expect(patched.status).toBe(422);
    expect(status(patched).message).toBe('ReplicaSet.apps "rs" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"a", "tier":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable');
  });

  it('a /status write without metadata.generation keeps the stored generation (rest.BeforeUpdate)', () => {
    const cluster = booted('status-generation');
    expect(call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', deployment('web', 'web', { paused: true })).status).toBe(201);
    // A spec change bumps the generation to 2; the status write below carries none.
    expect(call(cluster, 'PATCH', '/apis/apps/v1/namespaces/default/deployments/web', { spec: { replicas: 3 } }, 'application/merge-patch+json').status).toBe(200);
    const current = call(cluster, 'GET', '/apis/apps/v1/namespaces/default/deployments/web').body as Deployment;
    expect(current.metadata.generation).toBe(2);
    const { generation: _dropped, ...metadata } = current.metadata;
    const body = { ...current, metadata, status: { ...current.status, observedGeneration: 2 } };
    const r = call(cluster, 'PUT', '/apis/apps/v1/namespaces/default/deployments/web/status', body);
    expect(r.status).toBe(200);
    expect((r.body as Deployment).metadata.generation).toBe(2);
    expect((r.body as Deployment).status?.observedGeneration).toBe(2);
  });

  it('DeleteOptions with both orphanDependents and propagationPolicy: 422 on DeleteOptions', () => {
    const cluster = booted('delete-options');
    expect(call(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }).status).toBe(201);
    const r = call(cluster, 'DELETE', '/api/v1/namespaces/default/configmaps/a', { kind: 'DeleteOptions', apiVersion: 'v1', orphanDependents: true, propagationPolicy: 'Foreground' });
    expect(r.status).toBe(422);
    expect(status(r)).toMatchObject({
      reason: 'Invalid',
      message: 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Foreground": orphanDependents and deletionPropagation cannot be both set',
      details: { group: 'meta.k8s.io', kind: 'DeleteOptions' },
    });
    expect(call(cluster, 'GET', '/api/v1/namespaces/default/configmaps/a').status).toBe(200);
  });

  it('a Pod held by a finalizer goes away once the finalizer is removed (the kubelet\'s grace-0 delete sets deletionGracePeriodSeconds 0)', () => {
    const cluster = booted('pod-finalizer');
    expect(call(cluster, 'POST', '/api/v1/namespaces/default/pods', podManifest('held', {}, { finalizers: ['example.com/hold'] })).status).toBe(201);
    cluster.engine.runFor(20_000);
    expect((call(cluster, 'GET', '/api/v1/namespaces/default/pods/held').body as Pod).status?.phase).toBe('Running');
    const deleted = call(cluster, 'DELETE', '/api/v1/namespaces/default/pods/held');
    expect(deleted.status).toBe(200);
    expect((deleted.body as Pod).metadata).toMatchObject({ deletionGracePeriodSeconds: 30 });
    cluster.engine.runFor(40_000);
    const held = call(cluster, 'GET', '/api/v1/namespaces/default/pods/held');
    expect(held.status).toBe(200);
    // The kubelet stopped the containers and deleted the pod with grace period 0: the registry shortened
    // the deletion (timestamp moved back by 30 s) and the finalizer keeps the object.
    const pod = held.body as Pod;
    expect(pod.metadata.deletionGracePeriodSeconds).toBe(0);
    expect(parseTimestamp(pod.metadata.deletionTimestamp!)).toBe(parseTimestamp((deleted.body as Pod).metadata.deletionTimestamp!)! - 30_000);
    const removed = call(cluster, 'PATCH', '/api/v1/namespaces/default/pods/held', { metadata: { finalizers: null } }, 'application/merge-patch+json');
    expect(removed.status).toBe(200);
    expect(call(cluster, 'GET', '/api/v1/namespaces/default/pods/held').status).toBe(404);
  });

  it('a foreground ReplicaSet delete finishes: its pods go, then the ReplicaSet', () => {
    const cluster = booted('foreground-rs');
    const rs = {
      apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'fg' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'fg' } }, template: { metadata: { labels: { app: 'fg' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } } },
    };
    expect(call(cluster, 'POST', '/apis/apps/v1/namespaces/default/replicasets', rs).status).toBe(201);
    cluster.engine.runFor(20_000);
    expect((call(cluster, 'GET', '/api/v1/namespaces/default/pods').body as List<Pod>).items).toHaveLength(2);
    const r = call(cluster, 'DELETE', '/apis/apps/v1/namespaces/default/replicasets/fg', { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' });
    expect(r.status).toBe(200);
    expect((r.body as ReplicaSet).metadata.finalizers).toEqual(['foregroundDeletion']);
    cluster.engine.runFor(60_000);
    expect((call(cluster, 'GET', '/api/v1/namespaces/default/pods').body as List<Pod>).items).toEqual([]);
    expect(call(cluster, 'GET', '/apis/apps/v1/namespaces/default/replicasets/fg').status).toBe(404);
  });

  it('a Recreate rollout completes: old pods go, the new ReplicaSet comes up', () => {
    const cluster = booted('recreate');
    expect(call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', deployment('web', 'web', { replicas: 2, strategy: { type: 'Recreate' } })).status).toBe(201);
    cluster.engine.runFor(20_000);
    const patch = { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.26' }] } } } };
    expect(call(cluster, 'PATCH', '/apis/apps/v1/namespaces/default/deployments/web', patch, 'application/strategic-merge-patch+json').status).toBe(200);
    cluster.engine.runFor(90_000);
    const pods = (call(cluster, 'GET', '/api/v1/namespaces/default/pods').body as List<Pod>).items;
    expect(pods.map((p) => p.spec.containers[0]!.image)).toEqual(['nginx:1.26', 'nginx:1.26']);
    expect(pods.every((p) => p.status?.phase === 'Running')).toBe(true);
    const d = call(cluster, 'GET', '/apis/apps/v1/namespaces/default/deployments/web').body as Deployment;
    expect(d.status).toMatchObject({ replicas: 2, updatedReplicas: 2, availableReplicas: 2 });
  });

  it('revisionHistoryLimit 0 deletes the old ReplicaSet once the rollout is complete', () => {
    const cluster = booted('history-limit');
    expect(call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', deployment('web', 'web', { revisionHistoryLimit: 0 })).status).toBe(201);
    cluster.engine.runFor(20_000);
    const before = (call(cluster, 'GET', '/apis/apps/v1/namespaces/default/replicasets').body as List<ReplicaSet>).items;
    expect(before).toHaveLength(1);
    const patch = { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.26' }] } } } };
    expect(call(cluster, 'PATCH', '/apis/apps/v1/namespaces/default/deployments/web', patch, 'application/strategic-merge-patch+json').status).toBe(200);
    cluster.engine.runFor(90_000);
    const after = (call(cluster, 'GET', '/apis/apps/v1/namespaces/default/replicasets').body as List<ReplicaSet>).items;
    expect(after).toHaveLength(1);
    expect(after[0]!.metadata.uid).not.toBe(before[0]!.metadata.uid);
    expect(after[0]!.spec.template?.spec?.containers[0]!.image).toBe('nginx:1.26');
  });

  it('the default revisionHistoryLimit (10) keeps the old ReplicaSet at 0 replicas', () => {
    const cluster = booted('history-default');
    expect(call(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', deployment('web', 'web')).status).toBe(201);
    cluster.engine.runFor(20_000);
    const patch = { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.26' }] } } } };
    call(cluster, 'PATCH', '/apis/apps/v1/namespaces/default/deployments/web', patch, 'application/strategic-merge-patch+json');
    cluster.engine.runFor(90_000);
    const after = (call(cluster, 'GET', '/apis/apps/v1/namespaces/default/replicasets').body as List<ReplicaSet>).items;
    expect(after.map((rs) => rs.spec.replicas).sort()).toEqual([0, 1]);
  });

  it('dnsPolicy None without dnsConfig: 422, must provide `dnsConfig`', () => {
    const cluster = booted('dns-none');
    const r = call(cluster, 'POST', '/api/v1/namespaces/default/pods', podManifest('dns', { dnsPolicy: 'None' }));
    expect(r.status).toBe(422);
    expect(status(r)).toMatchObject({
      reason: 'Invalid',
      message: 'Pod "dns" is invalid: spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None',
      details: { causes: [{ reason: 'FieldValueRequired', field: 'spec.dnsConfig' }] },
    });
    const noServers = call(cluster, 'POST', '/api/v1/namespaces/default/pods', podManifest('dns', { dnsPolicy: 'None', dnsConfig: { searches: ['a.example'] } }));
    expect(status(noServers).message).toBe('Pod "dns" is invalid: spec.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None');
    expect(call(cluster, 'POST', '/api/v1/namespaces/default/pods', podManifest('dns', { dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1'] } })).status).toBe(201);
  });

  it('status.qosClass stays once the kubelet reports status', () => {
    const cluster = booted('qos');
    const created = call(cluster, 'POST', '/api/v1/namespaces/default/pods', podManifest('q'));
    expect((created.body as Pod).status?.qosClass).toBe('BestEffort');
    cluster.engine.runFor(20_000);
    const pod = call(cluster, 'GET', '/api/v1/namespaces/default/pods/q').body as Pod;
    expect(pod.status?.phase).toBe('Running');
    expect(pod.status?.qosClass).toBe('BestEffort');
  });

  it('a watch from resourceVersion=1 on a fresh server: 410 too old resource version: 1 (N), N the cache\'s start-up list revision', () => {
    const cluster = createCluster({ seed: 'watch-rv1' });
    cluster.engine.runUntilIdle();
    const namespaces = call(cluster, 'GET', '/api/v1/namespaces').body as List;
    const newestBootstrapRV = Math.max(...namespaces.items.map((ns) => Number(ns.metadata.resourceVersion)));
    const watch = cluster.user.request('kube-apiserver', httpKinds.request, {
      method: 'GET', path: '/api/v1/namespaces/default/configmaps', query: 'resourceVersion=1&watch=true',
      headers: { authorization: `Bearer ${builtinTokens.admin}`, accept: 'application/json' },
    });
    cluster.engine.runUntilIdle();
    const messages = cluster.user.received().filter((r) => r.requestId === watch.id).map((r) => r.message);
    const events = messages.filter((m) => m.kind === httpKinds.watchEvent).map((m) => m.payload as { type: string; object: Status });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } });
    const n = Number(/^too old resource version: 1 \((\d+)\)$/.exec(events[0]!.object.message ?? '')?.[1]);
    // The caches listed after the start-up objects were stored.
    expect(n).toBeGreaterThanOrEqual(newestBootstrapRV);
    const fromN = cluster.user.request('kube-apiserver', httpKinds.request, {
      method: 'GET', path: '/api/v1/namespaces/default/configmaps', query: `resourceVersion=${n}&watch=true`,
      headers: { authorization: `Bearer ${builtinTokens.admin}`, accept: 'application/json' },
    });
    cluster.engine.runUntilIdle();
    const later = cluster.user.received().filter((r) => r.requestId === fromN.id).map((r) => r.message);
    expect(later.filter((m) => m.kind === httpKinds.watchEvent)).toEqual([]);
    expect(later.find((m) => m.kind === httpKinds.response)?.payload).toMatchObject({ status: 200, stream: true });
  });
});

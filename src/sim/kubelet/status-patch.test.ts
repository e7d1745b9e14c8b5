import { describe, expect, it } from 'vitest';
import type { PodStatus } from '../api/types/core.ts';
import { createCluster } from '../cluster.ts';
import { adminCall } from '../testing/http.ts';
import { mergePodStatus, podStatusPatch } from './status-patch.ts';

const t0 = '2026-11-22T08:00:00Z';
const t1 = '2026-11-22T08:00:04Z';
const pending: PodStatus = {
  phase: 'Pending',
  conditions: [
    { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: t0 },
    { type: 'Ready', status: 'False', lastProbeTime: null, lastTransitionTime: t0, reason: 'ContainersNotReady', message: 'containers with unready status: [nginx]' },
    { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: t0 },
  ],
  hostIP: '172.18.0.3', startTime: t0,
  containerStatuses: [{ name: 'nginx', state: { waiting: { reason: 'ContainerCreating' } }, lastState: {}, ready: false, restartCount: 0, image: 'nginx:1.14.2', imageID: '', started: false }],
};
const running: PodStatus = {
  ...pending,
  phase: 'Running',
  conditions: [
    { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: t0 },
    { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: t1 },
    { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: t0 },
  ],
  podIP: '10.244.1.2', podIPs: [{ ip: '10.244.1.2' }],
  containerStatuses: [{ name: 'nginx', state: { running: { startedAt: t1 } }, lastState: {}, ready: true, restartCount: 0, image: 'docker.io/library/nginx:1.14.2', imageID: 'docker.io/library/nginx@sha256:x', started: true }],
};

describe('the kubelet status patch', () => {
  it('sends the difference: reason and message of a condition that turned True are nulled, conditions merged by type in order', () => {
    const patch = podStatusPatch('u1', pending, running)!;
    expect(Object.keys(patch)).toEqual(['metadata', 'status']);
    expect(patch.metadata).toEqual({ uid: 'u1' });
    const status = patch.status as Record<string, unknown>;
    expect(Object.keys(status)).toEqual(['$setElementOrder/conditions', 'conditions', 'containerStatuses', 'phase', 'podIP', 'podIPs']);
    expect(status['$setElementOrder/conditions']).toEqual([{ type: 'Initialized' }, { type: 'Ready' }, { type: 'PodScheduled' }]);
    expect(status.conditions).toEqual([{ lastTransitionTime: t1, message: null, reason: null, status: 'True', type: 'Ready' }]);
    expect(status.phase).toBe('Running');
    expect(podStatusPatch('u1', running, running)).toBeNull();
  });

  it('keeps conditions other components own (DisruptionTarget) ahead of the kubelet\'s', () => {
    const old: PodStatus = { ...running, conditions: [...running.conditions!, { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager', lastProbeTime: null, lastTransitionTime: t1 }] };
    expect(mergePodStatus(old, running).conditions!.map((c) => c.type)).toEqual(['DisruptionTarget', 'Initialized', 'Ready', 'PodScheduled']);
  });

  it('in the cluster: a Running pod\'s Ready condition has no reason or message; each status patch follows a GET of the pod', () => {
    const cluster = createCluster({ seed: 'status-patch' });
    cluster.boot();
    expect(adminCall(cluster, 'POST', '/api/v1/namespaces/default/pods', {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx:1.14.2' }] },
    }).status).toBe(201);
    cluster.engine.runFor(30_000);
    const pod = adminCall(cluster, 'GET', '/api/v1/namespaces/default/pods/p').body as { status: PodStatus };
    expect(pod.status.phase).toBe('Running');
    const ready = pod.status.conditions!.find((c) => c.type === 'Ready')!;
    expect(ready).toEqual({ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: ready.lastTransitionTime });
    expect(pod.status).not.toHaveProperty('hostIPs');
    const kubeletRequests = cluster.engine.trace.all().filter((m) => m.from.startsWith('kubelet/') && m.kind === 'http.request')
      .map((m) => m.payload as { method: string; path: string }).filter((r) => r.path === '/api/v1/namespaces/default/pods/p' || r.path === '/api/v1/namespaces/default/pods/p/status');
    const patches = kubeletRequests.filter((r) => r.method === 'PATCH');
    expect(patches.length).toBeGreaterThan(0);
    kubeletRequests.forEach((r, i) => {
      if (r.method === 'PATCH') expect(kubeletRequests[i - 1]).toMatchObject({ method: 'GET', path: '/api/v1/namespaces/default/pods/p' });
    });
  });
});

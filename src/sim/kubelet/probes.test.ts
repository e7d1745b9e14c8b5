import { describe, expect, it } from 'vitest';
import type { Container, Event, Pod } from '../api/types/core.ts';
import { builtinTokens } from '../wire/credentials.ts';
import { httpKinds, type HttpRequest } from '../wire/http.ts';
import { createCluster, type Cluster } from '../cluster.ts';
import { adminCall } from '../testing/http.ts';
import { Kubelet } from './kubelet.ts';

const call = adminCall;

function setup(seed = 'probes') {
  const cluster = createCluster({ seed, components: { controllerManager: false, scheduler: false, kubelets: false } });
  cluster.engine.runUntilIdle();
  const k = cluster.engine.add(new Kubelet({ node: 'node-1', images: ['nginx:1.14.2', 'busybox:1.36'] }));
  cluster.engine.link(k.name, 'kube-apiserver', { latency: 2 });
  k.start();
  cluster.engine.runUntilIdle();
  return cluster;
}

function create(cluster: Cluster, name: string, container: Container, spec: Partial<Pod['spec']> = {}): void {
  const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { nodeName: 'node-1', containers: [container], ...spec } };
  expect(call(cluster, 'POST', '/api/v1/namespaces/default/pods', pod).status).toBe(201);
}

function get(cluster: Cluster, name: string): Pod {
  return call(cluster, 'GET', `/api/v1/namespaces/default/pods/${name}`).body as Pod;
}

function events(cluster: Cluster, pod: string): string[] {
  return ((call(cluster, 'GET', '/api/v1/namespaces/default/events').body as { items: Event[] }).items)
    .filter((e) => e.involvedObject.name === pod).map((e) => `${e.type} ${e.reason}: ${e.message ?? ''}`);
}

/** The pod's Ready condition after each delivery that changed it, with the virtual time. */
function watchReady(cluster: Cluster, name: string): { status: string; at: number }[] {
  const seen: { status: string; at: number }[] = [];
  cluster.engine.onDelivery((m) => {
    if (m.kind !== 'http.response' || m.from !== 'kube-apiserver' || !m.to.startsWith('kubelet/')) return;
    const body = (m.payload as { body?: Pod }).body;
    if (body?.metadata?.name !== name || !body.status?.conditions) return;
    const ready = body.status.conditions.find((c) => c.type === 'Ready')?.status ?? '';
    if (seen.at(-1)?.status !== ready) seen.push({ status: ready, at: cluster.engine.now });
  });
  return seen;
}

describe('probes', () => {
  it('fails an httpGet liveness probe on a path nginx does not serve: Unhealthy ×3, Killing, a restart', () => {
    const cluster = setup();
    create(cluster, 'live', { name: 'nginx', image: 'nginx:1.14.2', livenessProbe: { httpGet: { path: '/healthz', port: 80 }, periodSeconds: 5, failureThreshold: 3 } });
    cluster.engine.runFor(16_000);
    const ev = events(cluster, 'live');
    const unhealthy = 'Warning Unhealthy: Liveness probe failed: HTTP probe failed with statuscode: 404';
    expect(ev).toContain(unhealthy);
    expect(ev).toContain('Normal Killing: Container nginx failed liveness probe, will be restarted');
    const cs = get(cluster, 'live').status!.containerStatuses![0]!;
    expect(cs.restartCount).toBe(1);
    // nginx stops at SIGTERM: exit code 0.
    expect(cs.lastState?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    // The third failure, not the first, kills it.
    const killAt = ev.indexOf('Normal Killing: Container nginx failed liveness probe, will be restarted');
    expect(ev.slice(0, killAt).filter((e) => e === unhealthy)).toHaveLength(1);
    const unhealthyEvent = ((call(cluster, 'GET', '/api/v1/namespaces/default/events').body as { items: Event[] }).items).find((e) => e.reason === 'Unhealthy')!;
    expect(unhealthyEvent.count).toBeGreaterThanOrEqual(3);
  });

  it('keeps a container unready until its readiness probe passes after initialDelaySeconds', () => {
    const cluster = setup();
    const ready = watchReady(cluster, 'ready');
    // Before the POST: the container starts after it (with spec.nodeName set, possibly before the 201 reaches us).
    const createdAt = cluster.engine.now;
    create(cluster, 'ready', { name: 'nginx', image: 'nginx:1.14.2', readinessProbe: { httpGet: { path: '/', port: 80 }, initialDelaySeconds: 5, periodSeconds: 3 } });
    cluster.engine.runFor(4_000);
    const early = get(cluster, 'ready');
    expect(early.status?.phase).toBe('Running');
    expect(early.status?.containerStatuses?.[0]).toMatchObject({ ready: false, started: true });
    expect(early.status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [nginx]' });
    cluster.engine.runFor(4_000);
    expect(get(cluster, 'ready').status?.containerStatuses?.[0]?.ready).toBe(true);
    const becameReady = ready.find((r) => r.status === 'True')!;
    expect(becameReady.at - createdAt).toBeGreaterThanOrEqual(5_000);
  });

  it('runs the exec liveness example from the Kubernetes docs: healthy for 30 s, then restarted', () => {
    const cluster = setup();
    create(cluster, 'liveness-exec', {
      name: 'liveness', image: 'busybox:1.36', args: ['/bin/sh', '-c', 'touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600'],
      livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] }, initialDelaySeconds: 5, periodSeconds: 5 },
    });
    cluster.engine.runFor(29_000);
    expect(events(cluster, 'liveness-exec').some((e) => e.includes('Unhealthy'))).toBe(false);
    cluster.engine.runFor(45_000);
    const ev = events(cluster, 'liveness-exec');
    expect(ev).toContain("Warning Unhealthy: Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory\n");
    expect(ev).toContain('Normal Killing: Container liveness failed liveness probe, will be restarted');
    // sh ignores SIGTERM: killed at the end of the 30 s grace period with 137.
    const cs = get(cluster, 'liveness-exec').status!.containerStatuses![0]!;
    expect(cs.lastState?.terminated).toMatchObject({ exitCode: 137, reason: 'Error' });
  });

  it('refuses a tcpSocket probe on a port nothing listens on, and holds liveness until the startup probe passes', () => {
    const cluster = setup();
    create(cluster, 'tcp', { name: 'nginx', image: 'nginx:1.14.2', readinessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 5 } });
    cluster.engine.runFor(6_000);
    const ip = get(cluster, 'tcp').status?.podIP;
    expect(events(cluster, 'tcp')).toContain(`Warning Unhealthy: Readiness probe failed: dial tcp ${ip}:8080: connect: connection refused`);
    expect(get(cluster, 'tcp').status?.containerStatuses?.[0]?.ready).toBe(false);

    create(cluster, 'startup', {
      name: 'nginx', image: 'nginx:1.14.2', ports: [{ name: 'http', containerPort: 80 }],
      startupProbe: { httpGet: { path: '/', port: 'http' }, periodSeconds: 2 },
      livenessProbe: { grpc: { port: 9090 }, periodSeconds: 10, failureThreshold: 1 },
    });
    cluster.engine.runFor(3_000);
    expect(get(cluster, 'startup').status?.containerStatuses?.[0]?.started).toBe(true);
    cluster.engine.runFor(10_000);
    const startupIp = get(cluster, 'startup').status?.podIP;
    expect(events(cluster, 'startup')).toContain(`Warning Unhealthy: Liveness probe failed: timeout: failed to connect service "${startupIp}:9090" within 1s: context deadline exceeded`);
  });
});

describe('lifecycle hooks', () => {
  it('kills a container whose postStart hook fails (FailedPostStartHook) and restarts it', () => {
    const cluster = setup();
    create(cluster, 'hook', { name: 'nginx', image: 'nginx:1.14.2', lifecycle: { postStart: { exec: { command: ['sh', '-c', 'exit 1'] } } } });
    cluster.engine.runFor(3_000);
    const uid = get(cluster, 'hook').metadata.uid;
    const ev = events(cluster, 'hook');
    expect(ev).toContain(`Warning FailedPostStartHook: Exec lifecycle hook ([sh -c exit 1]) for Container "nginx" in Pod "hook_default(${uid})" failed - error: command 'sh -c exit 1' exited with 1: , message: ""`);
    expect(ev).toContain('Normal Killing: FailedPostStartHook');
    expect(get(cluster, 'hook').status?.containerStatuses?.[0]?.restartCount).toBeGreaterThanOrEqual(1);
  });

  it('runs a preStop hook before the stop signal: a preStop sleep delays the deletion', () => {
    const cluster = setup();
    create(cluster, 'slow', { name: 'nginx', image: 'nginx:1.14.2', lifecycle: { preStop: { exec: { command: ['sleep', '5'] } } } });
    create(cluster, 'fast', { name: 'nginx', image: 'nginx:1.14.2' });
    cluster.engine.runFor(3_000);
    const start = cluster.engine.now;
    // Both deletes go out at once (an admin call would run until idle, through the preStop sleep).
    for (const name of ['slow', 'fast']) {
      cluster.user.request('kube-apiserver', httpKinds.request, {
        method: 'DELETE', path: `/api/v1/namespaces/default/pods/${name}`, query: '', headers: { authorization: `Bearer ${builtinTokens.admin}` },
      });
    }
    cluster.engine.runFor(10_000);
    // When the kubelet sent each pod's final DELETE.
    const gone: Record<string, number> = {};
    for (const m of cluster.engine.trace.all()) {
      const r = m.payload as HttpRequest;
      if (m.from === 'kubelet/node-1' && m.kind === httpKinds.request && r.method === 'DELETE') gone[r.path.split('/').at(-1)!] = m.sentAt - start;
    }
    expect(gone.fast).toBeLessThan(2_000);
    expect(gone.slow).toBeGreaterThanOrEqual(5_000);
  });
});

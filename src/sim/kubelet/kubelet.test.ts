import { describe, expect, it } from 'vitest';
import type { Event, Node, Pod } from '../api/types/core.ts';
import type { Lease } from '../api/types/coordination.ts';
import { httpKinds, type HttpRequest } from '../wire/http.ts';
import { createCluster, type Cluster } from '../cluster.ts';
import { runTwiceWithPerturbedHost } from '../testing/determinism.ts';
import { adminCall } from '../testing/http.ts';
import { goDuration } from './format.ts';
import { Kubelet } from './kubelet.ts';
import { normalizeImage } from './simulated-runtime.ts';
import { decodeStored } from '../apiserver/storage/codec.ts';

const call = adminCall;

function setup(seed = 'kubelet', images: string[] = [], unpullable: string[] = []) {
  const cluster = createCluster({ seed, components: { controllerManager: false, scheduler: false, kubelets: false } });
  cluster.engine.runUntilIdle();
  const kubelets = ['node-1', 'node-2', 'node-3'].map((node) => {
    const k = cluster.engine.add(new Kubelet({ node, images, unpullableImages: unpullable }));
    cluster.engine.link(k.name, 'kube-apiserver', { latency: 2 });
    k.start();
    return k;
  });
  cluster.engine.runUntilIdle();
  return { cluster, kubelets };
}

const boundPod = (name: string, node: string, image = 'nginx:1.14.2'): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
  spec: { nodeName: node, containers: [{ name: 'nginx', image }] },
});

function events(cluster: Cluster, pod: string): Event[] {
  return ((call(cluster, 'GET', '/api/v1/namespaces/default/events').body as { items: Event[] }).items)
    .filter((e) => e.involvedObject.name === pod);
}

/** The kubelet's requests about its node Lease, with the time each was sent and the status of its answer. */
function leaseRequests(cluster: Cluster, node: string): { method: string; at: number; status: number }[] {
  const trace = cluster.engine.trace.all();
  const statusOf = new Map<number, number>();
  for (const m of trace) if (m.kind === httpKinds.response) statusOf.set(m.replyTo ?? -1, (m.payload as { status: number }).status);
  const aboutLease = (path: string) => path.endsWith(`/kube-node-lease/leases/${node}`) || path.endsWith('/kube-node-lease/leases');
  return trace.filter((m) => m.from === `kubelet/${node}` && m.kind === httpKinds.request && aboutLease((m.payload as HttpRequest).path))
    .map((m) => ({ method: (m.payload as HttpRequest).method, at: m.sentAt, status: statusOf.get(m.id) ?? 0 }));
}

describe('kubelet', () => {
  it('formats Go durations and normalizes images', () => {
    expect(goDuration(850)).toBe('850ms');
    expect(goDuration(3456)).toBe('3.456s');
    expect(goDuration(3400)).toBe('3.4s');
    expect(goDuration(62_500)).toBe('1m2.5s');
    expect(normalizeImage('nginx:1.14.2')).toBe('docker.io/library/nginx:1.14.2');
    expect(normalizeImage('bitnami/nginx')).toBe('docker.io/bitnami/nginx:latest');
  });

  it('registers its node and renews its lease every 10–10.4 s as background work, one PUT per renewal', () => {
    const { cluster, kubelets } = setup();
    const node = call(cluster, 'GET', '/api/v1/nodes/node-2').body as Node;
    expect(node.status?.allocatable).toMatchObject({ cpu: '4', memory: '8Gi', pods: '110' });
    expect(node.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(node.spec?.podCIDR).toBe('10.244.1.0/24');
    const start = cluster.engine.now;
    cluster.engine.runFor(62_000);
    expect(kubelets[0]!.leaseRenewals).toBe(7); // the create, then six renewals
    const lease = call(cluster, 'GET', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1').body as Lease;
    expect(lease.spec).toMatchObject({ holderIdentity: 'node-1', leaseDurationSeconds: 40 });
    expect(lease.spec?.renewTime).toBe(kubelets[0]!.lastLeaseRenewTime);
    expect(cluster.engine.now - start).toBeGreaterThanOrEqual(62_000);
    // lease/controller.go: a GET (404) and the create, then only PUTs of the Lease last written, never a GET first.
    const requests = leaseRequests(cluster, 'node-1');
    expect(requests.map((r) => r.method)).toEqual(['GET', 'POST', 'PUT', 'PUT', 'PUT', 'PUT', 'PUT', 'PUT']);
    // JitterUntil(sync, 10 s, 0.04, sliding): 10 s plus up to 4 % between one sync's end and the next one's start,
    // drawn per sync, so the kubelets' heartbeats drift apart instead of all landing at once.
    const gaps = requests.slice(2).map((r, i, puts) => (i === 0 ? null : r.at - puts[i - 1]!.at)).filter((g): g is number => g !== null);
    expect(gaps).toHaveLength(5);
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(10_000);
      expect(gap).toBeLessThan(10_400 + 10); // plus the PUT's round trip
    }
    expect(new Set(gaps).size).toBeGreaterThan(1);
    const otherNode = leaseRequests(cluster, 'node-2').slice(2).map((r) => r.at);
    expect(otherNode.slice(0, 5)).not.toEqual(requests.slice(2, 7).map((r) => r.at));
  });

  it('renews from a fresh GET after a 409 Conflict, and its PUT creates the Lease again once it is gone (retryUpdateLease)', () => {
    const { cluster, kubelets } = setup('lease-conflict');
    const path = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1';
    cluster.engine.runFor(11_000);
    // Someone else writes the Lease: the kubelet's next PUT carries a stale resourceVersion.
    const current = call(cluster, 'GET', path).body as Lease;
    expect(call(cluster, 'PUT', path, { ...current, metadata: { ...current.metadata, labels: { touched: 'yes' } } }).status).toBe(200);
    const before = leaseRequests(cluster, 'node-1').length;
    const renewals = kubelets[0]!.leaseRenewals;
    cluster.engine.runFor(10_500);
    const after = leaseRequests(cluster, 'node-1').slice(before);
    expect(after.map((r) => `${r.method} ${r.status}`)).toEqual(['PUT 409', 'GET 200', 'PUT 200']);
    expect(kubelets[0]!.leaseRenewals).toBe(renewals + 1);
    expect((call(cluster, 'GET', path).body as Lease).metadata.labels).toEqual({ touched: 'yes' }); // the other writer's change kept

    // The Lease deleted: the next renewal's PUT creates it again (leases allow create on update), from the
    // copy last written, so the Node still owns it.
    expect(call(cluster, 'DELETE', path).status).toBe(200);
    const deletedAt = leaseRequests(cluster, 'node-1').length;
    cluster.engine.runFor(10_500);
    expect(leaseRequests(cluster, 'node-1').slice(deletedAt).map((r) => `${r.method} ${r.status}`)).toEqual(['PUT 201']);
    const recreated = call(cluster, 'GET', path).body as Lease;
    expect(recreated.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'Node', name: 'node-1' })]);
    expect(recreated.spec?.renewTime).toBe(kubelets[0]!.lastLeaseRenewTime);
  });

  it('keeps trying to register its node once the client has spent its Retry-After retries, waiting 200 ms, 400 ms, … (registerWithAPIServer)', () => {
    // One mutating request at a time: 30 kubelets registering at once are let in one per Retry-After wave,
    // more waves than the client's 10 retries.
    const cluster = createCluster({ seed: 'register', nodes: 30, apiserver: { maxInFlight: { readOnly: 400, mutating: 1 } }, components: { controllerManager: false, scheduler: false } });
    cluster.boot();
    expect(cluster.kubelets.every((k) => k.registered)).toBe(true);
    const nodes = cluster.etcd.kv.range({ key: '/registry/minions/', rangeEnd: '/registry/minions0', keysOnly: true });
    expect(nodes.kvs).toHaveLength(30);
    // A kubelet that gave up on a try slept 200 ms, then 400 ms, … before the next (a wake-up per wait).
    const wakeups = cluster.engine.trace.all().filter((m) => m.kind === 'timer' && (m.payload as { data?: { reason?: string } } | null)?.data?.reason === 'register-node');
    expect(wakeups.length).toBeGreaterThan(0);
    const byKubelet = new Map<string, number[]>();
    for (const m of wakeups) byKubelet.set(m.to, [...(byKubelet.get(m.to) ?? []), m.deliverAt - m.sentAt]);
    for (const waits of byKubelet.values()) expect(waits).toEqual([200, 400, 800, 1600, 3200, 6400, 7000, 7000, 7000].slice(0, waits.length));
  });

  it('runs a pod bound to its node to Running and Ready with the events in order', () => {
    const { cluster } = setup();
    expect(call(cluster, 'POST', '/api/v1/namespaces/default/pods', boundPod('web', 'node-1')).status).toBe(201);
    cluster.engine.runUntilIdle();
    const pod = call(cluster, 'GET', '/api/v1/namespaces/default/pods/web').body as Pod;
    expect(pod.status?.phase).toBe('Running');
    expect(pod.status?.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual(['Initialized=True', 'Ready=True', 'ContainersReady=True', 'PodScheduled=True']);
    expect(pod.status?.hostIP).toBe('172.18.0.2');
    expect(pod.status?.podIP).toBe('10.244.0.2');
    const cs = pod.status?.containerStatuses?.[0];
    expect(cs).toMatchObject({ name: 'nginx', ready: true, restartCount: 0, image: 'docker.io/library/nginx:1.14.2', started: true });
    expect(cs?.state?.running?.startedAt).toBeTruthy();
    expect(cs?.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    expect(cs?.imageID).toMatch(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    const ev = events(cluster, 'web');
    expect(ev.map((e) => e.reason)).toEqual(['Pulling', 'Pulled', 'Created', 'Started']);
    expect(ev[0]!.message).toBe('Pulling image "nginx:1.14.2"');
    expect(ev[1]!.message).toMatch(/^Successfully pulled image "nginx:1.14.2" in (\d+\.?\d*m?s) \(\1 including waiting\)$/);
    expect(ev[2]!.message).toBe('Created container nginx');
    expect(ev[3]!.message).toBe('Started container nginx');
    expect(ev[0]!.source).toEqual({ component: 'kubelet', host: 'node-1' });
    // Status writes go through pods/<name>/status.
    const patches = cluster.engine.trace.all().filter((m) => m.from === 'kubelet/node-1' && m.kind === httpKinds.request)
      .map((m) => m.payload as HttpRequest).filter((r) => r.method === 'PATCH');
    expect(patches.map((r) => r.path)).toEqual(['/api/v1/namespaces/default/pods/web/status', '/api/v1/namespaces/default/pods/web/status']);

    // A second pod with the image now present skips the pull.
    call(cluster, 'POST', '/api/v1/namespaces/default/pods', boundPod('web2', 'node-1'));
    cluster.engine.runUntilIdle();
    const ev2 = events(cluster, 'web2');
    expect(ev2.map((e) => e.message)).toEqual(['Container image "nginx:1.14.2" already present on machine', 'Created container nginx', 'Started container nginx']);
    expect((call(cluster, 'GET', '/api/v1/namespaces/default/pods/web2').body as Pod).status?.podIP).toBe('10.244.0.3');
  });

  it('names the pod\'s kind in its events when the pod came from its informer\'s LIST, whose items carry none', () => {
    const cluster = createCluster({ seed: 'listed', components: { controllerManager: false, scheduler: false, kubelets: false } });
    cluster.engine.runUntilIdle();
    expect(call(cluster, 'POST', '/api/v1/namespaces/default/pods', boundPod('listed', 'node-1')).status).toBe(201);
    const k = cluster.engine.add(new Kubelet({ node: 'node-1' }));
    cluster.engine.link(k.name, 'kube-apiserver', { latency: 2 });
    k.start();
    cluster.engine.runUntilIdle();
    const ev = events(cluster, 'listed');
    expect(ev.map((e) => e.reason)).toEqual(['Pulling', 'Pulled', 'Created', 'Started']);
    for (const e of ev) expect(e.involvedObject).toMatchObject({ kind: 'Pod', apiVersion: 'v1', namespace: 'default', name: 'listed' });
  });

  it('terminates a deleted pod gracefully: Killing, then DELETE with gracePeriodSeconds 0 and a UID precondition', () => {
    const { cluster } = setup('kubelet-delete', ['nginx:1.14.2']);
    call(cluster, 'POST', '/api/v1/namespaces/default/pods', boundPod('web', 'node-3'));
    cluster.engine.runUntilIdle();
    const uid = (call(cluster, 'GET', '/api/v1/namespaces/default/pods/web').body as Pod).metadata.uid;
    const deleted = call(cluster, 'DELETE', '/api/v1/namespaces/default/pods/web');
    expect((deleted.body as Pod).metadata.deletionTimestamp).toBeTruthy();
    cluster.engine.runUntilIdle();
    expect(call(cluster, 'GET', '/api/v1/namespaces/default/pods/web').status).toBe(404);
    expect(events(cluster, 'web').map((e) => e.message).at(-1)).toBe('Stopping container nginx');
    const del = cluster.engine.trace.all().filter((m) => m.from === 'kubelet/node-3' && m.kind === httpKinds.request)
      .map((m) => m.payload as HttpRequest).filter((r) => r.method === 'DELETE');
    expect(del).toHaveLength(1);
    expect(JSON.parse(JSON.stringify(del[0]!.body))).toMatchObject({ gracePeriodSeconds: 0, preconditions: { uid } });
  });

  it('reports ErrImagePull then ImagePullBackOff for an unpullable image', () => {
    const { cluster } = setup('kubelet-pull', [], ['nginx:does-not-exist']);
    call(cluster, 'POST', '/api/v1/namespaces/default/pods', boundPod('bad', 'node-2', 'nginx:does-not-exist'));
    cluster.engine.runFor(8_000);
    const pod = call(cluster, 'GET', '/api/v1/namespaces/default/pods/bad').body as Pod;
    expect(pod.status?.phase).toBe('Pending');
    expect(pod.status?.containerStatuses?.[0]?.state?.waiting?.reason).toBe('ImagePullBackOff');
    const messages = events(cluster, 'bad').map((e) => `${e.reason}: ${e.message ?? ''}`);
    // Two events of one instant get names one nanosecond apart, so none is lost to a 409.
    expect(messages.slice(0, 5)).toEqual([
      'Pulling: Pulling image "nginx:does-not-exist"',
      expect.stringMatching(/^Failed: Failed to pull image "nginx:does-not-exist": rpc error: code = NotFound/),
      'Failed: Error: ErrImagePull',
      'BackOff: Back-off pulling image "nginx:does-not-exist"',
      'Failed: Error: ImagePullBackOff',
    ]);
  });

  it('restarts a crashing container with back-off 10 s, 20 s, 40 s… (CrashLoopBackOff) and reports it not Ready', () => {
    const { cluster, kubelets } = setup('kubelet-crash', ['busybox:1.36']);
    for (const k of kubelets) k.makeImageCrash('busybox:1.36', { afterMs: 5_000, exitCode: 2 });
    call(cluster, 'POST', '/api/v1/namespaces/default/pods', boundPod('crasher', 'node-1', 'busybox:1.36'));
    const seen: string[] = [];
    const restarts: { count: number; at: number }[] = [];
    const whileWaiting = new Set<string>();
    cluster.engine.onDelivery(() => {
      const kv = cluster.etcd.kv.range({ key: '/registry/pods/default/crasher' }).kvs[0];
      const cs = kv ? (decodeStored(kv.value) as Pod).status?.containerStatuses?.[0] : undefined;
      const message = cs?.state?.waiting?.message;
      if (message && seen.at(-1) !== message) seen.push(message);
      if (cs?.state?.waiting?.reason === 'CrashLoopBackOff') {
        const status = (decodeStored(kv!.value) as Pod).status!;
        whileWaiting.add(`${status.phase} Ready=${status.conditions?.find((c) => c.type === 'Ready')?.status}`);
      }
      if (cs && cs.restartCount !== (restarts.at(-1)?.count ?? 0)) restarts.push({ count: cs.restartCount, at: cluster.engine.now });
    });
    cluster.engine.runFor(200_000);
    const uid = (call(cluster, 'GET', '/api/v1/namespaces/default/pods/crasher').body as Pod).metadata.uid;
    expect(seen.slice(0, 4)).toEqual([10, 20, 40, 80].map((s) => `back-off ${s === 80 ? '1m20s' : `${s}s`} restarting failed container=nginx pod=crasher_default(${uid})`));
    // The first restart is immediate; then each waits out its back-off after the 5 s run.
    const gaps = restarts.slice(1).map((r, i) => Math.round((r.at - restarts[i]!.at) / 1000));
    expect(gaps.slice(0, 3)).toEqual([15, 25, 45]);
    const pod = call(cluster, 'GET', '/api/v1/namespaces/default/pods/crasher').body as Pod;
    const cs = pod.status!.containerStatuses![0]!;
    expect(cs.lastState?.terminated).toMatchObject({ exitCode: 2, reason: 'Error' });
    expect(cs.restartCount).toBeGreaterThanOrEqual(4);
    const evs = events(cluster, 'crasher');
    const backOff = evs.find((e) => e.reason === 'BackOff')!;
    expect(backOff.type).toBe('Warning');
    expect(backOff.message).toBe(`Back-off restarting failed container nginx in pod crasher_default(${uid})`);
    expect(backOff.count).toBeGreaterThanOrEqual(3);
    // While it waits it is Running but not Ready.
    expect([...whileWaiting]).toEqual(['Running Ready=False']);
  });

  it('is deterministic', () => {
    const [a, b] = runTwiceWithPerturbedHost(() => {
      const { cluster } = setup('kubelet-det');
      call(cluster, 'POST', '/api/v1/namespaces/default/pods', boundPod('web', 'node-1'));
      cluster.engine.runFor(25_000);
      return cluster.engine;
    });
    expect(a).toEqual(b);
  });
});

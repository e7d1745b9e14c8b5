import { describe, expect, it } from 'vitest';
import type { Event, Node, Pod } from './api/types/core.ts';
import type { HttpRequest } from './wire/http.ts';
import type { WatchStreamRequest, WatchStreamResponse } from './etcd/index.ts';
import { createCluster, type Cluster } from './cluster.ts';
import { stored } from './controllers/testing.ts';
import { runTwiceWithPerturbedHost } from './testing/determinism.ts';
import { adminCall } from './testing/http.ts';
import { decodeStored } from './apiserver/storage/codec.ts';

const deployment = (replicas: number, image = 'nginx:1.14.2') => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
  spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image }] } } },
});

function booted(seed: string, replicas = 0, image?: string): Cluster {
  const cluster = createCluster({ seed });
  cluster.boot();
  if (replicas > 0) expect(adminCall(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', deployment(replicas, image)).status).toBe(201);
  return cluster;
}

const node = (cluster: Cluster, name: string) => decodeStored(cluster.etcd.kv.range({ key: `/registry/minions/${name}` }).kvs[0]!.value) as Node;
const pods = (cluster: Cluster) => stored<Pod>(cluster, 'pods');
const events = (cluster: Cluster, ns = 'default') => stored<Event>(cluster, 'events', ns);

/** Runs a node-down scenario: the node of the first pod goes down; returns what happened when (virtual ms after the fault). */
function nodeDown(seed: string) {
  const cluster = booted(seed, 3);
  const victim = pods(cluster)[0]!.spec.nodeName!;
  const podsOnVictim = pods(cluster).filter((p) => p.spec.nodeName === victim).map((p) => p.metadata.name);
  const downAt = cluster.engine.now;
  cluster.fault({ type: 'nodeDown', node: victim });
  const at: Record<string, number> = {};
  cluster.engine.onDelivery(() => {
    const n = node(cluster, victim);
    const since = cluster.engine.now - downAt;
    if (at.unknown === undefined && n.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'Unknown') at.unknown = since;
    const taints = (n.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`);
    if (at.noSchedule === undefined && taints.includes('node.kubernetes.io/unreachable:NoSchedule')) at.noSchedule = since;
    if (at.noExecute === undefined && taints.includes('node.kubernetes.io/unreachable:NoExecute')) at.noExecute = since;
    if (at.evicted === undefined && pods(cluster).some((p) => podsOnVictim.includes(p.metadata.name) && p.metadata.deletionTimestamp)) at.evicted = since;
  });
  cluster.engine.runFor(400_000);
  return { cluster, victim, podsOnVictim, at };
}

describe('faults', () => {
  it('node down: Unknown after the 40 s grace period, unreachable taints, pods evicted after 300 s and recreated elsewhere; node up: taints removed', () => {
    const { cluster, victim, podsOnVictim, at } = nodeDown('fault-node-down');
    // The last lease renewal was at most 10 s before the fault; 40 s grace, checked every 5 s.
    expect(at.unknown).toBeGreaterThanOrEqual(30_000);
    expect(at.unknown).toBeLessThanOrEqual(50_000);
    const ready = node(cluster, victim).status!.conditions!.find((c) => c.type === 'Ready')!;
    expect(ready).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
    expect(at.noSchedule).toBeGreaterThanOrEqual(at.unknown!);
    expect(at.noExecute).toBeGreaterThanOrEqual(at.unknown!);
    expect(at.noExecute).toBeLessThanOrEqual(at.unknown! + 6_000);
    // DefaultTolerationSeconds: 300 s from the NoExecute taint.
    expect(at.evicted! - at.noExecute!).toBeGreaterThanOrEqual(299_000);
    expect(at.evicted! - at.noExecute!).toBeLessThanOrEqual(301_000);
    const evicted = pods(cluster).filter((p) => podsOnVictim.includes(p.metadata.name));
    expect(evicted.every((p) => p.metadata.deletionTimestamp && p.status?.conditions?.some((c) => c.type === 'DisruptionTarget' && c.reason === 'DeletionByTaintManager'))).toBe(true);
    const live = pods(cluster).filter((p) => !p.metadata.deletionTimestamp);
    expect(live).toHaveLength(3);
    expect(live.every((p) => p.spec.nodeName !== victim && p.status?.phase === 'Running')).toBe(true);
    const reasons = events(cluster).map((e) => `${e.involvedObject.kind}/${e.reason}`);
    expect(reasons).toContain('Node/NodeNotReady');
    expect(reasons).toContain('Pod/NodeNotReady');
    expect(reasons).toContain('Pod/TaintManagerEviction');
    expect(events(cluster).find((e) => e.reason === 'NodeNotReady' && e.involvedObject.kind === 'Node')!.message).toBe(`Node ${victim} status is now: NodeNotReady`);

    cluster.fault({ type: 'nodeUp', node: victim });
    cluster.engine.runFor(30_000);
    const back = node(cluster, victim);
    expect(back.status!.conditions!.find((c) => c.type === 'Ready')!.status).toBe('True');
    expect(back.spec?.taints ?? []).toEqual([]);
    // The kubelet back up finishes the evicted pods' termination.
    expect(pods(cluster).filter((p) => podsOnVictim.includes(p.metadata.name))).toEqual([]);
  });

  it('node down and up within the eviction timeout: the pod stays Running, its container restarted with restartCount 1 (convertToAPIContainerStatuses)', () => {
    const cluster = booted('fault-node-reboot', 1);
    const pod = pods(cluster)[0]!;
    const nodeName = pod.spec.nodeName!;
    const before = pod.status!.containerStatuses![0]!;
    expect(before.restartCount).toBe(0);
    cluster.fault({ type: 'nodeDown', node: nodeName });
    cluster.engine.runFor(60_000);
    cluster.fault({ type: 'nodeUp', node: nodeName });
    const seen: string[] = [];
    let unknown: unknown;
    cluster.engine.onDelivery(() => {
      const p = pods(cluster)[0]!;
      const cs = p.status!.containerStatuses![0]!;
      if (cs.state?.waiting) unknown ??= cs.lastState;
      const line = `${p.status!.phase} ${Object.keys(cs.state ?? {}).join()} restarts=${cs.restartCount} last=${cs.lastState?.terminated?.reason ?? '-'}`;
      if (seen.at(-1) !== line) seen.push(line);
    });
    cluster.engine.runFor(30_000);
    expect(seen).toEqual([
      'Running running restarts=0 last=-',
      'Running waiting restarts=1 last=ContainerStatusUnknown',
      'Running running restarts=1 last=-',
    ]);
    expect(unknown).toEqual({ terminated: {
      exitCode: 137, reason: 'ContainerStatusUnknown',
      message: 'The container could not be located when the pod was deleted.  The container used to be Running',
      startedAt: null, finishedAt: null,
    } });
    const restarted = pods(cluster)[0]!;
    expect(restarted.metadata.uid).toBe(pod.metadata.uid);
    expect(restarted.status!.startTime).toBe(pod.status!.startTime);
    expect(restarted.status!.containerStatuses![0]!.containerID).not.toBe(before.containerID);
    expect(restarted.status!.conditions!.find((c) => c.type === 'Ready')!.status).toBe('True');
  });

  it('a stopped kubelet (node still up): Unknown after the grace period; restarted, it reports Ready and its containers kept running', () => {
    const cluster = booted('fault-kubelet-stop', 1);
    const pod = pods(cluster)[0]!;
    const nodeName = pod.spec.nodeName!;
    const containerID = pod.status!.containerStatuses![0]!.containerID;
    cluster.faults.stop(`kubelet/${nodeName}`);
    cluster.engine.runFor(60_000);
    expect(node(cluster, nodeName).status!.conditions!.find((c) => c.type === 'Ready')!.status).toBe('Unknown');
    expect((node(cluster, nodeName).spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).sort())
      .toEqual(['node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/unreachable:NoSchedule']);
    expect(pods(cluster)[0]!.status!.conditions!.find((c) => c.type === 'Ready')!.status).toBe('False');
    cluster.faults.start(`kubelet/${nodeName}`);
    cluster.engine.runFor(20_000);
    expect(node(cluster, nodeName).status!.conditions!.find((c) => c.type === 'Ready')).toMatchObject({ status: 'True', reason: 'KubeletReady' });
    expect(node(cluster, nodeName).spec?.taints ?? []).toEqual([]);
    const after = pods(cluster)[0]!;
    expect(after.metadata.uid).toBe(pod.metadata.uid);
    expect(after.status!.containerStatuses![0]!.containerID).toBe(containerID);
    // Its status manager started empty and wrote the pod's status again: Ready once more.
    expect(after.status!.conditions!.find((c) => c.type === 'Ready')!.status).toBe('True');
  });

  it('node down replays to a byte-identical trace', () => {
    const [a, b] = runTwiceWithPerturbedHost(() => nodeDown('fault-node-down-replay').cluster.engine);
    expect(b.hash).toBe(a.hash);
  });

  it('a fault is a user action: its message has no cause and starts a chain', () => {
    const cluster = booted('fault-root');
    // The scheduler starts watching once it leads, just before boot ends: let its watches age past the
    // reflector's 1 s "very short watch" rule, so the drop is answered by a new watch at once.
    cluster.engine.runFor(2_000);
    const message = cluster.fault({ type: 'dropWatches', component: 'kube-scheduler' });
    cluster.engine.runUntilIdle();
    expect(message.cause).toBeNull();
    const caused = cluster.engine.trace.all().filter((m) => m.cause === message.id);
    expect(caused.length).toBeGreaterThan(0);
    expect(caused.every((m) => m.from === 'kube-apiserver' && m.to === 'kube-scheduler' && m.kind === 'http.watchEnd')).toBe(true);
    // The scheduler watches again.
    const after = cluster.engine.trace.all().filter((m) => m.id > message.id && m.from === 'kube-scheduler' && m.kind === 'http.request')
      .map((m) => m.payload as HttpRequest);
    expect(after.some((r) => r.query.includes('watch=true'))).toBe(true);
  });

  it('compaction, then a broken etcd watch stream: the watch cache gets 410 and relists, its clients get 410 and relist, the flow converges', () => {
    const cluster = booted('fault-compact-break', 1);
    const compactRev = cluster.etcd.kv.store.rev();
    cluster.fault({ type: 'compactEtcd' });
    cluster.engine.runUntilIdle();
    const brk = cluster.fault({ type: 'breakEtcdWatches' });
    cluster.engine.runFor(5_000);
    const after = cluster.engine.trace.all().filter((m) => m.id > brk.id);
    // etcd tells kube-apiserver its stream broke; clientv3 creates the watches again, one by one.
    expect(after.some((m) => m.kind === 'etcd.WatchStreamError' && m.to === 'kube-apiserver')).toBe(true);
    const recreated = after.filter((m) => m.kind === 'etcd.Watch' && m.from === 'kube-apiserver')
      .map((m) => (m.payload as WatchStreamRequest).request.createRequest).filter((c) => c !== undefined);
    const podsWatch = recreated.find((c) => c.key === '/registry/pods/')!;
    expect(podsWatch.startRevision).toBeLessThan(compactRev);
    // Its start revision is compacted: etcd cancels it with the compaction notice.
    const notices = after.filter((m) => m.kind === 'etcd.WatchResponse' && (m.payload as WatchStreamResponse).response.compactRevision === compactRev);
    expect(notices.length).toBeGreaterThan(0);
    // The pods cache relists from etcd (a Range over the prefix) ...
    const relist = after.find((m) => m.kind === 'etcd.Range' && (m.payload as { key: string }).key === '/registry/pods/')!;
    expect(relist).toBeDefined();
    // ... and the watch of every pod informer ends; each watches again from its resourceVersion, which the
    // relisted cache no longer holds: 410 "too old resource version", then a LIST.
    const scheduler = after.filter((m) => m.to === 'kube-scheduler' || m.from === 'kube-scheduler');
    const expired = scheduler.find((m) => m.kind === 'http.watchEvent' && JSON.stringify(m.payload).includes('too old resource version'));
    expect(expired).toBeDefined();
    const relistByScheduler = scheduler.find((m) => m.id > expired!.id && m.kind === 'http.request'
      && (m.payload as HttpRequest).path === '/api/v1/pods' && !(m.payload as HttpRequest).query.includes('watch=true'));
    expect(relistByScheduler).toBeDefined();
    // The flow still works: scale to 3, all run.
    const path = '/apis/apps/v1/namespaces/default/deployments/web';
    const current = adminCall(cluster, 'GET', path).body as { spec: { replicas: number } };
    current.spec.replicas = 3;
    expect(adminCall(cluster, 'PUT', path, current).status).toBe(200);
    cluster.engine.runFor(60_000);
    const web = pods(cluster).filter((p) => p.metadata.name?.startsWith('web-'));
    expect(web).toHaveLength(3);
    expect(web.every((p) => p.status?.phase === 'Running')).toBe(true);
  });

  it('a broken etcd watch stream without a compaction: the watches resume where they were, nothing relists, events still flow', () => {
    const cluster = booted('fault-break-only', 1);
    const brk = cluster.fault({ type: 'breakEtcdWatches' });
    cluster.engine.runFor(5_000);
    const path = '/apis/apps/v1/namespaces/default/deployments/web';
    const current = adminCall(cluster, 'GET', path).body as { spec: { replicas: number } };
    current.spec.replicas = 2;
    expect(adminCall(cluster, 'PUT', path, current).status).toBe(200);
    cluster.engine.runFor(60_000);
    const after = cluster.engine.trace.all().filter((m) => m.id > brk.id);
    expect(after.filter((m) => m.kind === 'etcd.Watch' && m.from === 'kube-apiserver').length).toBeGreaterThan(5);
    expect(after.some((m) => m.kind === 'etcd.WatchResponse' && (m.payload as WatchStreamResponse).response.compactRevision !== 0)).toBe(false);
    expect(after.some((m) => m.kind === 'etcd.Range' && (m.payload as { key: string }).key === '/registry/pods/')).toBe(false);
    expect(after.some((m) => m.kind === 'http.watchEnd')).toBe(false);
    const web = pods(cluster).filter((p) => p.metadata.name?.startsWith('web-'));
    expect(web.map((p) => p.status?.phase)).toEqual(['Running', 'Running']);
  });

  it('stopped scheduler: a new pod stays Pending; started again, it lists and binds it', () => {
    const cluster = booted('fault-scheduler');
    cluster.fault({ type: 'stop', component: 'kube-scheduler' });
    cluster.engine.runUntilIdle();
    expect(adminCall(cluster, 'POST', '/api/v1/namespaces/default/pods', {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'waiting' }, spec: { containers: [{ name: 'c', image: 'nginx:1.14.2' }] },
    }).status).toBe(201);
    cluster.engine.runFor(60_000);
    let pod = pods(cluster).find((p) => p.metadata.name === 'waiting')!;
    expect(pod.spec.nodeName).toBeUndefined();
    expect(pod.status?.phase).toBe('Pending');
    const start = cluster.fault({ type: 'start', component: 'kube-scheduler' });
    cluster.engine.runFor(30_000);
    pod = pods(cluster).find((p) => p.metadata.name === 'waiting')!;
    expect(pod.spec.nodeName).toMatch(/^node-\d$/);
    expect(pod.status?.phase).toBe('Running');
    // The restarted scheduler listed again before binding.
    const requests = cluster.engine.trace.all().filter((m) => m.id > start.id && m.from === 'kube-scheduler' && m.kind === 'http.request')
      .map((m) => m.payload as HttpRequest);
    const firstList = requests.findIndex((r) => r.method === 'GET' && r.path === '/api/v1/pods' && !r.query.includes('watch=true'));
    const binding = requests.findIndex((r) => r.path === '/api/v1/namespaces/default/pods/waiting/binding');
    expect(firstList).toBeGreaterThanOrEqual(0);
    expect(binding).toBeGreaterThan(firstList);
  });

  it('a stopped component receives nothing: its watches are closed and no message reaches it', () => {
    const cluster = booted('fault-stop');
    const stop = cluster.fault({ type: 'stop', component: 'kube-controller-manager' });
    cluster.engine.runUntilIdle();
    adminCall(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', deployment(1));
    cluster.engine.runFor(20_000);
    expect(stored(cluster, 'replicasets')).toEqual([]);
    const toKcm = cluster.engine.trace.all().filter((m) => m.id > stop.id && m.to === 'kube-controller-manager' && m.kind === 'http.watchEvent');
    expect(toKcm).toEqual([]);
    cluster.fault({ type: 'start', component: 'kube-controller-manager' });
    cluster.engine.runFor(30_000);
    expect(stored(cluster, 'replicasets')).toHaveLength(1);
    expect(pods(cluster).filter((p) => p.status?.phase === 'Running')).toHaveLength(1);
  });

  it('unpullable image: ErrImagePull, then ImagePullBackOff', () => {
    const cluster = booted('fault-pull');
    cluster.fault({ type: 'imageUnpullable', image: 'nginx:9.9.9' });
    const reasons: string[] = [];
    cluster.engine.onDelivery(() => {
      const reason = pods(cluster)[0]?.status?.containerStatuses?.[0]?.state?.waiting?.reason;
      if (reason && reasons.at(-1) !== reason) reasons.push(reason);
    });
    adminCall(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', deployment(1, 'nginx:9.9.9'));
    cluster.engine.runFor(30_000);
    expect(reasons.slice(0, 3)).toEqual(['ContainerCreating', 'ErrImagePull', 'ImagePullBackOff']);
  });

  it('crashing image: the Deployment\'s pod goes into CrashLoopBackOff with growing back-offs', () => {
    const cluster = booted('fault-crash');
    cluster.fault({ type: 'imageCrashes', image: 'nginx:1.14.2', afterSeconds: 3, exitCode: 1 });
    const messages: string[] = [];
    cluster.engine.onDelivery(() => {
      const m = pods(cluster)[0]?.status?.containerStatuses?.[0]?.state?.waiting?.message;
      if (m?.startsWith('back-off') && messages.at(-1) !== m) messages.push(m);
    });
    adminCall(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', deployment(1));
    cluster.engine.runFor(120_000);
    expect(messages.map((m) => m.split(' ')[1]).slice(0, 3)).toEqual(['10s', '20s', '40s']);
  });

  it('cluster.faults offers the same faults as verbs (crashImage defaults: 5 s, exit code 1)', () => {
    const cluster = booted('fault-verbs');
    const crash = cluster.faults.crashImage('busybox:1.36');
    const down = cluster.faults.nodeDown('node-2');
    expect(crash.payload).toEqual({ type: 'imageCrashes', image: 'busybox:1.36', afterSeconds: 5, exitCode: 1 });
    expect(down.payload).toEqual({ type: 'nodeDown', node: 'node-2' });
    cluster.engine.runUntilIdle();
    expect(cluster.engine.isStopped('kubelet/node-2')).toBe(true);
    expect(() => cluster.faults.stop('kube-apiserver')).toThrow(/not a component that can be stopped/);
    expect(() => cluster.faults.nodeDown('node-9')).toThrow(/no kubelet on node node-9/);
  });

  it('compactEtcd compacts at the current revision; linkLatency slows a link', () => {
    const cluster = booted('fault-compact');
    const rev = cluster.etcd.kv.store.rev();
    cluster.fault({ type: 'compactEtcd' });
    cluster.engine.runUntilIdle();
    const compact = cluster.engine.trace.all().find((m) => m.kind === 'etcd.Compact');
    expect(compact?.payload).toEqual({ revision: rev });
    cluster.fault({ type: 'linkLatency', a: 'kube-apiserver', b: 'etcd', latency: 50 });
    cluster.engine.runUntilIdle();
    const sent = adminCall(cluster, 'GET', '/api/v1/namespaces/default/pods');
    expect(sent.status).toBe(200);
    const range = cluster.engine.trace.all().filter((m) => m.from === 'kube-apiserver' && m.to === 'etcd').at(-1)!;
    expect(range.deliverAt - range.sentAt).toBeGreaterThanOrEqual(50);
  });
});

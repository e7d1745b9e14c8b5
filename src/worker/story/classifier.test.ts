// The story of the seeds' flows as the classifier tells it, checked against what the model stored: the
// names, nodes and revisions are read from etcd (its MVCC history), never from the classifier's output.

import { describe, expect, it } from 'vitest';
import type { Milestone, MilestoneKind } from '../../protocol/index.ts';
import { createCluster, type Cluster } from '../../sim/cluster.ts';
import type { KeyValue } from '../../sim/etcd/index.ts';
import { scenarioById } from '../../sim/scenarios/catalog.ts';
import { runScenario } from '../../sim/scenarios/runner.ts';
import { nodeReady, podFacts, quickNodeReady, quickPodFacts, quickWorkloadFacts, workloadFacts, type WorkloadFacts } from './objects.ts';
import { StoryTap } from './record.ts';
import { builtinTokens } from '../../sim/wire/credentials.ts';
import { httpKinds } from '../../sim/wire/http.ts';
import { decodeStored } from '../../sim/apiserver/storage/codec.ts';
import { protobufNodeReady, protobufPodFacts, protobufWorkloadFacts } from './protobuf-facts.ts';

interface Played {
  readonly cluster: Cluster;
  readonly tap: StoryTap;
  readonly bootSteps: number;
  readonly milestones: readonly Milestone[];
}

function play(id: string, seed = 'podflow'): Played {
  const cluster = createCluster({ seed });
  const tap = new StoryTap(cluster);
  const bootSteps = tap.quietly(() => cluster.boot());
  runScenario(cluster, scenarioById(id)!);
  return { cluster, tap, bootSteps, milestones: tap.record.milestones };
}

/** Every stored version of the keys under `prefix`, oldest first (etcd's MVCC history). */
function history(cluster: Cluster, prefix: string): KeyValue[] {
  const found: KeyValue[] = [];
  cluster.etcd.store.backend.rangeRevisions(1, cluster.etcd.store.currentRev + 1, (kv) => {
    if (kv.key.startsWith(prefix)) found.push(kv);
  });
  return found;
}

interface Condition {
  readonly type: string;
  readonly status: string;
  readonly message?: string;
}

interface StoredObject {
  readonly metadata: { readonly name: string };
  readonly spec: { readonly nodeName?: string };
  readonly status?: { readonly phase?: string; readonly conditions?: readonly Condition[] };
}

function json(kv: KeyValue): StoredObject {
  return decodeStored(kv.value) as StoredObject;
}

const hasCondition = (obj: StoredObject, type: string, status: string) => obj.status?.conditions?.some((c) => c.type === type && c.status === status) ?? false;

function of<K extends MilestoneKind>(milestones: readonly Milestone[], kind: K): Array<Extract<Milestone, { readonly kind: K }>> {
  return milestones.filter((m): m is Extract<Milestone, { readonly kind: K }> => m.kind === kind);
}

describe('the nginx Deployment flow (kubectl create -f nginx.yml)', () => {
  const { cluster, tap, bootSteps, milestones } = play('nginx-deployment');
  const deployment = history(cluster, '/registry/deployments/default/nginx-deployment');
  const replicaSets = history(cluster, '/registry/replicasets/default/');
  const pods = history(cluster, '/registry/pods/default/');
  const rsName = json(replicaSets[0]!).metadata.name;
  const podName = json(pods[0]!).metadata.name;
  const bound = pods.find((kv) => json(kv).spec.nodeName)!;
  const node = json(bound).spec.nodeName!;
  const running = pods.find((kv) => json(kv).status?.phase === 'Running' && hasCondition(json(kv), 'Ready', 'True'))!;
  const available = deployment.find((kv) => hasCondition(json(kv), 'Available', 'True'))!;
  const deploymentRef = { resource: 'deployments', kind: 'Deployment', namespace: 'default', name: 'nginx-deployment' };
  const rsRef = { resource: 'replicasets', kind: 'ReplicaSet', namespace: 'default', name: rsName };
  const podRef = { resource: 'pods', kind: 'Pod', namespace: 'default', name: podName };

  it('has no milestone while the cluster boots', () => {
    expect(milestones.every((m) => m.step > bootSteps)).toBe(true);
    expect(tap.record.levelAt(1)).not.toBeNull();
  });

  it('tells the flow in the order the model did it, with the stored names, node and revisions', () => {
    expect(replicaSets.filter((kv) => kv.version === 1)).toHaveLength(1);
    const facts = milestones.map(({ step: _s, messageId: _m, at: _a, components: _c, ...rest }) => rest);
    expect(facts).toEqual([
      { kind: 'userAction', tool: 'kubectl', summary: 'POST /apis/apps/v1/namespaces/default/deployments', object: deploymentRef },
      { kind: 'objectCreated', object: deploymentRef, key: deployment[0]!.key, revision: deployment[0]!.createRevision, owner: null },
      { kind: 'watchSeen', watcher: 'kube-controller-manager', eventType: 'ADDED', object: deploymentRef, revision: deployment[0]!.createRevision },
      { kind: 'objectCreated', object: rsRef, key: replicaSets[0]!.key, revision: replicaSets[0]!.createRevision, owner: deploymentRef },
      { kind: 'watchSeen', watcher: 'kube-controller-manager', eventType: 'ADDED', object: rsRef, revision: replicaSets[0]!.createRevision },
      { kind: 'podCreated', object: podRef, key: pods[0]!.key, revision: pods[0]!.createRevision, owner: rsRef, node: null, phase: 'Pending' },
      { kind: 'watchSeen', watcher: 'kube-scheduler', eventType: 'ADDED', object: podRef, revision: pods[0]!.createRevision },
      { kind: 'podBound', object: podRef, node, revision: bound.modRevision },
      { kind: 'watchSeen', watcher: `kubelet/${node}`, eventType: 'ADDED', object: podRef, revision: bound.modRevision },
      { kind: 'containerStep', object: podRef, node, action: 'pulling', container: null, image: 'nginx:1.14.2' },
      { kind: 'containerStep', object: podRef, node, action: 'pulled', container: null, image: 'nginx:1.14.2' },
      { kind: 'containerStep', object: podRef, node, action: 'created', container: 'nginx', image: null },
      { kind: 'containerStep', object: podRef, node, action: 'started', container: 'nginx', image: null },
      { kind: 'podPhase', object: podRef, node, phase: 'Running', ready: true, revision: running.modRevision },
      { kind: 'deploymentAvailable', object: deploymentRef, available: true, readyReplicas: 1, replicas: 1, revision: available.modRevision },
    ]);
  });

  it('reaches the Pod Running and Ready by the 14th milestone, counting the create as the first', () => {
    const create = milestones.findIndex((m) => m.kind === 'userAction');
    const runningAt = milestones.findIndex((m) => m.kind === 'podPhase' && m.phase === 'Running' && m.ready);
    expect(create).toBe(0);
    expect(runningAt - create + 1).toBeLessThanOrEqual(14);
  });

  it('puts each milestone on the delivery it is read from, at the milestone level', () => {
    for (const m of milestones) {
      const delivered = cluster.engine.trace.at(m.step)!;
      expect(delivered.id).toBe(m.messageId);
      expect(delivered.deliverAt).toBe(m.at);
      expect(tap.record.levelAt(m.step)).toBe('milestone');
    }
    // Store milestones are the Txn delivered to etcd; first sights the watch event delivered to the watcher.
    const created = of(milestones, 'objectCreated')[0]!;
    expect(cluster.engine.trace.at(created.step)).toMatchObject({ kind: 'etcd.Txn', to: 'etcd' });
    const seen = of(milestones, 'watchSeen')[0]!;
    expect(cluster.engine.trace.at(seen.step)).toMatchObject({ kind: 'http.watchEvent', to: 'kube-controller-manager' });
    expect(created.components).toEqual(['user', 'kube-apiserver', 'etcd']);
    expect(of(milestones, 'podBound')[0]!.components).toEqual(['kube-scheduler', 'kube-apiserver', 'etcd']);
  });

  it('puts filter-chain stages and timers at the internal level, HTTP and etcd messages at the request level', () => {
    const counts = { internal: 0, request: 0, milestone: 0 };
    for (let step = bootSteps + 1; step <= cluster.engine.step; step++) {
      const message = cluster.engine.trace.at(step)!;
      const level = tap.record.levelAt(step)!;
      counts[level]++;
      if (message.kind.startsWith('apiserver.') || message.kind === 'timer') expect(level).toBe('internal');
      if ((message.kind.startsWith('etcd.') || message.kind.startsWith('http.')) && (message.payload as { type?: string }).type !== 'BOOKMARK') {
        expect(level).not.toBe('internal');
      }
    }
    expect(counts.milestone).toBe(milestones.length);
    expect(counts.internal).toBeGreaterThan(counts.request);
  });

  it('never makes an Event or a Lease a milestone', () => {
    for (const m of milestones) {
      if ('key' in m) expect(m.key).not.toMatch(/^\/registry\/(events|leases)\//);
      if ('object' in m && m.object) expect(['Event', 'Lease']).not.toContain(m.object.kind);
    }
  });

  it('classifies a replay identically', () => {
    expect(play('nginx-deployment').milestones).toEqual(milestones);
  });
});

describe('failure scenarios yield their failure milestones', () => {
  it('unschedulable-pod: FailedScheduling with the scheduler\'s message, as stored', () => {
    const { cluster, milestones } = play('unschedulable-pod');
    const failed = of(milestones, 'failedScheduling');
    expect(failed.length).toBeGreaterThanOrEqual(1);
    const stored = history(cluster, '/registry/pods/default/big-pod').map(json)
      .flatMap((pod) => pod.status?.conditions ?? []).find((c) => c.type === 'PodScheduled' && c.status === 'False');
    expect(failed[0]).toMatchObject({ object: { kind: 'Pod', name: 'big-pod' }, message: stored?.message });
    expect(failed[0]!.kind === 'failedScheduling' && failed[0]!.message).toMatch(/Insufficient cpu/);
    expect(of(milestones, 'podBound')).toEqual([]);
  });

  it('bad-rollout: the image change, then ImagePullBackOff for the new pod on its node', () => {
    const { milestones } = play('bad-rollout');
    const change = of(milestones, 'specChanged').find((m) => m.object.kind === 'Deployment')!;
    expect(change).toMatchObject({ generation: 2, change: 'nginx image nginx:1.14.2→nginx:1.16.1' });
    const backOff = of(milestones, 'imagePullBackOff');
    expect(backOff.length).toBeGreaterThanOrEqual(1);
    const bound = of(milestones, 'podBound').find((m) => m.object.name === backOff[0]!.object.name)!;
    expect(backOff[0]).toMatchObject({ node: bound.node, image: 'nginx:1.16.1', message: expect.stringContaining('Back-off pulling image') });
    expect(backOff[0]!.step).toBeGreaterThan(change.step);
  });

  it('crash-loop: CrashLoopBackOff for each pod of my-replicaset, with a growing back-off', () => {
    const { milestones } = play('crash-loop');
    const crashes = of(milestones, 'crashLoopBackOff');
    const pods = new Set(crashes.map((m) => m.object.name));
    expect(pods.size).toBe(2);
    expect(crashes.map((m) => m.kind === 'crashLoopBackOff' && m.message)).toContainEqual(expect.stringMatching(/back-off 10s/));
    expect(crashes.map((m) => m.kind === 'crashLoopBackOff' && m.message)).toContainEqual(expect.stringMatching(/back-off 20s/));
    expect(crashes.every((m) => m.kind === 'crashLoopBackOff' && m.container === 'my-container')).toBe(true);
  });

  it('compaction-broken-watch: the watch cache relists from etcd, then its clients get 410 and relist', () => {
    const { milestones } = play('compaction-broken-watch');
    const relists = of(milestones, 'relist');
    const cache = relists.filter((m) => m.kind === 'relist' && m.client === 'kube-apiserver');
    expect(cache.map((m) => m.kind === 'relist' && m.resource)).toEqual(expect.arrayContaining(['pods', 'nodes', 'namespaces']));
    const clients = relists.filter((m) => m.kind === 'relist' && m.client !== 'kube-apiserver');
    expect(clients.length).toBeGreaterThan(0);
    for (const m of clients) expect(m).toMatchObject({ message: expect.stringMatching(/^too old resource version/) });
    expect(Math.min(...clients.map((m) => m.step))).toBeGreaterThan(Math.max(...cache.map((m) => m.step)));
  });

  it('compaction: the compaction is a user action; dropped watches resume from the watch cache without a relist', () => {
    const { milestones } = play('compaction');
    expect(of(milestones, 'userAction').filter((m) => m.kind === 'userAction' && m.tool === 'fault').map((m) => m.kind === 'userAction' && m.summary))
      .toEqual(['compactEtcd', 'dropWatches']);
    expect(of(milestones, 'relist')).toEqual([]);
  });

  it('node-down: node-1 NotReady, then its pod evicted by the taint manager and replaced elsewhere', () => {
    const { milestones } = play('node-down');
    const evictions = of(milestones, 'eviction');
    expect(evictions[0]).toMatchObject({ object: { kind: 'Node', name: 'node-1' }, node: 'node-1', message: expect.stringMatching(/NodeStatusUnknown/) });
    const pod = evictions.find((m) => m.object.kind === 'Pod')!;
    expect(pod).toMatchObject({ node: 'node-1', message: expect.stringMatching(/^DeletionByTaintManager/) });
    expect(of(milestones, 'terminating').some((m) => m.object.name === pod.object.name && m.step > pod.step)).toBe(true);
    const replacement = of(milestones, 'podBound').filter((m) => m.step > pod.step);
    expect(replacement.length).toBe(1);
    expect(replacement[0]!.kind === 'podBound' && replacement[0]!.node).not.toBe('node-1');
  });

  it('orphan-delete: kube-controller-manager\'s 409 Conflict is a milestone', () => {
    // The conflict is a race between the deployment controller and the garbage collector: seed 'j' has it (as do k, m
    // and q of a–t; the race moves whenever boot's traffic changes).
    const { milestones } = play('orphan-delete', 'j');
    expect(of(milestones, 'conflict')).toEqual([expect.objectContaining({
      client: 'kube-controller-manager', object: expect.objectContaining({ kind: 'Deployment', name: 'nginx-deployment' }),
      message: expect.stringMatching(/the object has been modified/),
    })]);
  });

  it('self-healing: the deletion, seen by the controller that heals, and the replacement', () => {
    const { milestones } = play('self-healing');
    const deleted = of(milestones, 'userAction').find((m) => m.kind === 'userAction' && m.summary.startsWith('DELETE'))!;
    const after = milestones.filter((m) => m.step > deleted.step).map((m) => m.kind);
    expect(after.slice(0, 4)).toEqual(['terminating', 'watchSeen', expect.any(String), expect.any(String)]);
    expect(after).toContain('podCreated');
    expect(after).toContain('objectDeleted');
    expect(milestones.some((m) => m.kind === 'watchSeen' && m.eventType === 'DELETED' && m.watcher === 'kube-controller-manager')).toBe(true);
  });
});

describe('the quick readers of stored updates agree with parsing the whole object', () => {
  it.each(['nginx-deployment', 'crash-loop', 'bad-rollout', 'node-down', 'unschedulable-pod', 'self-healing'])('in %s', (id) => {
    const { cluster } = play(id);
    let quickPods = 0;
    let protobufPods = 0;
    let protobufWorkloads = 0;
    let quickWorkloads = 0;
    let workloadUpdates = 0;
    const previous = new Map<string, WorkloadFacts>();
    for (const kv of history(cluster, '/registry/')) {
      if (kv.createRevision === 0) continue;
      const obj = decodeStored(kv.value) as unknown as Record<string, unknown>;
      // The quick readers read JSON storage; the same object's JSON text stands for it here.
      const text = JSON.stringify(obj);
      if (kv.key.startsWith('/registry/pods/')) {
        const fromBytes = protobufPodFacts(kv.value);
        if (fromBytes !== undefined) {
          protobufPods++;
          expect({ ...fromBytes, images: null }).toEqual({ ...podFacts(obj), images: null });
        }
        const quick = quickPodFacts(text);
        if (quick === undefined) continue;
        quickPods++;
        expect({ ...quick, images: null }).toEqual({ ...podFacts(obj), images: null });
      } else if (kv.key.startsWith('/registry/minions/')) {
        expect(quickNodeReady(text)).toEqual(nodeReady(obj));
        const fromBytes = protobufNodeReady(kv.value);
        if (fromBytes !== undefined) expect(fromBytes).toEqual(nodeReady(obj));
      } else if (kv.key.startsWith('/registry/deployments/') || kv.key.startsWith('/registry/replicasets/')) {
        const full = workloadFacts(obj);
        const before = previous.get(kv.key);
        previous.set(kv.key, full);
        if (!before) continue;
        workloadUpdates++;
        const fromBytes = protobufWorkloadFacts(kv.value, before);
        if (fromBytes !== undefined) {
          protobufWorkloads++;
          expect(fromBytes).toEqual(full);
        }
        const quick = quickWorkloadFacts(text, before);
        if (quick === undefined) {
          expect(full.generation !== before.generation || full.terminating !== before.terminating).toBe(true);
          continue;
        }
        quickWorkloads++;
        expect(quick).toEqual(full);
      }
    }
    expect(quickPods).toBeGreaterThan(0);
    // Most updates of a workload are status writes, read without parsing.
    expect(quickWorkloads).toBeGreaterThanOrEqual(workloadUpdates / 2);
    // The protobuf readers (the default storage) read as many without decoding.
    expect(protobufPods).toBeGreaterThanOrEqual(quickPods);
    expect(protobufWorkloads).toBeGreaterThanOrEqual(quickWorkloads);
  });
});

describe('talking to a container', () => {
  it('an exec writes nothing: it is not told as a user\'s write', () => {
    const { cluster, tap } = play('nginx-deployment', 'story-exec');
    const pod = history(cluster, '/registry/pods/default/').map(json).at(-1)!.metadata.name;
    const before = tap.record.milestones.length;
    cluster.user.request('kube-apiserver', httpKinds.request, {
      method: 'POST', path: `/api/v1/namespaces/default/pods/${pod}/exec`, query: 'command=hostname&stdout=true',
      headers: { authorization: `Bearer ${builtinTokens.admin}`, connection: 'Upgrade', upgrade: 'websocket' },
    });
    cluster.engine.runFor(2_000);
    expect(tap.record.milestones.slice(before).filter((m) => m.kind === 'userAction')).toEqual([]);
    // It did reach the kubelet.
    expect(cluster.engine.trace.all().some((m) => m.kind === httpKinds.request && m.to.startsWith('kubelet/'))).toBe(true);
  });
});

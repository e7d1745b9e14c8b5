// Every scenario as data (ids, both languages, manifests kubectl accepts) and as behaviour: each is run
// by the runner on a fresh 3-node cluster with the cluster invariants checked after every engine step,
// and its outcome checked against what Kubernetes 1.28 does.

import { describe, expect, it } from 'vitest';
import { parseManifest } from '../api/manifest.ts';
import { parseTimestamp } from '../api/time.ts';
import type { Deployment, ReplicaSet } from '../api/types/apps.ts';
import type { Event, Node, Pod } from '../api/types/core.ts';
import { httpKinds, type HttpRequest, type HttpWatchEvent } from '../wire/http.ts';
import { createCluster, type Cluster } from '../cluster.ts';
import { addClusterInvariants, convergenceProblems, podsNotRunningAndReady, storedObjects, type OwnershipOptions } from '../testing/invariants.ts';
import { getControllerOf } from '../controllers/controller-utils.ts';
import { scenarioById, scenarios } from './catalog.ts';
import { CauseIndex } from './causes.ts';
import { commandLine, ScenarioRunner, type StepRecord } from './runner.ts';

function start(id: string, options: OwnershipOptions = {}): { cluster: Cluster; runner: ScenarioRunner } {
  const cluster = createCluster({ seed: `scenario-${id}` });
  cluster.boot();
  addClusterInvariants(cluster, options);
  return { cluster, runner: new ScenarioRunner(cluster, scenarioById(id)!) };
}

const live = (cluster: Cluster) => storedObjects<Pod>(cluster, 'pods').filter((p) => !p.metadata.deletionTimestamp);
const events = (cluster: Cluster) => storedObjects<Event>(cluster, 'events');
const eventTexts = (cluster: Cluster, reason: string) => events(cluster).filter((e) => e.reason === reason).map((e) => e.message);

describe('the scenario catalog', () => {
  it('has unique ids and a title and one-line description in English and Chinese', () => {
    expect(new Set(scenarios.map((s) => s.id)).size).toBe(scenarios.length);
    for (const s of scenarios) {
      expect(s.id).toMatch(/^[a-z0-9-]+$/);
      for (const text of [s.title, s.description]) {
        expect(text.en.trim()).not.toBe('');
        expect(text.zh).toMatch(/[\u4e00-\u9fff]|^[A-Za-z-]+ [A-Za-z]+$/);
        expect(text.en + text.zh).not.toContain('\n');
      }
    }
  });

  it('holds manifests kubectl accepts (no errors, no unknown fields), and every create step names one', () => {
    for (const s of scenarios) {
      for (const m of s.manifests) {
        const parsed = parseManifest(m.yaml, m.file);
        expect(parsed.errors, `${s.id} ${m.file}`).toEqual([]);
        expect(parsed.objects.flatMap((o) => o.unknownFields), `${s.id} ${m.file}`).toEqual([]);
      }
      for (const step of s.steps) if (step.do === 'create') expect(s.manifests.map((m) => m.file)).toContain(step.file);
    }
  });

  it('renders each kubectl step as the command a user types', () => {
    expect(scenarioById('rolling-update')!.steps.map(commandLine)).toEqual([
      'kubectl create -f user-service-deployment.yaml', '# run until idle',
      'kubectl set image deployment/user-service redis=redis:6.0', '# run until idle',
    ]);
    expect(commandLine({ do: 'delete', resource: 'deployment', name: 'nginx-deployment', propagationPolicy: 'Orphan' }))
      .toBe('kubectl delete deployment nginx-deployment --cascade=orphan');
  });
});

describe('scenarios, run step by step', () => {
  it('user-service-pod: one Pod, three containers, each pulled, created and started, in the seed\'s order of events', () => {
    const { cluster, runner } = start('user-service-pod');
    const [created] = runner.runAll();
    expect(created!.output).toEqual(['pod/user-service created']);
    const [pod] = live(cluster);
    expect(pod!.status?.phase).toBe('Running');
    expect(pod!.status?.containerStatuses?.map((c) => [c.name, c.ready])).toEqual([['user', true], ['mysql', true], ['redis', true]]);
    const about = events(cluster).filter((e) => e.involvedObject.name === 'user-service').map((e) => e.message);
    const at = (message: string) => {
      const i = about.indexOf(message);
      expect(i, message).toBeGreaterThanOrEqual(0);
      return i;
    };
    // Seeds/003: scheduled, pulling "user", pulled, created container user, started container user.
    const steps = [at(`Successfully assigned default/user-service to ${pod!.spec.nodeName}`), at('Pulling image "user"'),
      about.findIndex((m) => m?.startsWith('Successfully pulled image "user" in ')), at('Created container user'), at('Started container user')];
    expect([...steps].sort((a, b) => a - b)).toEqual(steps);
    expect(podsNotRunningAndReady(cluster)).toEqual([]);
  });

  it('user-service-deployment: 3 replicas, one per node, the Deployment Available', () => {
    const { cluster, runner } = start('user-service-deployment');
    runner.runAll();
    const pods = live(cluster);
    expect(pods).toHaveLength(3);
    expect(new Set(pods.map((p) => p.spec.nodeName))).toEqual(new Set(['node-1', 'node-2', 'node-3']));
    expect(convergenceProblems(cluster)).toEqual([]);
    expect(podsNotRunningAndReady(cluster)).toEqual([]);
    expect(eventTexts(cluster, 'ScalingReplicaSet')).toEqual([`Scaled up replica set ${storedObjects<ReplicaSet>(cluster, 'replicasets')[0]!.metadata.name} to 3`]);
  });

  it('scale: kubectl scale to 3 then to 1, the ReplicaSet follows and the Deployment converges after each', () => {
    const { cluster, runner } = start('scale');
    const seen: Array<[number, string[]]> = [];
    runner.runAll((r) => {
      if (r.step.do === 'runUntilIdle') seen.push([live(cluster).length, convergenceProblems(cluster)]);
    });
    expect(seen).toEqual([[1, []], [3, []], [1, []]]);
    const scaled = runner.records.filter((r) => r.step.do === 'scale');
    expect(scaled.map((r) => r.output)).toEqual([['deployment.apps/nginx-deployment scaled'], ['deployment.apps/nginx-deployment scaled']]);
    // kubectl reads the Deployment, then merge-patches its scale subresource.
    const sent = scaled[0]!.requestIds.map((id) => cluster.engine.trace.all().find((m) => m.id === id)!.payload as HttpRequest);
    expect(sent.map((r) => `${r.method} ${r.path} ${r.headers['content-type'] ?? ''}`)).toEqual([
      'GET /apis/apps/v1/namespaces/default/deployments/nginx-deployment ',
      'PATCH /apis/apps/v1/namespaces/default/deployments/nginx-deployment/scale application/merge-patch+json',
    ]);
    const rs = storedObjects<ReplicaSet>(cluster, 'replicasets')[0]!.metadata.name;
    expect(eventTexts(cluster, 'ScalingReplicaSet')).toEqual([`Scaled up replica set ${rs} to 1`, `Scaled up replica set ${rs} to 3 from 1`, `Scaled down replica set ${rs} to 1 from 3`]);
    expect(eventTexts(cluster, 'SuccessfulDelete')).toHaveLength(2);
  });

  it('rolling-update: set image redis=redis:6.0 rolls out within maxSurge 1 / maxUnavailable 0 to a new ReplicaSet', () => {
    const { cluster, runner } = start('rolling-update');
    let rolling = false;
    cluster.engine.addInvariant('rollout stays within maxSurge 1 and maxUnavailable 0', () => {
      if (!rolling) return undefined;
      const pods = live(cluster);
      const ready = pods.filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
      if (pods.length > 4) return `${pods.length} pods for 3 replicas with maxSurge 1`;
      if (ready.length < 3) return `${ready.length} ready pods for 3 replicas with maxUnavailable 0`;
      return undefined;
    });
    runner.runStep();
    runner.runStep();
    const [old] = storedObjects<ReplicaSet>(cluster, 'replicasets');
    rolling = true;
    const set = runner.runStep();
    expect(set.output).toEqual(['deployment.apps/user-service image updated']);
    const patch = cluster.engine.trace.all().find((m) => m.id === set.requestIds[1])!.payload as HttpRequest;
    expect(patch).toMatchObject({ method: 'PATCH', query: 'fieldManager=kubectl-set', headers: { 'content-type': 'application/strategic-merge-patch+json' } });
    expect(JSON.parse(patch.body as string)).toEqual({ spec: { template: { spec: {
      '$setElementOrder/containers': [{ name: 'user' }, { name: 'mysql' }, { name: 'redis' }], containers: [{ image: 'redis:6.0', name: 'redis' }],
    } } } });
    runner.runStep();
    const sets = storedObjects<ReplicaSet>(cluster, 'replicasets');
    const next = sets.find((rs) => rs.metadata.uid !== old!.metadata.uid)!;
    expect(sets.find((rs) => rs.metadata.uid === old!.metadata.uid)!.spec.replicas).toBe(0);
    expect(next.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    const pods = live(cluster);
    expect(pods.map((p) => getControllerOf(p)?.uid)).toEqual([next.metadata.uid, next.metadata.uid, next.metadata.uid]);
    expect(pods.every((p) => p.spec.containers.find((c) => c.name === 'redis')!.image === 'redis:6.0')).toBe(true);
    expect(convergenceProblems(cluster)).toEqual([]);
    expect(podsNotRunningAndReady(cluster)).toEqual([]);
    const d = storedObjects<Deployment>(cluster, 'deployments')[0]!;
    expect(d.status?.conditions?.find((c) => c.type === 'Progressing')).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${next.metadata.name}" has successfully progressed.` });
  });

  it('self-healing: deleting one of my-replicaset\'s pods makes the controller create a replacement, caused by that DELETE', () => {
    const { cluster, runner } = start('self-healing');
    runner.runStep();
    runner.runStep();
    const before = live(cluster).map((p) => p.metadata.name!).sort();
    const deleted: StepRecord = runner.runStep();
    expect(deleted.output).toEqual([...before.map((n) => `pod/${n}`), `pod "${before[0]}" deleted`]);
    runner.runStep();
    const after = live(cluster).map((p) => p.metadata.name!);
    expect(after).toHaveLength(2);
    expect(after).toContain(before[1]);
    expect(after).not.toContain(before[0]);
    const replacement = after.find((n) => !before.includes(n))!;
    const trace = cluster.engine.trace.all();
    const del = trace.find((m) => deleted.requestIds.includes(m.id) && (m.payload as HttpRequest).method === 'DELETE')!;
    const create = trace.find((m) => m.from === 'kube-controller-manager' && m.kind === httpKinds.request && (m.payload as HttpRequest).method === 'POST'
      && m.id > del.id && (m.payload as HttpRequest).path === '/api/v1/namespaces/default/pods')!;
    expect(new CauseIndex(trace).caused(del, create)).toBe(true);
    expect(eventTexts(cluster, 'SuccessfulCreate')).toContain(`Created pod: ${replacement}`);
    expect(convergenceProblems(cluster)).toEqual([]);
    expect(podsNotRunningAndReady(cluster)).toEqual([]);
  });

  it('unschedulable-pod: FailedScheduling with the FitError text, PodScheduled=False Unschedulable, still Pending', () => {
    const { cluster, runner } = start('unschedulable-pod');
    runner.runAll();
    const message = '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..';
    const failed = events(cluster).filter((e) => e.reason === 'FailedScheduling');
    expect(failed.map((e) => [e.type, e.message])).toEqual([['Warning', message]]);
    const [pod] = live(cluster);
    expect(pod!.spec.nodeName).toBeUndefined();
    expect(pod!.status?.phase).toBe('Pending');
    expect(pod!.status?.conditions?.find((c) => c.type === 'PodScheduled')).toMatchObject({ status: 'False', reason: 'Unschedulable', message });
  });

  it('cascade-delete: kubectl delete deployment user-service; the garbage collector deletes its ReplicaSet, then its pods', () => {
    const { cluster, runner } = start('cascade-delete', { ownersMayBeDeleted: true });
    runner.runStep();
    runner.runStep();
    const [rs] = storedObjects<ReplicaSet>(cluster, 'replicasets');
    const deleted = runner.runStep();
    expect(deleted.output).toEqual(['deployment.apps "user-service" deleted']);
    const trace = cluster.engine.trace.all();
    const del = trace.find((m) => m.id === deleted.requestIds[0])!;
    expect(del.payload).toMatchObject({ method: 'DELETE', path: '/apis/apps/v1/namespaces/default/deployments/user-service' });
    expect(JSON.parse((del.payload as HttpRequest).body as string)).toEqual({ propagationPolicy: 'Background' });
    runner.runStep();
    expect(storedObjects(cluster, 'deployments')).toEqual([]);
    expect(storedObjects(cluster, 'replicasets')).toEqual([]);
    expect(storedObjects(cluster, 'pods')).toEqual([]);
    // The collector's deletes descend from the user's DELETE: first the ReplicaSet, then its pods.
    const causes = new CauseIndex(cluster.engine.trace.all());
    const gcDeletes = cluster.engine.trace.all().filter((m) => m.from === 'kube-controller-manager' && m.kind === httpKinds.request
      && (m.payload as HttpRequest).method === 'DELETE');
    const paths = gcDeletes.map((m) => (m.payload as HttpRequest).path);
    expect(paths).toHaveLength(4);
    expect(paths[0]).toBe(`/apis/apps/v1/namespaces/default/replicasets/${rs!.metadata.name}`);
    for (const path of paths.slice(1)) expect(path).toMatch(new RegExp(`^/api/v1/namespaces/default/pods/${rs!.metadata.name}-[a-z0-9]{5}$`));
    for (const m of gcDeletes) expect(causes.root(m).id).toBe(del.id);
  });

  it('orphan-delete: --cascade=orphan; kubectl waits for the orphan finalizer, the ReplicaSet and its pod stay without an owner', () => {
    const { cluster, runner } = start('orphan-delete', { ownersMayBeDeleted: true });
    runner.runStep();
    runner.runStep();
    const [pod] = live(cluster);
    const deleted = runner.runStep();
    expect(deleted.output).toEqual(['deployment.apps "nginx-deployment" deleted']);
    // DELETE, then the wait: GET (still there, finalizer orphan), list and watch its name until DELETED.
    const sent = deleted.requestIds.map((id) => cluster.engine.trace.all().find((m) => m.id === id)!.payload as HttpRequest);
    expect(sent.map((r) => r.method)).toEqual(['DELETE', 'GET', 'GET', 'GET']);
    expect(JSON.parse(sent[0]!.body as string)).toEqual({ propagationPolicy: 'Orphan' });
    expect(sent[3]!.query).toMatch(/^allowWatchBookmarks=true&fieldSelector=metadata.name%3Dnginx-deployment&resourceVersion=\d+&timeoutSeconds=[3-5]\d\d&watch=true$/);
    runner.runStep();
    expect(storedObjects(cluster, 'deployments')).toEqual([]);
    const [rs] = storedObjects<ReplicaSet>(cluster, 'replicasets');
    expect(rs!.metadata.ownerReferences ?? []).toEqual([]);
    expect(live(cluster).map((p) => [p.metadata.name, getControllerOf(p)?.uid])).toEqual([[pod!.metadata.name, rs!.metadata.uid]]);
    expect(podsNotRunningAndReady(cluster)).toEqual([]);
    expect(convergenceProblems(cluster)).toEqual([]);
  });

  it('compaction: after etcdctl compact and every watch dropped, clients watch again from their last resourceVersion (the watch cache serves them; no relist) and converge', () => {
    const { cluster, runner } = start('compaction');
    runner.runStep();
    runner.runStep();
    const before = cluster.engine.step;
    const lists = () => cluster.engine.trace.all().filter((m) => m.kind === httpKinds.request && m.from !== 'user'
      && (m.payload as HttpRequest).method === 'GET' && !(m.payload as HttpRequest).query.includes('watch=true')
      && ['pods', 'replicasets', 'deployments', 'nodes', 'leases'].includes((m.payload as HttpRequest).path.split('/').pop()!)).length;
    const listsBefore = lists();
    expect(listsBefore).toBeGreaterThanOrEqual(10);
    runner.runStep();
    runner.runStep();
    runner.runStep();
    const after = cluster.engine.trace.since(before);
    const ends = after.filter((m) => m.kind === httpKinds.watchEnd);
    expect(ends.length).toBeGreaterThanOrEqual(10);
    for (const end of ends) {
      const watch = cluster.engine.trace.all().find((m) => m.id === end.replyTo)!;
      const again = after.find((m) => m.from === end.to && m.kind === httpKinds.request && (m.payload as HttpRequest).path === (watch.payload as HttpRequest).path
        && (m.payload as HttpRequest).query.includes('watch=true'));
      expect(again, `${end.to} ${(watch.payload as HttpRequest).path}`).toBeDefined();
      expect((again!.payload as HttpRequest).query).toMatch(/(^|&)resourceVersion=[1-9]\d*&/);
    }
    expect(after.filter((m) => m.kind === httpKinds.watchEvent && (m.payload as HttpWatchEvent).type === 'ERROR')).toEqual([]);
    expect(cluster.etcd.store.compactMainRev).toBeGreaterThan(0);
    runner.runAll();
    expect(lists()).toBe(listsBefore);
    expect(live(cluster)).toHaveLength(3);
    expect(convergenceProblems(cluster)).toEqual([]);
    expect(podsNotRunningAndReady(cluster)).toEqual([]);
  });

  it('bad-rollout: the new pod cannot pull nginx:1.16.1 (ErrImagePull, then ImagePullBackOff); the old pod keeps serving', () => {
    const { cluster, runner } = start('bad-rollout');
    runner.runStep();
    runner.runStep();
    const [old] = live(cluster);
    expect(runner.runAll().map((r) => r.output)).toContainEqual(['deployment.apps/nginx-deployment image updated']);
    const pods = live(cluster);
    expect(pods).toHaveLength(2);
    const fresh = pods.find((p) => p.metadata.uid !== old!.metadata.uid)!;
    expect(fresh.status?.phase).toBe('Pending');
    expect(fresh.status?.containerStatuses?.[0]?.state).toEqual({ waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "nginx:1.16.1"' } });
    expect(podsNotRunningAndReady(cluster)).toEqual([`default/${fresh.metadata.name} Pending`]);
    const reasons = events(cluster).filter((e) => e.involvedObject.name === fresh.metadata.name).map((e) => `${e.type} ${e.reason} ${e.message}`);
    expect(reasons).toEqual(expect.arrayContaining(['Warning Failed Error: ErrImagePull', 'Normal BackOff Back-off pulling image "nginx:1.16.1"', 'Warning Failed Error: ImagePullBackOff']));
    // maxUnavailable 0: the Deployment stays Available on the old pod, its rollout not complete.
    const d = storedObjects<Deployment>(cluster, 'deployments')[0]!;
    expect(d.status).toMatchObject({ replicas: 2, updatedReplicas: 1, availableReplicas: 1, unavailableReplicas: 1 });
    expect(d.status?.conditions?.find((c) => c.type === 'Available')?.status).toBe('True');
    expect(d.status?.conditions?.find((c) => c.type === 'Progressing')).toMatchObject({ status: 'True', reason: 'ReplicaSetUpdated' });
  });

  it('crash-loop: my-replicaset\'s containers exit with code 1 and restart with a growing back-off (CrashLoopBackOff)', () => {
    const { cluster, runner } = start('crash-loop');
    runner.runAll();
    const pods = live(cluster);
    expect(pods).toHaveLength(2);
    for (const p of pods) {
      const status = p.status!.containerStatuses![0]!;
      expect(p.status?.phase).toBe('Running');
      expect(status.restartCount).toBeGreaterThanOrEqual(2);
      expect(status.ready).toBe(false);
      expect(status.state?.waiting?.reason).toBe('CrashLoopBackOff');
      expect(status.state?.waiting?.message).toBe(`back-off ${10 * 2 ** (status.restartCount - 1)}s restarting failed container=my-container pod=${p.metadata.name}_default(${p.metadata.uid})`);
      expect(status.lastState?.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    }
    expect(eventTexts(cluster, 'BackOff').sort()).toEqual(pods.map((p) => `Back-off restarting failed container my-container in pod ${p.metadata.name}_default(${p.metadata.uid})`).sort());
    expect(convergenceProblems(cluster)).toEqual([]);
  });

  it('node-down: node-1 goes Unknown after the 40 s grace period, gets the unreachable taint, its pod is evicted after 300 s and replaced elsewhere', () => {
    const { cluster, runner } = start('node-down');
    runner.runStep();
    runner.runStep();
    const onNode1 = live(cluster).filter((p) => p.spec.nodeName === 'node-1');
    expect(onNode1).toHaveLength(1);
    const down = runner.runStep();
    runner.runAll();
    const downAt = cluster.engine.trace.all().find((m) => m.id === down.requestIds[0])!.deliverAt;
    const node = storedObjects<Node>(cluster, 'minions').find((n) => n.metadata.name === 'node-1')!;
    const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
    expect(ready).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
    // 40 s after the node lifecycle controller last saw the lease renewed (its 5 s monitor sees a renewal up
    // to 5 s late, and the renewal was up to 10 s before the node went down), at the next 5 s monitor pass.
    const unknownAfter = parseTimestamp(ready!.lastTransitionTime!)! - cluster.engine.epochMs - downAt;
    expect(unknownAfter).toBeGreaterThan(29_000);
    expect(unknownAfter).toBeLessThanOrEqual(50_000);
    expect(node.spec?.taints?.map((t) => `${t.key}:${t.effect}`)).toEqual(expect.arrayContaining(['node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/unreachable:NoSchedule']));
    // The evicted pod stays Terminating (its kubelet cannot confirm); a replacement runs on another node.
    const victim = storedObjects<Pod>(cluster, 'pods').find((p) => p.metadata.uid === onNode1[0]!.metadata.uid)!;
    expect(victim.metadata.deletionTimestamp).toBeDefined();
    const evicted = events(cluster).find((e) => e.reason === 'TaintManagerEviction')!;
    expect(evicted.message).toBe(`Marking for deletion Pod default/${victim.metadata.name}`);
    const evictedAt = parseTimestamp(evicted.firstTimestamp!)! - cluster.engine.epochMs;
    expect(evictedAt - downAt).toBeGreaterThanOrEqual(300_000);
    const pods = live(cluster);
    expect(pods).toHaveLength(3);
    expect(pods.every((p) => p.spec.nodeName !== 'node-1')).toBe(true);
    expect(podsNotRunningAndReady(cluster)).toEqual([]);
  });
});

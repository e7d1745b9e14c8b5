import { describe, expect, it } from 'vitest';
import type { Event, Pod } from '../api/types/core.ts';
import type { List } from '../api/types/meta.ts';
import { builtinTokens } from '../wire/credentials.ts';
import { httpKinds, type HttpRequest, type HttpResponse } from '../wire/http.ts';
import { createCluster, type Cluster } from '../cluster.ts';
import { runTwiceWithPerturbedHost } from '../testing/determinism.ts';
import { adminCall } from '../testing/http.ts';
import { Kubelet } from '../kubelet/kubelet.ts';
import { fitErrorMessage } from './framework/fit-error.ts';
import { CycleState } from './framework/interface.ts';
import { defaultPreemption } from './framework/plugins/defaultpreemption.ts';
import { KubeScheduler, type KubeSchedulerOptions } from './scheduler.ts';

const call = adminCall;

function setup(seed = 'scheduler', options: KubeSchedulerOptions = {}) {
  const cluster = createCluster({ seed, components: { controllerManager: false, scheduler: false, kubelets: false } });
  cluster.engine.runUntilIdle();
  const kubelets = ['node-1', 'node-2', 'node-3'].map((node) => {
    const k = cluster.engine.add(new Kubelet({ node }));
    cluster.engine.link(k.name, 'kube-apiserver', { latency: 2 });
    k.start();
    return k;
  });
  cluster.engine.runUntilIdle();
  const scheduler = cluster.engine.add(new KubeScheduler(options));
  cluster.engine.link('kube-scheduler', 'kube-apiserver', { latency: 2 });
  scheduler.start();
  addBindingInvariants(cluster, kubelets);
  cluster.engine.runUntilIdle();
  return { cluster, kubelets, scheduler };
}

const pod = (name: string, spec: Partial<Pod['spec']> = {}): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
  spec: { containers: [{ name: 'nginx', image: 'nginx:1.14.2' }], ...spec },
});

function getPod(cluster: Cluster, name: string): Pod {
  return call(cluster, 'GET', `/api/v1/namespaces/default/pods/${name}`).body as Pod;
}

function events(cluster: Cluster, name: string): Event[] {
  return (call(cluster, 'GET', '/api/v1/namespaces/default/events').body as List<Event>).items.filter((e) => e.involvedObject.name === name);
}

/**
 * Checked by the engine after every step: a pod is bound at most once (no pod bound to two nodes), and only
 * to a node whose kubelet has registered it.
 */
function addBindingInvariants(cluster: Cluster, kubelets: readonly Kubelet[]): void {
  const requests = new Map<number, HttpRequest>();
  const boundTo = new Map<string, string>();
  let violation: string | undefined;
  cluster.engine.onDelivery((m) => {
    if (m.from === 'kube-scheduler' && m.kind === httpKinds.request) {
      const r = m.payload as HttpRequest;
      if (r.path.endsWith('/binding')) requests.set(m.id, r);
    }
    if (m.from === 'kube-apiserver' && m.to === 'kube-scheduler' && m.replyTo !== null && requests.has(m.replyTo)) {
      const r = requests.get(m.replyTo)!;
      if ((m.payload as HttpResponse).status !== 201) return;
      const body = (typeof r.body === 'string' ? JSON.parse(r.body) : r.body) as { target: { name: string } };
      const node = body.target.name;
      if (boundTo.has(r.path)) violation = `${r.path} bound twice (${boundTo.get(r.path)}, ${node})`;
      boundTo.set(r.path, node);
      if (!kubelets.some((k) => k.node === node && k.registered)) violation = `${r.path} bound to unknown node ${node}`;
    }
  });
  cluster.engine.addInvariant('pod bound once, to an existing node', () => violation);
}

/** Invariants: every pod is on at most one node (its binding never changes) and that node exists. */
function checkInvariants(cluster: Cluster, boundTo: Map<string, string>): void {
  const pods = (call(cluster, 'GET', '/api/v1/pods').body as List<Pod>).items;
  const nodes = new Set((call(cluster, 'GET', '/api/v1/nodes').body as List<{ metadata: { name: string } }>).items.map((n) => n.metadata.name));
  for (const p of pods) {
    if (!p.spec.nodeName) continue;
    expect(nodes.has(p.spec.nodeName)).toBe(true);
    const uid = p.metadata.uid ?? '';
    const prev = boundTo.get(uid);
    if (prev !== undefined) expect(p.spec.nodeName).toBe(prev);
    boundTo.set(uid, p.spec.nodeName);
  }
}

describe('kube-scheduler', () => {
  it('formats FitError with DefaultPreemption\'s PostFilter message like the real scheduler', () => {
    const failures = [
      { reasons: ['node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }'], unresolvable: true },
      { reasons: ['Insufficient cpu'], unresolvable: false },
      { reasons: ['Insufficient cpu'], unresolvable: false },
    ];
    const postFilter = defaultPreemption.postFilter(new CycleState(), pod('p'), 3, failures);
    expect(fitErrorMessage(3, failures, postFilter)).toBe('0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. '
      + 'preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod..');
  });

  it('runs a profile\'s Reserve and Permit plugins on the selected node; a Permit rejection unreserves and is a FailedScheduling', () => {
    const calls: string[] = [];
    const { cluster, scheduler } = setup('scheduler-permit', {
      plugins: (defaults) => ({
        ...defaults,
        reserve: [{
          name: 'Recorder',
          reserve: (_state, p, node) => { calls.push(`reserve ${p.metadata.name} ${node}`); return null; },
          unreserve: (_state, p, node) => { calls.push(`unreserve ${p.metadata.name} ${node}`); },
        }],
        permit: [{
          name: 'OnlyAllowed',
          permit: (_state, p) => (p.metadata.labels?.['allowed'] === 'true' ? null : { code: 'Unschedulable', message: 'rejected by OnlyAllowed' }),
        }],
      }),
    });
    call(cluster, 'POST', '/api/v1/namespaces/default/pods', pod('denied'));
    call(cluster, 'POST', '/api/v1/namespaces/default/pods', { ...pod('allowed'), metadata: { name: 'allowed', namespace: 'default', labels: { allowed: 'true' } } });
    cluster.engine.runUntilIdle();
    const denied = scheduler.attempts.find((a) => a.pod === 'default/denied')!;
    expect(denied).toMatchObject({ message: 'rejected by OnlyAllowed', bound: false });
    expect(calls.slice(0, 2)).toEqual([`reserve denied ${denied.selected}`, `unreserve denied ${denied.selected}`]);
    expect(getPod(cluster, 'denied').spec.nodeName).toBeUndefined();
    expect(events(cluster, 'denied').map((e) => [e.reason, e.message])).toEqual([['FailedScheduling', 'rejected by OnlyAllowed']]);
    expect(getPod(cluster, 'allowed').spec.nodeName).toBe(scheduler.attempts.find((a) => a.pod === 'default/allowed')!.selected);
    expect(calls).toContain(`reserve allowed ${getPod(cluster, 'allowed').spec.nodeName}`);
    expect(calls).not.toContain(`unreserve allowed ${getPod(cluster, 'allowed').spec.nodeName}`);
  });

  it('binds a pod created by the admin; the kubelet runs it to Running and Ready', () => {
    const { cluster, scheduler } = setup();
    const boundTo = new Map<string, string>();
    expect(call(cluster, 'POST', '/api/v1/namespaces/default/pods', pod('web')).status).toBe(201);
    checkInvariants(cluster, boundTo);
    const p = getPod(cluster, 'web');
    expect(p.spec.nodeName).toMatch(/^node-[123]$/);
    expect(p.status?.phase).toBe('Running');
    expect(p.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');

    const bindings = cluster.engine.trace.all().filter((m) => m.from === 'kube-scheduler' && m.kind === httpKinds.request)
      .map((m) => m.payload as HttpRequest).filter((r) => r.method === 'POST' && r.path.endsWith('/binding'));
    expect(bindings.map((r) => r.path)).toEqual(['/api/v1/namespaces/default/pods/web/binding']);
    // The binding's GuaranteedUpdate is a Txn comparing the pod key's mod_revision.
    const bindingMsg = cluster.engine.trace.all().find((m) => m.from === 'kube-scheduler' && (m.payload as HttpRequest).path?.endsWith('/binding'))!;
    const txn = cluster.engine.trace.all().find((m) => m.id > bindingMsg.id && m.kind === 'etcd.Txn' && m.to === 'etcd'
      && JSON.stringify(m.payload).includes('/registry/pods/default/web'))!;
    expect((txn.payload as { compare: unknown[] }).compare).toEqual([{ target: 'MOD', key: '/registry/pods/default/web', modRevision: expect.any(Number) }]);
    const ev = events(cluster, 'web');
    expect(ev.map((e) => e.reason)).toEqual(['Scheduled', 'Pulling', 'Pulled', 'Created', 'Started']);
    expect(ev[0]!.message).toBe(`Successfully assigned default/web to ${p.spec.nodeName}`);

    const attempt = scheduler.attempts[0]!;
    expect(attempt).toMatchObject({ pod: 'default/web', attempt: 1, selected: p.spec.nodeName, bound: true });
    expect(attempt.nodes).toHaveLength(3);
    for (const n of attempt.nodes) {
      expect(n.filters.map((f) => f.plugin)).toEqual(['NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeAffinity', 'NodePorts', 'NodeResourcesFit']);
      expect(n.scores.map((s) => s.plugin)).toEqual(['TaintToleration', 'NodeAffinity', 'NodeResourcesFit', 'NodeResourcesBalancedAllocation', 'ImageLocality']);
    }

    for (let i = 0; i < 5; i++) call(cluster, 'POST', '/api/v1/namespaces/default/pods', pod(`w${i}`));
    checkInvariants(cluster, boundTo);
    const nodes = new Set([0, 1, 2, 3, 4].map((i) => getPod(cluster, `w${i}`).spec.nodeName));
    expect(nodes.size).toBeGreaterThan(1);
  });

  it('an unschedulable pod gets FailedScheduling with the exact message and stays Pending', () => {
    const { cluster, scheduler } = setup('scheduler-fail');
    call(cluster, 'POST', '/api/v1/namespaces/default/pods', pod('picky', { nodeSelector: { disktype: 'ssd' } }));
    call(cluster, 'POST', '/api/v1/namespaces/default/pods', pod('greedy', {
      containers: [{ name: 'c', image: 'nginx:1.14.2', resources: { requests: { cpu: '8' } } }],
    }));
    cluster.engine.runUntilIdle();
    const picky = getPod(cluster, 'picky');
    expect(picky.spec.nodeName).toBeUndefined();
    const msg = '0/3 nodes are available: 3 node(s) didn\'t match Pod\'s node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..';
    expect(events(cluster, 'picky').map((e) => `${e.type} ${e.reason} ${e.message ?? ''}`)).toEqual([`Warning FailedScheduling ${msg}`]);
    expect(picky.status?.conditions?.find((c) => c.type === 'PodScheduled')).toMatchObject({ status: 'False', reason: 'Unschedulable', message: msg });
    expect(picky.status?.phase).toBe('Pending');
    expect(events(cluster, 'greedy')[0]?.message).toBe('0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..');
    const rec = scheduler.attempts.find((a) => a.pod === 'default/greedy')!;
    expect(rec.nodes[0]!.filters.at(-1)).toEqual({ plugin: 'NodeResourcesFit', pass: false, reasons: ['Insufficient cpu'] });

    // Labelling a node moves the pod back; the next attempt is a new record, the first is kept.
    // Its own PodScheduled=False patch does not retry it (isPodUpdated ignores status).
    cluster.engine.runFor(30_000);
    expect(scheduler.attempts.filter((a) => a.pod === 'default/picky')).toHaveLength(1);
    const first = scheduler.attempts.find((a) => a.pod === 'default/picky')!;
    const req = cluster.user.request('kube-apiserver', httpKinds.request, {
      method: 'PATCH', path: '/api/v1/nodes/node-2', query: '',
      headers: { authorization: `Bearer ${builtinTokens.admin}`, accept: 'application/json', 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ metadata: { labels: { disktype: 'ssd' } } }),
    });
    cluster.engine.runUntilIdle();
    expect(cluster.user.received().find((r) => r.requestId === req.id)?.message.payload).toMatchObject({ status: 200 });
    cluster.engine.runFor(15_000);
    expect(getPod(cluster, 'picky').spec.nodeName).toBe('node-2');
    const picks = scheduler.attempts.filter((a) => a.pod === 'default/picky');
    expect(picks.length).toBeGreaterThanOrEqual(2);
    expect(picks[0]).toBe(first);
    expect(picks.at(-1)).toMatchObject({ selected: 'node-2', bound: true });
  });

  it('counts the requests of the pods on each node, bound or only assumed, and frees them when a pod goes', () => {
    const { cluster, scheduler } = setup('scheduler-sums');
    const big = (name: string) => pod(name, { containers: [{ name: 'c', image: 'nginx:1.14.2', resources: { requests: { cpu: '3' } } }] });
    // Sent together: the second and third are scheduled while the first is only assumed on its node.
    for (const name of ['big-1', 'big-2', 'big-3']) {
      cluster.user.request('kube-apiserver', httpKinds.request, {
        method: 'POST', path: '/api/v1/namespaces/default/pods', query: '',
        headers: { authorization: `Bearer ${builtinTokens.admin}`, 'content-type': 'application/json' }, body: JSON.stringify(big(name)),
      });
    }
    cluster.engine.runUntilIdle();
    const nodes = ['big-1', 'big-2', 'big-3'].map((n) => getPod(cluster, n).spec.nodeName);
    expect(new Set(nodes).size).toBe(3);
    call(cluster, 'POST', '/api/v1/namespaces/default/pods', big('big-4'));
    cluster.engine.runUntilIdle();
    expect(events(cluster, 'big-4')[0]?.message).toMatch(/^0\/3 nodes are available: 3 Insufficient cpu\./);
    call(cluster, 'DELETE', '/api/v1/namespaces/default/pods/big-2');
    cluster.engine.runFor(6 * 60_000);
    expect(getPod(cluster, 'big-4').spec.nodeName).toBe(nodes[1]);
    expect(scheduler.attempts.filter((a) => a.pod === 'default/big-4').at(-1)).toMatchObject({ selected: nodes[1], bound: true });
  });

  it('is deterministic', () => {
    const [a, b] = runTwiceWithPerturbedHost(() => {
      const { cluster } = setup('scheduler-det');
      for (let i = 0; i < 4; i++) call(cluster, 'POST', '/api/v1/namespaces/default/pods', pod(`d${i}`));
      return cluster.engine;
    });
    expect(a).toEqual(b);
  });
});

describe('attempt records retention (attemptLimit)', () => {
  it('keeps only the newest records beyond the limit, and they stay complete (bound)', () => {
    const cluster = createCluster({ seed: 'attempt-limit', nodes: 2, schedulerAttemptLimit: 4 });
    cluster.boot();
    for (let i = 0; i < 10; i++) call(cluster, 'POST', '/api/v1/namespaces/default/pods', pod(`p${i}`));
    cluster.engine.runUntilIdle();
    const attempts = cluster.scheduler!.attempts;
    expect(attempts.length).toBeGreaterThanOrEqual(3);
    expect(attempts.length).toBeLessThanOrEqual(4);
    expect(attempts.every((a) => a.bound && a.selected !== null)).toBe(true);
    expect(attempts.map((a) => a.pod)).toEqual(Array.from({ length: attempts.length }, (_, i) => `default/p${10 - attempts.length + i}`));
    // The log counts what it dropped: every attempt made is kept or counted.
    expect(cluster.scheduler!.attemptLog.dropped).toBe(10 - attempts.length);
    expect(cluster.scheduler!.attemptLog.total).toBe(10);
    for (let i = 0; i < 10; i++) expect(getPod(cluster, `p${i}`).spec.nodeName).toMatch(/^node-[12]$/);
  });
});

import { describe, expect, it } from 'vitest';
import type { EtcdInsides, InsidesEvent, KubeletInsides, SchedulerInsides, WorkerEvent } from '../protocol/index.ts';
import { createCluster } from '../sim/cluster.ts';
import type { TxnRequest } from '../sim/etcd/rpc.ts';
import { scenarioById } from '../sim/scenarios/catalog.ts';
import { runScenario } from '../sim/scenarios/runner.ts';
import { SimHost, type HostClock } from './host.ts';
import { compareText, InsidesRecorder } from './insides.ts';

/** What the model holds at a step, read straight from it (not through the recorder). */
interface Truth {
  revision: number;
  compactRevision: number;
  keys: number;
  watchers: number;
  leases: number;
  queue: { active: number; backoff: number; unschedulable: number; scheduling: string | null };
  lastAttempt: { pod: string; node: string | null; bound: boolean } | null;
  kubeletSteps: Record<string, string[]>;
}

/** Runs the nginx Deployment flow with a recorder, reading the truth after every delivery. */
function nginxFlow() {
  const cluster = createCluster({ seed: 'insides', nodes: 3 });
  const recorder = new InsidesRecorder();
  recorder.begin(cluster);
  const truths = new Map<number, Truth>();
  const txnSteps: Array<{ step: number; request: TxnRequest; before: number; after: number }> = [];
  let revisionBefore = cluster.etcd.store.currentRev;
  cluster.engine.onDelivery((message) => {
    const { etcd, scheduler, kubelets, engine } = cluster;
    const attempt = scheduler!.attempts.at(-1);
    truths.set(engine.step, {
      revision: etcd.store.currentRev,
      compactRevision: Math.max(0, etcd.store.compactMainRev),
      keys: etcd.kv.range({ key: '\0', rangeEnd: '\0', countOnly: true }).count,
      watchers: etcd.store.synced.size + etcd.store.unsynced.size,
      leases: etcd.lessor.size,
      queue: scheduler!.queueState(),
      lastAttempt: attempt ? { pod: attempt.pod, node: attempt.selected, bound: attempt.bound } : null,
      kubeletSteps: Object.fromEntries(kubelets.map((k) => [k.name, k.containerSteps().map((s) => `${s.pod} ${s.step}`)])),
    });
    if (message.kind === 'etcd.Txn' && message.to === 'etcd') txnSteps.push({ step: engine.step, request: message.payload as TxnRequest, before: revisionBefore, after: etcd.store.currentRev });
    revisionBefore = etcd.store.currentRev;
  });
  cluster.boot();
  runScenario(cluster, scenarioById('nginx-deployment')!);
  return { cluster, recorder, truths, txnSteps };
}

describe('InsidesRecorder', () => {
  const { cluster, recorder, truths, txnSteps } = nginxFlow();
  const head = cluster.engine.step;

  it('shows at every step what the model held after it', () => {
    expect(truths.size).toBe(head);
    for (const [step, truth] of truths) {
      const insides = recorder.at(step)!;
      const etcd = insides.etcd as EtcdInsides;
      expect({ revision: etcd.revision, compactRevision: etcd.compactRevision, keys: etcd.keys, watchers: etcd.watchers, leases: etcd.leases }, `etcd at step ${step}`)
        .toEqual({ revision: truth.revision, compactRevision: truth.compactRevision, keys: truth.keys, watchers: truth.watchers, leases: truth.leases });
      const scheduler = insides['kube-scheduler'] as SchedulerInsides;
      expect({ ...truth.queue, last: truth.lastAttempt }, `kube-scheduler at step ${step}`)
        .toEqual({ active: scheduler.active, backoff: scheduler.backoff, unschedulable: scheduler.unschedulable, scheduling: scheduler.scheduling, last: scheduler.last });
      for (const [name, steps] of Object.entries(truth.kubeletSteps)) {
        expect((insides[name] as KubeletInsides).steps.map((s) => `${s.pod} ${s.step}`), `${name} at step ${step}`).toEqual(steps);
      }
    }
  });

  it('walks a pod through the runtime steps and binds every nginx pod', () => {
    const seen = new Set<string>();
    for (const step of truths.keys()) for (const kubelet of cluster.kubelets) for (const s of (recorder.at(step)![kubelet.name] as KubeletInsides).steps) seen.add(s.step);
    expect([...seen]).toEqual(expect.arrayContaining(['sandbox', 'pulling', 'creating', 'starting']));
    const bound = new Set<string>();
    for (const step of truths.keys()) {
      const last = (recorder.at(step)!['kube-scheduler'] as SchedulerInsides).last;
      if (last?.bound && last.pod.startsWith('default/nginx-deployment-')) bound.add(`${last.pod} → ${last.node}`);
    }
    const pods = cluster.scheduler!.pods.list().filter((p) => p.metadata.name?.startsWith('nginx-deployment-'));
    expect([...bound].sort()).toEqual(pods.map((p) => `default/${p.metadata.name} → ${p.spec.nodeName}`).sort());
  });

  it("names the Txn etcd applied at the step that delivered it, with its compare and branch", () => {
    const creates = txnSteps.filter((t) => t.request.compare?.[0]?.modRevision === 0 && t.request.compare[0].key.startsWith('/registry/pods/default/nginx-deployment-'));
    expect(creates.length).toBe(cluster.scheduler!.pods.list().filter((p) => p.metadata.name?.startsWith('nginx-deployment-')).length);
    expect(creates.length).toBeGreaterThan(0);
    for (const { step, request, after } of creates) {
      const write = (recorder.at(step)!.etcd as EtcdInsides).write!;
      expect(write).toEqual({ step, rpc: 'Txn', key: request.compare![0]!.key, compare: 'mod_revision == 0', moreCompares: 0, ops: 'put', branch: 'success', revision: after });
      // The step before shows an older write.
      expect((recorder.at(step - 1)!.etcd as EtcdInsides).write?.step ?? 0).toBeLessThan(step);
    }
    for (const { step, before, after } of txnSteps) expect((recorder.at(step)!.etcd as EtcdInsides).write!.branch).toBe(after > before ? 'success' : 'failure');
  });

  it('names the object each controller is syncing', () => {
    const syncing = new Set<string>();
    for (const step of truths.keys()) {
      const kcm = recorder.at(step)!['kube-controller-manager'];
      if (kcm?.role === 'kube-controller-manager') for (const c of kcm.controllers) if (c.syncing) syncing.add(`${c.name} ${c.syncing}`);
    }
    expect(syncing).toContain('deployment default/nginx-deployment');
    expect([...syncing].some((s) => s.startsWith('replicaset default/nginx-deployment-'))).toBe(true);
  });

  it('stores only changes', () => {
    let entries = 0;
    let last: unknown = null;
    for (let step = 0; step <= head; step++) {
      const etcd = recorder.at(step)!.etcd;
      if (etcd !== last) entries++;
      last = etcd;
    }
    expect(entries).toBeLessThan(head / 2);
  });
});

describe('compareText', () => {
  it('prints a compare as etcdctl does, with etcd defaults', () => {
    expect(compareText({ key: 'k', target: 'MOD', result: 'EQUAL', modRevision: 0 })).toBe('mod_revision == 0');
    expect(compareText({ key: 'k', target: 'VERSION', result: 'GREATER', version: 2 })).toBe('version > 2');
    expect(compareText({ key: 'k' })).toBe('version == 0');
  });
});

describe('SimHost insides', () => {
  const clock: HostClock = { now: () => 0, setTimeout: () => 0, clearTimeout: () => undefined };

  it('posts the insides of the position shown: live and after a step back, and only when they change', () => {
    const events: WorkerEvent[] = [];
    const host = new SimHost({ post: (e) => events.push(e), clock, initial: { seed: 'insides-host', nodes: 2 } });
    // What the UI holds: the events merged as the store merges them.
    const latest = (): InsidesEvent => events.filter((e): e is InsidesEvent => e.type === 'insides')
      .reduce<InsidesEvent | null>((held, e) => (e.replace || !held ? e : { ...e, components: { ...held.components, ...e.components } }), null)!;
    const etcdOf = (e: InsidesEvent) => e.components.etcd as EtcdInsides;
    const booted = latest();
    expect(booted.step).toBe(host.timeline.head);
    expect(etcdOf(booted).revision).toBe(host.timeline.revisionAt(host.timeline.head));

    host.handle({ type: 'applyManifest', yaml: 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: demo\n' });
    host.handle({ type: 'runUntilIdle' });
    const after = latest();
    expect(etcdOf(after).revision).toBeGreaterThan(etcdOf(booted).revision);
    // The Namespace, then kube-controller-manager's `default` ServiceAccount and `kube-root-ca.crt` in it.
    expect(etcdOf(after).keys).toBe(etcdOf(booted).keys + 3);

    const count = events.length;
    host.handle({ type: 'stepBack', count: host.timeline.head - booted.step });
    expect(etcdOf(latest())).toEqual(etcdOf(booted));
    expect(latest().components).toEqual(booted.components);
    const steppedBack = events.slice(count).filter((e): e is InsidesEvent => e.type === 'insides');
    expect(steppedBack).toHaveLength(1);
    // Only what differs travels: the kubelets did nothing meanwhile.
    expect(steppedBack[0]!.replace).toBe(false);
    expect(Object.keys(steppedBack[0]!.components)).not.toContain('kubelet/node-1');

    host.handle({ type: 'pause' });
    expect(events.slice(count).filter((e) => e.type === 'insides')).toHaveLength(1);
  });
});

describe('SimHost insides after a fork', () => {
  it('keeps the past up to the fork step and follows the replayed cluster afterwards', () => {
    const timers: Array<() => void> = [];
    const clock: HostClock = { now: () => 0, setTimeout: (callback) => timers.push(callback), clearTimeout: () => undefined };
    const events: WorkerEvent[] = [];
    const host = new SimHost({ post: (e) => events.push(e), clock, initial: { seed: 'insides-fork', nodes: 1 } });
    const namespace = (name: string) => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n`;
    host.handle({ type: 'applyManifest', yaml: namespace('first') });
    host.handle({ type: 'runUntilIdle' });
    const forkAt = host.timeline.head;
    const before = host.insides.at(forkAt)!;
    host.handle({ type: 'applyManifest', yaml: namespace('second') });
    host.handle({ type: 'runUntilIdle' });
    const headBeforeFork = host.timeline.head;

    host.handle({ type: 'seek', step: forkAt });
    host.handle({ type: 'applyManifest', yaml: namespace('third') });
    for (let i = 0; i < 1000 && (timers.length > 0 || host.busy); i++) timers.shift()?.();
    expect(host.busy).toBe(false);
    host.handle({ type: 'runUntilIdle' });
    for (let i = 0; i < 1000 && timers.length > 0; i++) timers.shift()?.();

    expect(host.insides.at(forkAt)).toEqual(before);
    // The old future is gone: the steps after the fork are the new history's.
    expect(host.timeline.head).not.toBe(headBeforeFork);
    const head = host.insides.at(host.timeline.head)!.etcd as EtcdInsides;
    const { etcd } = host.hostedCluster as unknown as { etcd: { store: { currentRev: number }; kv: { range(r: object): { count: number } } } };
    expect(head.revision).toBe(etcd.store.currentRev);
    expect(head.keys).toBe(etcd.kv.range({ key: '\0', rangeEnd: '\0', countOnly: true }).count);
    const posted = events.filter((e): e is InsidesEvent => e.type === 'insides');
    const afterFork = posted.slice(posted.findIndex((e, i) => i > 0 && e.replace));
    expect(afterFork[0]!.replace).toBe(true);
    const held = afterFork.reduce((h, e) => ({ ...h, ...e.components }), {} as Record<string, unknown>);
    expect(posted.at(-1)!.step).toBe(host.timeline.head);
    expect((held.etcd as EtcdInsides).revision).toBe(etcd.store.currentRev);
  });
});

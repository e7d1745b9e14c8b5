// Every guided tour (src/protocol/tours.ts) run as the page runs it, in a SimHost: each stop's milestone
// or message must occur, in the tour's order. A change to the model that removes or reorders what a stop
// shows fails here, naming the tour and the stop.

import { describe, expect, it } from 'vitest';
import type { TourStopsEvent } from '../../protocol/index.ts';
import { tours } from '../../protocol/index.ts';
import { locateStops, messageMatches, tourTrace, type MessageMatcher, type Tour } from '../../protocol/tours.ts';
import type { TraceRecord } from '../../protocol/index.ts';
// The page's tour → actions mapping, driven here against the real host (test-only UI imports, as in
// ../scenarios.test.ts).
import { deleteFirstPodLine } from '../../ui/scenarios/plan.ts';
import { fillResourceVersion, tourActions } from '../../ui/tours/plan.ts';
import { scenarioCatalog } from '../scenarios.ts';
import { manualHost } from '../testing.ts';
import { traceRecords } from '../tour-locate.ts';


/** Runs `tour`'s actions on a fresh host, as the page does. */
function runTour(id: string) {
  const tour = tours.find((t) => t.id === id)!;
  const d = manualHost();
  // As the page: a fresh cluster of the tour's own member count (1 unless the tour says), whatever the first screen runs.
  d.send({ type: 'reset', seed: d.host.spec.seed, nodes: tour.nodes, ...(tour.etcdMembers === undefined ? {} : { etcdMembers: tour.etcdMembers }) });
  let previous = '';
  for (const action of tourActions(tour, scenarioCatalog().scenarios)) {
    switch (action.kind) {
      case 'console':
        {
          const line = fillResourceVersion(action.line, previous);
          expect(line, action.line).not.toBeNull();
          const out = d.run(line!);
          expect(out, line!).toMatchObject({ stderr: '', exitCode: 0 });
          previous = out.stdout;
        }
        break;
      case 'deleteOnePod': {
        const line = deleteFirstPodLine(d.run(action.listLine).stdout);
        expect(line).not.toBeNull();
        expect(d.run(line!).exitCode).toBe(0);
        break;
      }
      case 'fault': d.send({ type: 'fault', fault: action.fault }); break;
      case 'runUntilIdle': d.send({ type: 'runUntilIdle' }); break;
      case 'advance': d.send({ type: 'advance', ms: action.ms }); break;
    }
  }
  expect(d.errors()).toEqual([]);
  d.send({ type: 'tourLocate', tour: id });
  return { tour, d, located: d.last('tourStops') as TourStopsEvent };
}

describe('guided tours', () => {
  it('have unique ids, stops with unique ids, both languages, and name scenarios of the catalog', () => {
    expect(new Set(tours.map((t) => t.id)).size).toBe(tours.length);
    const catalog = scenarioCatalog().scenarios;
    for (const tour of tours) {
      expect(() => tourActions(tour, catalog)).not.toThrow();
      expect(new Set(tour.stops.map((s) => s.id)).size, tour.id).toBe(tour.stops.length);
      for (const text of [tour.title, tour.description, ...tour.stops.flatMap((s) => [s.title, s.text])]) {
        expect(text.en.trim(), tour.id).not.toBe('');
        expect(text.zh.trim(), tour.id).not.toBe('');
      }
      // Titles may be a command (kubectl set image); every explanation is written in 中文.
      for (const text of [tour.title, tour.description, ...tour.stops.map((s) => s.text)]) expect(text.zh, `${tour.id}: 中文 text`).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it.each(tours.map((t) => t.id))('%s: every stop is found in the trace, in order', (id) => {
    const { tour, located } = runTour(id);
    expect(located.stops).toHaveLength(tour.stops.length);
    let previous = 0;
    for (const [i, stop] of tour.stops.entries()) {
      const found = located.stops[i]!;
      expect(found.step, `${id} stop ${stop.id}: its ${'message' in stop.match ? 'message' : 'milestone'} no longer occurs`).not.toBeNull();
      expect(found.records, `${id} stop ${stop.id}`).toHaveLength(stop.count ?? 1);
      expect(found.step!, `${id} stop ${stop.id} comes after the stop before it`).toBeGreaterThan(previous);
      previous = found.step!;
      expect(found.components.length, `${id} stop ${stop.id} highlights something`).toBeGreaterThan(0);
      // A stop bound to a milestone shows the deliveries the worker classified as that milestone.
      if ('milestone' in stop.match) for (const r of found.records) expect(r.milestone, `${id} stop ${stop.id}`).toMatchObject({ kind: stop.match.milestone.kind, step: r.step });
    }
    // Plain data for postMessage.
    expect(structuredClone(located)).toEqual(located);
  });

  it('pod-creation: the seed\'s steps 0–12 in order, on my-replicaset and both its Pods', () => {
    const { tour, located } = runTour('pod-creation');
    expect(tour.stops.filter((s) => s.seedStep !== undefined).map((s) => s.seedStep)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    const byId = (stopId: string) => located.stops[tour.stops.findIndex((s) => s.id === stopId)]!;
    // Step 0 happens while the cluster starts: the informer's list, then its watch.
    const [list, watch] = byId('list-watch').records;
    expect(list!.payload).toMatchObject({ method: 'GET', query: expect.stringContaining('resourceVersion=0') });
    expect(watch!.payload).toMatchObject({ method: 'GET', query: expect.stringContaining('watch=true') });
    expect(byId('list-watch').step!).toBeLessThan(byId('create-rs').step!);
    // The two Pods move together at steps 5–12: two different Pods each time.
    const podName = (r: { payload: unknown }) => /my-replicaset-[a-z0-9]{5}/.exec(JSON.stringify(r.payload))?.[0];
    for (const stopId of ['store-pods', 'pod-events', 'scheduler-sees-pods', 'bind', 'store-binding', 'binding-events', 'kubelet-sees-pod']) {
      const names = byId(stopId).records.map(podName);
      expect(new Set(names).size, stopId).toBe(2);
    }
    // Step 2 is a create Txn (mod_revision == 0); step 10 an update caused by the binding.
    expect(byId('store-rs').records[0]!.payload).toMatchObject({ compare: [{ target: 'MOD', key: '/registry/replicasets/default/my-replicaset', modRevision: 0 }] });
    expect(byId('store-binding').records.every((r) => (r.payload as { compare: { modRevision: number }[] }).compare[0]!.modRevision > 0)).toBe(true);
    expect(byId('kubelet-sees-pod').components.some((c) => c.startsWith('kubelet/'))).toBe(true);
    // The last stop is the status writes: the kubelets that reported them are lit with the apiserver and etcd.
    const running = byId('running');
    const nodes = running.records.map((r) => (r.milestone?.kind === 'podPhase' ? r.milestone.node : null));
    expect(nodes.every((n) => n !== null)).toBe(true);
    for (const node of nodes) expect(running.components).toContain(`kubelet/${node}`);
  });

  it('resource-versions: "" reaches etcd, "0" and N are answered by the watch cache alone; 410 is followed by a relist', () => {
    const { tour, d, located } = runTour('resource-versions');
    const trace = tourTrace(traceRecords(d.host.engine.trace));
    const byId = (stopId: string) => located.stops[tour.stops.findIndex((s) => s.id === stopId)]!;
    const rangesCausedBy = (requestId: number) => trace.records.filter((r) => r.kind === 'etcd.Range' && messageMatches({ kind: 'etcd.Range', causedBy: { kind: 'http.request', from: 'user' } }, r, trace)
      && causes(r).includes(requestId));
    const causes = (r: { cause: number | null }) => {
      const ids: number[] = [];
      for (let c = r.cause; c !== null; c = trace.byId.get(c)?.cause ?? null) ids.push(c);
      return ids;
    };
    expect(rangesCausedBy(byId('list-empty-rv').records[0]!.id).length, 'the list without resourceVersion reads etcd').toBeGreaterThan(0);
    for (const stopId of ['list-rv-0', 'list-rv-n', 'get-rv-0']) {
      const response = byId(stopId).records[0]!;
      expect(response.payload, stopId).toMatchObject({ status: 200 });
      expect(rangesCausedBy(response.replyTo!), `${stopId}: no Range reaches etcd`).toEqual([]);
    }
    expect(byId('list-rv-n').records[0]!.payload).not.toMatchObject({ body: { metadata: { resourceVersion: '0' } } });
    for (const stopId of ['list-range', 'get-range']) expect(byId(stopId).records[0]!.payload, stopId).toMatchObject({ ok: true });
    expect(byId('gone').records[0]!.payload).toMatchObject({ type: 'ERROR', object: { code: 410, reason: 'Expired', message: expect.stringContaining('too old resource version') } });
    expect(byId('informer-relist').records[0]!.payload).toMatchObject({ method: 'GET', path: '/api/v1/pods' });
  });

  it('registry-keys: creates compare mod_revision with 0, an update with the revision read; two Events share the lease granted', () => {
    const { tour, d, located } = runTour('registry-keys');
    const at = (stopId: string) => located.stops[tour.stops.findIndex((s) => s.id === stopId)]!.records[0]!;
    type Txn = { compare: { key: string; modRevision: number }[]; success: { requestPut?: { key: string; lease?: unknown } }[] };
    for (const stopId of ['deployment-key', 'replicaset-key', 'pod-key', 'first-event', 'lease-reused']) {
      const txn = at(stopId).payload as Txn;
      expect(txn.compare[0]!.modRevision, stopId).toBe(0);
      expect(txn.compare[0]!.key, stopId).toMatch(/^\/registry\/(deployments|replicasets|pods|events)\/default\/nginx-deployment/);
    }
    expect((at('update').payload as Txn).compare[0]!.modRevision).toBeGreaterThan(0);
    // The Events' lease is granted while the cluster starts (its first Events), before the create; the
    // nginx Deployment's Events reuse it and no LeaseGrant follows the create.
    const trace = d.host.engine.trace.all();
    const grants = trace.filter((m) => m.kind === 'etcd.LeaseGrant' && m.from === 'kube-apiserver');
    expect(grants[0]!.id).toBe(at('event-lease').id);
    const granted = grants.map((g) => String((trace.find((m) => m.replyTo === g.id)!.payload as { response: { ID: unknown } }).response.ID));
    const leaseOf = (stopId: string) => String((at(stopId).payload as Txn).success[0]!.requestPut!.lease);
    expect(granted).toContain(leaseOf('first-event'));
    expect(leaseOf('lease-reused')).toBe(leaseOf('first-event'));
    expect(grants.every((g) => g.id < at('create').id)).toBe(true);
  });

  it('consensus-read: the unset List\'s Range waits for a heartbeat round carrying its read; the "0" List causes no etcd message at all', () => {
    const { tour, d, located } = runTour('consensus-read');
    const at = (stopId: string) => located.stops[tour.stops.findIndex((s) => s.id === stopId)]!;
    const range = at('range').records[0]!;
    expect(range.payload).not.toMatchObject({ serializable: true });
    expect(at('heartbeat').records[0]!.payload).toMatchObject({ type: 'MsgHeartbeat', context: expect.stringMatching(/^\d+$/) });
    expect(at('answer').records[0]!.payload).toMatchObject({ ok: true, response: { header: { raftTerm: expect.any(Number) } } });
    expect(at('heartbeat').step!).toBeLessThan(at('answer').step!);
    // Between the "0" List's request and its response: nothing to or from any etcd member.
    const trace = traceRecords(d.host.engine.trace);
    const response = at('list-zero').records[0]!;
    const request = trace.find((r) => r.id === response.replyTo)!;
    const between = trace.filter((r) => r.step > request.step && r.step < response.step);
    expect(between.filter((r) => r.kind.startsWith('etcd.') && !r.kind.startsWith('etcd.raft.MsgHeartbeat'))).toEqual([]);
    expect(between.filter((r) => r.cause !== null && messageMatches({ kind: ['etcd.Range', 'etcd.raft.MsgHeartbeat', 'etcd.raft.MsgReadIndex'], causedBy: { kind: 'http.request', from: 'user' } }, r, tourTrace(trace)))).toEqual([]);
  });

  it('leader-death: a follower campaigns in a higher term (no pre-vote, as etcd 3.4 defaults), is elected, and the write after the kill is committed by the two left', () => {
    const { tour, located } = runTour('leader-death');
    const at = (stopId: string) => located.stops[tour.stops.findIndex((s) => s.id === stopId)]!.records[0]!;
    const before = (at('replicate').payload as { term: number }).term;
    const vote = at('vote').payload as { term: number };
    expect(vote.term).toBeGreaterThan(before);
    const campaign = at('campaign').payload as { type: string; term: number };
    expect(campaign.type).toBe('MsgVote');
    expect(campaign.term).toBeGreaterThan(before);
    expect(campaign.term).toBeLessThanOrEqual(vote.term);
    const newLeader = at('new-leader');
    expect((newLeader.payload as { term: number }).term).toBe(vote.term);
    expect(newLeader.from).not.toBe(at('replicate').from);
    expect(at('write-after').to).not.toBe(at('replicate').from);
    expect(at('write-committed').payload).toMatchObject({ ok: true });
  });

  it('self-healing and rolling-update: the replacement is a new Pod; the old ReplicaSet goes down to 0', () => {
    const healing = runTour('self-healing');
    const at = (run: typeof healing, stopId: string) => run.located.stops[run.tour.stops.findIndex((s) => s.id === stopId)]!.records[0]!;
    const deleted = (at(healing, 'delete').payload as { path: string }).path.split('/').at(-1);
    const replacement = at(healing, 'replacement').milestone;
    expect(replacement).toMatchObject({ kind: 'podCreated', owner: { name: 'my-replicaset' } });
    expect(replacement?.kind === 'podCreated' && replacement.object.name).not.toBe(deleted);
    expect(at(healing, 'removed').milestone).toMatchObject({ kind: 'objectDeleted', object: { name: deleted } });

    const rolling = runTour('rolling-update');
    const replicas = (stopId: string) => (at(rolling, stopId).payload as { body: { metadata: { name: string }; spec: { replicas: number } } }).body;
    const newSet = at(rolling, 'new-rs').milestone;
    expect(replicas('old-scaled-down').spec.replicas).toBe(2);
    expect(replicas('old-at-zero').spec.replicas).toBe(0);
    expect(replicas('old-at-zero').metadata.name).toBe(replicas('old-scaled-down').metadata.name);
    expect(newSet?.kind === 'objectCreated' && newSet.object.name).not.toBe(replicas('old-at-zero').metadata.name);
  });

  it('a stop fails to be found when what it expects does not occur', () => {
    const { d } = runTour('pod-creation');
    const trace = tourTrace(traceRecords(d.host.engine.trace));
    const never: MessageMatcher = { kind: 'etcd.Txn', to: 'etcd', path: '/registry/replicasets/default/no-such-replicaset' };
    expect(trace.records.some((r) => messageMatches(never, r, trace))).toBe(false);
    const present: MessageMatcher = { ...never, path: '/registry/replicasets/default/my-replicaset' };
    expect(trace.records.some((r) => messageMatches(present, r, trace))).toBe(true);
  });
});

describe('finding stops', () => {
  let id = 0;
  const rec = (step: number, kind: string, from: string, to: string, payload: unknown, extra: Partial<TraceRecord> = {}): TraceRecord =>
    ({ step, id: ++id, from, to, kind, payload, sentAt: step, deliverAt: step, cause: null, replyTo: null, background: false, ...extra });
  const txn = (key: string, modRevision: number) => ({ compare: [{ target: 'MOD', key, modRevision }], success: [{ requestPut: { key, value: '' } }] });
  const tourOf = (stops: Tour['stops']): Tour => ({ id: 't', title: { en: 't', zh: 't' }, description: { en: 't', zh: 't' }, source: 's', nodes: 3, steps: [], stops });
  const stop = (stopId: string, match: MessageMatcher, count?: number): Tour['stops'][number] =>
    ({ id: stopId, title: { en: stopId, zh: stopId }, text: { en: stopId, zh: stopId }, match: { message: match }, ...(count ? { count } : {}) });

  it('a stop with count 2 shows both matches and is reached at the second; the next stop is searched after its first; a missing stop is null', () => {
    const post = rec(1, 'http.request', 'kube-scheduler', 'kube-apiserver', { method: 'POST', path: '/api/v1/namespaces/default/pods/a/binding', query: '' });
    const records = [
      rec(1, 'etcd.Txn', 'kube-apiserver', 'etcd', txn('/registry/pods/default/a', 0)),
      post,
      rec(3, 'etcd.Txn', 'kube-apiserver', 'etcd', txn('/registry/pods/default/a', 7), { cause: post.id }),
      rec(4, 'etcd.Txn', 'kube-apiserver', 'etcd', txn('/registry/pods/default/b', 0)),
      rec(5, 'etcd.Txn', 'kube-apiserver', 'etcd', txn('/registry/pods/default/b', 9)),
    ];
    const trace = tourTrace(records);
    const located = locateStops(tourOf([
      stop('created', { kind: 'etcd.Txn', path: '/registry/pods/default/*', write: 'create' }, 2),
      stop('bound', { kind: 'etcd.Txn', write: 'update', causedBy: { kind: 'http.request', path: '/pods/*/binding' } }),
      stop('missing', { kind: 'etcd.Txn', write: 'delete' }),
      stop('after missing', { kind: 'etcd.Txn', path: '/registry/pods/default/b', write: 'update' }),
    ]), trace);
    expect(located.map((l) => l.step)).toEqual([4, 3, null, 5]);
    expect(located[0]!.records.map((r) => r.step)).toEqual([1, 4]);
    expect(located[0]!.components).toEqual(['kube-apiserver', 'etcd']);
    expect(located[2]!.records).toEqual([]);
    // Each stop is searched after the previous stop's first match: step 3 cannot be found twice.
    expect(locateStops(tourOf([stop('bound', { kind: 'etcd.Txn', write: 'update' }), stop('again', { kind: 'etcd.Txn', path: '/registry/pods/default/a', write: 'update' })]), trace).map((l) => l.step)).toEqual([3, null]);
  });

  it('answers: a response matches by the path and query of the request it answers', () => {
    const request = rec(1, 'http.request', 'user', 'kube-apiserver', { method: 'GET', path: '/api/v1/pods', query: 'resourceVersion=0' });
    const response = rec(2, 'http.response', 'kube-apiserver', 'user', { status: 200 }, { replyTo: request.id });
    const trace = tourTrace([request, response]);
    const [found] = locateStops(tourOf([stop('cache', { kind: 'http.response', path: '/api/v1/pods', query: 'resourceVersion=0', status: 200 })]), trace);
    expect(found).toMatchObject({ step: 2, requests: [request] });
    expect(locateStops(tourOf([stop('etcd', { kind: 'http.response', queryLacks: 'resourceVersion' })]), trace)[0]!.step).toBeNull();
  });
});

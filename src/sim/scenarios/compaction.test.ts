// A compaction while informers watch. kube-apiserver's compactor (every 5 min) compacts etcd to the
// revision it saw on its previous turn. Watches served by the watch cache never reach etcd again, so
// the controllers' informers keep their watches; a watch served by etcd itself (events: 1.28 does not
// cache them) that restarts from a compacted revision gets ERROR 410 Expired and its informer relists
// (list, then watch from the list's revision).
// The event watcher here is an event exporter beside the cluster (a client component with an events
// informer); the controllers meanwhile converge on a scale made after the compaction.

import { describe, expect, it } from 'vitest';
import type { Event } from '../api/types/core.ts';
import type { Status } from '../api/types/meta.ts';
import { builtinTokens } from '../wire/credentials.ts';
import { httpKinds, type HttpRequest, type HttpWatchEvent } from '../wire/http.ts';
import { createCluster } from '../cluster.ts';
import { SharedInformerFactory } from '../client/index.ts';
import { RestClient } from '../client/rest-client.ts';
import { ClientTestComponent } from '../client/testing.ts';
import { minute } from '../engine/index.ts';
import { addClusterInvariants, convergenceProblems, podsNotRunningAndReady } from '../testing/invariants.ts';
import { scenarioById } from './catalog.ts';
import { ScenarioRunner } from './runner.ts';

describe('a compaction during a watch', () => {
  it('makes the events informer\'s re-watch 410 Expired and relist, while the controllers keep their watches and converge', () => {
    const cluster = createCluster({ seed: 'compaction-relist' });
    cluster.boot();
    addClusterInvariants(cluster);
    const exporter = cluster.engine.add(new ClientTestComponent('event-exporter'));
    cluster.engine.link(exporter.name, cluster.apiserver.name, { latency: 2 });
    const events = new SharedInformerFactory(exporter.host, new RestClient(exporter.host, builtinTokens.admin)).informerFor<Event>('events');
    events.run();
    const runner = new ScenarioRunner(cluster, scenarioById('scale')!);
    runner.runStep();
    runner.runStep();
    const kcmRequests = () => cluster.engine.trace.all().filter((m) => m.from === 'kube-controller-manager' && m.kind === httpKinds.request);
    const kcmLists = () => kcmRequests().filter((m) => (m.payload as HttpRequest).method === 'GET' && !(m.payload as HttpRequest).query.includes('watch=true')).length;
    const listsBefore = kcmLists();

    // Quiet for 25 minutes: node leases go on writing; the compactor compacts at 10 and 15 min past the
    // revisions it saw 5 min earlier; the exporter's watch ends after 5–10 min and restarts.
    cluster.engine.runFor(25 * minute);
    expect(cluster.etcd.store.compactMainRev).toBeGreaterThan(0);
    const trace = cluster.engine.trace.all();
    const exporterLog = trace.filter((m) => (m.to === exporter.name && m.kind === httpKinds.watchEvent) || (m.from === exporter.name && m.kind === httpKinds.request));
    const error = exporterLog.findIndex((m) => m.kind === httpKinds.watchEvent && (m.payload as HttpWatchEvent).type === 'ERROR');
    expect(error).toBeGreaterThan(0);
    expect((exporterLog[error]!.payload as HttpWatchEvent).object).toMatchObject({
      kind: 'Status', status: 'Failure', message: 'The resourceVersion for the provided watch is too old.', reason: 'Expired', code: 410,
    } satisfies Partial<Status>);
    // The watch that failed asked for a revision below the compaction.
    const failedWatch = exporterLog.slice(0, error).reverse().find((m) => m.kind === httpKinds.request)!;
    const watchedFrom = Number(/resourceVersion=(\d+)/.exec((failedWatch.payload as HttpRequest).query)![1]);
    expect(watchedFrom).toBeLessThan(cluster.etcd.store.compactMainRev);
    // Then the relist at the last resourceVersion: for an uncached resource etcd answers a quorum read at
    // its current revision (not older than that RV, so no 410), and the informer watches from there.
    const [relist, rewatch] = exporterLog.slice(error + 1).filter((m) => m.kind === httpKinds.request);
    expect((relist!.payload as HttpRequest).query).toBe(`resourceVersion=${watchedFrom}`);
    const listed = trace.find((m) => m.replyTo === relist!.id)!.payload as { status: number; body: { metadata: { resourceVersion: string } } };
    expect(listed.status).toBe(200);
    expect(Number(listed.body.metadata.resourceVersion)).toBeGreaterThan(watchedFrom);
    expect((rewatch!.payload as HttpRequest).query).toMatch(new RegExp(`^allowWatchBookmarks=true&resourceVersion=${listed.body.metadata.resourceVersion}&timeoutSeconds=\\d+&watch=true$`));
    // The controllers' informers watch through the cache: not one of them had to list again.
    expect(kcmLists()).toBe(listsBefore);

    // After the compaction the controllers still converge, and the exporter sees the new events.
    const scaled = runner.runStep();
    expect(scaled.output).toEqual(['deployment.apps/nginx-deployment scaled']);
    runner.runStep();
    expect(convergenceProblems(cluster)).toEqual([]);
    expect(podsNotRunningAndReady(cluster)).toEqual([]);
    expect(events.list().map((e) => e.message)).toContainEqual(expect.stringMatching(/^Scaled up replica set nginx-deployment-[456789bcdf]+ to 3 from 1$/));
  }, 240_000); // 25 virtual minutes with invariants checked after every step: under 60 s in CI, 140–250 s on this loaded machine

  it('with a broken etcd watch stream after it, the watch cache gets 410 and relists, and the informers it served relist after it; the flow converges', () => {
    const cluster = createCluster({ seed: 'compaction-broken-watch' });
    cluster.boot();
    addClusterInvariants(cluster);
    const runner = new ScenarioRunner(cluster, scenarioById('compaction-broken-watch')!);
    runner.runStep();
    runner.runStep();
    const compactedAt = cluster.etcd.kv.store.rev();
    runner.runStep();
    runner.runStep();
    runner.runStep();
    const trace = cluster.engine.trace.all();
    const broken = trace.find((m) => m.kind === 'user.fault' && (m.payload as { type: string }).type === 'breakEtcdWatches')!;
    const after = trace.filter((m) => m.id > broken.id);
    // The pods cache's etcd watch, created again from a compacted revision, ends with 410 Expired.
    expect(cluster.etcd.store.compactMainRev).toBe(compactedAt);
    const rangeOfPods = after.find((m) => m.kind === 'etcd.Range' && (m.payload as { key: string; limit?: number }).key === '/registry/pods/')!;
    expect((rangeOfPods.payload as { limit?: number }).limit).toBe(10_000);
    // kube-controller-manager's pod informer: its re-watch is refused as too old, then it lists.
    const kcm = after.filter((m) => m.from === 'kube-controller-manager' || m.to === 'kube-controller-manager');
    const tooOld = kcm.find((m) => m.kind === httpKinds.watchEvent && (m.payload as HttpWatchEvent).type === 'ERROR'
      && /^too old resource version: \d+ \(\d+\)$/.test(((m.payload as HttpWatchEvent).object as Status).message ?? ''))!;
    expect(((tooOld.payload as HttpWatchEvent).object as Status)).toMatchObject({ reason: 'Expired', code: 410 });
    expect(kcm.some((m) => m.id > tooOld.id && m.kind === httpKinds.request && (m.payload as HttpRequest).method === 'GET'
      && !(m.payload as HttpRequest).query.includes('watch=true'))).toBe(true);
    const scaled = runner.runStep();
    expect(scaled.output).toEqual(['deployment.apps/nginx-deployment scaled']);
    runner.runStep();
    expect(convergenceProblems(cluster)).toEqual([]);
    expect(podsNotRunningAndReady(cluster)).toEqual([]);
  });
});

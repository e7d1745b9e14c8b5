import { describe, expect, it } from 'vitest';
import { createCluster } from '../sim/cluster.ts';
import { adminCall } from '../sim/testing/http.ts';
import { errorLabel } from './error-markers.ts';
import { Timeline } from './timeline.ts';
import { timelineMarkerLimit } from '../protocol/index.ts';

describe('error markers', () => {
  it('labels failed responses and watch errors, and leaves the normal flow (404s, Txn failure branches) alone', () => {
    const cluster = createCluster({ seed: 'error-markers' });
    cluster.boot();
    const bootErrors = cluster.engine.trace.all().map(errorLabel).filter((l) => l !== null);
    expect(bootErrors).toEqual([]);
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } };
    expect(adminCall(cluster, 'POST', '/api/v1/namespaces/default/configmaps', configMap).status).toBe(201);
    expect(adminCall(cluster, 'POST', '/api/v1/namespaces/default/configmaps', configMap).status).toBe(409);
    expect(adminCall(cluster, 'GET', '/api/v1/namespaces/default/configmaps/missing').status).toBe(404);
    const labels = cluster.engine.trace.all().map(errorLabel).filter((l) => l !== null);
    expect(labels).toEqual(['user: 409 AlreadyExists: configmaps "c" already exists']);
    // The create that found the key taken was a Txn with a failed compare: not an error by itself.
    const failedTxn = cluster.engine.trace.all().find((m) => m.kind === 'etcd.TxnResponse'
      && (m.payload as { response?: { succeeded?: boolean } }).response?.succeeded === false);
    expect(failedTxn).toBeDefined();
    expect(errorLabel(failedTxn!)).toBeNull();
  });

  it('labels a watch ERROR event and a compaction notice', () => {
    const cluster = createCluster({ seed: 'error-markers-watch' });
    cluster.boot();
    cluster.fault({ type: 'compactEtcd' });
    cluster.engine.runUntilIdle();
    cluster.fault({ type: 'breakEtcdWatches' });
    cluster.engine.runFor(3_000);
    const labels = cluster.engine.trace.all().map(errorLabel).filter((l) => l !== null);
    expect(labels).toContain('kube-apiserver: etcd watch stream broke: rpc error: code = Unavailable desc = transport is closing');
    expect(labels.some((l) => /^kube-apiserver: etcd canceled watch \d+: required revision has been compacted \(compact revision \d+\)$/.test(l))).toBe(true);
    expect(labels.some((l) => /^kube-scheduler: watch ERROR 410 Expired: too old resource version: \d+ \(\d+\)$/.test(l))).toBe(true);
  });

  it('a storm of errors never pushes the user actions off the timeline', () => {
    const timeline = new Timeline({ now: 0, pending: 0, idle: true, revision: 1 });
    timeline.mark(0, 'command', 'kubectl create -f -');
    for (let i = 1; i <= 5 * timelineMarkerLimit; i++) {
      timeline.record({ now: i, pending: 0, idle: false, revision: 1 });
      timeline.mark(i, 'error', `409 #${i}`);
    }
    const markers = timeline.markers;
    expect(markers.length).toBeLessThanOrEqual(timelineMarkerLimit);
    expect(markers[0]).toEqual({ step: 0, kind: 'command', label: 'kubectl create -f -' });
    expect(markers.at(-1)).toEqual({ step: 5 * timelineMarkerLimit, kind: 'error', label: `409 #${5 * timelineMarkerLimit}` });
    expect(markers.map((m) => m.step)).toEqual([...markers.map((m) => m.step)].sort((a, b) => a - b));
  });
});

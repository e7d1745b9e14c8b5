import { describe, expect, it } from 'vitest';
import type { Event, Node, Pod } from '../../api/types/core.ts';
import { formatTimestamp } from '../../api/time.ts';
import { createCluster } from '../../cluster.ts';
import { adminCall } from '../../testing/http.ts';
import { stored } from '../testing.ts';
import { minTolerationTime } from './taint-manager.ts';
import { decodeStored } from '../../apiserver/storage/codec.ts';

const node = (cluster: ReturnType<typeof createCluster>, name: string) =>
  decodeStored(cluster.etcd.kv.range({ key: `/registry/minions/${name}` }).kvs[0]!.value) as Node;

describe('node lifecycle controller', () => {
  it('registers every node once (RegisteredNode events)', () => {
    const cluster = createCluster({ seed: 'nlc-registered' });
    cluster.boot();
    cluster.engine.runFor(6_000);
    const registered = stored<Event>(cluster, 'events').filter((e) => e.reason === 'RegisteredNode');
    expect(registered.map((e) => e.message).sort()).toEqual(['node-1', 'node-2', 'node-3'].map((n) => `Registered Node ${n} in Controller`));
    expect(registered.every((e) => e.source?.component === 'node-controller' && e.involvedObject.kind === 'Node')).toBe(true);
  });

  it('a node that reports Ready=False gets the not-ready taints (NoSchedule, then NoExecute); Ready again, they go', () => {
    const cluster = createCluster({ seed: 'nlc-not-ready' });
    cluster.boot();
    const t = () => formatTimestamp(cluster.engine.epochMs + cluster.engine.now);
    const setReady = (status: 'True' | 'False') => {
      const n = node(cluster, 'node-2');
      const conditions = n.status!.conditions!.map((c) => (c.type === 'Ready'
        ? { ...c, status, reason: status === 'True' ? 'KubeletReady' : 'KubeletNotReady', lastHeartbeatTime: t(), lastTransitionTime: t() } : c));
      expect(adminCall(cluster, 'PUT', '/api/v1/nodes/node-2/status', { ...n, apiVersion: 'v1', kind: 'Node', status: { ...n.status, conditions } }).status).toBe(200);
    };
    setReady('False');
    cluster.engine.runFor(12_000);
    expect((node(cluster, 'node-2').spec?.taints ?? []).map((x) => `${x.key}:${x.effect}`))
      .toEqual(['node.kubernetes.io/not-ready:NoSchedule', 'node.kubernetes.io/not-ready:NoExecute']);
    expect(node(cluster, 'node-2').spec!.taints!.every((x) => x.timeAdded)).toBe(true);
    setReady('True');
    cluster.engine.runFor(12_000);
    expect(node(cluster, 'node-2').spec?.taints).toBeUndefined();
  });

  it('getMinTolerationTime: no tolerations evict at once, unset seconds tolerate forever, the smallest wins', () => {
    expect(minTolerationTime([])).toBe(0);
    expect(minTolerationTime([{ key: 'a', operator: 'Exists', effect: 'NoExecute' }])).toBe(-1);
    expect(minTolerationTime([{ key: 'a', operator: 'Exists', tolerationSeconds: 300 }, { key: 'b', operator: 'Exists', tolerationSeconds: 60 }])).toBe(60_000);
    expect(minTolerationTime([{ key: 'a', operator: 'Exists', tolerationSeconds: 0 }])).toBe(0);
  });

  it('a pod that does not tolerate a NoExecute taint is evicted at once', () => {
    const cluster = createCluster({ seed: 'nlc-intolerant' });
    cluster.boot();
    // No DefaultTolerationSeconds tolerations would match this taint key.
    expect(adminCall(cluster, 'POST', '/api/v1/namespaces/default/pods', {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx:1.14.2' }] },
    }).status).toBe(201);
    const n = node(cluster, 'node-1');
    expect(adminCall(cluster, 'PUT', '/api/v1/nodes/node-1', { ...n, apiVersion: 'v1', kind: 'Node', spec: { ...n.spec, taints: [{ key: 'example.com/drain', effect: 'NoExecute' }] } }).status).toBe(200);
    cluster.engine.runFor(5_000);
    expect(stored<Pod>(cluster, 'pods').map((p) => p.metadata.name)).toEqual([]);
    const eviction = stored<Event>(cluster, 'events').find((e) => e.reason === 'TaintManagerEviction')!;
    expect(eviction.message).toBe('Marking for deletion Pod default/p');
    expect(eviction.source?.component).toBe('taint-controller');
  });
});

import { describe, expect, it } from 'vitest';
import { builtinTokens } from './wire/credentials.ts';
import { httpKinds } from './wire/http.ts';
import { hour, minute } from './engine/index.ts';
import type { Deployment } from './api/types/apps.ts';
import { createCluster, type Cluster } from './cluster.ts';
import { decodeStored } from './apiserver/storage/codec.ts';

// Issue 20's memory stability, as a test that can fail at a small size: after a Deployment's pods are
// created and deleted, and the cluster has had the time it lets go of history in, nothing the cluster
// holds names them except the holders that are bounded by design. That time: the Events' leases (an hour,
// plus up to the lease manager's one-minute reuse window), then two of kube-apiserver's compactions (every
// 5 virtual minutes, each to the revision of the one before) so the expired keys' history goes too.
// The heap figure is `npm run bench -- stability`.

/**
 * Where a deleted object's name may stay, each bounded: the trace (its record limit), the audit log
 * (10,000 events, and the RequestReceived events of its 1,024 newest open requests), the watch caches'
 * windows (a ring buffer: events leave it when newer ones arrive), the event correlators' caches (LRUs
 * of 4,096, as client-go's: the key strings their entries name, and their logs' names of another form
 * than `<object>.<hex>`), kube-scheduler's attempt records
 * (its attempt limit), the garbage collector's absent-owner cache (an LRU of 500, as upstream's) and the
 * user's replies (the answers to its own requests).
 */
const bounded = [
  /^cluster\.engine\.trace\./,
  /^cluster\.apiserver\.audit\.events\[/,
  /^cluster\.apiserver\.audit\.received\{/,
  /^cluster\.apiserver\.storage\.cachers\{[^}]*\}\.watchCache\.cache\[/,
  /\.correlator\.(names|versions)\{/,
  /\.correlator\.(keys|messages)\.(ids\{|strings\[)/,
  /^cluster\.scheduler\.attempts\[/,
  /^cluster\.controllerManager\.garbageCollector\.graph\.absentOwnerCache\.entries\{/,
  /^cluster\.user\.replies\[/,
];

/**
 * The bounded holders' own lists (the paths of the lists themselves), etcd's revisions since its
 * last compaction (bounded by kube-apiserver's compaction interval), the supersessions etcd's backend
 * has not yet made deltas and the puts it has not yet kept against a base (revision numbers only: each
 * bounded by its `supersedeLag`).
 */
const boundedLists = [
  /^cluster\.engine\.trace\./, /^cluster\.apiserver\.audit\.events$/, /\.watchCache\.cache$/, /^cluster\.scheduler\.attempts$/,
  /^cluster\.etcd\.store\.backend\.tail$/, /^cluster\.etcd\.store\.backend\.pending$/, /^cluster\.etcd\.store\.backend\.fresh$/,
];

/**
 * The paths (from the cluster, through own properties, array elements, Map keys and values and Set
 * values) of every value `matches` accepts, with indices and map keys replaced by `#`. What closures and
 * `#private` fields hold is out of its reach.
 */
function holdersOf(root: object, matches: (value: unknown) => boolean): Map<string, number> {
  const parent = new Map<object, [object | null, string]>([[root, [null, 'cluster']]]);
  const queue: object[] = [root];
  const found = new Map<string, number>();
  const pathOf = (o: object, last: string): string => {
    const parts = [last];
    for (let at: object | null = o; at !== null;) {
      const [up, key]: [object | null, string] = parent.get(at)!;
      parts.push(key);
      at = up;
    }
    return parts.reverse().join('').replace(/\[\d+\]/g, '[#]');
  };
  const visit = (from: object, key: string, value: unknown): void => {
    if (matches(value)) {
      const path = pathOf(from, key);
      found.set(path, (found.get(path) ?? 0) + 1);
    }
    if (typeof value === 'object' && value !== null && !parent.has(value) && !ArrayBuffer.isView(value)) {
      parent.set(value, [from, key]);
      queue.push(value);
    }
  };
  for (let i = 0; i < queue.length; i++) {
    const o = queue[i]!;
    if (o instanceof Map) {
      for (const [k, v] of o) {
        const label = typeof k === 'string' ? `{${k.replace(/[{}]/g, '')}}` : '{#}';
        visit(o, '{#}', k);
        visit(o, label, v);
      }
    } else if (o instanceof Set) for (const v of o) visit(o, '{#}', v);
    else if (Array.isArray(o)) o.forEach((v, j) => visit(o, `[${j}]`, v));
    else for (const [k, v] of Object.entries(o)) visit(o, `.${k}`, v);
  }
  return found;
}

function request(cluster: Cluster, method: 'POST' | 'DELETE', path: string, body: unknown): void {
  cluster.user.request('kube-apiserver', httpKinds.request, {
    method, path, query: '', headers: { authorization: `Bearer ${builtinTokens.admin}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
}

function createAndDelete(cluster: Cluster, name: string, replicas: number): void {
  const deployment = (): Deployment | undefined => {
    const kv = cluster.etcd.kv.range({ key: `/registry/deployments/default/${name}` }).kvs[0];
    return kv ? decodeStored(kv.value) as Deployment : undefined;
  };
  const pods = (): number => cluster.etcd.kv.range({ key: `/registry/pods/default/${name}-`, rangeEnd: `/registry/pods/default/${name}.`, countOnly: true }).count;
  request(cluster, 'POST', '/apis/apps/v1/namespaces/default/deployments', {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx:1.14.2' }] } } },
  });
  while ((deployment()?.status?.availableReplicas ?? 0) < replicas) cluster.engine.runFor(1000, 100_000);
  expect(pods()).toBe(replicas);
  request(cluster, 'DELETE', `/apis/apps/v1/namespaces/default/deployments/${name}`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' });
  while (pods() > 0) cluster.engine.runFor(1000, 100_000);
  cluster.engine.runUntilIdle();
}

describe('memory stability: what a deleted Deployment leaves behind', () => {
  it('after its pods are deleted, their Events have expired and etcd is compacted, only bounded holders still name them', () => {
    const cluster = createCluster({ seed: 'stability', nodes: 3, traceLimit: 2_000 });
    cluster.boot();
    createAndDelete(cluster, 'gone', 12);
    createAndDelete(cluster, 'next', 12);
    cluster.engine.runFor(hour + 15 * minute);
    const holders = holdersOf(cluster, (v) => typeof v === 'string' && /\bgone\b/.test(v));
    expect(holders.size, 'the deleted Deployment is named somewhere before the bounded holders are left out').toBeGreaterThan(0);
    const unbounded = [...holders].filter(([path]) => !bounded.some((b) => b.test(path)));
    expect(Object.fromEntries(unbounded)).toEqual({});
    // Nothing else keeps a record per renewal, heartbeat or step: after 80 virtual minutes (480 node-lease
    // renewals per kubelet, 2,400 leader-election renewals per component) no list outside the bounded
    // holders is that long.
    const long = holdersOf(cluster, (v) => Array.isArray(v) && v.length >= 400);
    expect(Object.fromEntries([...long].filter(([path]) => !boundedLists.some((b) => b.test(path))))).toEqual({});
  }, 600_000);
});

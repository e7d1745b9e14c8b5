// The catalog's flows with etcd as 3 members (the seeds' flows with 5 too) end as they end with one member: the same convergence
// problems (none, or the ones the scenario sets out to show), the same stored keys, and every member
// holding the same store; raft's election and replication change the timing only. The cluster
// invariants are checked after every engine step. Generated names are compared without their random
// suffix: one drawn later in a flow depends on when the RNG is drawn, which timing may move.
//
// The nginx flow's etcd contents across member counts: what is the same and exactly what differs, and
// why. A cluster of several members elects a leader first (about 1.2 s of virtual time before the first
// write commits; a single member commits at once), and each write then waits for a quorum's
// acknowledgement (a round trip to the followers). So every instant after boot moves, and with it:
// - the timestamps kube-apiserver and the controllers write (creationTimestamp, managedFields' time,
//   conditions' times, Lease renew/acquire times, a pod's startTime and its container's startedAt);
// - the events' keys and names, which end in the event's UnixNano time in hex, and their first and last
//   timestamps;
// - UIDs, drawn from the seeded RNG in the order the creates happen, which timing may reorder;
// - the revisions of keys that independent writers write at about the same moment (the kubelets' node
//   Leases at registration, the root-CA publisher's ConfigMaps): their order of arrival.
// Everything else is identical: the number of revisions, every other key's create and mod revision,
// and every value once those fields are set aside.

import { describe, expect, it } from 'vitest';
import { createCluster } from '../cluster.ts';
import { decodeProtobuf } from '../api/protobuf/index.ts';
import { scenarios } from '../scenarios/catalog.ts';
import { ScenarioRunner } from '../scenarios/runner.ts';
import { addClusterInvariants, convergenceProblems } from '../testing/invariants.ts';
import { byteStringToBytes } from './bytes.ts';
import type { KeyValue } from './kv.ts';

function run(id: string, etcdMembers: 1 | 3 | 5): ReturnType<typeof createCluster> {
  const cluster = createCluster({ seed: `members-${id}`, etcdMembers });
  cluster.boot();
  // A cascading delete removes the owner before the garbage collector deletes its pods (as scenarios.test.ts allows).
  addClusterInvariants(cluster, { ownersMayBeDeleted: id === 'cascade-delete' });
  new ScenarioRunner(cluster, scenarios.find((s) => s.id === id)!).runAll();
  return cluster;
}

function outcome(id: string, etcdMembers: 1 | 3 | 5): { problems: string[]; keys: string[] } {
  const cluster = run(id, etcdMembers);
  const dumps = cluster.etcdMembers.map((m) => JSON.stringify(m.kv.range({ key: '\0', rangeEnd: '\0' }).kvs));
  expect(new Set(dumps).size, `${id}: members' stores differ`).toBe(1);
  const keys = cluster.etcd.kv.range({ key: '/registry/', rangeEnd: '/registry0', keysOnly: true }).kvs.map((kv) => kv.key)
    .filter((k) => !k.startsWith('/registry/events/') && !k.startsWith('/registry/leases/'))
    // A name generated later in a flow depends on when the RNG is drawn, which timing may move.
    .map((k) => k.replace(/-[bcdfghjklmnpqrstvwxz2456789]{5}$/, '-*')).sort();
  return { problems: convergenceProblems(cluster), keys };
}

/** The seeds' own flows run with 3 and 5 members; the rest of the catalog with 3 (5 adds only run time there). */
const seedFlows = new Set(['nginx-deployment', 'my-replicaset', 'user-service-pod', 'user-service-deployment']);

describe('the catalog\'s flows with etcd as a cluster', () => {
  for (const scenario of scenarios) {
    const sizes = seedFlows.has(scenario.id) ? [3, 5] as const : [3] as const;
    it(`${scenario.id}: ${sizes.join(' and ')} members end as 1 member does`, { timeout: 900_000 }, () => {
      const one = outcome(scenario.id, 1);
      for (const members of sizes) expect(outcome(scenario.id, members), `${members} members`).toEqual(one);
    });
  }
});

/** The fields that carry an instant, and the UID (drawn in create order). */
const timeFields = new Set([
  'creationTimestamp', 'time', 'lastUpdateTime', 'lastTransitionTime', 'lastHeartbeatTime', 'renewTime', 'acquireTime', 'startTime', 'startedAt',
  'firstTimestamp', 'lastTimestamp', 'eventTime', 'uid',
]);

/** A value with its instants and UID set aside, and an event's name without its time suffix. */
function withoutTimes(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutTimes);
  if (typeof v === 'string') return v.replace(/\.[0-9a-f]{16}$/, '.<time>');
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).filter(([k]) => !timeFields.has(k)).map(([k, x]) => [k, withoutTimes(x)]));
}

interface Contents {
  readonly revision: number;
  readonly kvs: Map<string, KeyValue>;
}

function contents(members: 1 | 3 | 5): Contents {
  const cluster = run('nginx-deployment', members);
  // An event's name ends in its UnixNano time in hex; events are keyed here by what they are about, in order.
  const kvs = new Map<string, KeyValue>();
  const seen = new Map<string, number>();
  for (const kv of cluster.etcd.kv.range({ key: '\0', rangeEnd: '\0' }).kvs) {
    let key = kv.key.replace(/\.[0-9a-f]{16}$/, '.<time>');
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    if (key.endsWith('.<time>')) key += `#${n}`;
    kvs.set(key, kv);
  }
  return { revision: cluster.etcd.store.currentRev, kvs };
}

const decoded = (kv: KeyValue): unknown => {
  const r = decodeProtobuf(byteStringToBytes(kv.value));
  return r.ok ? withoutTimes(r.object) : kv.value;
};

describe('the nginx flow\'s etcd contents across member counts', () => {
  it('are identical but for the instants, the event names, UIDs and the order of concurrent writers', { timeout: 900_000 }, () => {
    const one = contents(1);
    for (const members of [3, 5] as const) {
      const other = contents(members);
      expect(other.revision, `${members} members: revisions`).toBe(one.revision);
      expect([...other.kvs.keys()].sort(), `${members} members: keys`).toEqual([...one.kvs.keys()].sort());
      const reordered: string[] = [];
      for (const [key, kv] of one.kvs) {
        const o = other.kvs.get(key)!;
        // Events are written in the order they happen; their values say what happened, at another instant.
        if (!key.includes('.<time>') && (o.createRevision !== kv.createRevision || o.modRevision !== kv.modRevision)) reordered.push(key);
        expect([key, o.version], `${members} members`).toEqual([key, kv.version]);
        expect(decoded(o), `${members} members: ${key}`).toEqual(decoded(kv));
      }
      for (const key of reordered) expect(key, `${members} members`).toMatch(/^\/registry\/(leases\/kube-node-lease\/node-\d|configmaps\/[a-z-]+\/kube-root-ca\.crt)$/);
    }
  });
});

// Raft snapshots in an etcd cluster: every `snapshotCount` applied entries a member snapshots and compacts
// its raft log, keeping the catch-up entries; a follower cut off past the compacted log gets the leader's
// database with a MsgSnap, loads it in place of its own, skips the entries it already holds, and ends with
// the same store, history and leases as the others; its watchers catch up from the loaded history, or are
// told it was compacted.

import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../cluster.ts';
import type { Message } from '../engine/index.ts';
import { etcdKinds, type EtcdReply } from './server.ts';
import type { LeaseGrantResponse } from './rpc.ts';
import { KVStore } from './kv-store.ts';
import { WatchableStore } from './watchable-store.ts';
import { Lessor } from './lease.ts';
import { DbSnapshot } from './db-snapshot.ts';
import type { MvccWatchResponse } from './watcher-group.ts';

const workload = { controllerManager: false, scheduler: false, kubelets: false } as const;

function leaderOf(cluster: Cluster) {
  return cluster.etcdMembers.find((m) => m.raft?.state === 'StateLeader')!;
}

/** Every member's keys, each key's history at every revision since the last compaction, and its leases. */
function state(cluster: Cluster, i: number) {
  const m = cluster.etcdMembers[i]!;
  const rev = m.store.currentRev;
  const from = Math.max(m.store.compactMainRev, 1);
  const history = [];
  for (let r = from; r <= rev; r++) history.push(m.kv.range({ key: '\0', rangeEnd: '\0', revision: r }).kvs);
  const leases = m.lessor.leases().map((l) => ({ id: l.id, ttl: l.ttl, keys: l.sortedKeys() }));
  return { rev, compacted: m.store.compactMainRev, history, leases };
}

function reply<R>(cluster: Cluster, request: Message): EtcdReply<R> | undefined {
  return cluster.user.received().find((r) => r.requestId === request.id)?.message.payload as EtcdReply<R> | undefined;
}

describe('raft snapshots in an etcd cluster', () => {
  it('a member snapshots every snapshot-count entries and keeps only the catch-up entries before it', () => {
    const cluster = createCluster({ seed: 'snap-count', etcdMembers: 3, components: workload, etcdSnapshot: { count: 40, catchUpEntries: 10 } });
    cluster.engine.runUntilIdle();
    const leader = leaderOf(cluster);
    for (let i = 0; i < 200; i++) cluster.user.request(leader.name, etcdKinds.put, { key: `k${i % 17}`, value: `v${i}` });
    cluster.engine.runUntilIdle();
    for (const m of cluster.etcdMembers) {
      const log = m.raft!.log;
      expect(log.applied).toBeGreaterThan(200);
      // Snapshots at applied indexes 41+, 82+, …: the log starts catch-up entries before the last one.
      expect(log.currentSnapshot.metadata.index).toBeGreaterThan(log.applied - 41);
      expect(log.firstIndex).toBe(log.currentSnapshot.metadata.index - 10 + 1);
      expect(log.lastIndex - log.firstIndex + 1).toBeLessThanOrEqual(40 + 10 + 1);
    }
    for (let i = 1; i < 3; i++) expect(state(cluster, i)).toEqual(state(cluster, 0));
  });

  it('a follower cut off past the compacted log loads the leader\'s database from a MsgSnap and goes on in step', () => {
    const cluster = createCluster({ seed: 'snap-send', etcdMembers: 3, components: workload, etcdSnapshot: { count: 30, catchUpEntries: 5 } });
    cluster.engine.runUntilIdle();
    const leader = leaderOf(cluster);
    const follower = cluster.etcdMembers.find((m) => m !== leader)!;
    const i = cluster.etcdMembers.indexOf(follower);
    // A watcher on the follower from before the cut, synced: it must see every change after it, in order.
    const seen: MvccWatchResponse[] = [];
    follower.store.watch('k', 'l', 0, 99, { noPut: false, noDelete: false }, (r) => seen.push(r));
    cluster.user.request(leader.name, etcdKinds.put, { key: 'k0', value: 'before' });
    cluster.engine.runUntilIdle();
    const startRev = follower.store.currentRev;

    cluster.faults.partitionEtcdMember(follower.name);
    cluster.engine.runFor(500);
    const grant = cluster.user.request(leader.name, etcdKinds.leaseGrant, { TTL: 600 });
    cluster.engine.runFor(100);
    const lease = (reply<LeaseGrantResponse>(cluster, grant) as { ok: true; response: LeaseGrantResponse }).response.ID;
    for (let n = 0; n < 120; n++) {
      const key = `k${n % 9}`;
      if (n % 10 === 7) cluster.user.request(leader.name, etcdKinds.deleteRange, { key });
      else cluster.user.request(leader.name, etcdKinds.put, { key, value: `v${n}`, ...(n % 4 === 0 ? { lease } : {}) });
      cluster.engine.runFor(20);
    }
    cluster.user.request(leader.name, etcdKinds.compact, { revision: startRev + 20 });
    cluster.engine.runFor(500);
    expect(follower.raft!.log.lastIndex).toBeLessThan(leader.raft!.log.firstIndex);
    const snaps: Message[] = [];
    const stop = cluster.engine.onDelivery((m) => { if (m.kind === 'etcd.raft.MsgSnap') snaps.push(m); });

    cluster.faults.healEtcd();
    cluster.engine.runFor(3000);
    for (let n = 0; n < 10; n++) cluster.user.request(leader.name, etcdKinds.put, { key: `k${n}`, value: `after${n}` });
    cluster.engine.runUntilIdle();
    stop();

    expect(snaps.map((m) => m.to)).toEqual([follower.name]);
    // The payload shows the database it carried; the copy itself was loaded (and only once).
    const data = (snaps[0]!.payload as { snapshot: { data: DbSnapshot } }).snapshot.data;
    expect(data.consistentIndex).toBeGreaterThanOrEqual((snaps[0]!.payload as { snapshot: { metadata: { index: number } } }).snapshot.metadata.index);
    expect(data.compactRevision).toBe(startRev + 20);
    expect(() => data.take()).toThrow('already loaded');
    expect(JSON.parse(JSON.stringify(data))).toEqual({ revision: data.revision, compactRevision: data.compactRevision, consistentIndex: data.consistentIndex, keys: data.keys, leases: data.leases });
    const leaderState = state(cluster, cluster.etcdMembers.indexOf(leader));
    expect(state(cluster, i)).toEqual(leaderState);
    expect(leaderState.leases).toHaveLength(1);
    expect(follower.raft!.log.applied).toBe(leader.raft!.log.applied);

    // The watcher had seen up to the cut; the revisions it missed were compacted in the loaded history,
    // so the sync after the load tells it so (as etcd's restored watchers are told), and nothing more.
    expect(seen.map((r) => [r.revision, r.compactRevision, r.events.map((e) => e.kv.modRevision)])).toEqual([[startRev, 0, [startRev]], [0, startRev + 20, []]]);
  });
});

describe('a store restored from another', () => {
  function fill(store: KVStore, n: number, prefix: string): void {
    for (let i = 0; i < n; i++) {
      const txn = store.write();
      txn.put(`${prefix}${i % 5}`, `value ${i} ${'x'.repeat(i % 40)}`, '0');
      txn.end();
    }
  }

  it('shares nothing mutable: writes and compactions on either leave the other as it was', () => {
    const lessor = new Lessor();
    const a = new KVStore(lessor);
    fill(a, 3000, 'a');
    a.compact(1200);
    const b = new KVStore(new Lessor());
    b.restore(a);
    const dump = (s: KVStore) => JSON.stringify([s.currentRev, s.compactMainRev, ...[1200, 2000, 2900, s.currentRev].map((rev) => {
      const txn = s.read();
      const out = txn.range('\0', '\0', { rev });
      txn.end();
      return out;
    })]);
    const before = dump(a);
    expect(dump(b)).toBe(before);
    fill(b, 3000, 'a');
    b.compact(4000);
    expect(dump(a)).toBe(before);
    fill(a, 10, 'z');
    expect(b.index.keyIndex('z0')).toBeUndefined();
    expect(b.verify()).toBeUndefined();
    expect(a.verify()).toBeUndefined();
  });

  it('moves its synced watchers to the unsynced group, to catch up from the restored history', () => {
    const source = new KVStore(new Lessor());
    fill(source, 30, 'k');
    const store = new WatchableStore(new Lessor());
    fill(store, 3, 'k');
    const got: MvccWatchResponse[] = [];
    store.watch('k', 'l', 0, 1, { noPut: false, noDelete: false }, (r) => got.push(r));
    // A watcher whose next revision is past the restored store's (the source is behind it).
    const ahead = new WatchableStore(new Lessor());
    fill(ahead, 40, 'k');
    const late: MvccWatchResponse[] = [];
    ahead.watch('k', 'l', 0, 2, { noPut: false, noDelete: false }, (r) => late.push(r));
    let scheduled = 0;
    store.onUnsynced = () => scheduled++;
    store.restore(source);
    ahead.restore(source);
    expect(scheduled).toBe(1);
    expect(store.synced.size).toBe(0);
    expect(store.syncWatchers()).toBe(0);
    expect(got.flatMap((r) => r.events.map((e) => e.kv.modRevision))).toEqual(Array.from({ length: 27 }, (_, i) => i + 5));
    expect(ahead.syncWatchers()).toBe(0);
    expect(late.flatMap((r) => r.events)).toEqual([]);
    expect(ahead.synced.size).toBe(1);
  });

  it('a db snapshot is a copy taken when it is made, loaded once', () => {
    const store = new KVStore(new Lessor());
    fill(store, 10, 'k');
    const snapshot = new DbSnapshot(store, store.lessor, 77);
    fill(store, 10, 'k');
    const image = snapshot.take();
    expect([snapshot.revision, image.store.currentRev, image.consistentIndex]).toEqual([11, 11, 77]);
    expect(() => snapshot.take()).toThrow('already loaded');
  });
});

// etcd as a cluster of members inside the whole model: identity and headers, the flows with 1, 3 and
// 5 members, kube-apiserver's client failing over, quorum loss, and client histories under random
// member faults checked for linearizability with raft's safety checked after every engine step.

import { describe, expect, it } from 'vitest';
import { builtinTokens } from '../wire/credentials.ts';
import { httpKinds, type HttpResponse } from '../wire/http.ts';
import { createCluster, type Cluster } from '../cluster.ts';
import { Rng, type Message } from '../engine/index.ts';
import { nginxDeploymentYaml } from '../scenarios/manifests.ts';
import { checkKvLinearizable, type KvOperation } from '../testing/linearizability.ts';
import { clusterMembers, defaultClusterToken, memberConfigs } from './cluster.ts';
import { etcdKinds, type EtcdReply } from './server.ts';
import type { PutResponse, RangeResponse } from './rpc.ts';

const workload = { controllerManager: false, scheduler: false, kubelets: false } as const;

function reply<R>(cluster: Cluster, request: Message): EtcdReply<R> | undefined {
  return cluster.user.received().find((r) => r.requestId === request.id)?.message.payload as EtcdReply<R> | undefined;
}

function post(cluster: Cluster, path: string, body: string, contentType = 'application/yaml'): Message {
  return cluster.user.request('kube-apiserver', httpKinds.request, {
    method: 'POST', path, query: 'fieldManager=kubectl-create',
    headers: { authorization: `Bearer ${builtinTokens.admin}`, 'content-type': contentType }, body,
  });
}

function response(cluster: Cluster, request: Message): HttpResponse | undefined {
  return cluster.user.received().find((r) => r.requestId === request.id)?.message.payload as HttpResponse | undefined;
}

/** Raft's safety, checked by the engine after every step: one leader per term, committed entries agree. */
function checkRaftSafety(cluster: Cluster): void {
  const leaders = new Map<number, string>();
  const committed = new Map<number, { term: number; data: unknown }>();
  cluster.engine.addInvariant('raft safety', () => {
    for (const member of cluster.etcdMembers) {
      const raft = member.raft;
      if (raft === null) continue;
      if (raft.state === 'StateLeader') {
        const known = leaders.get(raft.term);
        if (known !== undefined && known !== member.name) return `two leaders in term ${raft.term}: ${known} and ${member.name}`;
        leaders.set(raft.term, member.name);
      }
      for (let i = raft.log.firstIndex; i <= raft.log.committed; i++) {
        const e = raft.log.slice(i, i + 1)[0]!;
        const c = committed.get(i);
        if (c === undefined) committed.set(i, { term: e.term, data: e.data });
        else if (c.term !== e.term || (c.data !== e.data && JSON.stringify(c.data) !== JSON.stringify(e.data))) return `committed entry ${i} differs on ${member.name}`;
      }
    }
    return undefined;
  });
}

describe('etcd members', () => {
  it('compute their IDs as etcd does; each header carries the answering member and its raft term', () => {
    const cluster = createCluster({ seed: 'ids', etcdMembers: 3, components: workload });
    cluster.engine.runUntilIdle();
    const { clusterId, members } = clusterMembers(memberConfigs(3), defaultClusterToken);
    const reads = cluster.etcdMembers.map((m) => cluster.user.request(m.name, etcdKinds.range, { key: '/registry/namespaces/default', serializable: true }));
    cluster.engine.runUntilIdle();
    const headers = reads.map((r) => reply<RangeResponse>(cluster, r)!).map((p) => (p.ok ? p.response.header : null));
    expect(headers.map((h) => h?.memberId)).toEqual(members.map((m) => m.id));
    expect(new Set(headers.map((h) => h?.clusterId))).toEqual(new Set([clusterId]));
    // The bootstrap entries are term 1; the first election makes term 2, as a fresh etcd shows.
    expect(headers.map((h) => h?.raftTerm)).toEqual([2, 2, 2]);
  });

  it('a linearizable read on a follower goes through ReadIndex and sees the latest write', () => {
    const cluster = createCluster({ seed: 'readindex', etcdMembers: 3, components: workload });
    cluster.engine.runUntilIdle();
    const follower = cluster.etcdMembers.find((m) => m.raft?.state === 'StateFollower')!;
    const leader = cluster.etcdMembers.find((m) => m.raft?.state === 'StateLeader')!;
    cluster.user.request(leader.name, etcdKinds.put, { key: 'k', value: 'v1' });
    cluster.engine.runUntilIdle();
    const from = cluster.engine.lastMessageId;
    const read = cluster.user.request(follower.name, etcdKinds.range, { key: 'k' });
    cluster.engine.runUntilIdle();
    const got = reply<RangeResponse>(cluster, read)!;
    expect(got.ok && got.response.kvs.map((kv) => kv.value)).toEqual(['v1']);
    const kinds = cluster.engine.trace.all().filter((m) => m.id > from).map((m) => m.kind);
    expect(kinds).toContain('etcd.raft.MsgReadIndex');
    expect(kinds).toContain('etcd.raft.MsgReadIndexResp');
  });

  const podKeys = new Map<number, string[]>();
  for (const members of [1, 3, 5] as const) {
    it(`the nginx flow converges with ${members} member${members > 1 ? 's' : ''}; every member's store is the same`, () => {
      const cluster = createCluster({ seed: 'members-flow', etcdMembers: members });
      checkRaftSafety(cluster);
      cluster.boot();
      const create = post(cluster, '/apis/apps/v1/namespaces/default/deployments', nginxDeploymentYaml);
      cluster.engine.runUntilIdle();
      expect(response(cluster, create)?.status).toBe(201);
      const dump = (i: number) => cluster.etcdMembers[i]!.kv.range({ key: '\0', rangeEnd: '\0' }).kvs;
      const pods = dump(0).filter((kv) => kv.key.startsWith('/registry/pods/'));
      expect(pods).toHaveLength(1);
      for (let i = 1; i < members; i++) expect(dump(i)).toEqual(dump(0));
      // Raft draws nothing from the engine's RNG: the generated names are those of a single member.
      podKeys.set(members, pods.map((kv) => kv.key));
      expect(podKeys.get(members)).toEqual(podKeys.get(1));
    });
  }

  it('the leader dies: a new one is elected in a later term and writes go on; kube-apiserver fails over from a stopped endpoint', () => {
    const cluster = createCluster({ seed: 'kill-leader', etcdMembers: 3, components: workload });
    checkRaftSafety(cluster);
    cluster.engine.runUntilIdle();
    const old = cluster.etcdMembers.find((m) => m.raft?.state === 'StateLeader')!;
    cluster.faults.killEtcdLeader();
    cluster.engine.runFor(3000);
    const leader = cluster.etcdMembers.find((m) => m.raft?.state === 'StateLeader')!;
    expect(leader.name).not.toBe(old.name);
    expect(leader.raft!.term).toBe(3);
    const create = post(cluster, '/api/v1/namespaces/default/configmaps', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: after\n');
    cluster.engine.runUntilIdle();
    expect(response(cluster, create)?.status).toBe(201);
    cluster.faults.startEtcdMember(old.name);
    cluster.engine.runFor(3000);
    expect(old.raft!.state).toBe('StateFollower');
    expect(old.kv.range({ key: '/registry/configmaps/default/after' }).kvs).toHaveLength(1);
    // kube-apiserver's pinned endpoint is etcd-1; stopped, its requests go to etcd-2.
    cluster.faults.stopEtcdMember('etcd-1');
    cluster.engine.runFor(3000);
    const from = cluster.engine.lastMessageId;
    const next = post(cluster, '/api/v1/namespaces/default/configmaps', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: failover\n');
    cluster.engine.runUntilIdle();
    expect(response(cluster, next)?.status).toBe(201);
    const txns = cluster.engine.trace.all().filter((m) => m.id > from && m.kind === etcdKinds.txn && m.from === 'kube-apiserver');
    expect(txns.map((m) => m.to)).toEqual(['etcd-2']);
  });

  it('without a quorum a write fails after etcd\'s 7 s request timeout, and succeeds again once quorum returns', () => {
    const cluster = createCluster({ seed: 'quorum', etcdMembers: 3, components: workload });
    cluster.engine.runUntilIdle();
    cluster.faults.stopEtcdMember('etcd-2');
    cluster.faults.stopEtcdMember('etcd-3');
    cluster.engine.runFor(10);
    const sent = cluster.engine.now;
    const create = post(cluster, '/api/v1/namespaces/default/configmaps', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lost\n');
    cluster.engine.runUntilIdle();
    const failed = response(cluster, create)!;
    expect(failed.status).toBe(500);
    expect(JSON.stringify(failed.body)).toContain('etcdserver: request timed out');
    expect(cluster.engine.now - sent).toBeGreaterThanOrEqual(7000);
    cluster.faults.startEtcdMember('etcd-2');
    cluster.engine.runFor(3000);
    const again = post(cluster, '/api/v1/namespaces/default/configmaps', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: back\n');
    cluster.engine.runUntilIdle();
    expect(response(cluster, again)?.status).toBe(201);
  });
});

describe('client histories under random member faults', () => {
  /** Puts and linearizable Ranges from the user to random members while members stop, restart, are cut off and slowed. */
  function run(seed: number, etcdSnapshot?: { count: number; catchUpEntries: number }): { history: KvOperation[]; stale: number; snapshotsSent: number } {
    const cluster = createCluster({ seed: `lin-${seed}`, etcdMembers: 3, components: workload, ...(etcdSnapshot ? { etcdSnapshot } : {}) });
    checkRaftSafety(cluster);
    let snapshotsSent = 0;
    cluster.engine.onDelivery((m) => { if (m.kind === 'etcd.raft.MsgSnap') snapshotsSent++; });
    cluster.engine.runUntilIdle();
    const rng = new Rng(seed);
    const names = cluster.etcdMembers.map((m) => m.name);
    const calls = new Map<number, { key: string; kind: 'put' | 'get'; value: string; called: number }>();
    let value = 0;
    let stale = 0;
    for (let step = 0; step < 80; step++) {
      const member = names[rng.int(names.length)]!;
      const roll = rng.int(100);
      if (roll < 6) cluster.faults.stopEtcdMember(member);
      else if (roll < 16) cluster.faults.startEtcdMember(member);
      else if (roll < 20) cluster.faults.partitionEtcdMember(member);
      else if (roll < 26) cluster.faults.healEtcd();
      else if (roll < 29) cluster.faults.slowEtcdDisk(member, rng.int(3) * 300);
      else {
        const key = ['a', 'b'][rng.int(2)]!;
        if (roll < 65) {
          const v = `v${++value}`;
          const m = cluster.user.request(member, etcdKinds.put, { key, value: v });
          calls.set(m.id, { key, kind: 'put', value: v, called: cluster.engine.now });
        } else {
          const m = cluster.user.request(member, etcdKinds.range, { key });
          calls.set(m.id, { key, kind: 'get', value: '', called: cluster.engine.now });
        }
      }
      cluster.engine.runFor(20 + rng.int(300));
    }
    for (const name of names) cluster.faults.startEtcdMember(name);
    cluster.faults.healEtcd();
    cluster.engine.runFor(10_000);
    const history: KvOperation[] = [];
    const answered = new Map(cluster.user.received().map((r) => [r.requestId, r.message] as const));
    for (const [id, call] of calls) {
      const m = answered.get(id);
      const payload = m?.payload as EtcdReply<PutResponse | RangeResponse> | undefined;
      if (payload?.ok) {
        const read = call.kind === 'get' ? ((payload.response as RangeResponse).kvs[0]?.value ?? '') : call.value;
        history.push({ ...call, value: read, returned: m!.deliverAt });
      } else if (call.kind === 'put' && !(payload && payload.error.message.startsWith('connection error:'))) {
        // Timed out, or the member died with it in flight: it may or may not have been applied.
        history.push({ ...call, returned: Infinity });
      }
      if (payload !== undefined && !payload.ok) stale++;
    }
    const stores = cluster.etcdMembers.map((m) => JSON.stringify(m.kv.range({ key: '\0', rangeEnd: '\0' }).kvs));
    expect(new Set(stores).size).toBe(1);
    return { history, stale, snapshotsSent };
  }

  it('are linearizable (puts and linearizable Ranges), 12 seeds; every member ends with the same store', () => {
    let answered = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const { history } = run(seed);
      answered += history.filter((o) => o.returned !== Infinity).length;
      expect(checkKvLinearizable(history), `seed ${seed}`).toEqual({ ok: true });
    }
    expect(answered).toBeGreaterThan(12 * 15);
  });

  it('stay linearizable with a raft snapshot every 8 entries: members cut off or stopped catch up from the leader\'s database, 12 seeds', () => {
    let snapshots = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const { history, snapshotsSent } = run(seed, { count: 8, catchUpEntries: 2 });
      snapshots += snapshotsSent;
      expect(checkKvLinearizable(history), `seed ${seed}`).toEqual({ ok: true });
    }
    expect(snapshots).toBeGreaterThan(3);
  });
});

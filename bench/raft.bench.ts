// etcd as a raft cluster: Txn/s through the model's 3 members against its 1 member, and through a real
// etcd 3.4.23 of 3 members on loopback, in one run. In the model each Txn goes to the leader (the
// client's pinned member), is proposed, replicated by MsgApp to the followers, committed on their
// MsgAppResp and applied by every member; one member answers it at once. The model's figures are host
// throughput (wall clock, the engine fast-forwarding) and the virtual time the batch took (1 ms links,
// no fsync). The real cluster gets the same Txn (create-if-absent, a 1 KiB value) from the `etcd3`
// client over gRPC to every member's endpoint, `concurrency` in flight, each member its own process with
// its own data dir (WAL fsync on this disk); without an etcd binary only the model is measured.

import { Etcd3 } from 'etcd3';
import { Component, Engine, type Message } from '../src/sim/engine/index.ts';
import type { TxnRequest } from '../src/sim/etcd/rpc.ts';
import { EtcdServer } from '../src/sim/etcd/server.ts';
import { findEtcd } from '../test/etcd/real-etcd.ts';
import { RealEtcdCluster } from '../test/etcd/real-etcd-cluster.ts';
import type { BenchFigure, Benchmark } from './harness.ts';

const realTxns = Number(process.env.PODFLOW_BENCH_RAFT_REAL_TXNS ?? 2_000);
const concurrency = 16;

/** Txn/s through a real 3-member etcd on loopback, `concurrency` in flight over every member's endpoint. */
async function realTxnRate(binary: string): Promise<number> {
  const cluster = await RealEtcdCluster.start(binary, 3);
  const client = new Etcd3({ hosts: cluster.urls });
  try {
    const value = 'x'.repeat(1024);
    let next = 0;
    const start = performance.now();
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < realTxns) {
        const key = `/registry/pods/bench/pod-${next++}`;
        await client.if(key, 'Mod', '==', 0).then(client.put(key).value(value)).commit();
      }
    }));
    return realTxns / ((performance.now() - start) / 1000);
  } finally {
    client.close();
    cluster.stop();
  }
}

class Client extends Component {
  replies = 0;
  receive(message: Message): void {
    if (message.replyTo !== null) this.replies++;
  }
}

function createIfAbsent(key: string): TxnRequest {
  return { compare: [{ key, target: 'MOD', result: 'EQUAL', modRevision: 0 }], success: [{ requestPut: { key, value: 'x'.repeat(1024) } }] };
}

/** `n` Txns queued at once on a cluster of `members`; host Txn/s and the virtual ms they took. */
function txnRate(members: 1 | 3, n: number): { rate: number; virtualMs: number } {
  const engine = new Engine({ seed: 'bench', traceLimit: 1000 });
  const names = members === 1 ? ['etcd'] : ['etcd-1', 'etcd-2', 'etcd-3'];
  const peers = names.map((component, i) => ({ id: i + 1, component }));
  const servers = names.map((name, i) => engine.add(new EtcdServer(name, members === 1 ? {} : { raft: { id: i + 1, peers, seed: `bench/${name}` } })));
  const client = engine.add(new Client('client'));
  for (const name of names) engine.link(name, 'client', { latency: 1 });
  for (let i = 0; i < names.length; i++) for (let j = i + 1; j < names.length; j++) engine.link(names[i]!, names[j]!, { latency: 1 });
  if (members > 1) {
    for (const s of servers) s.startRaft();
    engine.runFor(3000);
  }
  const leader = servers.find((s) => s.raft === null || s.raft.state === 'StateLeader')!;
  const start = performance.now();
  const virtualStart = engine.now;
  for (let i = 0; i < n; i++) engine.send('client', leader.name, 'etcd.Txn', createIfAbsent(`/registry/pods/bench/pod-${i}`));
  engine.runUntilIdle();
  const rate = n / ((performance.now() - start) / 1000);
  if (client.replies !== n) throw new Error(`expected ${n} replies, got ${client.replies}`);
  return { rate, virtualMs: engine.now - virtualStart };
}

export const benchmarks: Benchmark[] = [
  {
    group: 'etcd',
    name: 'txn through raft',
    async run(): Promise<BenchFigure[]> {
      const n = 10_000;
      const one = txnRate(1, n);
      const three = txnRate(3, n);
      const figures: BenchFigure[] = [
        { name: 'sim Txn/s, 1 member (no raft traffic)', value: one.rate, unit: 'txn/s', note: `${n} txns queued at once; ${one.virtualMs} virtual ms` },
        { name: 'sim Txn/s, 3 members (propose, MsgApp, commit, apply on all)', value: three.rate, unit: 'txn/s', note: `${n} txns queued at once; ${three.virtualMs} virtual ms` },
      ];
      const binary = findEtcd();
      if (binary !== null) {
        figures.push({
          name: 'real etcd 3.4.23 Txn/s, 3 members on loopback', value: await realTxnRate(binary), unit: 'txn/s',
          note: `${realTxns} txns over gRPC (etcd3), ${concurrency} in flight, to all three endpoints`,
        });
      }
      return figures;
    },
  },
];

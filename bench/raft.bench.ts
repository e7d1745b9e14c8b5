// etcd as a raft cluster in the model: Txn/s through 3 members against 1, in one run. Each Txn goes to
// the leader (the client's pinned member), is proposed, replicated by MsgApp to the followers, committed
// on their MsgAppResp and applied by every member; one member answers it at once. Figures are host
// throughput (wall clock) and the virtual time the batch took (1 ms links, no fsync). Real etcd with
// three members is the realetcd comparison's.

import { Component, Engine, type Message } from '../src/sim/engine/index.ts';
import type { TxnRequest } from '../src/sim/etcd/rpc.ts';
import { EtcdServer } from '../src/sim/etcd/server.ts';
import type { BenchFigure, Benchmark } from './harness.ts';

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
    run(): BenchFigure[] {
      const n = 10_000;
      const one = txnRate(1, n);
      const three = txnRate(3, n);
      return [
        { name: 'sim Txn/s, 1 member (no raft traffic)', value: one.rate, unit: 'txn/s', note: `${n} txns queued at once; ${one.virtualMs} virtual ms` },
        { name: 'sim Txn/s, 3 members (propose, MsgApp, commit, apply on all)', value: three.rate, unit: 'txn/s', note: `${n} txns queued at once; ${three.virtualMs} virtual ms` },
      ];
    },
  },
];

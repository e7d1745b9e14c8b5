// The model's etcd alone, as a real etcd cluster runs on loopback: N members with raft between them and
// a user component that runs etcdctl through the console, and nothing else (no kube-apiserver writing).
// Members are etcd-1 … etcd-N, as createCluster names them; `kill` and `restart` are the member faults
// (a crash, then a start from its WAL).

import { Engine } from '../../src/sim/engine/index.ts';
import { clusterMembers, defaultClusterToken, memberConfigs } from '../../src/sim/etcd/cluster.ts';
import { EtcdServer } from '../../src/sim/etcd/server.ts';
import { User } from '../../src/sim/user/user.ts';
import { defaultEtcdTiming } from '../../src/sim/cluster.ts';
import { ConsoleSession } from '../../src/worker/console/session.ts';

export interface CommandResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

export class ModelEtcd {
  readonly engine: Engine;
  readonly user: User;
  readonly members: EtcdServer[];
  private readonly session: ConsoleSession;
  private commands = 0;

  constructor(seed: string, size: number, options: { peerLatency?: number; clientLatency?: number } = {}) {
    this.engine = new Engine({ seed });
    this.user = this.engine.add(new User());
    const { clusterId, members } = clusterMembers(memberConfigs(size), defaultClusterToken);
    const peers = members.map((m, i) => ({ id: i + 1, component: m.name }));
    this.members = members.map((m, i) => this.engine.add(new EtcdServer(m.name, {
      ...defaultEtcdTiming, identity: { clusterId, memberId: m.id, raftTerm: 0 }, members, raft: { id: i + 1, peers, seed: `${seed}/${m.name}` },
    })));
    for (const m of this.members) this.engine.link(this.user.name, m.name, { latency: options.clientLatency ?? 0.1 });
    for (const [i, a] of this.members.entries()) {
      for (const b of this.members.slice(i + 1)) this.engine.link(a.name, b.name, { latency: options.peerLatency ?? 0.1 });
    }
    for (const m of this.members) m.startRaft();
    this.session = new ConsoleSession(this.engine, this.user, null, this.members.map((m) => m.name));
  }

  /** Client endpoints as the console's etcdctl takes them, in member order. */
  get endpoints(): string[] {
    return this.members.map((m) => `${m.name}:2379`);
  }

  /** Runs an etcdctl command line to its end in virtual time. */
  etcdctl(args: readonly string[]): CommandResult {
    const id = ++this.commands;
    this.session.run(id, ['etcdctl', ...args].map((a) => (/[\s"'\\]/.test(a) ? `'${a}'` : a)).join(' '), '');
    let stdout = '';
    let stderr = '';
    for (;;) {
      this.engine.runFor(10);
      for (const e of this.session.flush()) {
        if (e.id !== id) continue;
        stdout += e.stdout;
        stderr += e.stderr;
        if (e.done) return { stdout, stderr, code: e.exitCode ?? 0 };
      }
    }
  }

  settle(ms: number): void {
    this.engine.runFor(ms);
  }

  kill(i: number): void {
    this.members[i]!.crash();
  }

  restart(i: number): void {
    this.members[i]!.restart();
  }
}

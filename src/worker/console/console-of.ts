// One console per simulated cluster: the session that runs command lines as its user component and the
// collector of its request logs, created on first use and bound to the cluster's deliveries. Live
// commands and replayed ones (fork, restore) reach the same session through `consoleOf`, so a replayed
// `kubectl` or `etcdctl` makes exactly the messages it made the first time.

import type { Engine } from '../../sim/engine/index.ts';
import type { User } from '../../sim/user/user.ts';
import { LogCollector, type AuditSource } from './logs.ts';
import { ConsoleSession } from './session.ts';

export interface ConsoleCluster {
  readonly engine: Engine;
  readonly user: User;
  /** kube-apiserver, whose audit log feeds the logs panel. */
  readonly apiserver?: { readonly audit: AuditSource };
  /** The etcd members etcdctl's endpoints name (default: the single member `etcd`). */
  readonly etcdMembers?: readonly { readonly name: string }[];
}

export interface ClusterConsole {
  readonly session: ConsoleSession;
  readonly logs: LogCollector;
}

const consoles = new WeakMap<Engine, ClusterConsole>();

export function consoleOf(cluster: ConsoleCluster): ClusterConsole {
  const existing = consoles.get(cluster.engine);
  if (existing) return existing;
  const { engine } = cluster;
  const logs = new LogCollector(cluster.apiserver?.audit ?? null);
  const session = new ConsoleSession(engine, cluster.user, logs, cluster.etcdMembers?.map((m) => m.name));
  engine.onDelivery((message) => {
    logs.observe(engine.step, message);
    session.observe(message);
  });
  const created = { session, logs };
  consoles.set(engine, created);
  return created;
}

// One console per simulated cluster: the session that runs command lines as its user component and the
// collector of its request logs, created on first use and bound to the cluster's deliveries. Live
// commands and replayed ones (fork, restore) reach the same session through `consoleOf`, so a replayed
// `kubectl` or `etcdctl` makes exactly the messages it made the first time.

import type { Engine } from '../../sim/engine/index.ts';
import type { User } from '../../sim/user/user.ts';
import type { KeyValue } from '../../sim/etcd/kv.ts';
import type { EtcdMemberView } from './etcdctl-endpoint.ts';
import { LogCollector, type AuditSource } from './logs.ts';
import { ConsoleSession } from './session.ts';

export interface ConsoleCluster {
  readonly engine: Engine;
  readonly user: User;
  /** kube-apiserver, whose audit log feeds the logs panel. */
  readonly apiserver?: { readonly audit: AuditSource };
  /** The etcd member, for `etcdctl endpoint status` (its stored revisions' sizes). */
  readonly etcd?: { readonly store: { readonly backend: { rangeRevisions(min: number, max: number, f: (kv: KeyValue) => void): void } } };
}

function memberView(etcd: ConsoleCluster['etcd']): EtcdMemberView | null {
  if (!etcd) return null;
  return {
    storedBytes: () => {
      let revisions = 0;
      let bytes = 0;
      etcd.store.backend.rangeRevisions(0, Number.MAX_SAFE_INTEGER, (kv) => { revisions++; bytes += kv.key.length + kv.value.length; });
      return { revisions, bytes };
    },
  };
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
  const session = new ConsoleSession(engine, cluster.user, logs, memberView(cluster.etcd));
  engine.onDelivery((message) => {
    logs.observe(engine.step, message);
    session.observe(message);
  });
  const created = { session, logs };
  consoles.set(engine, created);
  return created;
}

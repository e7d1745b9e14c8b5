// The two endpoints the gRPC proofs compare: a real etcd 3.4.23 on loopback (test/etcd/real-etcd.ts) and a
// Podflow server whose model etcd is served over gRPC (`etcdListen`). The model's etcd holds a Kubernetes
// cluster whose components keep writing (leases, heartbeats); to compare revisions with a fresh etcd the
// components other than etcd are stopped once the cluster has booted, so only the test's calls write.
// Revisions then differ from the real etcd's by one constant: each side's revision before the script.

import { accessSync, constants } from 'node:fs';
import { defaultServerOptions, startPodflowServer, type PodflowServer } from '../../src/server/server.ts';
import { findEtcd, RealEtcd } from '../etcd/real-etcd.ts';

export const etcdBinary = findEtcd();

/** etcdctl beside etcd (Debian's etcd-client), or null. */
export function findEtcdctl(): string | null {
  if (etcdBinary === null) return null;
  const candidate = etcdBinary.replace(/etcd$/, 'etcdctl');
  try {
    accessSync(candidate, constants.X_OK);
    return candidate;
  } catch {
    return null;
  }
}

export interface Endpoints {
  /** `127.0.0.1:port` of the real etcd. */
  readonly real: string;
  /** `127.0.0.1:port` of the model's gRPC endpoint. */
  readonly model: string;
  readonly server: PodflowServer;
  stop(): Promise<void>;
}

/** Starts both endpoints; the model's cluster is quiet (only etcd and the gRPC clients run). */
export async function startEndpoints(): Promise<Endpoints> {
  const real = await RealEtcd.start(etcdBinary!);
  const server = await startPodflowServer({ ...defaultServerOptions, port: 0, nodes: 1, etcdListen: '127.0.0.1:0' });
  const engine = server.host.cluster.engine;
  for (const name of engine.componentNames()) if (name !== 'etcd' && name !== 'user') engine.stopComponent(name);
  return {
    real: `127.0.0.1:${real.port}`,
    model: server.etcd!.address,
    server,
    stop: async () => {
      real.stop();
      await server.close();
    },
  };
}

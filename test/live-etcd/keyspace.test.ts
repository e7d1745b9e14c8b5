// The seeds' scenarios run twice from one seed: once on the model's etcd, once on a real etcd 3.4 behind
// the proxy member (src/server/real-etcd), in-process and unpaced. The resulting keyspaces must be
// identical: the same keys with the same value bytes, create and mod revisions, versions, and the same
// keys sharing a lease. Lease IDs themselves differ (a real etcd derives them from its member ID and the
// wall clock) and are compared through a one-to-one mapping.
//
// Both runs use zero link jitter and zero modelled etcd time: with jitter, the model draws one random
// number per watch response it sends, and a proxy cannot know at request time how many a write will
// cause; etcd's modelled time is only a delivery delay, which a real etcd replaces with its own.
// Skipped, with a message, when there is no etcd binary.

import { afterEach, describe, expect, it } from 'vitest';
import { createCluster, type ClusterConfig } from '../../src/sim/cluster.ts';
import type { KeyValue } from '../../src/sim/etcd/index.ts';
import { runScenario, scenarioById } from '../../src/sim/scenarios/index.ts';
import { byteString, keyValueFromWire, rangeRequestToWire } from '../../src/server/etcd-proto/convert.ts';
import { RealEtcdMember } from '../../src/server/real-etcd/real-etcd-member.ts';
import { findEtcd, RealEtcd } from '../etcd/real-etcd.ts';
import { boot, runScenarioOn } from './drive.ts';

const binary = findEtcd();
if (binary === null) console.warn('live-etcd keyspace test SKIPPED: no etcd binary on PATH (install Debian etcd-server)');

const comparable: Omit<ClusterConfig, 'seed'> = {
  latencies: { jitter: 0 },
  etcd: { readDelay: 0, readNsPerByte: 0, writeDelay: 0, writeNsPerByte: 0 },
};

const everyKey = { key: '\u0000', rangeEnd: '\u0000' };

function modelKeyspace(scenarioId: string, seed: string): KeyValue[] {
  const cluster = createCluster({ seed, ...comparable });
  cluster.boot();
  runScenario(cluster, scenarioById(scenarioId)!).dispose();
  return [...cluster.etcd.kv.range(everyKey).kvs];
}

async function realKeyspace(etcd: RealEtcd, scenarioId: string, seed: string): Promise<KeyValue[]> {
  const cluster = createCluster({ seed, ...comparable, etcdMember: (name) => new RealEtcdMember(name, { endpoints: [etcd.url], serialize: true }) });
  try {
    await boot(cluster);
    await runScenarioOn(cluster, scenarioById(scenarioId)!);
    const all = await cluster.etcd.client.unary('KV', 'range', rangeRequestToWire(everyKey));
    return (all['kvs'] as unknown[]).map(keyValueFromWire);
  } finally {
    cluster.etcd.close();
  }
}

/** The keyspace with lease IDs replaced by their order of first appearance (`L1`, `L2`, …). */
function withLeaseOrdinals(kvs: readonly KeyValue[]): KeyValue[] {
  const ordinals = new Map<string, string>();
  return kvs.map((kv) => {
    if (kv.lease === '0') return kv;
    if (!ordinals.has(kv.lease)) ordinals.set(kv.lease, `L${ordinals.size + 1}`);
    return { ...kv, lease: ordinals.get(kv.lease)! };
  });
}

/** The first difference, readably (keys and protobuf values are byte strings). */
function firstDifference(model: readonly KeyValue[], real: readonly KeyValue[]): string | null {
  const n = Math.max(model.length, real.length);
  for (let i = 0; i < n; i++) {
    const a = model[i];
    const b = real[i];
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    const show = (kv: KeyValue | undefined) => kv && { ...kv, value: `${kv.value.length} bytes: ${JSON.stringify(byteString(Buffer.from(kv.value, 'latin1')).slice(0, 120))}` };
    return `#${i}: model ${JSON.stringify(show(a))}\n     real ${JSON.stringify(show(b))}`;
  }
  return null;
}

describe.skipIf(binary === null)('the seeds\' scenarios on the model etcd and on a real etcd 3.4', () => {
  let etcd: RealEtcd | null = null;
  afterEach(() => {
    etcd?.stop();
    etcd = null;
  });

  for (const scenarioId of ['nginx-deployment', 'my-replicaset', 'user-service-pod', 'user-service-deployment']) {
    it(`${scenarioId}: the same keys, values, revisions, versions and lease groups`, async () => {
      const seed = `live-etcd-${scenarioId}`;
      const model = withLeaseOrdinals(modelKeyspace(scenarioId, seed));
      etcd = await RealEtcd.start(binary!);
      const real = withLeaseOrdinals(await realKeyspace(etcd, scenarioId, seed));
      expect(model.length).toBeGreaterThan(100);
      // Leases are attached (kube-apiserver stores Events under a lease), so the lease groups are compared, not vacuous.
      expect(model.filter((kv) => kv.lease !== '0').length).toBeGreaterThan(0);
      expect(firstDifference(model, real)).toBeNull();
      expect(real).toEqual(model);
    }, 120_000);
  }
});

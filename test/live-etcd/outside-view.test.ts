// The page's view of a real etcd read from outside (src/server/real-etcd/outside-view.ts and
// keyspace-mirror.ts), against Debian's etcd started by the test: the mirror holds exactly what a Range of
// /registry/ returns at every revision it saw (keys, value bytes, create/mod revision, version, lease),
// only /registry/, and the past from its first read on; after a compaction it folds its history and says
// so; the insides carry etcd's own revision, raft term, compacted revision, keys and leases. Skipped, with
// a message, without etcd.

import { describe, expect, test } from 'vitest';
import { Engine } from '../../src/sim/engine/index.ts';
import type { ComponentInsides } from '../../src/protocol/index.ts';
import type { KeyValue } from '../../src/sim/etcd/index.ts';
import { EtcdGrpcClient } from '../../src/server/real-etcd/grpc-client.ts';
import { RealEtcdOutside } from '../../src/server/real-etcd/outside-view.ts';
import { InsidesRecorder } from '../../src/worker/insides.ts';
import { KeyspaceTracker } from '../../src/worker/keyspace.ts';
import { findEtcd } from '../etcd/real-etcd.ts';
import { etcdAndClient } from './etcd-and-client.ts';
import { until } from '../wait.ts';
import { metasOfColumns } from '../../src/protocol/index.ts';

const etcdBinary = findEtcd();
if (!etcdBinary) console.warn('test/live-etcd outside view: SKIPPED, it needs etcd on PATH');

describe.skipIf(!etcdBinary)('a real etcd seen from outside', () => {
  const real = etcdAndClient(etcdBinary);

  test('the mirror holds what etcd holds at every revision from its first read; insides are etcd\'s own; compaction is followed', async () => {
    const etcd = real.etcd();
    const client = real.client();
    await client.put('/registry/configmaps/default/before').value('b0').exec();
    const grpc = new EtcdGrpcClient([etcd.url]);
    const engine = new Engine({ seed: 1 });
    let watchers = 0;
    const outside = new RealEtcdOutside(grpc, 'etcd', () => watchers);
    const recorder = new InsidesRecorder();
    recorder.begin({ engine });
    // The engine delivers nothing here: every read is recorded at the step after it, step 1.
    const box = (): ComponentInsides | undefined => recorder.at(engine.step + 1)!['etcd'];
    outside.start(engine, recorder);
    const mirror = outside.keyspace;
    try {
      await until('the first read', () => mirror.historyFrom !== null);
      const from = mirror.historyFrom!;
      const tracker = new KeyspaceTracker(mirror);
      expect(metasOfColumns(tracker.current().entries).map((e) => e.key)).toEqual(['/registry/configmaps/default/before']);

      const lease = await client.lease(60, { autoKeepAlive: false }).grant();
      await client.put('/registry/leases/default/a').value('\u0000\u00ffbytes').lease(lease).exec();
      await client.put('/registry/configmaps/default/before').value('b1').exec();
      await client.put('/elsewhere').value('not mirrored').exec();
      await client.delete().key('/registry/configmaps/default/before').exec();
      const last = Number((await client.put('/registry/pods/default/p').value('p1').exec()).header.revision);
      await until(`the mirror at revision ${last}`, () => mirror.store.currentRev === last);

      // At every revision it saw, the mirror answers as a Range of /registry/ on etcd does.
      for (let revision = from; revision <= last; revision++) {
        const real = await client.getAll().prefix('/registry/').revision(String(revision)).exec();
        const toKv = (kv: (typeof real.kvs)[number]): KeyValue => ({
          key: kv.key.toString('latin1'), value: kv.value.toString('latin1'), createRevision: Number(kv.create_revision),
          modRevision: Number(kv.mod_revision), version: Number(kv.version), lease: String(kv.lease),
        });
        expect(tracker.entriesAt(revision), `revision ${revision}`).toEqual(real.kvs.map(toKv));
      }
      const leased = tracker.entriesAt(last).find((e) => e.key === '/registry/leases/default/a')!;
      expect(leased.lease).toBe(BigInt(lease).toString());
      expect(leased.value).toBe(Buffer.from('\u0000\u00ffbytes').toString('latin1'));
      // The changes after the first read, as the page's diff gets them: /elsewhere is not among them.
      tracker.observe(1);
      expect(tracker.flush()?.changes.map((c) => `${c.key}@${c.modRevision}${c.deleted ? ' deleted' : ''}`)).toEqual([
        `/registry/leases/default/a@${from + 1}`, `/registry/configmaps/default/before@${from + 2}`,
        `/registry/configmaps/default/before@${from + 4} deleted`, `/registry/pods/default/p@${last}`,
      ]);
      // Before the first read nothing is kept: those revisions are reported as unavailable.
      if (from > 1) expect(tracker.at(from - 1).compacted).toBe(true);

      // The box: etcd's revision, raft term, keys (every live key, /elsewhere too) and leases; the server's own watchers.
      watchers = 3;
      await until('insides at the last revision', () => { const b = box(); return b?.role === 'etcd' && b.revision === last && b.watchers === 3; });
      const insides = box()!;
      expect(insides).toMatchObject({ role: 'etcd', revision: last, compactRevision: 0, keys: 3, leases: 1, member: null });
      if (insides.role !== 'etcd') throw new Error('not etcd');
      expect(insides.real).toMatchObject({ version: '3.4.23', historyFrom: from, endpoint: etcd.url.replace('http://', '') });
      expect(insides.real!.raftTerm).toBeGreaterThanOrEqual(2);
      expect(insides.real!.leader).toBe(insides.real!.memberId);

      // A compaction: the box says where, the mirror drops what it superseded, and older revisions are unavailable.
      await client.kv.compact({ revision: String(last - 1) });
      await until('the compacted revision', () => { const b = box(); return b?.role === 'etcd' && b.compactRevision === last - 1; });
      expect(mirror.store.compactMainRev).toBe(last - 1);
      expect(tracker.at(last - 2).compacted).toBe(true);
      expect(metasOfColumns(tracker.at(last - 1).entries).map((e) => e.key)).toEqual(['/registry/leases/default/a']);
      expect(metasOfColumns(tracker.at(last).entries).map((e) => e.key)).toEqual(['/registry/leases/default/a', '/registry/pods/default/p']);
    } finally {
      outside.close();
      grpc.close();
    }
  }, 60_000);
});

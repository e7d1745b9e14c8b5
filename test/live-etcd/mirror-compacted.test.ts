// The keyspace mirror's re-read after a compacted re-watch (src/server/real-etcd/keyspace-mirror.ts), against
// Debian's etcd started by the test: the mirror talks to etcd through a loopback TCP relay the test cuts;
// while it is cut, keys are changed, deleted and created and etcd is compacted past the mirror's watch
// revision; when the relay opens again the mirror's new watch is cancelled with ErrCompacted, it reads
// the keyspace again and ends identical to etcd's at every revision etcd still answers. Skipped, with a
// message, without etcd.

import { createServer, connect, type Server, type Socket } from 'node:net';
import { describe, expect, test } from 'vitest';
import type { KeyValue } from '../../src/sim/etcd/index.ts';
import { EtcdGrpcClient } from '../../src/server/real-etcd/grpc-client.ts';
import { RealEtcdKeyspace } from '../../src/server/real-etcd/keyspace-mirror.ts';
import { KeyspaceTracker } from '../../src/worker/keyspace.ts';
import { findEtcd, freePort } from '../etcd/real-etcd.ts';
import { etcdAndClient } from './etcd-and-client.ts';
import { until } from '../wait.ts';
import { metasOfColumns } from '../../src/protocol/index.ts';

const etcdBinary = findEtcd();
if (!etcdBinary) console.warn('test/live-etcd mirror after a compacted re-watch: SKIPPED, it needs etcd on PATH');

/** A loopback TCP relay to `target` that can be cut (every connection closed, new ones refused) and opened again on its port. */
class Relay {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(readonly port: number, private readonly target: { host: string; port: number }) {}

  open(): Promise<void> {
    const server = createServer((socket) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const s of [socket, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      socket.pipe(upstream).pipe(socket);
      socket.on('close', () => upstream.destroy());
      upstream.on('close', () => socket.destroy());
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
  }

  cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

describe.skipIf(!etcdBinary)('the keyspace mirror after a compacted re-watch', () => {
  const real = etcdAndClient(etcdBinary);

  test('etcd compacted past the watch while it was broken: the mirror reads again and ends identical to etcd', async () => {
    const etcd = real.etcd();
    const client = real.client();
    const put = async (key: string, value: string): Promise<number> => Number((await client.put(key).value(value).exec()).header.revision);
    await put('/registry/configmaps/default/kept', 'k0');
    await put('/registry/configmaps/default/changed', 'c0');
    await put('/registry/configmaps/default/deleted', 'd0');
    await put('/registry/configmaps/default/recreated', 'r0');

    const target = new URL(etcd.url);
    const relay = new Relay(await freePort(), { host: target.hostname, port: Number(target.port) });
    await relay.open();
    const grpc = new EtcdGrpcClient([`http://127.0.0.1:${relay.port}`]);
    const mirror = new RealEtcdKeyspace(grpc);
    mirror.start();
    try {
      await until('the first read', () => mirror.historyFrom !== null, { timeoutMs: 30_000 });
      const watched = await put('/registry/configmaps/default/changed', 'c1');
      await until(`the mirror at revision ${watched}`, () => mirror.store.currentRev === watched, { timeoutMs: 30_000 });

      // The watch breaks; meanwhile keys change, go and come back, and etcd compacts past the mirror's revision.
      await relay.cut();
      await put('/registry/configmaps/default/changed', 'c2');
      await client.delete().key('/registry/configmaps/default/deleted').exec();
      await client.delete().key('/registry/configmaps/default/recreated').exec();
      await put('/registry/configmaps/default/recreated', 'r1');
      await put('/registry/configmaps/default/new', 'n0');
      await put('/elsewhere', 'not mirrored');
      const compactAt = await put('/registry/configmaps/default/changed', 'c3');
      await client.kv.compact({ revision: String(compactAt), physical: true });
      await client.delete().key('/registry/configmaps/default/new').exec();
      const last = await put('/registry/configmaps/default/after', 'a0');
      expect(compactAt).toBeGreaterThan(watched + 1);

      await relay.open();
      await until(`the mirror at etcd's revision ${last}`, () => mirror.store.currentRev === last, { timeoutMs: 30_000 });
      // It learned of the compaction from the cancelled watch (nothing else tells this mirror).
      expect(mirror.store.compactMainRev).toBe(compactAt);

      // Every revision etcd still answers, the mirror answers alike; the older ones are unavailable, as on etcd.
      const tracker = new KeyspaceTracker(mirror);
      for (let revision = compactAt; revision <= last; revision++) {
        const real = await client.getAll().prefix('/registry/').revision(String(revision)).exec();
        const toKv = (kv: (typeof real.kvs)[number]): KeyValue => ({
          key: kv.key.toString('latin1'), value: kv.value.toString('latin1'), createRevision: Number(kv.create_revision),
          modRevision: Number(kv.mod_revision), version: Number(kv.version), lease: String(kv.lease),
        });
        expect(tracker.entriesAt(revision), `revision ${revision}`).toEqual(real.kvs.map(toKv));
      }
      expect(tracker.at(compactAt - 1).compacted).toBe(true);
      await expect(client.getAll().prefix('/registry/').revision(String(compactAt - 1)).exec()).rejects.toThrow(/compacted/);
      expect(metasOfColumns(tracker.current().entries).map((e) => e.key)).toEqual([
        '/registry/configmaps/default/after', '/registry/configmaps/default/changed', '/registry/configmaps/default/kept', '/registry/configmaps/default/recreated',
      ]);

      // And it follows etcd on from there, through its watch.
      const next = await put('/registry/configmaps/default/kept', 'k1');
      await until(`the mirror at revision ${next}`, () => mirror.store.currentRev === next, { timeoutMs: 30_000 });
      expect(metasOfColumns(tracker.current().entries).find((e) => e.key === '/registry/configmaps/default/kept')).toMatchObject({ size: 2, modRevision: next, version: 2 });
      expect(tracker.valueAt('/registry/configmaps/default/kept', next)).toBe('k1');

      // A long seek reads only the keys written between two revisions, through the backend's key filter
      // (src/worker/keyspace.ts writtenBetween): the mirror asks it of every record and hands on only those it wants.
      const asked: string[] = [];
      const handed: string[] = [];
      mirror.store.backend.rangeRevisions(compactAt, next + 1, (kv) => handed.push(kv.key), (key) => {
        asked.push(key);
        return key.endsWith('/kept');
      });
      expect(asked).toContain('/registry/configmaps/default/after');
      expect(asked).toContain('/registry/configmaps/default/kept');
      expect(handed).toEqual(asked.filter((key) => key.endsWith('/kept')));
    } finally {
      mirror.close();
      grpc.close();
      await relay.cut();
    }
  }, 120_000);
});

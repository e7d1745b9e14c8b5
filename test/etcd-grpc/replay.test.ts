// The server's command log records the gRPC calls: a server started again on the same data dir replays
// them and its etcd holds the same keys, revisions and leases.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { afterAll, expect, test } from 'vitest';
import { defaultServerOptions, startPodflowServer } from '../../src/server/server.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'podflow-grpc-replay-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const options = { ...defaultServerOptions, port: 0, nodes: 1, fastForward: true, dataDir, etcdListen: '127.0.0.1:0' };

test('etcd calls over gRPC are logged and replayed: the restarted server holds the same keys, revisions and leases', async () => {
  const first = await startPodflowServer(options);
  const client = new Etcd3({ hosts: `http://${first.etcd!.address}` });
  const lease = client.lease(600, { autoKeepAlive: false });
  const leaseId = await lease.grant();
  await lease.put('grpc/leased').value(Buffer.from([0, 255, 1])).exec();
  await client.put('grpc/a').value('1').exec();
  await client.if('grpc/a', 'Value', '==', '1').then(client.put('grpc/b').value('2')).commit();
  const watcher = await client.watch().prefix('grpc/').create();
  await client.delete().key('grpc/a').exec();
  await watcher.cancel();
  const before = await client.getAll().prefix('grpc/').exec();
  client.close();
  await first.close();
  expect(readFileSync(join(dataDir, 'cluster.jsonl'), 'utf8')).toContain('"kind":"etcd.Txn"');

  const second = await startPodflowServer(options);
  try {
    expect(second.host.replayed).toBeGreaterThan(0);
    const again = new Etcd3({ hosts: `http://${second.etcd!.address}` });
    const after = await again.getAll().prefix('grpc/').exec();
    expect(after.kvs).toEqual(before.kvs);
    expect(after.kvs.map((kv) => kv.key.toString())).toEqual(['grpc/b', 'grpc/leased']);
    expect(after.kvs[1]!.lease).toBe(leaseId);
    expect(after.kvs[1]!.value).toEqual(Buffer.from([0, 255, 1]));
    again.close();
  } finally {
    await second.close();
  }
});

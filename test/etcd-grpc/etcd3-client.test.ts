// The `etcd3` npm client against the model's gRPC endpoint and against a real etcd 3.4.23: the same calls
// (put, get, delete, txn, watch, lease, compact) give the same responses once cluster and member IDs, raft
// term, lease IDs and each side's base revision are normalised. Keys and values include every byte value.

import { Etcd3, type IKeyValue } from 'etcd3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { etcdBinary, startEndpoints, type Endpoints } from './endpoints.ts';

if (!etcdBinary) console.warn('test/etcd-grpc: etcd is absent; the etcd3 client comparison is SKIPPED');

const revisionFields = new Set(['revision', 'create_revision', 'mod_revision', 'compact_revision']);

/** Drops what legitimately differs; bytes as hex. */
function normalise(value: unknown, base: number): unknown {
  if (Buffer.isBuffer(value)) return `0x${value.toString('hex')}`;
  if (Array.isArray(value)) return value.map((v) => normalise(v, base));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'cluster_id' || k === 'member_id' || k === 'raft_term') continue;
    if ((k === 'ID' || k === 'lease') && v !== '0') out[k] = '<lease>';
    else if (revisionFields.has(k) && v !== '0') out[k] = `$B+${Number(v) - base}`;
    else out[k] = normalise(v, base);
  }
  return out;
}

/** Every byte value, as key and value. */
const binaryKey = Buffer.from([0x62, 0x00, 0xff, 0x80, 0x7f, 0x0a]);
const binaryValue = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

interface WatchLog {
  readonly events: Array<{ type: string; kv: IKeyValue; prev?: IKeyValue | undefined }>;
}

async function watchUntil(client: Etcd3, build: (w: ReturnType<Etcd3['watch']>) => ReturnType<Etcd3['watch']>, count: number, act: () => Promise<void>): Promise<WatchLog> {
  const log: WatchLog = { events: [] };
  const watcher = await build(client.watch()).create();
  let done: () => void = () => undefined;
  const enough = new Promise<void>((resolve) => {
    done = resolve;
  });
  const push = (type: string) => (kv: IKeyValue, prev?: IKeyValue) => {
    log.events.push({ type, kv, prev });
    if (log.events.length >= count) done();
  };
  watcher.on('put', push('put'));
  watcher.on('delete', push('delete'));
  await act();
  await enough;
  await watcher.cancel();
  return log;
}

async function errorOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'no error';
  } catch (e) {
    return `${(e as Error).constructor.name}: ${(e as Error).message}`;
  }
}

async function scenario(endpoint: string): Promise<unknown[]> {
  const client = new Etcd3({ hosts: `http://${endpoint}` });
  try {
    const base = Number((await client.put('base').value('x').exec()).header!.revision);
    const out: unknown[] = [];
    const note = (label: string, value: unknown): void => {
      out.push({ label, value: normalise(value, base) });
    };
    note('put binary', await client.put(binaryKey).value(binaryValue).exec());
    const got = await client.get(binaryKey).buffer();
    expect(got?.equals(binaryValue)).toBe(true);
    note('get binary', await client.get(binaryKey).exec());
    for (const k of ['k1', 'k2', 'k3']) await client.put(k).value(`v-${k}`).exec();
    note('put prev', await client.put('k1').value('v-k1b').getPrevious());
    note('getAll prefix', await client.getAll().prefix('k').exec());
    note('getAll keys', await client.getAll().prefix('k').keys());
    note('getAll sorted', await client.getAll().prefix('k').sort('Mod', 'Descend').limit(2).exec());
    note('count', await client.getAll().prefix('k').count());
    note('delete prev', await client.delete().key('k2').getPrevious());
    note('txn success', await client.if('k1', 'Value', '==', 'v-k1b').and('k3', 'Mod', '>', 0).then(client.put('k4').value('v4'), client.get('k1')).else(client.get('k3')).commit());
    note('txn failure', await client.if('k1', 'Version', '==', 7).then(client.put('k5').value('v5')).else(client.delete().key('k3'), client.get('k1')).commit());
    const live = await watchUntil(client, (w) => w.prefix('w').withPreviousKV(), 3, async () => {
      await client.put('w1').value('a').exec();
      await client.put('w1').value('b').exec();
      await client.delete().key('w1').exec();
    });
    note('watch live', live.events);
    const history = await watchUntil(client, (w) => w.key('k1').startRevision(String(base + 1)), 2, async () => undefined);
    note('watch history', history.events);
    const lease = client.lease(60, { autoKeepAlive: false });
    await lease.grant();
    await lease.put('l1').value('x').exec();
    await lease.put(Buffer.from([0x6c, 0xfe])).value(binaryValue).exec();
    note('leased keys', await client.getAll().prefix('l').exec());
    note('keepalive once', await lease.keepaliveOnce());
    await lease.revoke();
    note('after revoke', await client.getAll().prefix('l').exec());
    note('compact', await client.kv.compact({ revision: String(base + 4) }));
    note('compacted get', await errorOf(client.get('k1').revision(String(base + 2)).exec()));
    note('future get', await errorOf(client.get('k1').revision(String(base + 1000)).exec()));
    note('empty key', await errorOf(client.put('').value('x').exec()));
    return out;
  } finally {
    client.close();
  }
}

describe.skipIf(!etcdBinary)('the etcd3 npm client: the model etcd over gRPC answers as etcd 3.4.23 does', () => {
  let endpoints: Endpoints;
  beforeAll(async () => {
    endpoints = await startEndpoints();
  }, 60_000);
  afterAll(async () => {
    await endpoints?.stop();
  });

  test('put, get, delete, txn, watch, lease and compact give the same responses', async () => {
    const real = await scenario(endpoints.real);
    const model = await scenario(endpoints.model);
    expect(JSON.stringify(real)).toContain('mvcc: required revision has been compacted');
    for (const [i, step] of real.entries()) expect(model[i]).toEqual(step);
    expect(model).toHaveLength(real.length);
  }, 120_000);
});

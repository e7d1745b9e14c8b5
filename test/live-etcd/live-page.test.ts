// The page attached to a server that stores in a real etcd (`--etcd-servers`), and a second server on the
// same etcd: the page is told the run is not deterministic (and why), sees the real etcd's answers (its
// revisions, its raft term) on the trace, the keyspace and etcd's box as the real etcd holds them, steps back
// over what was recorded (etcd's box as it was read by the step shown), and sees a pod created through the
// other server arrive through etcd's watch, labelled as another etcd client's write. The two servers are two
// kube-apiservers, each with its identity Lease; each page sees the other's writes only as watch events.
// Skipped, with a message, without etcd.

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Etcd3 } from 'etcd3';
import type { EtcdInsides, KeyChange, TraceRecord, WatchResponse, WorkerEvent } from '../../src/protocol/index.ts';
import type { Lease } from '../../src/sim/api/types/coordination.ts';
import { foreignWriter } from '../../src/ui/captions/foreign-write.ts';
import { traceRecords } from '../../src/worker/tour-locate.ts';
import { defaultServerOptions, startPodflowServer, type PodflowServer } from '../../src/server/server.ts';
import { attach, serving } from './attached-page.ts';
import { findEtcd, RealEtcd } from '../etcd/real-etcd.ts';

const etcdBinary = findEtcd();
if (!etcdBinary) console.warn('test/live-etcd live page: SKIPPED, it needs etcd on PATH');

const pod = (name: string) => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  containers:
  - name: nginx
    image: nginx:1.25
`;

/**
 * What `server` recorded, every delivery: a page gets only the newest records of each batch (64 while
 * playing), so under load a step may reach it only as counted in `omitted`. The page's own view of a step
 * is checked by seeking to it.
 */
const recorded = (server: PodflowServer): TraceRecord[] => traceRecords(server.host.cluster.engine.trace);

/** Waits until `server` has recorded a delivery `accept` holds for. */
async function traced(server: PodflowServer, accept: (record: TraceRecord) => boolean, timeoutMs = 60_000): Promise<TraceRecord> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const found = recorded(server).find(accept);
    if (found) return found;
    if (performance.now() > deadline) throw new Error(`${server.url} recorded no such delivery within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(!etcdBinary)('the page attached to a server on a real etcd', () => {
  let etcd: RealEtcd | null = null;
  const servers: PodflowServer[] = [];
  const onEtcd = () => ({ ...defaultServerOptions, port: 0, nodes: 1, fastForward: false, etcdServers: [etcd!.url], live: true, distDir: join(tmpdir(), 'podflow-no-dist') });

  beforeAll(async () => {
    etcd = await RealEtcd.start(etcdBinary!);
  }, 60_000);
  afterAll(async () => {
    for (const server of servers) await server.close();
    etcd?.stop();
  });

  test('says why it is not deterministic, shows etcd\'s real answers, keyspace and status, steps back, and sees the other server\'s writes through the watch', async () => {
    const a = await startPodflowServer(onEtcd());
    servers.push(a);
    const page = await attach(a);
    const ready = await page.until((e): e is Extract<WorkerEvent, { type: 'ready' }> => e.type === 'ready', true);
    expect(ready.nondeterministic).toContain(`stored in a real etcd (${etcd!.url})`);
    expect(ready.topology.components.map((c) => c.name)).toContain('etcd');
    await serving(a);

    const createdAt = Date.now();
    const created = await fetch(`${a.url}/api/v1/namespaces/default/pods`, { method: 'POST', headers: { 'content-type': 'application/yaml' }, body: pod('from-a') });
    expect(created.status).toBe(201);
    // The create's Txn and the real etcd's answer: its revision and raft term, not the model's.
    const isCreate = (r: TraceRecord) => r.kind === 'etcd.TxnResponse' && JSON.stringify(r.payload).includes('/registry/pods/default/from-a');
    const createRecord = await traced(a, isCreate);
    const answer = createRecord.payload as { ok: boolean; response: { succeeded: boolean; header: { revision: number; raftTerm: number; memberId: string } } };
    expect(answer.ok).toBe(true);
    expect(answer.response.succeeded).toBe(true);
    expect(answer.response.header.raftTerm).toBeGreaterThanOrEqual(2);
    expect(answer.response.header.revision).toBeGreaterThan(1);
    expect(answer.response.header.memberId).not.toBe('0');

    // The create comes back through kube-apiserver's watch on etcd, as etcd's event.
    const watched = (key: string) => (r: TraceRecord) => r.kind === 'etcd.WatchResponse' && r.to === 'kube-apiserver' && JSON.stringify(r.payload).includes(key);
    await traced(a, watched('/registry/pods/default/from-a'));

    // The keyspace comes from the real etcd: the pod's key as etcd holds it (revisions, version, lease, bytes).
    const podKey = '/registry/pods/default/from-a';
    const client = new Etcd3({ hosts: etcd!.url });
    const [stored] = (await client.get(podKey).exec()).kvs;
    client.close();
    const isStored = (c: KeyChange) => c.key === podKey && c.modRevision === Number(stored!.mod_revision);
    const diff = await page.until((e): e is Extract<WorkerEvent, { type: 'keyspaceDiff' }> => e.type === 'keyspaceDiff' && e.changes.some(isStored), true);
    expect(diff.changes.find(isStored)).toMatchObject({
      deleted: false, createRevision: Number(stored!.create_revision), version: Number(stored!.version), lease: String(stored!.lease), value: stored!.value.toString('latin1'),
    });
    // etcd's box, as read after the create: its revision and raft term as etcd reports them, and what it is.
    const insides = await page.until((e) => e.type === 'insides' && e.components['etcd']?.role === 'etcd' && e.components['etcd'].revision >= answer.response.header.revision
      && e.components['etcd'].real!.readAt >= createdAt, true);
    const box = (insides as Extract<WorkerEvent, { type: 'insides' }>).components['etcd'] as EtcdInsides;
    expect(box.real).toMatchObject({ version: '3.4.23', raftTerm: answer.response.header.raftTerm });
    expect(box.keys).toBeGreaterThan(0);

    // Step back over the recorded trace, then follow the head again.
    page.send({ type: 'pause' });
    const paused = await page.until((e): e is Extract<WorkerEvent, { type: 'status' }> => e.type === 'status' && e.status.mode === 'paused', true);
    page.send({ type: 'stepBack', count: 10 });
    // From now on only: while following the head the page may already have had a timeline event at that position.
    const back = await page.until((e): e is Extract<WorkerEvent, { type: 'timeline' }> => e.type === 'timeline' && e.position === paused.status.step - 10);
    expect(back.live).toBe(false);
    // A past step shows etcd's box as it was recorded by then: at the create's answer, that Txn at its revision.
    const createStep = createRecord.step;
    // Both answers come in one message: wait for both before either arrives.
    const seeked = Promise.all([
      page.until((e): e is Extract<WorkerEvent, { type: 'traceBatch' }> => e.type === 'traceBatch' && e.replace === true && e.records.at(-1)?.step === createStep),
      page.until((e): e is Extract<WorkerEvent, { type: 'insides' }> => e.type === 'insides' && e.step === createStep),
    ]);
    page.send({ type: 'seek', step: createStep });
    const [upTo, then] = await seeked;
    // The page gets the deliveries up to that step: the last one is the create's answer, as the real etcd gave it.
    expect(upTo.records.at(-1)).toMatchObject({ kind: 'etcd.TxnResponse', payload: { response: { header: answer.response.header } } });
    expect(then.retained).toBe(true);
    const boxThen = then.components['etcd'] as EtcdInsides;
    expect(boxThen.write).toMatchObject({ step: createStep, rpc: 'Txn', key: podKey, compare: 'mod_revision == 0', revision: answer.response.header.revision });
    expect(boxThen.real).toMatchObject({ version: '3.4.23', raftTerm: answer.response.header.raftTerm });
    expect(boxThen.real!.readAt).toBeLessThanOrEqual(Date.now());
    page.send({ type: 'play' });
    await page.until((e) => e.type === 'status' && e.status.mode === 'playing' && e.status.step > paused.status.step, true);

    // A second apiserver on the same etcd: a pod created through it reaches the first one's watch.
    const b = await startPodflowServer(onEtcd());
    servers.push(b);
    await serving(b);
    expect((await fetch(`${b.url}/api/v1/namespaces/default/pods`, { method: 'POST', headers: { 'content-type': 'application/yaml' }, body: pod('from-b') })).status).toBe(201);
    await traced(a, watched('/registry/pods/default/from-b'));
    // The create entered server b alone: server a learned of it from etcd, and the page says so.
    expect(recorded(a).some((r) => r.from === 'user' && r.kind === 'http.request' && JSON.stringify(r.payload).includes('from-b'))).toBe(false);
    const watchRecord = (server: PodflowServer, key: string) => recorded(server).find(watched(key))!;
    const writer = (record: TraceRecord) => foreignWriter(record, (record.payload as { response: WatchResponse }).response)?.en ?? null;
    expect(writer(watchRecord(a, '/registry/pods/default/from-a'))).toBeNull();
    expect(writer(watchRecord(a, '/registry/pods/default/from-b'))).toBe('written by another etcd client, not through this kube-apiserver');

    // Two kube-apiservers, two identities: each holds its own Lease in kube-system, and a's page names b
    // as the writer of b's.
    const [aId, bId] = [a, b].map(({ host }) => host.cluster.apiserver.identityLease.identity);
    expect(aId!.id).not.toBe(bId!.id);
    const bLease = `/registry/leases/kube-system/${bId!.id}`;
    await traced(a, watched(bLease));
    expect(writer(watchRecord(a, bLease))).toBe(`written by ${bId!.id}, another kube-apiserver`);
    const listed = await (await fetch(`${a.url}/apis/coordination.k8s.io/v1/namespaces/kube-system/leases?labelSelector=apiserver.kubernetes.io%2Fidentity%3Dkube-apiserver`)).json() as { items: Lease[] };
    expect(listed.items.map((l) => [l.metadata.name, l.metadata.labels?.['kubernetes.io/hostname'], l.spec?.holderIdentity?.split('_')[0]]).sort()).toEqual(
      [aId!, bId!].map(({ id, hostname }) => [id, hostname, id]).sort());

    // b's own page: a create through a is, on b's side, no request and one watch event from outside.
    const pageB = await attach(b);
    await pageB.until((e) => e.type === 'ready', true);
    expect((await fetch(`${a.url}/api/v1/namespaces/default/pods`, { method: 'POST', headers: { 'content-type': 'application/yaml' }, body: pod('seen-by-b') })).status).toBe(201);
    await traced(b, watched('/registry/pods/default/seen-by-b'));
    // b's own controllers may still bind or update the pod (a request from b's scheduler or kubelet); none came from a user.
    expect(recorded(b).some((r) => r.from === 'user' && r.kind === 'http.request' && JSON.stringify(r.payload).includes('seen-by-b'))).toBe(false);
    expect(writer(watchRecord(b, '/registry/pods/default/seen-by-b'))).toBe('written by another etcd client, not through this kube-apiserver');
    pageB.close();
    page.close();
  }, 240_000);
});

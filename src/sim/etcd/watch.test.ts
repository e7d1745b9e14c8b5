// Watch and lease behaviour through the EtcdServer component, checked against the real etcd
// transcripts of etcd-real.md §3.6–3.7 (rendered as gateway JSON).
import { describe, expect, it } from 'vitest';
import { Component, Engine, type Co, type Message } from '../engine/index.ts';
import { defaultCluster } from './cluster.ts';
import { watchResponseJson } from './gateway.ts';
import type { TxnRequest, WatchRequest } from './rpc.ts';
import { EtcdServer, type EtcdReply, type WatchStreamResponse } from './server.ts';
import type { EtcdRequestKind, EtcdResponseOf, MessageMap } from '../messages/index.ts';

class Client extends Component {
  readonly stream: string[] = [];
  receive(message: Message): void {
    if (message.kind === 'etcd.WatchResponse') this.record(message as Message<WatchStreamResponse>);
  }
  record(m: Message<WatchStreamResponse>): void {
    this.stream.push(`${m.payload.stream} ${JSON.stringify(watchResponseJson(m.payload.response))}`);
  }
  go(script: (self: Client) => Co<void>): void {
    this.spawn(script(this));
  }
  *rpc<K extends EtcdRequestKind>(kind: K, payload: MessageMap[K]): Co<EtcdResponseOf<K>> {
    const reply = (yield* this.call('etcd', kind, payload)).payload as EtcdReply<EtcdResponseOf<K>>;
    if (!reply.ok) throw new Error(reply.error.message);
    return reply.response;
  }
  *nap(ms: number): Co<void> {
    yield* this.sleep(ms);
  }
  *raw<K extends EtcdRequestKind>(kind: K, payload: MessageMap[K]): Co<EtcdReply<EtcdResponseOf<K>>> {
    return (yield* this.call('etcd', kind, payload)).payload as EtcdReply<EtcdResponseOf<K>>;
  }
  *watch(stream: string, request: WatchRequest): Co<void> {
    const reply = yield* this.call('etcd', 'etcd.Watch', { stream, request });
    this.record(reply);
  }
}

function setup(): { engine: Engine; etcd: EtcdServer; c: Client } {
  const engine = new Engine({ seed: 'watch' });
  const etcd = engine.add(new EtcdServer('etcd'));
  const c = engine.add(new Client('client'));
  engine.link('etcd', 'client', { latency: 1 });
  return { engine, etcd, c };
}

const H = (n: number): string =>
  `"header":{"cluster_id":"${defaultCluster.clusterId}","member_id":"${defaultCluster.memberId}","revision":"${n}","raft_term":"2"}`;
const put = (key: string, value: string) => ['etcd.Put', { key, value }] as const;

describe('watch', () => {
  it('replays the live and historical watch transcript of a real etcd', () => {
    const { engine, c } = setup();
    c.go(function* (self) {
      for (let i = 0; i < 14; i++) yield* self.rpc(...put(`pad${i}`, 'x')); // the real store was at 15
      yield* self.watch('s1', { createRequest: { key: 'w/', rangeEnd: 'w0', startRevision: 16, prevKv: true } });
      yield* self.rpc(...put('w/a', 'v1'));
      yield* self.rpc(...put('w/a', 'v2'));
      const txn: TxnRequest = { success: [{ requestPut: { key: 'w/b', value: 'v1' } }, { requestDeleteRange: { key: 'w/a' } }] };
      yield* self.rpc('etcd.Txn', txn);
      yield* self.rpc(...put('zz', 'v1'));
      yield* self.watch('s2', { createRequest: { key: 'w/', rangeEnd: 'w0', startRevision: 16 } });
      yield* self.nap(200); // the sync loop catches the unsynced watcher up
      yield* self.rpc('etcd.Compact', { revision: 18 });
      yield* self.watch('s3', { createRequest: { key: 'w/', rangeEnd: 'w0', startRevision: 10 } });
      yield* self.watch('s4', { createRequest: { key: 'w/', rangeEnd: 'w0', startRevision: 18 } });
      yield* self.watch('s5', { createRequest: { key: 'w/', rangeEnd: 'w0', startRevision: 18, filters: ['NOPUT'] } });
      yield* self.watch('s6', { createRequest: {} });
      yield* self.watch('s6', { createRequest: { key: 'x', watchId: 7 } });
      yield* self.watch('s6', { createRequest: { key: 'x', watchId: 7 } });
      yield* self.watch('s6', { createRequest: { key: 'b', rangeEnd: 'a' } });
      yield* self.watch('s6', { cancelRequest: { watchId: 0 } });
      yield* self.watch('s6', { progressRequest: {} });
    });
    engine.runUntilIdle();
    const kv = (k: string, c: number, m: number, v: number, val: string) =>
      `{"key":"${k}","create_revision":"${c}","mod_revision":"${m}","version":"${v}","value":"${val}"}`;
    const a16 = kv('dy9h', 16, 16, 1, 'djE=');
    const a17 = kv('dy9h', 16, 17, 2, 'djI=');
    const b18 = kv('dy9i', 18, 18, 1, 'djE=');
    expect(c.stream).toEqual([
      `s1 {${H(15)},"created":true}`,
      `s1 {${H(16)},"events":[{"kv":${a16}}]}`,
      `s1 {${H(17)},"events":[{"kv":${a17},"prev_kv":${a16}}]}`,
      `s1 {${H(18)},"events":[{"kv":${b18}},{"type":"DELETE","kv":{"key":"dy9h","mod_revision":"18"},"prev_kv":${a17}}]}`,
      `s2 {${H(19)},"created":true}`,
      `s2 {${H(19)},"events":[{"kv":${a16}},{"kv":${a17}},{"kv":${b18}},{"type":"DELETE","kv":{"key":"dy9h","mod_revision":"18"}}]}`,
      `s3 {${H(19)},"created":true}`,
      `s4 {${H(19)},"created":true}`,
      `s5 {${H(19)},"created":true}`,
      `s6 {${H(19)},"created":true}`,
      `s6 {${H(19)},"watch_id":"7","created":true}`,
      `s6 {${H(19)},"watch_id":"-1","created":true,"canceled":true,"cancel_reason":"mvcc: duplicate watch ID provided on the WatchStream"}`,
      `s6 {${H(19)},"watch_id":"-1","created":true,"canceled":true,"cancel_reason":"mvcc: watcher range is empty"}`,
      `s6 {${H(19)},"canceled":true}`,
      `s6 {${H(19)},"watch_id":"-1"}`,
      // The sync loop runs 100 ms after the watches from the past were created.
      `s3 {"header":{"cluster_id":"${defaultCluster.clusterId}","member_id":"${defaultCluster.memberId}","raft_term":"2"},"canceled":true,"compact_revision":"18"}`,
      `s4 {${H(19)},"events":[{"kv":${b18}}]}`,
    ]);
  });

  it('sends progress notifications to idle synced watchers every interval', () => {
    const engine = new Engine({ seed: 'progress' });
    engine.add(new EtcdServer('etcd', { progressNotifyInterval: 1000 }));
    const c = engine.add(new Client('client'));
    engine.link('etcd', 'client', { latency: 1 });
    c.go(function* (self) {
      yield* self.watch('s', { createRequest: { key: 'k', progressNotify: true } });
      yield* self.nap(1500);
      yield* self.rpc(...put('k', 'v'));
      yield* self.nap(1000);
    });
    engine.runFor(5000);
    const progress = c.stream.filter((l) => !l.includes('created') && !l.includes('events'));
    // Ticks at ~1000+jitter, ~2000+jitter (skipped: an event went out since), ~3000+jitter …
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[0]).toBe(`s {${H(1)}}`);
  });
});

describe('lease', () => {
  it('grants, attaches, lists, revokes in one revision, and expires on the virtual clock', () => {
    const { engine, c, etcd } = setup();
    const out: unknown[] = [];
    c.go(function* (self) {
      const g = yield* self.rpc('etcd.LeaseGrant', { TTL: 60 });
      out.push(g.TTL, BigInt(g.ID) > 2n ** 53n);
      out.push((yield* self.rpc('etcd.LeaseGrant', { TTL: 30, ID: '1000' })).ID);
      out.push((yield* self.rpc('etcd.LeaseGrant', { TTL: 1, ID: '2000' })).TTL);
      const dup = yield* self.raw('etcd.LeaseGrant', { TTL: 30, ID: '1000' });
      out.push(dup.ok ? 'ok' : dup.error.message);
      yield* self.rpc('etcd.Put', { key: 'lk1', value: 'v1', lease: g.ID });
      yield* self.rpc('etcd.Put', { key: 'lk2', value: 'v1', lease: g.ID });
      yield* self.watch('w', { createRequest: { key: 'lk', rangeEnd: 'll' } });
      const ttl = yield* self.rpc('etcd.LeaseTimeToLive', { ID: g.ID, keys: true });
      out.push([ttl.TTL, ttl.grantedTTL, ttl.keys]);
      const leases = yield* self.rpc('etcd.LeaseLeases', {});
      out.push(leases.leases.map((l) => (l.ID === g.ID ? 'g' : l.ID)));
      yield* self.rpc('etcd.LeaseRevoke', { ID: g.ID });
      const again = yield* self.raw('etcd.LeaseRevoke', { ID: g.ID });
      out.push(again.ok ? 'ok' : `${again.error.code} ${again.error.message}`);
      out.push((yield* self.rpc('etcd.LeaseTimeToLive', { ID: g.ID })).TTL);
      yield* self.rpc('etcd.Put', { key: 'other', value: 'v1', lease: '2000' });
    });
    engine.runUntilIdle();
    expect(out).toEqual([60, true, '1000', 2, 'etcdserver: lease already exists', [59, 60, ['lk1', 'lk2']], ['2000', '1000', 'g'],
      '5 etcdserver: requested lease not found', -1]);
    // Revoke deleted both keys in one revision: one watch response with two DELETEs.
    expect(c.stream.at(-1)).toBe(`w {${H(4)},"events":[{"type":"DELETE","kv":{"key":"bGsx","mod_revision":"4"}},{"type":"DELETE","kv":{"key":"bGsy","mod_revision":"4"}}]}`);
    // Lease 2000 (TTL 2 s) expires on a background timer: run-until-idle stopped before it.
    expect(etcd.store.index.get('other', etcd.store.currentRev)).toBeDefined();
    engine.runFor(3000);
    expect(etcd.store.index.get('other', etcd.store.currentRev)).toBeUndefined();
    expect(etcd.lessor.lookup('2000')).toBeUndefined();
    expect(etcd.lessor.lookup('1000')).toBeDefined();
  });

  it('keeps a lease alive while keepalives arrive', () => {
    const { engine, c, etcd } = setup();
    c.go(function* (self) {
      yield* self.rpc('etcd.LeaseGrant', { TTL: 5, ID: '42' });
      for (let i = 0; i < 5; i++) {
        yield* self.nap(3000);
        yield* self.rpc('etcd.LeaseKeepAlive', { ID: '42' });
      }
    });
    engine.runFor(16_000);
    expect(etcd.lessor.lookup('42')).toBeDefined();
    engine.runFor(10_000);
    expect(etcd.lessor.lookup('42')).toBeUndefined();
  });
});

import { firstEphemeralPort } from './remote.ts';
import { describe, expect, it } from 'vitest';
import { Component, Engine, traceHash, type Co, type Message } from '../engine/index.ts';
import { runTwiceWithPerturbedHost } from '../testing/determinism.ts';
import type { TxnResponse } from './rpc.ts';
import { EtcdServer, type EtcdReply } from './server.ts';
import type { EtcdRequestKind, EtcdResponseOf, MessageMap } from '../messages/index.ts';

/** A client that runs a script of etcd calls in one coroutine and keeps the replies. */
class Client extends Component {
  readonly replies: Message[] = [];
  receive(message: Message): void {
    this.replies.push(message);
  }
  run(script: (self: Client) => Co<void>): void {
    this.spawn(script(this));
  }
  *rpc<K extends EtcdRequestKind>(kind: K, payload: MessageMap[K]): Co<EtcdReply<EtcdResponseOf<K>>> {
    const reply = yield* this.call('etcd', kind, payload);
    this.replies.push(reply);
    return reply.payload as EtcdReply<EtcdResponseOf<K>>;
  }
}

function cluster(writeDelay = 0): { engine: Engine; etcd: EtcdServer; client: Client } {
  const engine = new Engine({ seed: 'etcd' });
  const etcd = engine.add(new EtcdServer('etcd', { writeDelay }));
  const client = engine.add(new Client('kube-apiserver'));
  engine.link('etcd', 'kube-apiserver', { latency: 1 });
  return { engine, etcd, client };
}

const create = (name: string, size: number) => ({
  compare: [{ target: 'MOD' as const, key: `/registry/pods/default/${name}`, modRevision: 0 }],
  success: [{ requestPut: { key: `/registry/pods/default/${name}`, value: 'v'.repeat(size) } }],
});

describe('EtcdServer', () => {
  it('answers a Txn with the response, the request-stats line and a write record', () => {
    const { engine, client } = cluster(0.5);
    let reply: EtcdReply<TxnResponse> | undefined;
    client.run(function* (self) {
      reply = yield* self.rpc('etcd.Txn', create('x', 754));
    });
    engine.runUntilIdle();
    expect(reply?.ok).toBe(true);
    if (!reply?.ok) return;
    expect(reply.response.succeeded).toBe(true);
    expect(reply.response.header).toEqual({ clusterId: '14841639068965178418', memberId: '10276657743932975437', revision: 2, raftTerm: 2 });
    expect(reply.stats!.requestContent).toBe('compare:<target:MOD key:"/registry/pods/default/x" mod_revision:0 > success:<request_put:<key:"/registry/pods/default/x" value_size:754 >> failure:<>');
    expect(JSON.parse(reply.log!)).toMatchObject({ msg: 'request stats', remote: `127.0.0.1:${firstEphemeralPort}`, 'time spent': '500µs', 'start time': '2023-08-15T00:00:00.001Z' });
    expect(reply.write).toMatchObject({
      revision: 2, changed: true, branch: 'success',
      compares: [{ compare: { target: 'MOD', key: '/registry/pods/default/x', modRevision: 0 }, actual: [], result: true }],
      events: [{ type: 'PUT', kv: { key: '/registry/pods/default/x', createRevision: 2, modRevision: 2, version: 1 } }],
    });
    // The reply left after the write delay and travelled the link.
    expect(client.replies[0]?.deliverAt).toBe(2.5);
  });

  it('takes modelled time per request byte, and names each kube-apiserver storage\'s connection by ip:port', () => {
    const engine = new Engine({ seed: 'etcd' });
    engine.add(new EtcdServer('etcd', { writeDelay: 2.5, writeNsPerByte: 500, readDelay: 0.5, readNsPerByte: 11 }));
    const client = engine.add(new Client('kube-apiserver'));
    engine.link('etcd', 'kube-apiserver', { latency: 1 });
    const replies: Array<EtcdReply<unknown>> = [];
    client.run(function* (self) {
      replies.push(yield* self.rpc('etcd.Txn', create('a', 700)));
      replies.push(yield* self.rpc('etcd.Txn', create('b', 100)));
      replies.push(yield* self.rpc('etcd.Range', { key: '/registry/pods/', rangeEnd: '/registry/pods0' }));
      replies.push(yield* self.rpc('etcd.Range', { key: '/registry/deployments/default/x' }));
      replies.push(yield* self.rpc('etcd.Range', { key: '/registry/pods/default/a' }));
    });
    engine.runUntilIdle();
    const logs = replies.map((r) => JSON.parse(r.log!) as Record<string, string | number>);
    // 2.5 ms + 0.5 µs per request byte: the larger create takes longer.
    const spent = logs.map((l) => l['time spent']);
    expect(spent[0]).toBe(`${(2_500_000 + (logs[0]!['request size'] as number) * 500) / 1e6}ms`);
    expect(parseFloat(spent[0] as string)).toBeGreaterThan(parseFloat(spent[1] as string));
    expect(spent[2]).toBe(`${(500_000 + (logs[2]!['response size'] as number) * 11) / 1000}µs`);
    // One connection per storage: pods share one port, deployments have another; ts = start + spent.
    expect(logs.map((l) => l.remote)).toEqual([
      `127.0.0.1:${firstEphemeralPort}`, `127.0.0.1:${firstEphemeralPort}`, `127.0.0.1:${firstEphemeralPort}`,
      `127.0.0.1:${firstEphemeralPort + 2}`, `127.0.0.1:${firstEphemeralPort}`,
    ]);
    expect(logs[0]!['start time']).toBe('2023-08-15T00:00:00.001Z');
    expect(logs[0]!.ts).toBe('2023-08-15T00:00:00.003Z');
  });

  it('records the failure branch and the values the compare saw', () => {
    const { engine, client } = cluster();
    const replies: Array<EtcdReply<TxnResponse>> = [];
    client.run(function* (self) {
      replies.push(yield* self.rpc('etcd.Txn', create('x', 10)));
      replies.push(yield* self.rpc('etcd.Txn', { ...create('x', 10), failure: [{ requestRange: { key: '/registry/pods/default/x' } }] }));
    });
    engine.runUntilIdle();
    const second = replies[1]!;
    expect(second.ok && second.response.succeeded).toBe(false);
    expect(second.write).toMatchObject({ revision: 2, changed: false, branch: 'failure', events: [], compares: [{ actual: [2], result: false }] });
  });

  it('answers errors with the gRPC code and text and still logs the request', () => {
    const { engine, client } = cluster();
    const replies: Array<EtcdReply<unknown>> = [];
    client.run(function* (self) {
      replies.push(yield* self.rpc('etcd.Range', { key: 'a', revision: 5 }));
      replies.push(yield* self.rpc('etcd.Txn', { success: [{ requestPut: { key: 'a' } }, { requestPut: { key: 'a' } }] }));
      replies.push(yield* self.rpc('etcd.Compact', { revision: 1 }));
    });
    engine.runUntilIdle();
    expect(replies.map((r) => (r.ok ? 'ok' : `${r.error.code} ${r.error.message}`))).toEqual([
      '11 etcdserver: mvcc: required revision is a future revision',
      '3 etcdserver: duplicate key given in txn request',
      'ok',
    ]);
    expect(replies[0]!.stats).toMatchObject({ requestContent: 'key:"a" revision:5 ', requestSize: 5, responseSize: 0 });
    expect(replies[1]!.stats!.requestContent).toBe('');
    expect(replies[2]!.stats).toMatchObject({ requestCount: -1, requestSize: -1, responseCount: -1, responseSize: -1 });
  });

  it('refuses requests over the size limits with etcd\'s errors', () => {
    const { engine, client, etcd } = cluster();
    const replies: Array<EtcdReply<unknown>> = [];
    client.run(function* (self) {
      replies.push(yield* self.rpc('etcd.Put', { key: 'big', value: 'x'.repeat(2 * 1024 * 1024) }));
      replies.push(yield* self.rpc('etcd.Put', { key: 'big2', value: 'x'.repeat(1.5 * 1024 * 1024) }));
      replies.push(yield* self.rpc('etcd.Put', { key: 'ok', value: 'x'.repeat(1.5 * 1024 * 1024 - 100) }));
    });
    engine.runUntilIdle();
    expect(replies.map((r) => (r.ok ? 'ok' : `${r.error.code} ${r.error.message}`))).toEqual([
      '8 grpc: received message larger than max (2097162 vs. 2097152)',
      '3 etcdserver: request is too large',
      'ok',
    ]);
    expect(etcd.store.currentRev).toBe(2);
  });

  it('is deterministic and keeps the store consistent after every step', () => {
    const scenario = () => {
      const { engine, client, etcd } = cluster(1);
      engine.addInvariant('etcd store', () => etcd.store.verify());
      client.run(function* (self) {
        for (let i = 0; i < 20; i++) {
          yield* self.rpc('etcd.Txn', create(`p${i % 7}`, i * 13));
          yield* self.rpc('etcd.Range', { key: '/registry/pods/', rangeEnd: '/registry/pods0', limit: 3 });
          if (i % 5 === 4) yield* self.rpc('etcd.DeleteRange', { key: '/registry/pods/default/p1' });
          if (i === 12) yield* self.rpc('etcd.Compact', { revision: 10 });
        }
      });
      engine.runUntilIdle();
      return engine;
    };
    const [a, b] = runTwiceWithPerturbedHost(scenario);
    expect(a.hash).toBe(b.hash);
    expect(a.steps).toBe(90);
    expect(traceHash(scenario().trace.all())).toBe(a.hash);
  });
});

// etcd's request size limits as a 3.4 server enforces them with its defaults: gRPC refuses any request
// message over --max-request-bytes + 512 KiB (2 MiB), Range and DeleteRange included; a write whose
// raft proposal (InternalRaftRequest) exceeds --max-request-bytes (1.5 MiB) is `request is too large`.

import { describe, expect, it } from 'vitest';
import { Component, Engine, type Co } from '../engine/index.ts';
import { defaultCluster } from './cluster.ts';
import { IdGenerator } from './id-generator.ts';
import { EtcdServer, type EtcdReply } from './server.ts';
import type { EtcdRequestKind, MessageMap } from '../messages/index.ts';

class Client extends Component {
  receive(): void {}
  run(script: (self: Client) => Co<void>): void {
    this.spawn(script(this));
  }
  *rpc<K extends EtcdRequestKind>(kind: K, payload: MessageMap[K]): Co<EtcdReply<unknown>> {
    return (yield* this.call('etcd', kind, payload)).payload;
  }
}

function send(requests: ReadonlyArray<readonly [EtcdRequestKind, MessageMap[EtcdRequestKind]]>): { answers: string[]; etcd: EtcdServer } {
  const engine = new Engine({ seed: 'etcd-limits' });
  const etcd = engine.add(new EtcdServer('etcd'));
  const client = engine.add(new Client('kube-apiserver'));
  engine.link('etcd', 'kube-apiserver', { latency: 1 });
  const answers: string[] = [];
  client.run(function* (self) {
    for (const [kind, payload] of requests) {
      const r = yield* self.rpc(kind, payload);
      answers.push(r.ok ? 'ok' : `${r.error.code} ${r.error.message}`);
    }
  });
  engine.runUntilIdle();
  return { answers, etcd };
}

/** Bytes of a protobuf varint holding n (n < 2^53). */
function varintLength(n: number): number {
  let length = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    length++;
  }
  return length;
}

function bigVarintLength(n: bigint): number {
  let length = 1;
  while (n >= 128n) {
    n >>= 7n;
    length++;
  }
  return length;
}

const maxRequestBytes = 1572864;
const grpcMax = maxRequestBytes + 512 * 1024;

describe('etcd request size limits', () => {
  it('a Put whose raft proposal is one byte over 1.5 MiB is refused; one at the limit is stored', () => {
    // The proposal: InternalRaftRequest{header (field 100: a 2-byte tag) = RequestHeader{ID}, put (field 4)}.
    const idLength = bigVarintLength(BigInt(new IdGenerator(defaultCluster.memberId, 0).next()));
    const putSize = (valueLength: number) => 1 + 1 + 1 + 1 + varintLength(valueLength) + valueLength; // key "k", value
    const proposal = (valueLength: number) => {
      const header = 1 + idLength;
      const put = putSize(valueLength);
      return 2 + varintLength(header) + header + 1 + varintLength(put) + put;
    };
    let atLimit = maxRequestBytes;
    while (proposal(atLimit) > maxRequestBytes) atLimit--;
    expect(proposal(atLimit)).toBe(maxRequestBytes);
    const { answers, etcd } = send([
      ['etcd.Put', { key: 'k', value: 'x'.repeat(atLimit + 1) }],
      ['etcd.Put', { key: 'k', value: 'x'.repeat(atLimit) }],
    ]);
    expect(answers).toEqual(['3 etcdserver: request is too large', 'ok']);
    expect(etcd.kv.range({ key: 'k' }).kvs[0]!.value.length).toBe(atLimit);
  });

  it('a Range larger than the gRPC receive limit is refused with ResourceExhausted; one just under is answered', () => {
    const rangeSize = (keyLength: number) => 1 + varintLength(keyLength) + keyLength;
    let keyLength = grpcMax;
    while (rangeSize(keyLength) > grpcMax) keyLength--;
    const { answers } = send([
      ['etcd.Range', { key: 'r'.repeat(keyLength + 1) }],
      ['etcd.Range', { key: 'r'.repeat(keyLength) }],
    ]);
    expect(answers).toEqual([`8 grpc: received message larger than max (${grpcMax + 1} vs. ${grpcMax})`, 'ok']);
  });

  it('a DeleteRange is held to both limits: gRPC\'s 2 MiB, then the 1.5 MiB proposal', () => {
    const { answers } = send([
      ['etcd.Put', { key: 'a', value: 'v' }],
      ['etcd.DeleteRange', { key: 'd'.repeat(grpcMax) }],
      ['etcd.DeleteRange', { key: 'd'.repeat(maxRequestBytes) }],
      ['etcd.DeleteRange', { key: 'a' }],
    ]);
    expect(answers[1]).toMatch(/^8 grpc: received message larger than max \(\d+ vs\. 2097152\)$/);
    expect(answers.slice(2)).toEqual(['3 etcdserver: request is too large', 'ok']);
  });
});

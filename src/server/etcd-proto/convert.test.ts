import { describe, expect, test } from 'vitest';
import * as convert from './convert.ts';
import { loadServices } from '../etcd-grpc/endpoint.ts';

const services = loadServices();
/** Encodes `message` as the request of `method` and decodes it as the server does. */
function wire(service: keyof ReturnType<typeof loadServices>, method: string, message: object): convert.Wire {
  const m = services[service][method]!;
  return m.requestDeserialize(m.requestSerialize(message) as Buffer) as convert.Wire;
}

const everyByte = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

describe('proto messages ↔ the model’s rpc.ts types', () => {
  test('bytes are byte strings both ways, every byte value kept', () => {
    const s = convert.byteString(everyByte);
    expect(s).toHaveLength(256);
    expect([...s].map((c) => c.charCodeAt(0))).toEqual([...everyByte]);
    expect(convert.wireBytes(s).equals(everyByte)).toBe(true);
    const put = convert.putRequestFromWire(wire('KV', 'Put', { key: everyByte, value: everyByte, lease: '7587869165219070000', prev_kv: true }));
    expect(put).toEqual({ key: s, value: s, lease: '7587869165219070000', prevKv: true });
  });

  test('proto3 defaults are left out, as the model reads absent optional fields', () => {
    expect(convert.rangeRequestFromWire(wire('KV', 'Range', { key: Buffer.from('a') }))).toEqual({ key: 'a' });
    expect(convert.rangeRequestFromWire(wire('KV', 'Range', { key: Buffer.from('a'), range_end: Buffer.from([0]), revision: 7, sort_order: 'DESCEND', sort_target: 'MOD', keys_only: true })))
      .toEqual({ key: 'a', rangeEnd: '\0', revision: 7, sortOrder: 'DESCEND', sortTarget: 'MOD', keysOnly: true });
  });

  test('a Txn keeps each compare’s target_union member and nests txns', () => {
    const txn = convert.txnRequestFromWire(wire('KV', 'Txn', {
      compare: [
        { result: 'EQUAL', target: 'MOD', key: Buffer.from('k'), mod_revision: 0 },
        { result: 'GREATER', target: 'VALUE', key: Buffer.from('k'), value: Buffer.from([0xff]) },
      ],
      success: [{ request_put: { key: Buffer.from('k'), value: Buffer.from('v') } }],
      failure: [{ request_txn: { success: [{ request_range: { key: Buffer.from('k') } }] } }, { request_delete_range: { key: Buffer.from('k') } }],
    }));
    expect(txn).toEqual({
      compare: [
        { result: 'EQUAL', target: 'MOD', key: 'k', modRevision: 0 },
        { result: 'GREATER', target: 'VALUE', key: 'k', value: '\xff' },
      ],
      success: [{ requestPut: { key: 'k', value: 'v' } }],
      failure: [{ requestTxn: { success: [{ requestRange: { key: 'k' } }] } }, { requestDeleteRange: { key: 'k' } }],
    });
  });

  test('watch requests: create with its options, cancel, progress', () => {
    expect(convert.watchRequestFromWire(wire('Watch', 'Watch', {
      create_request: { key: Buffer.from('a'), range_end: Buffer.from('b'), start_revision: 5, prev_kv: true, filters: ['NODELETE'], progress_notify: true },
    }))).toEqual({ createRequest: { key: 'a', rangeEnd: 'b', startRevision: 5, prevKv: true, filters: ['NODELETE'], progressNotify: true } });
    expect(convert.watchRequestFromWire(wire('Watch', 'Watch', { cancel_request: { watch_id: 3 } }))).toEqual({ cancelRequest: { watchId: 3 } });
    expect(convert.watchRequestFromWire(wire('Watch', 'Watch', { progress_request: {} }))).toEqual({ progressRequest: {} });
  });

  test('responses encode with etcd’s field names, IDs above 2^53 exact', () => {
    const m = services.Watch['Watch']!;
    const header = { clusterId: '14841639068965178418', memberId: '10276657743932975437', revision: 9, raftTerm: 2 };
    const encoded = convert.watchResponseToWire({
      header, watchId: 1, created: false, canceled: false, compactRevision: 0, cancelReason: '', fragment: false,
      events: [{ type: 'DELETE', kv: { key: '\x00\xff', createRevision: 0, modRevision: 9, version: 0, value: '', lease: '0' }, prevKv: { key: '\x00\xff', createRevision: 3, modRevision: 4, version: 2, value: 'v', lease: '7587869165219070001' } }],
    });
    const decoded = m.responseDeserialize(m.responseSerialize(encoded) as Buffer) as { header: convert.Wire; events: Array<{ type: string; kv: convert.Wire; prev_kv: convert.Wire }> };
    expect(decoded.header).toMatchObject({ cluster_id: '14841639068965178418', member_id: '10276657743932975437', revision: '9', raft_term: '2' });
    expect(decoded.events[0]!.type).toBe('DELETE');
    expect(convert.byteString(decoded.events[0]!.kv['key'])).toBe('\x00\xff');
    expect(decoded.events[0]!.prev_kv['lease']).toBe('7587869165219070001');
  });
});

import { describe, expect, it } from 'vitest';
import { bytesToByteString } from '../../sim/etcd/index.ts';
import { byteString as fromBytes, wireBytes as toBytes, txnRequestToWire, watchRequestToWire, watchResponseFromWire } from './convert.ts';
import { endpointAddress } from '../real-etcd/grpc-client.ts';

describe('the model\'s etcd messages to a real etcd, and its answers back', () => {
  it('carries byte strings as the bytes they stand for, binary values included', () => {
    const value = bytesToByteString(new Uint8Array([0x6b, 0x38, 0x73, 0x00, 0x0a, 0xff, 0x80]));
    expect([...toBytes(value)]).toEqual([0x6b, 0x38, 0x73, 0x00, 0x0a, 0xff, 0x80]);
    expect(fromBytes(toBytes(value))).toBe(value);
  });

  it('sends a Txn with only the fields the model set, keys and values as bytes', () => {
    const proto = txnRequestToWire({
      compare: [{ target: 'MOD', result: 'EQUAL', key: '/registry/pods/default/a', modRevision: 0 }],
      success: [{ requestPut: { key: '/registry/pods/default/a', value: 'v', lease: '7' } }],
      failure: [{ requestRange: { key: '/registry/pods/default/a' } }],
    });
    expect(proto).toEqual({
      compare: [{ target: 'MOD', result: 'EQUAL', key: toBytes('/registry/pods/default/a'), mod_revision: 0 }],
      success: [{ request_put: { key: toBytes('/registry/pods/default/a'), value: toBytes('v'), lease: '7' } }],
      failure: [{ request_range: { key: toBytes('/registry/pods/default/a') } }],
    });
    expect(watchRequestToWire({ cancelRequest: { watchId: 3 } })).toEqual({ cancel_request: { watch_id: 3 } });
  });

  it('reads a watch response as the model\'s WatchResponse: int64 as numbers, lease IDs decimal', () => {
    const response = watchResponseFromWire({
      header: { cluster_id: '14841639068965178418', member_id: '10276657743932975437', revision: '12', raft_term: '3' },
      watch_id: '1', created: false, canceled: false, compact_revision: '0', cancel_reason: '', fragment: false,
      events: [{ type: 'PUT', kv: { key: toBytes('k'), create_revision: '12', mod_revision: '12', version: '1', value: toBytes('v'), lease: '7587883203498459921' }, prev_kv: null }],
    });
    expect(response).toEqual({
      header: { clusterId: '14841639068965178418', memberId: '10276657743932975437', revision: 12, raftTerm: 3 },
      watchId: 1, created: false, canceled: false, compactRevision: 0, cancelReason: '', fragment: false,
      events: [{ type: 'PUT', kv: { key: 'k', createRevision: 12, modRevision: 12, version: 1, value: 'v', lease: '7587883203498459921' } }],
    });
  });

  it('takes http:// client URLs and refuses TLS and malformed endpoints', () => {
    expect(endpointAddress('http://127.0.0.1:2379')).toBe('127.0.0.1:2379');
    expect(endpointAddress(' 127.0.0.1:22379/ ')).toBe('127.0.0.1:22379');
    expect(() => endpointAddress('https://127.0.0.1:2379')).toThrow(/TLS endpoints are not supported/);
    expect(() => endpointAddress('http://127.0.0.1')).toThrow(/not an http:\/\/host:port endpoint/);
  });
});

// Table tests of the KV service against the transcripts of a real etcd 3.4.23 (shared reference
// etcd-real.md §3.1–3.5): each step sends a request and expects the gateway JSON etcd answered, with
// H(n) standing for the header at revision n.
import { describe, expect, it } from 'vitest';
import { defaultCluster } from './cluster.ts';
import { EtcdError } from './errors.ts';
import {
  compactionResponseJson, deleteRangeResponseJson, putResponseJson, rangeResponseJson, txnResponseJson, type Json,
} from './gateway.ts';
import { KVServer } from './kv-server.ts';
import { KVStore } from './kv-store.ts';
import { revisionOf } from './revision.ts';
import type { CompactionRequest, DeleteRangeRequest, PutRequest, RangeRequest, TxnRequest } from './rpc.ts';

type Step =
  | ['range', RangeRequest, string]
  | ['put', PutRequest, string]
  | ['del', DeleteRangeRequest, string]
  | ['txn', TxnRequest, string]
  | ['compact', CompactionRequest, string];

const H = (n: number): string =>
  `"header":{"cluster_id":"${defaultCluster.clusterId}","member_id":"${defaultCluster.memberId}","revision":"${n}","raft_term":"2"}`;
const err = (message: string, code: number): string => JSON.stringify({ error: message, message, code });
const compacted = err('etcdserver: mvcc: required revision has been compacted', 11);
const future = err('etcdserver: mvcc: required revision is a future revision', 11);

function run(kv: KVServer, step: Step): string {
  try {
    let out: Json;
    switch (step[0]) {
      case 'range': out = rangeResponseJson(kv.range(step[1])); break;
      case 'put': out = putResponseJson(kv.put(step[1])); break;
      case 'del': out = deleteRangeResponseJson(kv.deleteRange(step[1])); break;
      case 'txn': out = txnResponseJson(kv.txn(step[1]).response); break;
      case 'compact': out = compactionResponseJson(kv.compact(step[1])); break;
    }
    return JSON.stringify(out);
  } catch (e) {
    if (!(e instanceof EtcdError)) throw e;
    return JSON.stringify({ error: e.rpc.message, message: e.rpc.message, code: e.rpc.code });
  }
}

const foo2 = `{"key":"Zm9v","create_revision":"2","mod_revision":"2","version":"1","value":"djE="}`;
const foo3 = `{"key":"Zm9v","create_revision":"2","mod_revision":"3","version":"2","value":"djI="}`;
const fooA = `{"key":"Zm9vL2E=","create_revision":"4","mod_revision":"4","version":"1","value":"djE="}`;
const fooB = `{"key":"Zm9vL2I=","create_revision":"5","mod_revision":"5","version":"1","value":"djI="}`;
const strip = (kv: string): string => kv.replace(/,"value":"[^"]*"/, '');

const transcript: Step[] = [
  // §3.1 put
  ['range', { key: 'foo' }, `{${H(1)}}`],
  ['put', { key: 'foo', value: 'v1' }, `{${H(2)}}`],
  ['put', { key: 'foo', value: 'v2', prevKv: true }, `{${H(3)},"prev_kv":${foo2}}`],
  ['put', { key: 'foo/a', value: 'v1' }, `{${H(4)}}`],
  ['put', { key: 'foo/b', value: 'v2' }, `{${H(5)}}`],
  ['put', { key: 'empty' }, `{${H(6)}}`],
  ['put', { key: '', value: 'v1' }, err('etcdserver: key is not provided', 3)],
  ['put', { key: 'nope', ignoreValue: true }, err('etcdserver: key not found', 3)],
  ['put', { key: 'nope', value: 'v1', lease: '12345' }, err('etcdserver: requested lease not found', 5)],
  ['put', { key: 'foo', value: 'x', ignoreValue: true }, err('etcdserver: value is provided', 3)],
  ['put', { key: 'foo', lease: '7', ignoreLease: true }, err('etcdserver: lease is provided', 3)],
  // §3.2 range
  ['range', { key: 'foo' }, `{${H(6)},"kvs":[${foo3}],"count":"1"}`],
  ['range', { key: 'empty' }, `{${H(6)},"kvs":[{"key":"ZW1wdHk=","create_revision":"6","mod_revision":"6","version":"1"}],"count":"1"}`],
  ['range', { key: 'foo/', rangeEnd: 'foo0' }, `{${H(6)},"kvs":[${fooA},${fooB}],"count":"2"}`],
  ['range', { key: 'foo/', rangeEnd: 'foo0', limit: 1 }, `{${H(6)},"kvs":[${fooA}],"more":true,"count":"2"}`],
  ['range', { key: 'foo/', rangeEnd: 'foo0', countOnly: true }, `{${H(6)},"count":"2"}`],
  ['range', { key: 'foo/', rangeEnd: 'foo0', keysOnly: true }, `{${H(6)},"kvs":[${strip(fooA)},${strip(fooB)}],"count":"2"}`],
  ['range', { key: 'foo', revision: 2 }, `{${H(6)},"kvs":[${foo2}],"count":"1"}`],
  ['range', { key: 'foo', revision: 1 }, `{${H(6)}}`],
  ['range', { key: '\0', rangeEnd: '\0', keysOnly: true, countOnly: true }, `{${H(6)},"count":"4"}`],
  ['range', { key: 'foo', rangeEnd: '\0', keysOnly: true, sortOrder: 'DESCEND', sortTarget: 'KEY' },
    `{${H(6)},"kvs":[${strip(fooB)},${strip(fooA)},${strip(foo3)}],"count":"3"}`],
  ['range', { key: 'foo', revision: 1000 }, future],
  ['range', { key: 'foo', revision: -1 }, `{${H(6)},"kvs":[${foo3}],"count":"1"}`],
  ['range', { key: '\0', rangeEnd: '\0', keysOnly: true, minModRevision: 5 },
    `{${H(6)},"kvs":[{"key":"ZW1wdHk=","create_revision":"6","mod_revision":"6","version":"1"},${strip(fooB)}],"count":"4"}`],
  ['range', { key: '\0', rangeEnd: '\0', countOnly: true, limit: -1 }, `{${H(6)},"count":"4"}`],
  ['range', { key: 'zz', rangeEnd: 'a' }, `{${H(6)}}`],
  ['range', { key: '' }, err('etcdserver: key is not provided', 3)],
  // §3.3 txn
  ['txn', {
    compare: [{ key: 'k1', target: 'MOD', result: 'EQUAL', modRevision: 0 }],
    success: [{ requestPut: { key: 'k1', value: 'v1' } }], failure: [{ requestRange: { key: 'k1' } }],
  }, `{${H(7)},"succeeded":true,"responses":[{"response_put":{"header":{"revision":"7"}}}]}`],
  ['txn', {
    compare: [{ key: 'k1', target: 'MOD', result: 'EQUAL', modRevision: 0 }],
    success: [{ requestPut: { key: 'k1', value: 'v1' } }], failure: [{ requestRange: { key: 'k1' } }],
  }, `{${H(7)},"responses":[{"response_range":{"header":{"revision":"7"},"kvs":[{"key":"azE=","create_revision":"7","mod_revision":"7","version":"1","value":"djE="}],"count":"1"}}]}`],
  ['txn', { compare: [{ key: 'zz', target: 'MOD' }], success: [{ requestPut: { key: 'zz', value: 'v1', prevKv: true } }] },
    `{${H(8)},"succeeded":true,"responses":[{"response_put":{"header":{"revision":"8"}}}]}`],
  ['txn', {
    compare: [{ key: 'foo', target: 'VALUE', result: 'EQUAL', value: 'v2' }, { key: 'foo', target: 'VERSION', result: 'GREATER', version: 1 }],
    success: [
      { requestPut: { key: 'foo', value: 'v3', prevKv: true } },
      { requestRange: { key: 'foo' } },
      { requestDeleteRange: { key: 'zz', prevKv: true } },
      { requestTxn: { success: [{ requestRange: { key: 'k1', countOnly: true } }] } },
    ],
  }, `{${H(9)},"succeeded":true,"responses":[`
    + `{"response_put":{"header":{"revision":"9"},"prev_kv":${foo3}}},`
    + `{"response_range":{"header":{"revision":"9"},"kvs":[{"key":"Zm9v","create_revision":"2","mod_revision":"9","version":"3","value":"djM="}],"count":"1"}},`
    + `{"response_delete_range":{"header":{"revision":"9"},"deleted":"1","prev_kvs":[{"key":"eno=","create_revision":"8","mod_revision":"8","version":"1","value":"djE="}]}},`
    + `{"response_txn":{"header":{},"succeeded":true,"responses":[{"response_range":{"header":{"revision":"9"},"count":"1"}}]}}]}`],
  ['txn', { success: [{ requestPut: { key: 'a', value: 'v1' } }, { requestPut: { key: 'a', value: 'v2' } }] },
    err('etcdserver: duplicate key given in txn request', 3)],
  ['txn', { success: [{ requestPut: { key: 'a', value: 'v1' } }, { requestDeleteRange: { key: 'a' } }] },
    err('etcdserver: duplicate key given in txn request', 3)],
  ['txn', {}, `{${H(9)},"succeeded":true}`],
  ['txn', { compare: [{ key: 'missing', target: 'VERSION', version: 0 }] }, `{${H(9)},"succeeded":true}`],
  ['txn', { compare: [{ key: 'missing', target: 'VALUE', value: '' }] }, `{${H(9)}}`],
  ['txn', { compare: [{ key: 'missing', target: 'VALUE', result: 'NOT_EQUAL', value: 'x' }] }, `{${H(9)}}`],
  ['txn', { success: Array.from({ length: 129 }, (_, i) => ({ requestPut: { key: `p${i}`, value: 'v' } })) },
    err('etcdserver: too many operations in txn request', 3)],
  // §3.4 deleterange
  ['del', { key: 'nope' }, `{${H(9)}}`],
  ['del', { key: 'foo', prevKv: true }, `{${H(10)},"deleted":"1","prev_kvs":[{"key":"Zm9v","create_revision":"2","mod_revision":"9","version":"3","value":"djM="}]}`],
  ['del', { key: 'foo/', rangeEnd: 'foo0' }, `{${H(11)},"deleted":"2"}`],
  ['range', { key: 'foo', revision: 9 }, `{${H(11)},"kvs":[{"key":"Zm9v","create_revision":"2","mod_revision":"9","version":"3","value":"djM="}],"count":"1"}`],
  ['put', { key: 'foo', value: 'v1' }, `{${H(12)}}`],
  ['range', { key: 'foo' }, `{${H(12)},"kvs":[{"key":"Zm9v","create_revision":"12","mod_revision":"12","version":"1","value":"djE="}],"count":"1"}`],
  ['del', { key: 'zz', rangeEnd: 'a' }, `{${H(12)}}`],
  // §3.5 compaction
  ['compact', { revision: 5, physical: true }, `{${H(12)}}`],
  ['range', { key: 'foo', revision: 4 }, compacted],
  ['range', { key: '\0', rangeEnd: '\0', revision: 5, keysOnly: true },
    `{${H(12)},"kvs":[${strip(foo3)},${strip(fooA)},${strip(fooB)}],"count":"3"}`],
  ['compact', { revision: 5 }, compacted],
  ['compact', { revision: 3 }, compacted],
  ['compact', { revision: 100000 }, future],
  ['txn', { success: [{ requestRange: { key: 'foo', revision: 2 } }] }, compacted],
];

describe('KVServer replays the real etcd transcript', () => {
  const kv = new KVServer(new KVStore());
  it.each(transcript.map((step, i) => [i, step[0], JSON.stringify(step[1]).slice(0, 90), step] as const))(
    'step %i: %s %s', (_i, _method, _req, step) => {
      expect(run(kv, step)).toBe(step[2]);
    });
});

describe('KVServer', () => {
  it('leaves the store untouched when a txn fails validation', () => {
    const kv = new KVServer(new KVStore());
    kv.put({ key: 'a', value: '1' });
    const before = JSON.stringify(kv.range({ key: '\0', rangeEnd: '\0' }));
    for (const bad of [
      { success: [{ requestPut: { key: 'b', value: '1' } }, { requestPut: { key: 'b', value: '2' } }] },
      { success: [{ requestPut: { key: 'b', value: '1' } }, { requestPut: { key: 'c', value: '1', lease: '99' } }] },
      { success: [{ requestPut: { key: 'b', value: '1' } }, { requestPut: { key: 'nope', ignoreValue: true } }] },
      { success: [{ requestPut: { key: 'b', value: '1' } }, { requestRange: { key: 'a', revision: 50 } }] },
      { success: [{ requestPut: { key: 'b', value: '1' } }, {}] },
    ] as TxnRequest[]) {
      expect(() => kv.txn(bad)).toThrow(EtcdError);
    }
    expect(JSON.stringify(kv.range({ key: '\0', rangeEnd: '\0' }))).toBe(before);
    expect(kv.store.currentRev).toBe(2);
  });

  it('rejects, without writing, a txn whose ignore_value put finds its key deleted by an earlier op', () => {
    // Found by the differential test: etcd 3.4 checks ignore_value against the state before the txn
    // and then panics applying it (a delete with range end '\0' passes the duplicate-key check).
    const kv = new KVServer(new KVStore());
    kv.put({ key: 'k', value: 'v' });
    const txn: TxnRequest = { success: [{ requestDeleteRange: { key: 'k', rangeEnd: '\0' } }, { requestPut: { key: 'k', ignoreValue: true } }] };
    expect(() => kv.txn(txn)).toThrow('etcdserver: key not found');
    expect(kv.store.currentRev).toBe(2);
    expect(kv.range({ key: 'k' }).kvs[0]?.value).toBe('v');
    // A key that never existed fails the ordinary check, before the txn.
    expect(() => kv.txn({ success: [{ requestPut: { key: 'n', value: '1' } }, { requestTxn: { success: [{ requestPut: { key: 'm', ignoreValue: true } }] } }] })).toThrow('etcdserver: key not found');
  });

  it.each([
    // Puts in both branches of one nested txn are fine; anything else writing a key twice is not.
    ['then/else of one nested txn', { success: [{ requestTxn: { success: [{ requestPut: { key: 'x' } }], failure: [{ requestPut: { key: 'x' } }] } }] }, true],
    ['nested put and outer put', { success: [{ requestPut: { key: 'x' } }, { requestTxn: { success: [{ requestPut: { key: 'x' } }] } }] }, false],
    ['nested delete and outer put', { success: [{ requestPut: { key: 'x' } }, { requestTxn: { failure: [{ requestDeleteRange: { key: 'w', rangeEnd: 'y' } }] } }] }, false],
    ['put inside a deleted range', { success: [{ requestDeleteRange: { key: 'a', rangeEnd: 'z' } }, { requestPut: { key: 'm' } }] }, false],
    ['put after the deleted range', { success: [{ requestDeleteRange: { key: 'a', rangeEnd: 'm' } }, { requestPut: { key: 'm' } }] }, true],
    ['delete with range end \\0 conflicts with nothing', { success: [{ requestDeleteRange: { key: 'a', rangeEnd: '\0' } }, { requestPut: { key: 'm' } }] }, true],
  ] as Array<[string, TxnRequest, boolean]>)('duplicate-key check: %s', (_name, txn, allowed) => {
    const kv = new KVServer(new KVStore());
    if (allowed) expect(() => kv.txn(txn)).not.toThrow();
    else expect(() => kv.txn(txn)).toThrow('etcdserver: duplicate key given in txn request');
  });

  it('gives a nested txn only the op budget its parent left (128 - 101 = 27)', () => {
    const kv = new KVServer(new KVStore());
    const puts = (n: number, p: string) => Array.from({ length: n }, (_, i) => ({ requestPut: { key: `${p}${i}` } }));
    expect(() => kv.txn({ success: [...puts(100, 'a'), { requestTxn: { success: puts(27, 'b') } }] })).not.toThrow();
    expect(() => kv.txn({ success: [...puts(100, 'c'), { requestTxn: { success: puts(28, 'd') } }] }))
      .toThrow('etcdserver: too many operations in txn request');
  });

  it('puts every write of a txn at one revision with increasing sub-revisions', () => {
    const s = new KVStore();
    const kv = new KVServer(s);
    const { response, changes } = kv.txn({ success: [{ requestPut: { key: 'a', value: '1' } }, { requestPut: { key: 'b', value: '2' } }, { requestDeleteRange: { key: 'c' } }] });
    expect(response.header.revision).toBe(2);
    expect(changes.map((c) => [c.key, c.modRevision])).toEqual([['a', 2], ['b', 2]]);
    expect(revisionOf(s.index.keyIndex('b')!.modified)).toEqual({ main: 2, sub: 1 });
  });

  it('reports a sub-delete that deleted nothing before any change at the old revision', () => {
    const kv = new KVServer(new KVStore());
    const { response } = kv.txn({ success: [{ requestDeleteRange: { key: 'none' } }, { requestPut: { key: 'a' } }] });
    expect(response.responses[0]!.responseDeleteRange!.header.revision).toBe(1);
    expect(response.responses[1]!.responsePut!.header.revision).toBe(2);
    expect(response.header.revision).toBe(2);
  });

  it('requires every key of a ranged compare to satisfy it', () => {
    const kv = new KVServer(new KVStore());
    kv.put({ key: 'r/a', value: '1' });
    kv.put({ key: 'r/b', value: '1' });
    kv.put({ key: 'r/b', value: '2' });
    const cmp = (version: number) => kv.txn({ compare: [{ key: 'r/', rangeEnd: 'r0', target: 'VERSION', result: 'GREATER', version }] }).response.succeeded;
    expect(cmp(0)).toBe(true);
    expect(cmp(1)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { KVServer } from './kv-server.ts';
import { KVStore } from './kv-store.ts';
import {
  capnslogLine, goDuration, isoMillis, loggedContext, loggedZapLine, putStats, quoteBytes, rangeStats, txnRequestText, txnStats, zapLine,
} from './request-stats.ts';
import type { TxnRequest } from './rpc.ts';
import { utf8ToByteString } from './bytes.ts';

const createK1: TxnRequest = {
  compare: [{ key: 'k1', target: 'MOD', result: 'EQUAL', modRevision: 0 }],
  success: [{ requestPut: { key: 'k1', value: 'v1' } }],
  failure: [{ requestRange: { key: 'k1' } }],
};

describe('request stats', () => {
  it('matches the two real lines of the create-if-absent txn (etcd-real.md §4)', () => {
    const kv = new KVServer(new KVStore());
    for (let i = 0; i < 5; i++) kv.put({ key: `pad${i}`, value: 'x' }); // the real store was at revision 6
    const first = txnStats(createK1, kv.txn(createK1).response);
    const second = txnStats(createK1, kv.txn(createK1).response);
    const content = 'compare:<target:MOD key:"k1" mod_revision:0 > success:<request_put:<key:"k1" value_size:2 >> failure:<request_range:<key:"k1" > >';
    expect(first).toEqual({ responseType: '/etcdserverpb.KV/Txn', requestCount: 1, requestSize: 10, responseCount: 0, responseSize: 38, requestContent: content });
    expect(second).toEqual({ responseType: '/etcdserverpb.KV/Txn', requestCount: 1, requestSize: 6, responseCount: 0, responseSize: 54, requestContent: content });
  });

  it('matches the real Put and Range lines', () => {
    const kv = new KVServer(new KVStore());
    const put = { key: 'foo', value: 'v1' };
    expect(putStats(put, kv.put(put))).toMatchObject({ requestCount: 1, requestSize: 9, responseCount: 0, responseSize: 28, requestContent: 'key:"foo" value_size:2 ' });
    const range = { key: 'foo', revision: 2 };
    expect(rangeStats(range, kv.range(range))).toMatchObject({ requestCount: 0, requestSize: 7, responseCount: 1, responseSize: 47, requestContent: 'key:"foo" revision:2 ' });
  });

  it('logs zeros and no content for a txn that failed with an error', () => {
    expect(txnStats(createK1, null)).toEqual({ responseType: '/etcdserverpb.KV/Txn', requestCount: 0, requestSize: 0, responseCount: 0, responseSize: 0, requestContent: '' });
  });

  it.each([
    ['several compares glue into one block', {
      compare: [{ key: 'foo', target: 'VALUE', result: 'EQUAL', value: 'v2' }, { key: 'foo', target: 'VERSION', result: 'GREATER', version: 1 }],
    }, 'compare:<target:VALUE key:"foo" value_size:2  result:GREATER key:"foo" version:1 > success:<> failure:<>'],
    ['apiserver create', {
      compare: [{ target: 'MOD', key: '/registry/pods/default/x', modRevision: 0 }],
      success: [{ requestPut: { key: '/registry/pods/default/x', value: 'x'.repeat(754) } }],
    }, 'compare:<target:MOD key:"/registry/pods/default/x" mod_revision:0 > success:<request_put:<key:"/registry/pods/default/x" value_size:754 >> failure:<>'],
    ['apiserver delete with lease put and nested txn', {
      compare: [{ target: 'MOD', key: 'K', modRevision: 123 }],
      success: [{ requestDeleteRange: { key: 'K' } }, { requestPut: { key: 'e', value: 'ab', lease: '7587' } }, { requestTxn: { success: [{ requestRange: { key: 'a', rangeEnd: 'b', limit: 500 } }] } }],
      failure: [{ requestRange: { key: 'K' } }],
    }, 'compare:<target:MOD key:"K" mod_revision:123 > success:<request_delete_range:<key:"K" >  request_put:<key:"e" value_size:2 lease:7587 > request_txn:<compare:<> success:<request_range:<key:"a" range_end:"b" limit:500 > > failure:<>>> failure:<request_range:<key:"K" > >'],
    ['compactor (VERSION and EQUAL are zero and vanish)', {
      compare: [{ key: 'compact_rev_key', version: 3 }],
      success: [{ requestPut: { key: 'compact_rev_key', value: '12' } }], failure: [{ requestRange: { key: 'compact_rev_key' } }],
    }, 'compare:<key:"compact_rev_key" version:3 > success:<request_put:<key:"compact_rev_key" value_size:2 >> failure:<request_range:<key:"compact_rev_key" > >'],
  ] as Array<[string, TxnRequest, string]>)('renders txn content: %s', (_name, req, want) => {
    expect(txnRequestText(req)).toBe(want);
  });

  it('gives back the context a logged line was rendered with, once, for that line only', () => {
    const stats = txnStats(createK1, null);
    const ctx = { startMs: 1_692_057_600_000, spentMs: 0.5, remote: 'kube-apiserver' };
    const line = loggedZapLine(stats, ctx);
    expect(line).toBe(zapLine(stats, ctx));
    expect(loggedContext(stats, line)).toBe(ctx);
    // Given once: the entry would otherwise keep the line as long as the stats live.
    expect(loggedContext(stats, line)).toBeUndefined();
    // Another line of the same stats (a different remote), or the stats of another request: not known.
    loggedZapLine(stats, ctx);
    expect(loggedContext(stats, zapLine(stats, { ...ctx, remote: 'etcdctl' }))).toBeUndefined();
    expect(loggedContext(txnStats(createK1, null), line)).toBeUndefined();
  });

  it('quotes bytes as Go protobuf text does', () => {
    expect(quoteBytes('a"b\\c\n\t\0')).toBe('"a\\"b\\\\c\\n\\t\\000"');
    expect(quoteBytes(utf8ToByteString('é'))).toBe('"\\303\\251"');
    expect(quoteBytes('k8s\0\xff')).toBe('"k8s\\000\\377"');
  });

  it('formats durations and instants as Go and zap do', () => {
    expect([0, 0.000_5, 0.521788, 1.5, 1500].map(goDuration)).toEqual(['0s', '500ns', '521.788µs', '1.5ms', '1.5s']);
    expect(isoMillis(1_692_057_600_123)).toBe('2023-08-15T00:00:00.123Z');
    // The second's text is kept between calls: moving back and forth, and within one second, still formats each instant.
    expect([1_692_057_600_999.7, 1_692_057_601_000, 1_692_057_599_005, 1_692_057_599_050, 1_692_144_000_000, 7, -1]
      .map(isoMillis)).toEqual(['2023-08-15T00:00:00.999Z', '2023-08-15T00:00:01.000Z', '2023-08-14T23:59:59.005Z',
      '2023-08-14T23:59:59.050Z', '2023-08-16T00:00:00.000Z', '1970-01-01T00:00:00.007Z', '1969-12-31T23:59:59.999Z']);
    const stats = txnStats(createK1, null);
    const ctx = { startMs: 1_692_057_600_000, spentMs: 0.5, remote: 'kube-apiserver' };
    expect(JSON.parse(zapLine(stats, ctx))).toEqual({
      level: 'debug', ts: '2023-08-15T00:00:00.000Z', caller: 'v3rpc/interceptor.go:181', msg: 'request stats',
      'start time': '2023-08-15T00:00:00.000Z', 'time spent': '500µs', remote: 'kube-apiserver', 'response type': '/etcdserverpb.KV/Txn',
      'request count': 0, 'request size': 0, 'response count': 0, 'response size': 0, 'request content': '',
    });
    expect(capnslogLine(stats, ctx)).toContain('D | etcdserver/api/v3rpc: start time = 2023-08-15 00:00:00.000 +0000 UTC, time spent = 500µs, remote = kube-apiserver, response type = /etcdserverpb.KV/Txn, request count = 0');
  });
});

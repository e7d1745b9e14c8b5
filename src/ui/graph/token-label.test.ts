import { describe, expect, it } from 'vitest';
import { tokenLabel } from './token-label.ts';

const key = '/registry/pods/default/nginx-deployment-7f4d79f7d7-x6r6q';

describe('token labels', () => {
  it.each([
    ['http.request', { method: 'POST', path: '/apis/apps/v1/namespaces/default/deployments', query: '', headers: {} }, 'POST …/default/deployments', false],
    ['http.request', { method: 'GET', path: '/api/v1/pods', query: '', headers: {} }, 'GET /api/v1/pods', false],
    ['http.response', { status: 201, headers: {}, body: {} }, '201', false],
    ['http.response', { status: 409, headers: {}, body: { kind: 'Status', reason: 'Conflict', code: 409 } }, '409 Conflict', true],
    ['http.response', { status: 429, headers: {}, body: 'Too many requests, please try again later.\n' }, '429', true],
    ['http.watchEvent', { type: 'ADDED', object: { kind: 'Pod', metadata: { name: 'web-1', resourceVersion: '42' } } }, 'ADDED web-1 rv 42', false],
    ['http.watchEvent', { type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version: 1 (45)' } }, 'ERROR 410 Expired', true],
    ['etcd.Txn', { compare: [{ target: 'MOD', key, modRevision: 1412, result: 'EQUAL' }], success: [{ requestPut: { key } }] }, 'Txn mod_revision(nginx-deployment-7f4d79f7d7-x6r6q) == 1412', false],
    ['etcd.TxnResponse', { ok: true, write: { branch: 'success', revision: 1413, changed: true } }, 'succeeded, rev 1413', false],
    ['etcd.TxnResponse', { ok: true, write: { branch: 'failure', revision: 1413, changed: false } }, 'compare failed → failure branch, rev 1413', false],
    ['etcd.TxnResponse', { ok: false, error: { code: 3, message: 'etcdserver: duplicate key given in txn request' } }, 'error: etcdserver: duplicate key given in txn …', true],
    ['etcd.Range', { key: '/registry/pods/default/', rangeEnd: '/registry/pods/default0', limit: 500 }, 'Range prefix /registry/pods/default/ limit 500', false],
    ['etcd.WatchResponse', { stream: 's', response: { header: { revision: 9 }, watchId: 3, created: false, canceled: false, compactRevision: 0, events: [{ type: 'PUT', kv: { key, modRevision: 9 } }] } }, 'PUT …/default/nginx-deployment-7f4d79f7d7-x6r6q rev 9', false],
    ['etcd.WatchResponse', { stream: 's', response: { header: { revision: 0 }, watchId: 3, created: false, canceled: true, compactRevision: 45, events: [] } }, 'compacted (45)', true],
    ['etcd.WatchStreamError', { stream: 'kube-apiserver', error: 'rpc error: code = Unavailable desc = transport is closing' }, 'watch stream broke', true],
  ])('%s %j → %s', (kind, payload, text, failed) => {
    expect(tokenLabel({ kind, payload })).toEqual({ text, failed });
  });

  it('never throws on odd payloads', () => {
    for (const kind of ['http.request', 'http.response', 'http.watchEvent', 'etcd.Txn', 'etcd.TxnResponse', 'etcd.Range', 'etcd.WatchResponse', 'etcd.Watch', 'x']) {
      for (const payload of [undefined, null, 3, 'x', [], {}]) expect(typeof tokenLabel({ kind, payload }).text).toBe('string');
    }
  });
});

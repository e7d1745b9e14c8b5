// Labels for the cases a seeded scenario does not produce (refusals, a duplicate-key Txn, a compacted
// watch), from payloads typed by the model's message map so they cannot drift from it. The labels of
// what the model does produce are checked on its own messages in test/captions/token-labels.test.ts.

import { describe, expect, it } from 'vitest';
import type { ClusterMessageKind, ClusterMessages } from '../../protocol/index.ts';
import { tokenLabel } from './token-label.ts';

const key = '/registry/pods/default/nginx-deployment-7f4d79f7d7-x6r6q';
const header = { clusterId: '1', memberId: '2', revision: 9, raftTerm: 2 };

function message<K extends ClusterMessageKind>(kind: K, payload: ClusterMessages[K]): { kind: K; payload: ClusterMessages[K] } {
  return { kind, payload };
}

describe('token labels', () => {
  it.each([
    [message('http.response', { status: 409, headers: {}, body: { kind: 'Status', reason: 'Conflict', code: 409 } }), '409 Conflict', true],
    [message('http.response', { status: 429, headers: {}, body: 'Too many requests, please try again later.\n' }), '429', true],
    [message('http.watchEvent', { type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version: 1 (45)' } }), 'ERROR 410 Expired', true],
    [message('etcd.TxnResponse', { ok: false, error: { code: 3, codeName: 'InvalidArgument', message: 'etcdserver: duplicate key given in txn request' }, stats: null, log: null, write: null }),
      'error: etcdserver: duplicate key given in txn …', true],
    [message('etcd.WatchResponse', {
      stream: 's', response: { header, watchId: 3, created: false, canceled: true, compactRevision: 45, cancelReason: '', fragment: false, events: [] },
    }), 'compacted (45)', true],
    [message('etcd.Txn', { compare: [{ target: 'MOD', key, modRevision: 1412, result: 'EQUAL' }, { target: 'VERSION', key, version: 0 }] }),
      'Txn mod_revision(nginx-deployment-…-x6r6q) == 1412 (+1)', false],
    [message('http.watchEvent', { type: 'MODIFIED', object: { kind: 'Pod', metadata: { name: 'nginx-deployment-7f4d79f7d7-x6r6q', resourceVersion: '120' } } }),
      'MODIFIED nginx-deployment-…-x6r6q rv 120', false],
    [message('etcd.Txn', { compare: [{ target: 'MOD', key: '/registry/events/default/nginx-deployment-7f4d79f7d7-jfs2k.177b656c99e8b7c0', modRevision: 0, result: 'EQUAL' }] }),
      'Txn mod_revision(nginx-…-jfs2k.…b7c0) == 0', false],
  ])('%j → %s', (m, text, failed) => {
    expect(tokenLabel(m)).toEqual({ text, failed });
  });
});

import { describe, expect, it } from 'vitest';
import { describeMessage, isResponse, messageFamily } from './message-kind.ts';

describe('message kinds', () => {
  it.each([
    ['etcd.Put', 'etcd'],
    ['etcd.Txn', 'etcd'],
    ['etcd.Watch', 'watch'],
    ['http.request', 'http'],
    ['http.watchEvent', 'watch'],
    ['timer', 'timer'],
    ['probe', 'other'],
  ])('draws %s in the %s family', (kind, family) => {
    expect(messageFamily(kind)).toBe(family);
  });

  it('tells responses by replyTo and describes a message in words', () => {
    expect(isResponse({ replyTo: 3 })).toBe(true);
    expect(isResponse({ replyTo: null })).toBe(false);
    expect(describeMessage({ id: 4, kind: 'etcd.Put', from: 'user', to: 'etcd' })).toBe('etcd.Put from user to etcd, message 4');
  });
});

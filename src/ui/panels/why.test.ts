import { describe, expect, it } from 'vitest';
import type { Command, TraceRecord } from '../../protocol/index.ts';
import { createSimActions, createSimStore, reduceWorkerEvent } from '../store/sim-store.ts';
import { applyDiff, emptyKeyspace } from '../store/keyspace.ts';
import { heldRecord, recentById, rootKind, storyOrder, writerOf } from './why.ts';

function record(id: number, step: number, from: string, to: string, cause: number | null): TraceRecord {
  return { id, step, from, to, kind: 'k', payload: null, sentAt: 0, deliverAt: 0, cause, replyTo: null, background: false };
}

describe('the why? chain', () => {
  const chain = [record(9, 30, 'kubelet/node-1', 'kube-apiserver', 5), record(5, 12, 'kube-apiserver', 'kubelet/node-1', 1), record(1, 1, 'user', 'kube-apiserver', null)];

  it('is asked for, then answered; answers to another question are ignored', () => {
    const store = createSimStore();
    const posted: Command[] = [];
    const actions = createSimActions(store, (c) => posted.push(c));
    actions.askWhy(9);
    expect(posted).toEqual([{ type: 'causeChain', id: 9 }]);
    expect(store.getState().why).toEqual({ id: 9, answer: null });
    const stale = reduceWorkerEvent(store.getState(), { type: 'causeChain', id: 4, chain: [], truncated: false });
    expect(stale.why).toEqual({ id: 9, answer: null });
    const answered = reduceWorkerEvent(store.getState(), { type: 'causeChain', id: 9, chain, truncated: false });
    expect(answered.why?.answer?.chain).toBe(chain);
    expect(heldRecord(answered, 1)?.step).toBe(1);
    expect(heldRecord(answered, 2)).toBeUndefined();
  });

  it('finds recent deliveries by id through one index per recent array', () => {
    const recent = [record(3, 10, 'a', 'b', null), record(7, 11, 'b', 'a', 3)];
    expect(recentById(recent).get(7)).toBe(recent[1]);
    expect(recentById(recent)).toBe(recentById(recent));
    expect(recentById([...recent, record(8, 12, 'a', 'b', null)]).get(8)?.step).toBe(12);
    expect(recentById(recent).get(8)).toBeUndefined();
  });

  it('reads root first and names its root', () => {
    expect(storyOrder(chain).map((r) => r.id)).toEqual([1, 5, 9]);
    expect(rootKind(chain, false)).toBe('user');
    expect(rootKind([record(3, 2, 'kubelet/node-1', 'kubelet/node-1', null)], false)).toBe('timer');
    expect(rootKind(chain.slice(0, 2), true)).toBe('truncated');
  });
});

describe('the writer of a key', () => {
  it('is the held delivery of the step that wrote the live version', () => {
    const keyspace = applyDiff(emptyKeyspace, {
      type: 'keyspaceDiff', revision: 5, compactRevision: -1,
      changes: [{ key: '/registry/pods/default/a', createRevision: 5, modRevision: 5, version: 1, lease: '0', value: '{}', deleted: false, step: 12 }],
    });
    const recent = [record(4, 11, 'x', 'y', null), record(5, 12, 'kube-apiserver', 'etcd', 4)];
    expect(writerOf({ recent, keyspace }, '/registry/pods/default/a')?.id).toBe(5);
    expect(writerOf({ recent: recent.slice(0, 1), keyspace }, '/registry/pods/default/a')).toBeUndefined();
    expect(writerOf({ recent, keyspace }, '/registry/pods/default/b')).toBeUndefined();
  });
});

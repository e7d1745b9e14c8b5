import { describe, expect, it } from 'vitest';
import type { Command, TraceRecord } from '../../protocol/index.ts';
import { createSimActions, createSimStore, reduceWorkerEvent } from '../store/sim-store.ts';
import { applyDiff, emptyKeyspace } from '../store/keyspace.ts';
import { countByLevel, heldRecord, recentById, rootKind, storyOrder, whyNeedsAsking, whyTarget, whyTree, writerOf } from './why.ts';

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

describe('the why? tree', () => {
  const milestone = (step: number) => ({ kind: 'podBound', step, messageId: step, at: 0, components: [], object: { resource: 'pods', kind: 'Pod', namespace: 'default', name: 'p' }, node: 'node-1', revision: 9 }) as const;
  const leveled = (id: number, level: TraceRecord['level'], isMilestone = false): TraceRecord => ({
    ...record(id, id * 10, 'a', 'b', id === 1 ? null : id - 1), level, ...(isMilestone ? { milestone: milestone(id * 10) } : {}),
  });
  // Worker order: the message first, back to the root.
  const chain = [leveled(7, 'internal'), leveled(6, 'request'), leveled(5, 'milestone', true), leveled(4, 'internal'), leveled(3, 'request'), leveled(2, 'milestone', true), leveled(1, 'request')].map((r) => r);

  it('puts the root, the milestones and the step asked about at the top, root first, the rest between', () => {
    const tree = whyTree(chain);
    expect(tree.map((n) => [n.role, n.record.id])).toEqual([['root', 1], ['milestone', 2], ['milestone', 5], ['asked', 7]]);
    expect(tree.map((n) => n.between.map((r) => r.id))).toEqual([[], [], [3, 4], [6]]);
    expect(tree.map((n) => n.record.step)).toEqual([10, 20, 50, 70]);
  });

  it('keeps a milestone asked about as a milestone, and a lone root as the root', () => {
    expect(whyTree(chain.slice(2)).map((n) => n.role)).toEqual(['root', 'milestone', 'milestone']);
    expect(whyTree([record(1, 1, 'user', 'kube-apiserver', null)]).map((n) => n.role)).toEqual(['root']);
    expect(whyTree([])).toEqual([]);
  });

  it('counts requests apart from other deliveries', () => {
    expect(countByLevel([leveled(3, 'request'), leveled(4, 'internal'), leveled(5, undefined)])).toEqual({ requests: 1, deliveries: 2 });
  });

  it('explains the selected message, else the step shown', () => {
    const recent = [record(3, 10, 'a', 'b', null), record(4, 11, 'b', 'a', 3)];
    expect(whyTarget({ selection: null, recent })).toBe(4);
    expect(whyTarget({ selection: { type: 'message', id: 3 }, recent })).toBe(3);
    expect(whyTarget({ selection: { type: 'link', a: 'a', b: 'b' }, recent: [] })).toBeNull();
  });

  it('follows the playhead and the selection, but stays when the playhead moves within the chain', () => {
    const why = { id: 7, answer: { type: 'causeChain', id: 7, chain, truncated: false } } as const;
    expect(whyNeedsAsking(null, 9, false)).toBe(false);
    expect(whyNeedsAsking(why, 7, false)).toBe(false);
    expect(whyNeedsAsking(why, 5, false)).toBe(false);
    expect(whyNeedsAsking(why, 5, true)).toBe(true);
    expect(whyNeedsAsking(why, 42, false)).toBe(true);
    expect(whyNeedsAsking({ id: 7, answer: null }, 42, false)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import type { KeyEntry, KeyMeta, KeyspaceDiffEvent } from '../../protocol/index.ts';
import { applyDiff, applySnapshot, emptyKeyspace, pickRevision } from './keyspace.ts';

const entry = (key: string, rev: number, value = '{}'): KeyEntry => ({ key, createRevision: rev, modRevision: rev, version: 1, lease: '0', value });
/** A key as a snapshot ships it: without its value. */
const meta = (key: string, rev: number, size = 2): KeyMeta => ({ key, createRevision: rev, modRevision: rev, version: 1, lease: '0', size });

function booted() {
  return applySnapshot(emptyKeyspace, {
    type: 'keyspaceSnapshot', revision: 3, current: true, compacted: false, compactRevision: -1,
    entries: [meta('/registry/namespaces/default', 2), meta('/registry/pods/default/a', 3)],
  });
}

describe('keyspace mirror', () => {
  it('applies a diff: inserts in key order, keeps the previous version, deletes', () => {
    const diff: KeyspaceDiffEvent = {
      type: 'keyspaceDiff', revision: 6, compactRevision: 2, changes: [
        { ...entry('/registry/deployments/default/web', 4), deleted: false, step: 40 },
        { key: '/registry/pods/default/a', createRevision: 3, modRevision: 5, version: 2, lease: '0', value: '{"x":1}', deleted: false, step: 41 },
        { key: '/registry/namespaces/default', modRevision: 6, deleted: true, step: 42 },
      ],
    };
    const state = applyDiff(booted(), diff);
    expect(state.live.keys).toEqual(['/registry/deployments/default/web', '/registry/pods/default/a']);
    expect(state.live.revision).toBe(6);
    expect(state.live.compactRevision).toBe(2);
    expect(state.live.lastChanged).toEqual(['/registry/namespaces/default']);
    const pod = state.live.entries.get('/registry/pods/default/a');
    // The diff brought the value; the previous version came with the snapshot, without its value.
    expect(pod).toMatchObject({ modRevision: 5, version: 2, size: 7, value: '{"x":1}', step: 41, previous: { modRevision: 3, size: 2 } });
    expect(pod?.previous?.value).toBeUndefined();
    const again = applyDiff(state, {
      type: 'keyspaceDiff', revision: 7, compactRevision: 2, changes: [
        { key: '/registry/pods/default/a', createRevision: 3, modRevision: 7, version: 3, lease: '0', value: '{"x":2}', deleted: false, step: 43 },
      ],
    });
    expect(again.live.entries.get('/registry/pods/default/a')?.previous).toEqual({ key: '/registry/pods/default/a', createRevision: 3, modRevision: 5, version: 2, lease: '0', size: 7, value: '{"x":1}' });
  });

  it('takes only the answer to the revision still picked', () => {
    const picked = pickRevision(booted(), 2);
    expect(picked.past?.status).toBe('loading');
    const stale = applySnapshot(picked, { type: 'keyspaceSnapshot', revision: 1, current: false, compacted: false, compactRevision: -1, entries: [] });
    expect(stale).toBe(picked);
    const answered = applySnapshot(picked, {
      type: 'keyspaceSnapshot', revision: 2, current: false, compacted: false, compactRevision: -1, entries: [meta('/registry/namespaces/default', 2)],
    });
    expect(answered.past).toMatchObject({ status: 'ready', keys: ['/registry/namespaces/default'] });
    const compacted = applySnapshot(pickRevision(booted(), 1), { type: 'keyspaceSnapshot', revision: 1, current: false, compacted: true, compactRevision: 2, entries: [] });
    expect(compacted.past?.status).toBe('compacted');
  });
});

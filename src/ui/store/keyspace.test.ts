import { describe, expect, it } from 'vitest';
import { packKeyMetas, type KeyEntry, type KeyMeta, type KeyspaceDiffEvent } from '../../protocol/index.ts';
import { valuesHeld } from './key-table.ts';
import { applyDiff, applyMove, applySnapshot, emptyKeyspace, pickRevision, type KeyspaceState } from './keyspace.ts';

const entry = (key: string, rev: number, value = '{}'): KeyEntry => ({ key, createRevision: rev, modRevision: rev, version: 1, lease: '0', value });
/** A key as a snapshot ships it: without its value. */
const meta = (key: string, rev: number, size = 2): KeyMeta => ({ key, createRevision: rev, modRevision: rev, version: 1, lease: '0', size });

function booted() {
  return applySnapshot(emptyKeyspace, {
    type: 'keyspaceSnapshot', revision: 3, current: true, compacted: false, compactRevision: -1,
    entries: packKeyMetas([meta('/registry/namespaces/default', 2), meta('/registry/pods/default/a', 3)]),
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

  it('applies a move: the keys it names take their metas or go, the others stay as held, in key order', () => {
    const held = applyDiff(booted(), {
      type: 'keyspaceDiff', revision: 5, compactRevision: -1, changes: [
        { ...entry('/registry/leases/n1', 4, '{"renew":1}'), deleted: false, step: 40 },
        { key: '/registry/pods/default/a', createRevision: 3, modRevision: 5, version: 2, lease: '0', value: '{"x":1}', deleted: false, step: 41 },
      ],
    });
    const moved = applyMove(held, {
      type: 'keyspaceMove', revision: 9, compactRevision: 2,
      set: packKeyMetas([{ ...meta('/registry/events/e1', 8), step: 70 }, { ...meta('/registry/pods/default/a', 3, 9), modRevision: 9, version: 3, step: 71 }, { ...meta('/registry/pods/default/b', 6), step: 60 }]),
      removed: ['/registry/namespaces/default', '/registry/secrets/never-held'],
    });
    expect(moved.live.keys).toEqual(['/registry/events/e1', '/registry/leases/n1', '/registry/pods/default/a', '/registry/pods/default/b']);
    expect(moved.live).toMatchObject({ revision: 9, compactRevision: 2, lastChanged: [] });
    // Moved keys are held as a snapshot gives them: no value, no previous version.
    expect(moved.live.entries.get('/registry/pods/default/a')).toEqual({ ...meta('/registry/pods/default/a', 3, 9), modRevision: 9, version: 3, step: 71, previous: null });
    // A key the move does not name keeps what the page held, its value too.
    expect(moved.live.entries.get('/registry/leases/n1')?.value).toBe('{"renew":1}');
    // A move with nothing added or removed keeps the key list.
    const again = applyMove(moved, { type: 'keyspaceMove', revision: 10, compactRevision: 2, set: packKeyMetas([{ ...meta('/registry/events/e1', 10), step: 80 }]), removed: [] });
    expect(again.live.keys).toBe(moved.live.keys);
  });

  it('takes only the answer to the revision still picked', () => {
    const picked = pickRevision(booted(), 2);
    expect(picked.past?.status).toBe('loading');
    const stale = applySnapshot(picked, { type: 'keyspaceSnapshot', revision: 1, current: false, compacted: false, compactRevision: -1, entries: packKeyMetas([]) });
    expect(stale).toBe(picked);
    const answered = applySnapshot(picked, {
      type: 'keyspaceSnapshot', revision: 2, current: false, compacted: false, compactRevision: -1, entries: packKeyMetas([meta('/registry/namespaces/default', 2)]),
    });
    expect(answered.past).toMatchObject({ status: 'ready', keys: ['/registry/namespaces/default'] });
    const compacted = applySnapshot(pickRevision(booted(), 1), { type: 'keyspaceSnapshot', revision: 1, current: false, compacted: true, compactRevision: 2, entries: packKeyMetas([]) });
    expect(compacted.past?.status).toBe('compacted');
  });

  it('holds the values of the keys written last only; the others keep their metas, as a snapshot gives them', () => {
    const write = (state: KeyspaceState, key: string, rev: number, value: string) => applyDiff(state, {
      type: 'keyspaceDiff', revision: rev, compactRevision: -1, changes: [{ key, createRevision: 10, modRevision: rev, version: rev - 9, lease: '0', value, deleted: false, step: rev }],
    });
    const key = (i: number) => `/registry/events/default/e${String(i).padStart(5, '0')}`;
    let state = booted();
    // The first key twice, so it holds a previous version's value too.
    state = write(state, key(0), 10, 'v0');
    state = write(state, key(0), 11, 'v1');
    expect(state.live.entries.get(key(0))).toMatchObject({ value: 'v1', previous: { value: 'v0' } });
    for (let i = 1; i <= valuesHeld; i++) state = write(state, key(i), 11 + i, `value ${i}`);
    // One key more than are held: the one written longest ago lets go of its values, metas and step kept.
    const first = state.live.entries.get(key(0))!;
    expect(first).toEqual({ key: key(0), createRevision: 10, modRevision: 11, version: 2, lease: '0', size: 2, step: 11, previous: { key: key(0), createRevision: 10, modRevision: 10, version: 1, lease: '0', size: 2 } });
    expect(state.live.entries.get(key(1))?.value).toBe('value 1');
    expect(state.live.entries.get(key(valuesHeld))?.value).toBe(`value ${valuesHeld}`);
    const holding = () => state.live.keys.filter((k) => state.live.entries.get(k)?.value !== undefined).length;
    expect(holding()).toBe(valuesHeld);
    // Written again, a key holds its value anew and the next oldest lets go.
    state = write(state, key(0), 20_000, 'v2');
    expect(state.live.entries.get(key(0))).toMatchObject({ value: 'v2', previous: { modRevision: 11 } });
    expect(state.live.entries.get(key(0))?.previous?.value).toBeUndefined();
    expect(state.live.entries.get(key(1))?.value).toBeUndefined();
    expect(holding()).toBe(valuesHeld);
    // A deleted key no longer counts: the next write past the bound takes no value from another.
    state = applyDiff(state, { type: 'keyspaceDiff', revision: 20_001, compactRevision: -1, changes: [{ key: key(2), modRevision: 20_001, deleted: true, step: 20_001 }] });
    state = write(state, key(valuesHeld + 1), 20_002, 'new');
    expect(state.live.entries.get(key(3))?.value).toBe('value 3');
    expect(holding()).toBe(valuesHeld);
  });
});

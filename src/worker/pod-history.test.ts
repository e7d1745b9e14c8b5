import { describe, expect, it } from 'vitest';
import type { KeyChange } from '../protocol/index.ts';
import { PodHistory } from './pod-history.ts';
import { podsOfDiff } from './pods.ts';
import { podValue, writes } from './pod-writes.ts';

describe('PodHistory', () => {
  it('answers every revision alike once the versions older than the retained steps keep only their chips', () => {
    const changes = writes();
    const whole = new PodHistory(1);
    const pruned = new PodHistory(1);
    for (const change of changes) {
      whole.note(change);
      pruned.note(change);
    }
    const last = changes.at(-1)!.modRevision;
    // Read only after the prune: the chips of the older versions are the prune's own.
    pruned.prune(Math.floor(last * 0.8));
    const probes = [1, 2, 40, 41, 500, 1_000, 2_345, 3_000, 4_000, last - 1, last];
    const expected = probes.map((revision) => whole.at(revision));
    expect(expected[4]!.length).toBeGreaterThan(0);
    expect(probes.map((revision) => pruned.at(revision))).toEqual(expected);
    expect(pruned.at(0)).toBeNull();
  });

  it('shows a deleted pod up to its deletion', () => {
    const history = new PodHistory(1);
    const value = podValue('a', 'node-1', 'Running');
    history.note({ key: '/registry/pods/default/a', createRevision: 2, modRevision: 2, version: 1, lease: '0', value, deleted: false, step: 2 });
    history.note({ key: '/registry/pods/default/a', modRevision: 3, deleted: true, step: 3 });
    history.prune(3);
    expect(history.at(2)?.map((chip) => [chip.name, chip.node, chip.phase])).toEqual([['a', 'node-1', 'Running']]);
    expect(history.at(3)).toEqual([]);
  });

  it('gives a diff the chip of the very version it holds, decoded once, and nothing for a version it lacks', () => {
    const history = new PodHistory(1, undefined, 1);
    const key = '/registry/pods/default/a';
    const first: KeyChange = { key, createRevision: 2, modRevision: 2, version: 1, lease: '0', value: podValue('a', null, 'Pending'), deleted: false, step: 2 };
    const bound: KeyChange = { key, createRevision: 2, modRevision: 5, version: 2, lease: '0', value: podValue('a', 'node-1', 'Running'), deleted: false, step: 5 };
    history.note(first);
    history.note(bound);
    const diff = podsOfDiff({ changes: [bound] }, (entry) => history.versionChip(entry.key, entry.modRevision) ?? null);
    const shown = diff?.upserted[0];
    expect(shown).toMatchObject({ name: 'a', node: 'node-1', phase: 'Running' });
    // The very chip the history keeps: a snapshot and a later diff do not decode it again.
    expect(history.at(5)?.[0]).toBe(shown);
    expect(history.versionChip(key, 5)).toBe(shown);
    // Revision 4 shows the version written at 2, which is not a version written at 4.
    expect(history.versionChip(key, 4)).toBeUndefined();
    expect(history.versionChip('/registry/pods/default/b', 5)).toBeUndefined();
    // Once aged, the version written at 2 answers from its shape.
    history.prune(5);
    expect(history.aged).toBe(1);
    expect(history.versionChip(key, 2)).toMatchObject({ name: 'a', node: null, phase: 'Pending' });
    expect(history.versionChip(key, 3)).toBeUndefined();
    expect(history.versionChip(key, 0)).toBeUndefined();
  });

  it('keeps at most its limit of versions older than the retained steps, and answers from where it forgot', () => {
    const changes = writes();
    const whole = new PodHistory(1);
    const bounded = new PodHistory(1, 500);
    for (const change of changes) {
      whole.note(change);
      bounded.note(change);
    }
    const last = changes.at(-1)!.modRevision;
    bounded.prune(Math.floor(last * 0.8));
    // About 2,600 versions aged out: the oldest half of them went, and with them the revisions they answered.
    expect(bounded.from).toBeGreaterThan(1);
    expect(bounded.from).toBeLessThan(Math.floor(last * 0.8));
    expect(bounded.at(bounded.from - 1)).toBeNull();
    expect(bounded.chipAt('/registry/pods/default/web-1', bounded.from - 1)).toBeUndefined();
    for (const revision of [bounded.from, bounded.from + 1, Math.floor(last * 0.7), last - 1, last]) {
      expect(bounded.at(revision)).toEqual(whole.at(revision));
      expect(bounded.chipAt('/registry/pods/default/web-1', revision)).toEqual(whole.chipAt('/registry/pods/default/web-1', revision));
    }
  });

  it('answers every revision as the unpruned history does while prunes age versions and forget the oldest', () => {
    const changes = writes();
    const whole = new PodHistory(1);
    // A prune every 64 notes, at revisions trailing the writes, keeping at most 900 aged versions.
    const pruned = new PodHistory(1, 900, 64);
    let forgotten = 0;
    for (const change of changes) {
      whole.note(change);
      pruned.note(change);
      const from = pruned.from;
      pruned.prune(change.modRevision - 150);
      if (pruned.from > from) forgotten++;
    }
    expect(forgotten).toBeGreaterThan(1);
    expect(pruned.aged).toBeGreaterThan(400);
    expect(pruned.aged).toBeLessThanOrEqual(900);
    const last = changes.at(-1)!.modRevision;
    for (let revision = 1; revision <= last; revision++) {
      const expected = revision < pruned.from ? null : whole.at(revision);
      expect(pruned.at(revision), `revision ${revision}`).toEqual(expected);
    }
    for (const name of ['web-0', 'web-1', 'web-39']) {
      const key = `/registry/pods/default/${name}`;
      for (const revision of [pruned.from, pruned.from + 7, last - 200, last]) expect(pruned.chipAt(key, revision)).toEqual(whole.chipAt(key, revision));
    }
  });

  it('lets go of the value of each version in place when the retained steps begin, keeping what it answers', () => {
    const changes = writes();
    const whole = new PodHistory(1);
    const pruned = new PodHistory(1, 1_000_000, 1);
    for (const change of changes) {
      whole.note(change);
      pruned.note(change);
    }
    const last = changes.at(-1)!.modRevision;
    const keys = new Set(changes.map((change) => change.key)).size;
    const after = changes.filter((change) => change.modRevision > Math.floor(last * 0.8) && !change.deleted).length;
    pruned.prune(Math.floor(last * 0.8));
    // Only the versions written after the prune's revision still hold a value; every key's version in place
    // at it is a chip now (before: one value a key more).
    expect(pruned.valuesHeld()).toBe(after);
    expect(whole.valuesHeld()).toBeGreaterThan(after + keys / 2);
    for (const revision of [Math.floor(last * 0.5), Math.floor(last * 0.8), Math.floor(last * 0.8) + 1, last]) expect(pruned.at(revision)).toEqual(whole.at(revision));
    const atEnd = new PodHistory(1, 1_000_000, 1);
    for (const change of changes) atEnd.note(change);
    atEnd.prune(last);
    expect(atEnd.valuesHeld()).toBe(0);
    expect(atEnd.at(last)).toEqual(whole.at(last));
  });

  it('keeps an aged pod\'s own name and namespace where its stored object does not match its key', () => {
    const history = new PodHistory(1, 100, 1);
    const key = '/registry/pods/default/a';
    const stored = JSON.parse(podValue('b', 'node-1', 'Running')) as { metadata: { namespace: string } };
    stored.metadata.namespace = 'other';
    const change = (modRevision: number, value: string): KeyChange => ({ key, createRevision: 2, modRevision, version: modRevision - 1, lease: '0', value, deleted: false, step: modRevision });
    history.note(change(2, JSON.stringify(stored)));
    history.note(change(3, podValue('a', 'node-1', 'Running')));
    history.note(change(4, 'not a pod'));
    history.note(change(5, podValue('a', 'node-2', 'Running')));
    history.prune(5);
    expect(history.aged).toBe(3);
    expect(history.chipAt(key, 2)).toEqual({ key, namespace: 'other', name: 'b', node: 'node-1', phase: 'Running', status: 'Running', ready: false, deleting: false, createRevision: 2 });
    expect(history.chipAt(key, 3)).toMatchObject({ namespace: 'default', name: 'a', node: 'node-1' });
    expect(history.chipAt(key, 4)).toBeNull();
    expect(history.at(4)).toEqual([]);
    expect(history.chipAt(key, 5)).toMatchObject({ name: 'a', node: 'node-2' });
  });
});

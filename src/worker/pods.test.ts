import { describe, expect, it } from 'vitest';
import { packKeyMetas, type KeyChange } from '../protocol/index.ts';
import { PodHistory, podsOfDiff, podsOfMove, withPods } from './pods.ts';
import type { PodChip, WorkerEvent } from '../protocol/index.ts';

/** A pod as kube-apiserver stores it with `--storage-media-type=json`. */
function podValue(name: string, node: string | null, phase: string): string {
  const containers = [{ name: 'web', image: 'nginx:1.14.2' }];
  return JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: node ? { nodeName: node, containers } : { containers }, status: { phase } });
}

/** 4,200 writes from revision 2 on: 40 pods created, bound, run and some deleted, over and over. */
function writes(): KeyChange[] {
  const changes: KeyChange[] = [];
  let revision = 1;
  for (let round = 0; changes.length < 4_200; round++) {
    for (let i = 0; i < 40; i++) {
      const key = `/registry/pods/default/web-${i}`;
      const name = `web-${i}`;
      const created = ++revision;
      changes.push({ key, createRevision: created, modRevision: created, version: 1, lease: '0', value: podValue(name, null, 'Pending'), deleted: false, step: revision });
      changes.push({ key, createRevision: created, modRevision: ++revision, version: 2, lease: '0', value: podValue(name, `node-${(i + round) % 3}`, 'Pending'), deleted: false, step: revision });
      changes.push({ key, createRevision: created, modRevision: ++revision, version: 3, lease: '0', value: podValue(name, `node-${(i + round) % 3}`, 'Running'), deleted: false, step: revision });
      if (i % 4 === 0) changes.push({ key, modRevision: ++revision, deleted: true, step: revision });
    }
  }
  return changes;
}

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

  it('keeps a chip decoded for a diff as its version\'s, so a snapshot does not decode it again', () => {
    const history = new PodHistory(1);
    const key = '/registry/pods/default/a';
    const value = podValue('a', 'node-1', 'Running');
    history.note({ key, createRevision: 2, modRevision: 2, version: 1, lease: '0', value, deleted: false, step: 2 });
    const diff = podsOfDiff({ changes: [{ key, createRevision: 2, modRevision: 2, version: 1, lease: '0', value, deleted: false, step: 2 }] }, (k, revision, chip) => history.remember(k, revision, chip));
    const shown = diff?.upserted[0];
    expect(shown).toMatchObject({ name: 'a', node: 'node-1', phase: 'Running' });
    // The very chip the diff shipped, not a second decode.
    expect(history.at(2)?.[0]).toBe(shown);
    // A revision not written for the key keeps nothing.
    history.remember(key, 3, null);
    expect(history.at(3)?.[0]).toBe(shown);
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

  it('follows a move with the pods it names as they are at its revision, from the history', () => {
    const history = new PodHistory(1);
    for (const change of writes().slice(0, 200)) history.note(change);
    const named = (key: string) => ({ key, createRevision: 1, modRevision: 1, version: 1, lease: '0', size: 1, step: 1 });
    const move = {
      revision: 60,
      set: packKeyMetas([named('/registry/leases/kube-node-lease/node-1'), named('/registry/pods/default/web-2'), named('/registry/pods/default/web-39')]),
      removed: ['/registry/pods/default/gone', '/registry/events/e'],
    };
    const chipAt = (key: string, revision: number) => history.chipAt(key, revision) ?? null;
    const pods = podsOfMove(move, { chipAt });
    expect(pods?.upserted.map((chip) => chip.name)).toEqual(['web-2']);
    // web-39 is not created by revision 60.
    expect(pods?.removed).toEqual(['/registry/pods/default/web-39', '/registry/pods/default/gone']);
    expect(podsOfMove({ revision: 60, set: packKeyMetas([]), removed: ['/registry/events/e'] }, { chipAt })).toBeNull();
  });

  it('says on a replacement when the pods of the revision shown are no longer kept', () => {
    const posted: WorkerEvent[] = [];
    const chips: PodChip[] = [];
    const source = { podsAt: () => chips, podsKeptFrom: (revision: number) => (revision < 40 ? 40 : null), chipAt: () => null, decoded: () => undefined };
    const post = withPods((event) => posted.push(event), () => source);
    const snapshot = (revision: number): WorkerEvent => ({ type: 'keyspaceSnapshot', revision, current: true, compacted: revision < 40, compactRevision: 40, entries: packKeyMetas([]) });
    post(snapshot(12));
    post(snapshot(45));
    expect(posted.filter((e) => e.type === 'pods')).toEqual([
      { type: 'pods', replace: true, upserted: [], removed: [], keptFrom: 40 },
      { type: 'pods', replace: true, upserted: [], removed: [] },
    ]);
  });
});

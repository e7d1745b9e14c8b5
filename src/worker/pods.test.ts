import { describe, expect, it } from 'vitest';
import { packKeyMetas } from '../protocol/index.ts';
import { PodHistory } from './pod-history.ts';
import { podsOfMove, withPods } from './pods.ts';
import { writes } from './pod-writes.ts';
import type { PodChip, WorkerEvent } from '../protocol/index.ts';

describe('pods of a move and of a snapshot', () => {
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
    const source = { podsAt: () => chips, podsKeptFrom: (revision: number) => (revision < 40 ? 40 : null), chipAt: () => null, chipOfVersion: () => null };
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

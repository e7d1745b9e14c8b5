import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PodChip, PodsEvent } from '../../protocol/index.ts';
import { applyPods, chipLabel, chipName, chipSlots, emptyPods, moreName, podLook, unbound } from './pods.ts';

function pod(n: number, node: string | null, over: Partial<PodChip> = {}): PodChip {
  const name = `web-5d9c7b-${String(n).padStart(5, 'a')}`;
  return { key: `/registry/pods/default/${name}`, namespace: 'default', name, node, phase: 'Pending', status: 'Pending', ready: false, deleting: false, createRevision: 100 + n, ...over };
}

const diff = (upserted: PodChip[], removed: string[] = []): PodsEvent => ({ type: 'pods', replace: false, upserted, removed });

describe('pods per node', () => {
  it('moves a pod from the unbound group to its node when bound, and drops it when deleted', () => {
    const created = applyPods(emptyPods, diff([pod(1, null)]));
    expect(created.groups.get(unbound)?.shown.map((p) => p.name)).toEqual([pod(1, null).name]);
    const bound = applyPods(created, diff([pod(1, 'node-2', { status: 'ContainerCreating' })]));
    expect(bound.groups.has(unbound)).toBe(false);
    expect(bound.groups.get('node-2')?.shown[0]?.status).toBe('ContainerCreating');
    const deleted = applyPods(bound, diff([], [pod(1, null).key]));
    expect(deleted.groups.size).toBe(0);
    expect(deleted.byKey.size).toBe(0);
  });

  it('shows at most chipSlots chips, oldest first, the last slot saying how many more and in which states', () => {
    const many = Array.from({ length: 1000 }, (_, i) => pod(i, 'node-1', i % 2 === 0 ? { phase: 'Running', status: 'Running', ready: true } : {}));
    const state = applyPods(emptyPods, { type: 'pods', replace: true, upserted: [...many].reverse(), removed: [] });
    const group = state.groups.get('node-1')!;
    expect(group.shown).toHaveLength(chipSlots - 1);
    expect(group.shown.map((p) => p.createRevision)).toEqual(many.slice(0, chipSlots - 1).map((p) => p.createRevision));
    expect(group.more).toBe(1000 - (chipSlots - 1));
    expect(group.all.map((p) => p.createRevision)).toEqual(many.map((p) => p.createRevision));
    expect(moreName(group)).toBe(`${1000 - (chipSlots - 1)} more pods (of 1000: 500 running, 500 starting)`);
    const exactly = applyPods(emptyPods, { type: 'pods', replace: true, upserted: many.slice(0, chipSlots), removed: [] });
    expect(exactly.groups.get('node-1')).toMatchObject({ more: 0, total: chipSlots });
  });

  it('rebuilds only the groups a diff touches; an empty diff changes nothing', () => {
    const state = applyPods(emptyPods, { type: 'pods', replace: true, upserted: [pod(1, 'node-1'), pod(2, 'node-2')], removed: [] });
    const next = applyPods(state, diff([pod(2, 'node-2', { phase: 'Running', status: 'Running', ready: true })]));
    expect(next.groups.get('node-1')).toBe(state.groups.get('node-1'));
    expect(next.groups.get('node-2')).not.toBe(state.groups.get('node-2'));
    expect(applyPods(state, diff([]))).toBe(state);
  });

  it('keeps, diff after diff, the groups a replacement with the same pods would make', () => {
    // A diff: pods (by number) created, moved to a node or changed, and removed.
    const diffs = fc.array(fc.record({
      upserted: fc.array(fc.record({ n: fc.nat(40), node: fc.option(fc.constantFrom('node-1', 'node-2', 'node-3'), { nil: null }), running: fc.boolean() }), { maxLength: 12 }),
      removed: fc.array(fc.nat(40), { maxLength: 6 }),
    }), { maxLength: 25 });
    fc.assert(fc.property(diffs, (steps) => {
      let state = emptyPods;
      const held = new Map<string, PodChip>();
      for (const step of steps) {
        const upserted = step.upserted.map(({ n, node, running }) => pod(n, node, running ? { phase: 'Running', status: 'Running', ready: true } : {}));
        const removed = step.removed.map((n) => pod(n, null).key);
        state = applyPods(state, diff(upserted, removed));
        for (const key of removed) held.delete(key);
        for (const chip of upserted) held.set(chip.key, chip);
        const whole = applyPods(emptyPods, { type: 'pods', replace: true, upserted: [...held.values()], removed: [] });
        expect(new Map(state.byKey)).toEqual(whole.byKey);
        expect(new Map([...state.groups].sort(([a], [b]) => a.localeCompare(b)))).toEqual(new Map([...whole.groups].sort(([a], [b]) => a.localeCompare(b))));
      }
    }));
    // The shared empty state is never written to.
    expect(emptyPods.byKey.size).toBe(0);
  });

  it('a replacement (a seek) forgets pods not in it', () => {
    const state = applyPods(emptyPods, diff([pod(1, 'node-1'), pod(2, 'node-2')]));
    const past = applyPods(state, { type: 'pods', replace: true, upserted: [pod(1, null)], removed: [] });
    expect([...past.groups.keys()]).toEqual([unbound]);
  });

  it('holds whether the pods of the step shown are kept until the next replacement', () => {
    const forgotten = applyPods(emptyPods, { type: 'pods', replace: true, upserted: [], removed: [], keptFrom: 40 });
    expect(forgotten.keptFrom).toBe(40);
    expect(applyPods(forgotten, diff([pod(1, 'node-1')])).keptFrom).toBe(40);
    expect(applyPods(forgotten, { type: 'pods', replace: true, upserted: [pod(1, 'node-1')], removed: [] }).keptFrom).toBeNull();
  });

  it('names and colours a chip by the pod\'s state', () => {
    expect(chipLabel('nginx-deployment-66b6c48dd5-4jw2p')).toBe('4jw2p');
    expect(chipLabel('solo')).toBe('solo');
    expect(chipName({ name: 'web-1', status: 'ContainerCreating' })).toBe('pod web-1, ContainerCreating');
    expect(podLook({ phase: 'Pending', ready: false, deleting: false, node: null })).toBe('pending');
    expect(podLook({ phase: 'Pending', ready: false, deleting: false, node: 'node-1' })).toBe('starting');
    expect(podLook({ phase: 'Running', ready: false, deleting: false, node: 'node-1' })).toBe('starting');
    expect(podLook({ phase: 'Running', ready: true, deleting: false, node: 'node-1' })).toBe('running');
    expect(podLook({ phase: 'Running', ready: true, deleting: true, node: 'node-1' })).toBe('terminating');
    expect(podLook({ phase: 'Failed', ready: false, deleting: false, node: 'node-1' })).toBe('failed');
  });
});

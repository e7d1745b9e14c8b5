import { describe, expect, it } from 'vitest';
import type { ObjectRow, ObjectsView } from '../../protocol/index.ts';
import { reduceWorkerEvent, initialSimState } from '../store/sim-store.ts';
import { conditionSummary, generationText } from './objects.ts';

const row = (key: string): ObjectRow => ({
  key, namespace: 'default', name: key.split('/').at(-1)!, uid: 'u', cells: [], resourceVersion: '7', modRevision: 7,
  generation: null, observedGeneration: null, ownerReferences: [], conditions: [], deleting: false,
});
const view: ObjectsView = {
  listResourceVersion: '9',
  tables: [
    { resource: 'pods', kind: 'Pod', prefix: '/registry/pods/', namespaced: true, columns: ['Name'], count: 1 },
    { resource: 'replicasets', kind: 'ReplicaSet', prefix: '/registry/replicasets/', namespaced: true, columns: ['Name'], count: 1 },
  ],
  resource: 'pods',
  offset: 0,
  rows: [row('/registry/pods/default/a')],
  selected: null,
};

describe('objects panel logic', () => {
  it('reads generations and conditions', () => {
    expect(generationText({ generation: null, observedGeneration: null })).toBe('—');
    expect(generationText({ generation: 2, observedGeneration: 1 })).toBe('2 (observed 1)');
    expect(conditionSummary([{ type: 'Ready', status: 'True', reason: '', message: '' }, { type: 'PodScheduled', status: 'True', reason: '', message: '' }])).toBe('Ready=True, PodScheduled=True');
  });

  it('merges inspection answers topic by topic, and forgets them for a new cluster', () => {
    let state = reduceWorkerEvent(initialSimState, { type: 'inspection', step: 3, objects: view });
    const scheduler = { made: 0, dropped: 0, pod: '', matching: 0, attempts: [], detail: null };
    state = reduceWorkerEvent(state, { type: 'inspection', step: 4, scheduler });
    expect(state.inspection).toMatchObject({ step: 4, objects: view, scheduler });
    state = reduceWorkerEvent(state, { type: 'ready', seed: 1, nodes: 1, topology: { components: [], links: [] }, bootSteps: 0 });
    expect(state.inspection).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import type { ComponentInsides, InsidesEvent } from '../../protocol/index.ts';
import { initialSimState, reduceWorkerEvent } from './sim-store.ts';

const kubelet = (step: string): ComponentInsides => ({ role: 'kubelet', steps: [{ pod: 'default/web-1', container: 'web', step }] });
const insides = (components: Record<string, ComponentInsides>, replace: boolean, step = 1): InsidesEvent => ({ type: 'insides', step, retained: true, replace, components });

describe('the insides the store holds', () => {
  it('merges changed components and keeps the unchanged ones as they are', () => {
    const node1 = kubelet('pulling');
    const first = reduceWorkerEvent(initialSimState, insides({ 'kubelet/node-1': node1, 'kubelet/node-2': kubelet('sandbox') }, true));
    const next = reduceWorkerEvent(first, insides({ 'kubelet/node-2': kubelet('creating') }, false, 2));
    expect(next.insides!.step).toBe(2);
    expect(next.insides!.components['kubelet/node-1']).toBe(node1);
    expect(next.insides!.components['kubelet/node-2']).toEqual(kubelet('creating'));
  });

  it('drops what it holds on replace and on a new cluster', () => {
    const first = reduceWorkerEvent(initialSimState, insides({ 'kubelet/node-1': kubelet('pulling') }, true));
    expect(Object.keys(reduceWorkerEvent(first, insides({ 'kubelet/node-2': kubelet('sandbox') }, true)).insides!.components)).toEqual(['kubelet/node-2']);
    expect(reduceWorkerEvent(first, { type: 'ready', seed: 's', nodes: 1, topology: { components: [], links: [] }, bootSteps: 0 }).insides).toBeNull();
  });
});

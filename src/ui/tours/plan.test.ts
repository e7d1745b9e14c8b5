import { describe, expect, it } from 'vitest';
import type { ScenarioView, Tour } from '../../protocol/index.ts';
import { fillResourceVersion, tourActions } from './plan.ts';

const catalog: ScenarioView[] = [{
  id: 'my-replicaset', title: { en: 'x', zh: 'x' }, description: { en: 'x', zh: 'x' }, nodes: 3, manifests: [],
  steps: [{ step: { do: 'create', file: 'replicaset.yaml' }, commandLine: 'kubectl create -f replicaset.yaml' }, { step: { do: 'runUntilIdle' }, commandLine: '# run until idle' }],
}];

const tour = (steps: Tour['steps']): Tour => ({ id: 't', title: { en: 't', zh: 't' }, description: { en: 't', zh: 't' }, source: 's', nodes: 3, steps, stops: [] });

describe('a tour\'s actions', () => {
  it('expand a scenario into its steps, as the Scenarios tab carries them out, then the tour\'s own', () => {
    expect(tourActions(tour([
      { do: 'scenario', id: 'my-replicaset' },
      { do: 'run', line: 'kubectl get --raw /api/v1/pods' },
      { do: 'fault', fault: { type: 'compactEtcd' } },
      { do: 'advance', ms: 5_000 },
      { do: 'runUntilIdle' },
    ]), catalog)).toEqual([
      { kind: 'console', line: 'kubectl create -f replicaset.yaml' },
      { kind: 'runUntilIdle' },
      { kind: 'console', line: 'kubectl get --raw /api/v1/pods' },
      { kind: 'fault', fault: { type: 'compactEtcd' } },
      { kind: 'advance', ms: 5_000 },
      { kind: 'runUntilIdle' },
    ]);
  });

  it('name the scenario the catalog lacks', () => {
    expect(() => tourActions(tour([{ do: 'scenario', id: 'nope' }]), catalog)).toThrow('tour t: no scenario "nope" in the catalog');
  });

  it('fill {resourceVersion} from the list the previous command printed', () => {
    const list = JSON.stringify({ kind: 'PodList', metadata: { resourceVersion: '43' }, items: [] });
    expect(fillResourceVersion("kubectl get --raw '/api/v1/pods?resourceVersion={resourceVersion}'", list)).toBe("kubectl get --raw '/api/v1/pods?resourceVersion=43'");
    expect(fillResourceVersion('kubectl get po', 'not json')).toBe('kubectl get po');
    expect(fillResourceVersion('x={resourceVersion}', 'NAME READY')).toBeNull();
    expect(fillResourceVersion('x={resourceVersion}', '{"metadata":{}}')).toBeNull();
  });
});

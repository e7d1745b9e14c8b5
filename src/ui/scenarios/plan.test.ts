import { describe, expect, it } from 'vitest';
import type { ScenarioStepView, ScenarioView } from '../../protocol/index.ts';
import { deleteFirstPodLine, stepAction, workloadKeyCount, workloadKeys } from './plan.ts';
import { initialRun, stepFinished, stepRanCommand, stepStarted } from './run-state.ts';

const view = (step: ScenarioStepView['step'], commandLine: string): ScenarioStepView => ({ step, commandLine });

describe('a scenario step as user commands', () => {
  it('runs kubectl steps in the console exactly as their command line reads', () => {
    expect(stepAction(view({ do: 'create', file: 'replicaset.yaml' }, 'kubectl create -f replicaset.yaml'))).toEqual({ kind: 'console', line: 'kubectl create -f replicaset.yaml' });
    expect(stepAction(view({ do: 'scale', resource: 'deployment', name: 'nginx-deployment', replicas: 3 }, 'kubectl scale deployment/nginx-deployment --replicas=3')))
      .toEqual({ kind: 'console', line: 'kubectl scale deployment/nginx-deployment --replicas=3' });
    expect(stepAction(view({ do: 'delete', resource: 'deployment', name: 'x', propagationPolicy: 'Orphan' }, 'kubectl delete deployment x --cascade=orphan')))
      .toEqual({ kind: 'console', line: 'kubectl delete deployment x --cascade=orphan' });
  });

  it('splits deleteOnePod into the list the console can run, then a delete of the first pod it printed', () => {
    expect(stepAction(view({ do: 'deleteOnePod', labelSelector: 'app=my-app' }, 'kubectl delete $(kubectl get pods -l app=my-app -o name | head -1)')))
      .toEqual({ kind: 'deleteOnePod', listLine: 'kubectl get pods -l app=my-app -o name' });
    expect(deleteFirstPodLine('pod/my-replicaset-7kq2x\npod/my-replicaset-b9d4l\n')).toBe('kubectl delete pod/my-replicaset-7kq2x');
    expect(deleteFirstPodLine('No resources found in default namespace.\n')).toBeNull();
  });

  it('injects fault steps as faults and leaves the playback steps to playback', () => {
    expect(stepAction(view({ do: 'fault', fault: { type: 'nodeDown', node: 'node-1' } }, '# fault: nodeDown node-1'))).toEqual({ kind: 'fault', fault: { type: 'nodeDown', node: 'node-1' } });
    expect(stepAction(view({ do: 'runUntilIdle' }, '# run until idle'))).toEqual({ kind: 'runUntilIdle' });
    expect(stepAction(view({ do: 'advance', ms: 360_000 }, '# advance 360 s'))).toEqual({ kind: 'advance', ms: 360_000 });
  });

  it('counts the objects someone created, not the ones the cluster boots with', () => {
    expect(workloadKeys([
      '/registry/namespaces/default', '/registry/clusterroles/admin', '/registry/minions/node-1', '/registry/leases/kube-node-lease/node-1',
      '/registry/services/specs/default/kubernetes', '/registry/configmaps/default/kube-root-ca.crt',
    ])).toEqual([]);
    expect(workloadKeys(['/registry/namespaces/default', '/registry/pods/default/a', '/registry/replicasets/default/rs'])).toEqual(['/registry/pods/default/a', '/registry/replicasets/default/rs']);
  });

  it('counts them in a sorted key list by binary search, as filtering would', () => {
    const keys = [
      '/registry/clusterroles/admin', '/registry/deployments/default/web', '/registry/jobs/x/j', '/registry/minions/node-1',
      '/registry/pods/default/a', '/registry/pods/default/b', '/registry/pods/kube-system/c', '/registry/podsX/odd',
      '/registry/replicasets/default/rs', '/registry/services/endpoints/default/kubernetes', '/registry/services/specs/default/kubernetes',
      '/registry/services/specs/default/web',
    ].sort();
    expect(workloadKeyCount(keys)).toBe(workloadKeys(keys).length);
    // Not the kubernetes Service kube-apiserver creates at start.
    expect(workloadKeyCount(keys)).toBe(7);
    expect(workloadKeyCount([])).toBe(0);
  });
});

describe('where a scenario run is', () => {
  const scenario: ScenarioView = {
    id: 's', title: { en: 'S', zh: 'S' }, description: { en: '', zh: '' }, nodes: 3, manifests: [],
    steps: [view({ do: 'runUntilIdle' }, '# run until idle'), view({ do: 'advance', ms: 1000 }, '# advance 1 s')],
  };

  it('moves on after a step is done and stays on a failed one', () => {
    let run = initialRun(scenario, 1);
    expect(run).toMatchObject({ next: 0, steps: [{ status: 'pending' }, { status: 'pending' }] });
    run = stepRanCommand(stepStarted(run, 0), 0, 4);
    expect(run.steps[0]).toEqual({ status: 'running', entries: [4] });
    run = stepFinished(run, 0, { ok: true, entries: [4] });
    expect(run).toMatchObject({ next: 1, steps: [{ status: 'done', entries: [4] }, { status: 'pending' }] });
    run = stepFinished(stepStarted(run, 1), 1, { ok: false, entries: [], message: 'stopped' });
    expect(run).toMatchObject({ next: 1, steps: [{ status: 'done' }, { status: 'failed', message: 'stopped' }] });
  });
});

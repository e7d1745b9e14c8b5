// The runner as the worker drives it (begin, then engine steps while busy) and kubectl's answers when a
// command fails, in kubectl's words.

import { describe, expect, it } from 'vitest';
import { httpKinds, type HttpRequest } from '../wire/http.ts';
import { createCluster } from '../cluster.ts';
import { nginxDeploymentYaml } from './manifests.ts';
import { ScenarioRunner } from './runner.ts';
import type { Scenario, ScenarioStep } from './scenario.ts';

function scenario(steps: ScenarioStep[]): Scenario {
  return {
    id: 'test', title: { en: 'test', zh: '测试' }, description: { en: 'test', zh: '测试' },
    manifests: [{ file: 'nginx.yml', yaml: nginxDeploymentYaml }], steps,
  };
}

function booted(seed: string) {
  const cluster = createCluster({ seed });
  cluster.boot();
  return cluster;
}

describe('ScenarioRunner', () => {
  it('step by step: begin() sends the first request only; the next leaves when the answer is delivered; each is a root', () => {
    const cluster = booted('runner-steps');
    const runner = new ScenarioRunner(cluster, scenario([
      { do: 'create', file: 'nginx.yml' }, { do: 'runUntilIdle' },
      { do: 'setImage', resource: 'deployment', name: 'nginx-deployment', container: 'nginx', image: 'nginx:1.16.1' },
    ]));
    runner.runStep();
    runner.runStep();
    const record = runner.begin();
    expect(runner.busy).toBe(true);
    expect(record.requestIds).toHaveLength(1);
    const first = cluster.engine.step;
    while (runner.busy) expect(cluster.engine.stepOnce()).not.toBeNull();
    expect(runner.done).toBe(true);
    expect(record).toMatchObject({ finished: true, ok: true, output: ['deployment.apps/nginx-deployment image updated'] });
    const sent = cluster.engine.trace.since(first).filter((m) => record.requestIds.includes(m.id));
    expect(sent).toHaveLength(2);
    expect(sent.map((m) => `${(m.payload as HttpRequest).method} ${m.from} ${m.cause}`)).toEqual(['GET user null', 'PATCH user null']);
    // The PATCH left only after the GET's answer reached the user.
    const getAnswer = cluster.engine.trace.all().find((m) => m.replyTo === record.requestIds[0])!;
    expect(sent[1]!.sentAt).toBeGreaterThanOrEqual(getAnswer.deliverAt);
    cluster.engine.runUntilIdle();
    runner.dispose();
  });

  it('reports failures as kubectl prints them', () => {
    const cluster = booted('runner-errors');
    const runner = new ScenarioRunner(cluster, scenario([
      { do: 'create', file: 'nginx.yml' },
      { do: 'create', file: 'nginx.yml' },
      { do: 'setImage', resource: 'deploy', name: 'nginx-deployment', container: 'bogus', image: 'nginx:1.16.1' },
      { do: 'scale', resource: 'deployments', name: 'nope', replicas: 2 },
      { do: 'delete', resource: 'pod', name: 'nope' },
      { do: 'scale', resource: 'foo', name: 'x', replicas: 1 },
    ]));
    const records = runner.runAll();
    expect(records.map((r) => [r.ok, ...r.output])).toEqual([
      [true, 'deployment.apps/nginx-deployment created'],
      [false, 'Error from server (AlreadyExists): error when creating "nginx.yml": deployments.apps "nginx-deployment" already exists'],
      [false, 'error: unable to find container named "bogus"'],
      [false, 'Error from server (NotFound): deployments.apps "nope" not found'],
      [false, 'Error from server (NotFound): pods "nope" not found'],
      [false, 'error: the server doesn\'t have a resource type "foo"'],
    ]);
    // No PATCH for the unknown container: kubectl fails on the client side.
    const patches = cluster.engine.trace.all().filter((m) => m.from === 'user' && m.kind === httpKinds.request && (m.payload as HttpRequest).method === 'PATCH');
    expect(patches).toEqual([]);
  });
});

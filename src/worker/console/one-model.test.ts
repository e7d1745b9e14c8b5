// One kubectl model: a scenario step and the same command line typed in the console send the same
// requests (method, path, query, headers, body), built by src/sim/scenarios/kubectl.ts. The console's
// create also reads the OpenAPI documents first (its validation); the scenarios leave those out.

import { describe, expect, it } from 'vitest';
import { httpKinds, type HttpRequest } from '../../sim/wire/http.ts';
import { createCluster, type Cluster } from '../../sim/cluster.ts';
import { nginxDeploymentYaml } from '../../sim/scenarios/manifests.ts';
import { commandLine, ScenarioRunner } from '../../sim/scenarios/runner.ts';
import type { ScenarioStep } from '../../sim/scenarios/scenario.ts';
import { consoleOf } from './console-of.ts';

const steps: ScenarioStep[] = [
  { do: 'create', file: 'nginx.yml' }, { do: 'runUntilIdle' },
  { do: 'scale', resource: 'deployment', name: 'nginx-deployment', replicas: 3 }, { do: 'runUntilIdle' },
  { do: 'setImage', resource: 'deployment', name: 'nginx-deployment', container: 'nginx', image: 'nginx:1.16.1' }, { do: 'runUntilIdle' },
  { do: 'delete', resource: 'deployment', name: 'nginx-deployment' }, { do: 'runUntilIdle' },
];

function booted(): Cluster {
  const cluster = createCluster({ seed: 'one-model' });
  cluster.boot();
  return cluster;
}

/** The user's HTTP requests after `from`, without the console's OpenAPI reads. */
function requests(cluster: Cluster, from: number): HttpRequest[] {
  return cluster.engine.trace.since(from)
    .filter((m) => m.kind === httpKinds.request && m.from === 'user')
    .map((m) => m.payload as HttpRequest)
    .filter((r) => !r.path.startsWith('/openapi/'));
}

describe('one kubectl model for the scenarios and the console', () => {
  it('create, scale, set image and delete send the same requests from a scenario step and from the console', () => {
    const viaScenario = booted();
    const runner = new ScenarioRunner(viaScenario, {
      id: 'one-model', title: { en: 'one model', zh: '一个模型' }, description: { en: 'one model', zh: '一个模型' },
      manifests: [{ file: 'nginx.yml', yaml: nginxDeploymentYaml }], steps,
    });
    const viaConsole = booted();
    const { session } = consoleOf(viaConsole);
    let id = 0;
    for (const step of steps) {
      if (step.do === 'runUntilIdle') {
        runner.runStep();
        viaConsole.engine.runUntilIdle();
        continue;
      }
      const scenarioFrom = viaScenario.engine.step;
      const record = runner.runStep();
      expect(record.ok, commandLine(step)).toBe(true);
      const consoleFrom = viaConsole.engine.step;
      session.run(++id, commandLine(step));
      viaConsole.engine.runUntilIdle();
      const printed = session.flush().filter((e) => e.id === id);
      expect(printed.at(-1)?.exitCode, commandLine(step)).toBe(0);
      const fromScenario = requests(viaScenario, scenarioFrom);
      const fromConsole = requests(viaConsole, consoleFrom);
      expect(fromScenario.length, commandLine(step)).toBeGreaterThan(0);
      expect(fromConsole, commandLine(step)).toEqual(fromScenario);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { catalog, commandLine, scenarioById, scenarios } from '../sim/scenarios/index.ts';
// The page's step → user command mapping, driven here against the real host (a test-only import: the UI
// itself reaches the worker through the protocol).
import { deleteFirstPodLine, stepAction } from '../ui/scenarios/plan.ts';
import { scenarioCatalog, scenarioFiles, scenarioView } from './scenarios.ts';
import { manualHost } from './testing.ts';

/** A host on a manual clock (./testing.ts), with run-until-idle chunks of `runChunkSteps` when given. */
function driver(runChunkSteps?: number) {
  return manualHost(runChunkSteps !== undefined ? { pacing: { runChunkSteps } } : {});
}

describe('the scenario catalog for the UI', () => {
  it('carries every scenario with both languages, its manifests and every step with its command line', () => {
    const event = scenarioCatalog();
    expect(event.scenarios.map((s) => s.id)).toEqual(catalog.map((s) => s.id));
    for (const [i, view] of event.scenarios.entries()) {
      const scenario = catalog[i]!;
      expect(view.title).toEqual(scenario.title);
      expect(view.description.zh).not.toBe('');
      expect(view.nodes).toBe(scenario.nodes ?? 3);
      expect(view.pods).toBe(scenario.pods);
      expect(view.steps.map((s) => s.commandLine)).toEqual(scenario.steps.map(commandLine));
      expect(view.manifests.map((m) => m.file)).toEqual(scenario.manifests.map((m) => m.file));
    }
    expect(scenarioView(scenarioById('my-replicaset')!)).toMatchObject({ source: 'seeds/004', steps: [{ commandLine: 'kubectl create -f replicaset.yaml' }, { step: { do: 'runUntilIdle' } }] });
    // Plain data: what postMessage can clone.
    expect(structuredClone(event)).toEqual(event);
  });

  it('gives each manifest file name one text across the catalog (the console reads them by name)', () => {
    for (const s of catalog) for (const m of s.manifests) expect(scenarioFiles.get(m.file)).toBe(m.yaml);
  });
});

describe('scenario steps through the host', () => {
  it('the console reads a scenario file: kubectl create -f replicaset.yaml creates my-replicaset', () => {
    const { run, errors } = driver();
    expect(run('kubectl create -f replicaset.yaml')).toMatchObject({ stdout: 'replicaset.apps/my-replicaset created\n', exitCode: 0 });
    expect(run('kubectl create -f ./replicaset.yaml')).toMatchObject({ stderr: 'Error from server (AlreadyExists): error when creating "./replicaset.yaml": replicasets.apps "my-replicaset" already exists\n', exitCode: 1 });
    expect(run('kubectl create -f missing.yaml')).toMatchObject({ stderr: 'error: the path "missing.yaml" does not exist\n', exitCode: 1 });
    expect(errors()).toEqual([]);
  });

  it('advance runs for exactly that span of virtual time, in chunks a pause can stop', () => {
    const { host, send, status, errors } = driver(50);
    const before = status().now;
    send({ type: 'advance', ms: 45_000 });
    expect(status()).toMatchObject({ mode: 'paused', now: before + 45_000 });
    // Chunked: a pause between chunks leaves the clock short of the goal.
    host.handle({ type: 'advance', ms: 600_000 });
    expect(status().mode).toBe('runningUntilIdle');
    host.handle({ type: 'pause' });
    expect(status().mode).toBe('paused');
    expect(status().now).toBeLessThan(before + 645_000);
    host.handle({ type: 'advance', ms: -1 });
    expect(errors().at(-1)).toMatchObject({ command: 'advance', message: 'advance needs a positive number of milliseconds, got -1' });
  });

  it('runUntilCommandDone stops as soon as the command has finished, and gives up on a watch', () => {
    const { run, send, status, output, errors } = driver();
    const created = run('kubectl create -f replicaset.yaml');
    expect(created.done).toBe(true);
    expect(status().idle).toBe(false);
    send({ type: 'consoleRun', id: 50, line: 'kubectl get rs -w' });
    send({ type: 'runUntilCommandDone', id: 50, maxMs: 5_000 });
    expect(output(50).done).toBe(false);
    expect(errors().at(-1)).toMatchObject({ message: 'console command 50 is still running after 5 s of virtual time' });
  });

  it('my-replicaset (seeds/004) run as the page runs it: both pods Running, every kubectl step a logged user action', () => {
    const d = driver();
    for (const view of scenarioView(scenarioById('my-replicaset')!).steps) {
      const action = stepAction(view);
      if (action.kind === 'console') expect(d.run(action.line).exitCode).toBe(0);
      else if (action.kind === 'runUntilIdle') d.send({ type: 'runUntilIdle' });
    }
    expect(d.status()).toMatchObject({ idle: true, mode: 'paused' });
    const pods = d.run('kubectl get po').stdout.trim().split('\n').slice(1);
    expect(pods).toHaveLength(2);
    for (const row of pods) expect(row).toMatch(/^my-replicaset-\w+\s+1\/1\s+Running\s+0\s+/);
    expect(d.host.timeline.log.map((e) => e.command)).toEqual([
      { type: 'consoleRun', id: 1, line: 'kubectl create -f replicaset.yaml' },
      { type: 'consoleRun', id: 2, line: 'kubectl get po' },
    ]);
  });

  it.each(scenarios.map((s) => s.id))('%s: every step carried out as the page does, without an error', (id) => {
    const d = driver();
    for (const view of scenarioView(scenarioById(id)!).steps) {
      const action = stepAction(view);
      switch (action.kind) {
        case 'console':
          expect(d.run(action.line), action.line).toMatchObject({ done: true, exitCode: 0 });
          break;
        case 'deleteOnePod': {
          const list = d.run(action.listLine);
          expect(list.exitCode).toBe(0);
          const line = deleteFirstPodLine(list.stdout);
          expect(line).toMatch(/^kubectl delete pod\/\S+$/);
          expect(d.run(line!)).toMatchObject({ done: true, exitCode: 0 });
          break;
        }
        case 'fault':
          d.send({ type: 'fault', fault: action.fault });
          break;
        case 'runUntilIdle':
          d.send({ type: 'runUntilIdle' });
          expect(d.status()).toMatchObject({ idle: true, mode: 'paused' });
          break;
        case 'advance': {
          const before = d.status().now;
          d.send({ type: 'advance', ms: action.ms });
          expect(d.status().now).toBeCloseTo(before + action.ms, 3);
          break;
        }
      }
    }
    expect(d.errors()).toEqual([]);
  });
});

describe('the YAML editor presets', () => {
  it('start from the catalog\'s nginx.yml, word for word (the editor shows it before the catalog arrives)', async () => {
    const { editorPresets, nginxDeploymentPreset } = await import('../ui/editor/presets.ts');
    expect(nginxDeploymentPreset.yaml).toBe(scenarioFiles.get(nginxDeploymentPreset.id));
    const presets = editorPresets(scenarioCatalog().scenarios);
    // nginx.yml first, a blank page last, every file of the catalog once in between.
    expect(presets[0]).toBe(nginxDeploymentPreset);
    expect(presets.at(-1)).toEqual({ id: 'blank', label: 'Blank', yaml: '' });
    expect(presets.slice(0, -1).map((p) => p.id).sort()).toEqual([...scenarioFiles.keys()].sort());
    for (const p of presets.slice(1, -1)) expect(p.yaml).toBe(scenarioFiles.get(p.id));
    expect(presets.find((p) => p.id === 'replicaset.yaml')?.label).toBe('replicaset.yaml (seeds/004)');
    expect(presets.find((p) => p.id === 'big-pod.yaml')?.label).toBe('big-pod.yaml');
  });
});

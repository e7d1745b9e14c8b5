import { describe, expect, it } from 'vitest';
import type { Command, ScenarioStepView, SimStatus, WorkerEvent } from '../../protocol/index.ts';
import { applyWorkerEvent, applyWorkerMessage, createSimActions, createSimStore } from '../store/sim-store.ts';
import { milestoneForward, performStep, startStep, stepWorkDone, stepWorkOk, StepStopped } from './perform.ts';

const paused: SimStatus = { step: 100, now: 1000, pending: 3, idle: false, mode: 'paused', speed: 1 };
const status = (s: Partial<SimStatus>): WorkerEvent => ({ type: 'status', status: { ...paused, ...s } });
const done = (id: number, stdout: string, exitCode = 0): WorkerEvent => ({ type: 'consoleOutput', id, stdout, stderr: '', chunks: stdout ? [{ stream: 'stdout', text: stdout }] : [], done: true, exitCode });

/**
 * A stand-in for the worker: answers each command with the events `respond` gives, asynchronously (one
 * macrotask per event, as postMessage delivers them).
 */
function fakeWorker(respond: (command: Command) => WorkerEvent[]) {
  const store = createSimStore();
  const posted: Command[] = [];
  const actions = createSimActions(store, (command) => {
    posted.push(command);
    let delay = 0;
    for (const event of respond(command)) setTimeout(() => applyWorkerEvent(store, event), delay++);
  });
  applyWorkerEvent(store, { type: 'ready', seed: 's', nodes: 3, topology: { components: [], links: [] }, bootSteps: 10 });
  applyWorkerEvent(store, status({}));
  return { store, actions, posted };
}

const step = (s: ScenarioStepView['step'], commandLine: string): ScenarioStepView => ({ step: s, commandLine });

describe('performing a scenario step from the page', () => {
  it('runs a kubectl step in the console, then delivers until it has finished', async () => {
    const { store, actions, posted } = fakeWorker((c) => {
      if (c.type === 'consoleRun') return [status({})];
      if (c.type === 'runUntilCommandDone') return [status({ mode: 'runningUntilIdle', step: 120 }), done(c.id, 'replicaset.apps/my-replicaset created\n'), status({ step: 131 })];
      return [];
    });
    const result = await performStep(store, actions, step({ do: 'create', file: 'replicaset.yaml' }, 'kubectl create -f replicaset.yaml'));
    expect(result).toEqual({ entries: [1], ok: true });
    expect(posted).toEqual([
      { type: 'consoleRun', id: 1, line: 'kubectl create -f replicaset.yaml' },
      { type: 'runUntilCommandDone', id: 1, maxMs: 600_000 },
    ]);
    expect(store.getState().status.step).toBe(131);
  });

  it('finishes a kubectl step whose output and status arrive in one message (the worker batches a turn)', async () => {
    const store = createSimStore();
    const actions = createSimActions(store, (command) => {
      if (command.type === 'consoleRun') setTimeout(() => applyWorkerMessage(store, [status({})]), 0);
      if (command.type === 'runUntilCommandDone') {
        setTimeout(() => applyWorkerMessage(store, [done(command.id, 'replicaset.apps/my-replicaset created\n'), status({ step: 131 })]), 0);
      }
    });
    applyWorkerEvent(store, { type: 'ready', seed: 's', nodes: 3, topology: { components: [], links: [] }, bootSteps: 10 });
    applyWorkerEvent(store, status({}));
    const result = await performStep(store, actions, step({ do: 'create', file: 'replicaset.yaml' }, 'kubectl create -f replicaset.yaml'));
    expect(result).toEqual({ entries: [1], ok: true });
    expect(store.getState().status.step).toBe(131);
  });

  it('reports a kubectl command that exited non-zero as not ok', async () => {
    const { store, actions } = fakeWorker((c) => (c.type === 'runUntilCommandDone' ? [done(c.id, '', 1), status({})] : [status({})]));
    expect(await performStep(store, actions, step({ do: 'scale', resource: 'deployment', name: 'x', replicas: 3 }, 'kubectl scale deployment/x --replicas=3'))).toEqual({ entries: [1], ok: false });
  });

  it('deletes the first pod the list printed', async () => {
    const { store, actions, posted } = fakeWorker((c) => {
      if (c.type === 'runUntilCommandDone') return [done(c.id, c.id === 1 ? 'pod/my-replicaset-abcde\npod/my-replicaset-fghij\n' : 'pod "my-replicaset-abcde" deleted\n'), status({})];
      return [status({})];
    });
    const result = await performStep(store, actions, step({ do: 'deleteOnePod', labelSelector: 'app=my-app' }, 'kubectl delete $(…)'));
    expect(result).toEqual({ entries: [1, 2], ok: true });
    expect(posted.filter((c) => c.type === 'consoleRun').map((c) => c.type === 'consoleRun' && c.line)).toEqual([
      'kubectl get pods -l app=my-app -o name', 'kubectl delete pod/my-replicaset-abcde',
    ]);
  });

  it('advances until the clock has moved on by the span, not at the first status', async () => {
    const { store, actions, posted } = fakeWorker((c) => (c.type === 'advance'
      ? [status({ mode: 'runningUntilIdle', now: 3000 }), status({ mode: 'runningUntilIdle', now: 5000 }), status({ now: 6000 })]
      : []));
    const waiting = performStep(store, actions, step({ do: 'advance', ms: 5000 }, '# advance 5 s'));
    await expect(waiting).resolves.toEqual({ entries: [], ok: true });
    expect(posted).toEqual([{ type: 'advance', ms: 5000 }]);
    expect(store.getState().status.now).toBe(6000);
  });

  it('runs until idle, pausing playback first', async () => {
    const { store, actions, posted } = fakeWorker((c) => {
      if (c.type === 'pause') return [status({ mode: 'paused' })];
      if (c.type === 'runUntilIdle') return [status({ mode: 'runningUntilIdle' }), status({ idle: true, pending: 0 })];
      return [];
    });
    applyWorkerEvent(store, status({ mode: 'playing' }));
    await performStep(store, actions, step({ do: 'runUntilIdle' }, '# run until idle'));
    expect(posted.map((c) => c.type)).toEqual(['pause', 'runUntilIdle']);
    expect(store.getState().status).toMatchObject({ idle: true, mode: 'paused' });
  });

  it('injects a fault step as the Faults tab does', async () => {
    const { store, actions, posted } = fakeWorker(() => [status({})]);
    await performStep(store, actions, step({ do: 'fault', fault: { type: 'nodeDown', node: 'node-1' } }, '# fault: nodeDown node-1'));
    expect(posted).toEqual([{ type: 'fault', fault: { type: 'nodeDown', node: 'node-1' } }]);
  });

  it('stops on a worker error, a new cluster or the Stop button', async () => {
    const failing = fakeWorker((c) => (c.type === 'runUntilCommandDone'
      ? [{ type: 'error', command: null, message: 'console command 1 is still running after 600 s of virtual time' }, status({})]
      : [status({})]));
    await expect(performStep(failing.store, failing.actions, step({ do: 'create', file: 'a.yaml' }, 'kubectl create -f a.yaml')))
      .rejects.toThrow(new StepStopped('console command 1 is still running after 600 s of virtual time'));

    const reset = fakeWorker((c) => (c.type === 'runUntilIdle' ? [{ type: 'ready', seed: 's', nodes: 3, topology: { components: [], links: [] }, bootSteps: 10 }] : []));
    await expect(performStep(reset.store, reset.actions, step({ do: 'runUntilIdle' }, '#'))).rejects.toThrow('the cluster was replaced');

    const silent = fakeWorker(() => []);
    const controller = new AbortController();
    const waiting = performStep(silent.store, silent.actions, step({ do: 'runUntilIdle' }, '#'), { signal: controller.signal });
    controller.abort();
    await expect(waiting).rejects.toThrow('stopped');
  });
});

describe('a scenario step milestone by milestone', () => {
  it('sends the command without running it to the end, then moves one milestone per call until the work is done', async () => {
    let milestones = 0;
    const { store, actions, posted } = fakeWorker((c) => {
      if (c.type === 'consoleRun') return [status({ step: 101 })];
      if (c.type === 'stepLevel') {
        milestones++;
        // The command's answer arrives with the second milestone; the third leaves only background work.
        if (milestones === 1) return [status({ step: 110 })];
        if (milestones === 2) return [done(1, 'deployment.apps/x created\n'), status({ step: 120 })];
        return [status({ step: 150, idle: true, pending: 2 })];
      }
      return [];
    });
    const started = await startStep(store, actions, step({ do: 'create', file: 'x.yaml' }, 'kubectl create -f x.yaml'));
    expect(started).toEqual({ entries: [1], watch: 1, result: null });
    expect(posted).toEqual([{ type: 'consoleRun', id: 1, line: 'kubectl create -f x.yaml' }]);
    expect(stepWorkDone(store.getState(), started.watch)).toBe(false);
    await milestoneForward(store, actions);
    expect(store.getState().status.step).toBe(110);
    expect(stepWorkDone(store.getState(), started.watch)).toBe(false);
    await milestoneForward(store, actions);
    // Answered, but work is still queued.
    expect(stepWorkDone(store.getState(), started.watch)).toBe(false);
    await milestoneForward(store, actions);
    expect(stepWorkDone(store.getState(), started.watch)).toBe(true);
    expect(stepWorkOk(store.getState(), started.watch)).toBe(true);
    expect(posted.filter((c) => c.type === 'stepLevel')).toEqual(Array.from({ length: 3 }, () => ({ type: 'stepLevel', level: 'milestone', direction: 'forward' })));
  });

  it('is not done while the command is still running, even when the cluster is idle; a failed command is not ok', async () => {
    const { store, actions } = fakeWorker((c) => (c.type === 'consoleRun' ? [status({ idle: true })] : c.type === 'stepLevel' ? [done(1, '', 1), status({ idle: true })] : []));
    const started = await startStep(store, actions, step({ do: 'delete', resource: 'deployment', name: 'x' }, 'kubectl delete deployment x'));
    expect(stepWorkDone(store.getState(), started.watch)).toBe(false);
    await milestoneForward(store, actions);
    expect(stepWorkDone(store.getState(), started.watch)).toBe(true);
    expect(stepWorkOk(store.getState(), started.watch)).toBe(false);
  });

  it('runs an advance whole, and a run-until-idle step on an idle cluster is done at once', async () => {
    const { store, actions } = fakeWorker((c) => (c.type === 'advance' ? [status({ mode: 'runningUntilIdle' }), status({ now: 1000 + c.ms, idle: true })] : []));
    const advanced = await startStep(store, actions, step({ do: 'advance', ms: 5000 }, '# advance 5 s'));
    expect(advanced.result).toEqual({ entries: [], ok: true });
    const idle = await startStep(store, actions, step({ do: 'runUntilIdle' }, '# run until idle'));
    expect(idle).toEqual({ entries: [], watch: null, result: null });
    expect(stepWorkDone(store.getState(), idle.watch)).toBe(true);
  });
});

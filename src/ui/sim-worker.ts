// The one place the UI creates the simulation worker. Worker events flow into the store; actions post
// commands to the worker. A worker that dies (an uncaught error) is reported as crashed; restarting makes
// a new worker, which reopens the saved cluster at its last persisted step.

import type { WorkerMessage } from '../protocol/index.ts';
import type { SimConnection } from './store/sim-context.ts';
import { applyWorkerMessage, createSimActions, createSimStore, workerCrashed } from './store/sim-store.ts';

export function connectSimWorker(): SimConnection {
  const store = createSimStore();
  const start = (): Worker => {
    const worker = new Worker(new URL('../worker/sim.worker.ts', import.meta.url), { type: 'module', name: 'podflow-sim' });
    worker.addEventListener('message', (event: MessageEvent<WorkerMessage>) => applyWorkerMessage(store, event.data));
    worker.addEventListener('error', (event) => {
      worker.terminate();
      store.setState((state) => workerCrashed(state, event.message || 'it could not start'), true);
    });
    return worker;
  };
  let worker = start();
  const restart = () => {
    worker.terminate();
    worker = start();
  };
  const connection = { store, actions: createSimActions(store, (command) => worker.postMessage(command), restart) };
  // A scripting handle for end-to-end tests and the devtools console (`podflow.actions.seek(100)`).
  (globalThis as { podflow?: SimConnection }).podflow = connection;
  return connection;
}

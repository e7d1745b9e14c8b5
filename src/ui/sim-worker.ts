// The one place the UI creates the simulation worker. Worker events flow into the store; actions post
// commands to the worker.

import type { WorkerEvent } from '../protocol/index.ts';
import type { SimConnection } from './store/sim-context.ts';
import { addNotice, applyWorkerEvent, createSimActions, createSimStore } from './store/sim-store.ts';

export function connectSimWorker(): SimConnection {
  const worker = new Worker(new URL('../worker/sim.worker.ts', import.meta.url), { type: 'module', name: 'podflow-sim' });
  const store = createSimStore();
  worker.addEventListener('message', (event: MessageEvent<WorkerEvent>) => applyWorkerEvent(store, event.data));
  worker.addEventListener('error', (event) => {
    store.setState((state) => addNotice(state, null, `the simulation worker failed: ${event.message || 'it could not start'}`), true);
  });
  return { store, actions: createSimActions(store, (command) => worker.postMessage(command)) };
}

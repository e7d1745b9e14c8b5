// The simulation worker: binds the host to the worker scope. Real time (performance.now, setTimeout) is
// used here only to pace playback; the simulation itself never sees it. IndexedDB keeps saved clusters.

import type { Command, WorkerEvent } from '../protocol/index.ts';
import { SimHost } from './host.ts';
import { SavedClusters } from './saved-clusters.ts';
import { scenarioCatalog } from './scenarios.ts';

/** Posts an event; one whose payload cannot be cloned is replaced by an error saying so. */
function post(event: WorkerEvent): void {
  try {
    self.postMessage(event);
  } catch (error) {
    self.postMessage({ type: 'error', command: null, message: `could not send ${event.type}: ${String(error)}` } satisfies WorkerEvent);
  }
}

const host = new SimHost({
  post,
  clock: {
    now: () => performance.now(),
    setTimeout: (callback, ms) => self.setTimeout(callback, ms),
    clearTimeout: (handle) => self.clearTimeout(handle as number),
  },
});

self.addEventListener('message', (event: MessageEvent<Command>) => host.handle(event.data));

// The scenario catalog, for the dock's Scenarios tab (static data, posted once per worker).
post(scenarioCatalog());

// Saved clusters: reopens the cluster used last (a reload or a restart after a crash lands on its last
// persisted step), or saves this one as a new cluster; without IndexedDB it reports working in memory.
void new SavedClusters({ host }).start();

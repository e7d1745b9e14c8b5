// The simulation worker: binds the host to the worker scope. Real time (performance.now, setTimeout) is
// used here only to pace playback; the simulation itself never sees it. IndexedDB keeps saved clusters.

import type { Command, WorkerEvent, WorkerMessage } from '../protocol/index.ts';
import { SimHost } from './host.ts';
import { boundsOfWorker } from './host/bounds.ts';
import { SavedClusters } from './saved-clusters.ts';
import { scenarioCatalog } from './scenarios.ts';

/** Posts one event; one whose payload cannot be cloned is replaced by an error saying so. */
function postOne(event: WorkerEvent): void {
  try {
    self.postMessage(event);
  } catch (error) {
    self.postMessage({ type: 'error', command: null, message: `could not send ${event.type}: ${String(error)}` } satisfies WorkerEvent);
  }
}

// The events of one command, tick or chunk (a traceBatch, the keyspace diff, pods, flights, story,
// insides, timeline, status …) go as one message at the end of the turn that made them, so the page
// applies them in one store update and draws once (WorkerMessage in src/protocol/events.ts).
let batch: WorkerEvent[] = [];
function flush(): void {
  const events = batch;
  batch = [];
  if (events.length === 1) return postOne(events[0]!);
  try {
    self.postMessage(events satisfies WorkerMessage);
  } catch {
    for (const event of events) postOne(event);
  }
}
function post(event: WorkerEvent): void {
  if (batch.length === 0) queueMicrotask(flush);
  batch.push(event);
}

const host = new SimHost({
  post,
  // A page opened with `?bounds=small` names its worker so (src/ui/sim-worker.ts): tests reach the bounds in seconds.
  bounds: boundsOfWorker(self.name),
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

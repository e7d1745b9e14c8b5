// The simulation worker: binds the host to the worker scope. Real time (performance.now, setTimeout) is
// used here only to pace playback; the simulation itself never sees it. IndexedDB keeps saved clusters.

import { simPortMark, type Command, type WorkerEvent, type WorkerMessage } from '../protocol/index.ts';
import { SimHost } from './host.ts';
import { boundsOfWorker } from './host/bounds.ts';
import { StorageError } from './persistence.ts';
import { SavedClusters } from './saved-clusters.ts';
import { scenarioCatalog } from './scenarios.ts';

/**
 * Where events go and commands come from: the page itself, or the port the page handed over when this
 * worker runs in a process of its own (started by public/sim-host.html; see src/ui/sim-process.ts).
 */
let page: { postMessage(message: unknown): void } = self;
/** Messages posted before the port came (the worker is named with the mark when one will come). */
const early: unknown[] = [];
if (self.name.includes(simPortMark)) page = { postMessage: (message) => early.push(message) };

/** Posts one event; one whose payload cannot be cloned is replaced by an error saying so. */
function postOne(event: WorkerEvent): void {
  try {
    page.postMessage(event);
  } catch (error) {
    page.postMessage({ type: 'error', command: null, message: `could not send ${event.type}: ${String(error)}` } satisfies WorkerEvent);
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
    page.postMessage(events satisfies WorkerMessage);
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

self.addEventListener('message', (event: MessageEvent<Command | typeof simPortMark>) => {
  if (event.data === simPortMark && event.ports[0]) {
    const port = event.ports[0];
    for (const message of early.splice(0)) port.postMessage(message);
    page = port;
    port.addEventListener('message', (message: MessageEvent<Command>) => host.handle(message.data));
    port.start();
  } else if (event.data !== simPortMark) host.handle(event.data);
});

// The scenario catalog, for the dock's Scenarios tab (static data, posted once per worker).
post(scenarioCatalog());

// Saved clusters: reopens the cluster used last (a reload or a restart after a crash lands on its last
// persisted step), or saves this one as a new cluster; without IndexedDB it reports working in memory.
// In a process of its own (an opaque origin) there is no IndexedDB: it says so in its own words.
const ownProcess = self.name.includes(simPortMark);
const noStorage = () => Promise.reject(new StorageError('unavailable',
  'The simulation runs in a process of its own (?process=own), where the browser offers no storage: this cluster lives in memory only and is lost on reload.'));
void new SavedClusters({ host, ...(ownProcess ? { openStore: noStorage } : {}) }).start();

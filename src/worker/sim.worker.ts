// The simulation worker: binds the host to the worker scope. Real time (performance.now, setTimeout) is
// used here only to pace playback; the simulation itself never sees it. IndexedDB keeps saved clusters: this
// worker's own, or, in a process of its own, the page's storage worker's over a port (store-port.ts).

import { simPortMark, type Command, type StorageGone, type WorkerEvent, type WorkerMessage } from '../protocol/index.ts';
import { SimHost } from './host.ts';
import { boundsOfWorker } from './host/bounds.ts';
import { StorageError } from './persistence.ts';
import { SavedClusters, type SavedClustersOptions } from './saved-clusters.ts';
import { scenarioCatalog } from './scenarios.ts';
import { storeOverPort } from './store-port.ts';

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

// Saved clusters: reopens the cluster used last (a reload or a restart after a crash lands on its last
// persisted step), or saves this one as a new cluster; without IndexedDB it reports working in memory.
const startSaving = (options: Partial<SavedClustersOptions> = {}) => void new SavedClusters({ host, ...options }).start();
const noStorage = () => Promise.reject(new StorageError('unavailable',
  'The page gave the simulation no way to its storage: this cluster lives in memory only and is lost on reload.'));

self.addEventListener('message', (event: MessageEvent<Command | typeof simPortMark>) => {
  // In a process of its own: the page's port, then the port to the page's storage worker.
  const [port, storage] = event.ports;
  if (event.data === simPortMark && port) {
    for (const message of early.splice(0)) port.postMessage(message);
    page = port;
    const saved = storage ? storeOverPort(storage) : null;
    port.addEventListener('message', (message: MessageEvent<Command | StorageGone>) => {
      if (message.data.type === 'storage-gone') saved?.gone(message.data.reason);
      else host.handle(message.data);
    });
    port.start();
    startSaving(saved ?? { openStore: noStorage });
  } else if (event.data !== simPortMark) host.handle(event.data);
});

// The scenario catalog, for the dock's Scenarios tab (static data, posted once per worker).
post(scenarioCatalog());

// A worker in a process of its own starts saving once the page's ports have come.
if (!self.name.includes(simPortMark)) startSaving();

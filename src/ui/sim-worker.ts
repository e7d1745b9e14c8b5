// The one place the UI creates the simulation worker, and where the page switches between its own cluster
// (the worker) and a server's (sim-socket.ts): one store, one set of actions, the commands going to
// whichever holds the cluster shown. Worker events flow into the store once per frame (store/inbox.ts); a worker that dies (an uncaught
// error) is reported as crashed; restarting makes a new worker, which reopens the saved cluster at its
// last persisted step. A page served by `npm run apiserver` (its index.html carries the
// `podflow-live` mark) attaches to that server at once, with the token of its `#token=` fragment.

import { smallBoundsMark, type Command, type WorkerMessage } from '../protocol/index.ts';
import { canRunOwnProcess, startOwnProcess, wantsOwnProcess, type SimProcess } from './sim-process.ts';
import { connectServer, serverOrigin, type ServerTransport } from './sim-socket.ts';
import type { SimConnection, SimLink } from './store/sim-context.ts';
import { createInbox, type Inbox } from './store/inbox.ts';
import { createSimActions, createSimStore, workerCrashed, type SimStore } from './store/sim-store.ts';

/** The simulation: a worker of the page's, or one in a process of its own (`?process=own`, sim-process.ts). */
function startWorker(store: SimStore, inbox: Inbox): SimProcess {
  const crashed = (reason: string) => {
    inbox.flush();
    store.setState((state) => workerCrashed(state, reason), true);
  };
  if (wantsOwnProcess()) {
    if (canRunOwnProcess()) return startOwnProcess(workerName(), (message) => inbox.receive(message), crashed);
    console.warn('Podflow: ?process=own needs a built page (npm run build && npm run preview); the simulation runs in the page\'s process.');
  }
  const worker = new Worker(new URL('../worker/sim.worker.ts', import.meta.url), { type: 'module', name: workerName() });
  worker.addEventListener('message', (event: MessageEvent<WorkerMessage>) => inbox.receive(event.data));
  worker.addEventListener('error', (event) => {
    worker.terminate();
    crashed(event.message || 'it could not start');
  });
  return worker;
}

/**
 * The worker's name: `podflow-sim`, and with `small-bounds` for a page opened with `?bounds=small`, whose
 * worker keeps a short trace and few aged pod versions (src/worker/host/bounds.ts), so that a test reaches
 * what is past them in seconds. The model is the same; only how far back the page can look differs.
 */
function workerName(): string {
  const small = typeof location !== 'undefined' && new URLSearchParams(location.search).get('bounds') === 'small';
  return small ? `podflow-sim ${smallBoundsMark}` : 'podflow-sim';
}

/** The server this page was served by, and the token its address carries; null for the app's own page. */
function servedBy(): { origin: string; token: string | null } | null {
  if (typeof document === 'undefined' || !document.querySelector('meta[name="podflow-live"]')) return null;
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  return { origin: location.origin, token };
}

export function connectSim(): SimConnection {
  const store = createSimStore();
  const inbox = createInbox(store);
  let worker: SimProcess | null = null;
  let server: ServerTransport | null = null;
  // Whether the Logs panel is shown: a new worker starts with it hidden, so it is told again.
  let logsShown = false;
  const post = (command: Command) => {
    if (command.type === 'logsShown') logsShown = command.shown;
    if (server) server.post(command);
    else worker?.postMessage(command);
  };
  const newWorker = () => {
    const started = startWorker(store, inbox);
    if (logsShown) started.postMessage({ type: 'logsShown', shown: true });
    return started;
  };
  const restart = () => {
    worker?.terminate();
    worker = server ? null : newWorker();
  };
  const link: SimLink = {
    attach(url, token) {
      const origin = serverOrigin(url, location.href);
      worker?.terminate();
      worker = null;
      server?.close();
      inbox.flush();
      // What the worker said about saving and long tasks belongs to the in-browser cluster.
      store.setState((state) => ({ ...state, persistence: null, savedClusters: null, progress: null, workerCrashed: null }), true);
      server = connectServer(store, inbox, origin, token);
    },
    detach() {
      server?.close();
      server = null;
      inbox.flush();
      store.setState((state) => ({ ...state, server: null }), true);
      worker ??= newWorker();
    },
  };
  const attached = servedBy();
  if (attached) link.attach(attached.origin, attached.token);
  else worker = newWorker();
  const connection = { store, actions: createSimActions(store, post, restart, inbox.flush), link };
  // A scripting handle for end-to-end tests and the devtools console (`podflow.actions.seek(100)`).
  (globalThis as { podflow?: SimConnection }).podflow = connection;
  return connection;
}

// The simulation worker in a renderer process of its own, for clusters too large to share the page's
// memory. Chromium gives every isolate of a renderer process one 4 GB pointer-compression cage, so a worker
// the page starts has what the page leaves it (bench/tab-cage.ts: the page holding 0.98 GiB, the worker
// stopped at 2.6 GiB; alone, at 3.6). A worker started by a sandboxed iframe (public/sim-host.html: an
// opaque origin, which Chromium runs in a process of its own) keeps its whole cage whatever the page holds.
// An opaque origin has no IndexedDB and no Web Locks of the page's, so the page also starts a small storage
// worker of its own origin (src/worker/storage.worker.ts), which saves the cluster for the simulation over a
// port of its own: the cluster is saved and reopened as in a worker of the page's. The page opts in with
// `?process=own`.
//
// The page fetches the worker's bundle (one self-contained file in a build) and hands it to the frame with
// one end of a MessageChannel, and one end of the storage worker's channel; the worker then talks to the
// page and to the storage worker over them, with no relay; if the storage worker cannot start or fails, the
// page says so to the simulation, which goes on in memory. The frame answers a ping every 2 s: after 5 pings in a row without an answer its process is taken to be
// gone (out of memory takes the whole process, the frame's thread with the worker's).

import { simPortMark, type Command, type StorageGone, type WorkerMessage } from '../protocol/index.ts';
// The URL of the worker's bundle only (Vite's `?worker&url`), no code of the worker's: the page still talks to
// it through src/protocol alone.
// eslint-disable-next-line no-restricted-imports
import workerUrl from '../worker/sim.worker.ts?worker&url';
// eslint-disable-next-line no-restricted-imports
import storageWorkerUrl from '../worker/storage.worker.ts?worker&url';

export interface SimProcess {
  postMessage(command: Command): void;
  terminate(): void;
}

const pingEveryMs = 2000;
/**
 * Pings in a row without an answer after which the frame's process is taken to be gone (10 s). Counted in
 * pings sent, not in time: a page too busy to ping (a large cluster's first frames) must not take the
 * simulation for gone when it wakes.
 */
const goneAfterPings = 5;

/** Whether this page asks for the simulation in a process of its own (`?process=own`, a built page only). */
export function wantsOwnProcess(): boolean {
  return typeof location !== 'undefined' && new URLSearchParams(location.search).get('process') === 'own';
}

/** Whether a page can start the worker in a process of its own: a build, whose worker is one file. */
export function canRunOwnProcess(): boolean {
  return !import.meta.env.DEV;
}

/** Whether this page's simulation runs in a process of its own: asked for, and a build that can. */
export function runsOwnProcess(): boolean {
  return wantsOwnProcess() && canRunOwnProcess();
}

/** Starts the worker named `name` in the frame; `crashed` hears once why it stopped. */
export function startOwnProcess(name: string, received: (message: WorkerMessage) => void, crashed: (reason: string) => void): SimProcess {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  // Drawn, not hidden: Chromium lowers the priority of a process whose frames are all hidden (`display: none`
  // gives it nice 5 on Linux), and the simulation would then yield to everything else on the machine. One
  // transparent pixel off the screen keeps it at the page's priority and out of sight and reach.
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  Object.assign(frame.style, { position: 'fixed', left: '-10px', top: '-10px', width: '1px', height: '1px', border: '0', opacity: '0', pointerEvents: 'none' });
  frame.title = 'Podflow simulation';
  frame.dataset.simProcess = '';
  const channel = new MessageChannel();
  channel.port1.addEventListener('message', (event: MessageEvent<WorkerMessage>) => received(event.data));
  channel.port1.start();
  // The saved clusters' side: the simulation holds one end of this channel, the storage worker the other.
  const storage = new Worker(storageWorkerUrl, { type: 'module', name: 'podflow-storage' });
  const storageChannel = new MessageChannel();
  storage.postMessage(null, [storageChannel.port1]);
  // A storage worker that could not start (its script not loaded) or failed answers nothing: the simulation
  // is told, and goes on in memory and says so, rather than wait on its saves for ever.
  storage.addEventListener('error', (event) => {
    event.preventDefault();
    storage.terminate();
    const reason = event instanceof ErrorEvent && event.message ? `failed (${event.message})` : 'could not start';
    if (!ended) channel.port1.postMessage({ type: 'storage-gone', reason } satisfies StorageGone);
  });
  let unanswered = 0;
  let pinging: ReturnType<typeof setInterval> | undefined;
  let ended = false;
  const end = (reason: string | null) => {
    if (ended) return;
    ended = true;
    clearInterval(pinging);
    removeEventListener('message', fromFrame);
    channel.port1.close();
    frame.remove();
    // Its locks go with it, so a restarted simulation can take its cluster again.
    storage.terminate();
    if (reason !== null) crashed(reason);
  };
  const start = async () => {
    try {
      const code = await (await fetch(workerUrl)).text();
      if (ended) return;
      frame.contentWindow?.postMessage({ type: 'podflow-start', code, name: `${name} ${simPortMark}`, mark: simPortMark }, '*', [channel.port2, storageChannel.port2]);
    } catch (error) {
      end(`its code could not be loaded: ${String(error)}`);
      return;
    }
    pinging = setInterval(() => {
      if (unanswered >= goneAfterPings) {
        end('its process stopped answering (out of memory, or closed)');
        return;
      }
      unanswered++;
      frame.contentWindow?.postMessage({ type: 'podflow-ping' }, '*');
    }, pingEveryMs);
  };
  function fromFrame(event: MessageEvent<{ type?: string; message?: string } | null>): void {
    if (event.source !== frame.contentWindow || event.data === null || typeof event.data !== 'object') return;
    if (event.data.type === 'podflow-host-ready') void start();
    else if (event.data.type === 'podflow-pong') unanswered = 0;
    else if (event.data.type === 'podflow-crashed') end(event.data.message ?? 'it stopped');
  }
  addEventListener('message', fromFrame);
  frame.src = new URL('sim-host.html', document.baseURI).href;
  document.body.append(frame);
  return {
    postMessage: (command) => channel.port1.postMessage(command),
    terminate: () => end(null),
  };
}

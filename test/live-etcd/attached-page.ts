// A page attached to a Podflow server over the worker protocol's WebSocket (src/server/live.ts), as the
// tests drive one: every event it got, in order; commands sent as the page sends them; waits on events.
// Shared by src/server/live.test.ts and the tests here.

import type { Command, WorkerEvent, WorkerMessage } from '../../src/protocol/index.ts';
import { decodeWire, encodeWire, livePath, liveSubprotocol } from '../../src/protocol/wire.ts';
import type { PodflowServer } from '../../src/server/server.ts';
import { WebSocket } from 'ws';

export interface TestPage {
  readonly socket: WebSocket;
  readonly events: WorkerEvent[];
  send(command: Command): void;
  /** Resolves with the first event (from now on, or already got when `past`) that `accept` holds for. */
  until<E extends WorkerEvent>(accept: (event: WorkerEvent) => event is E, past?: boolean): Promise<E>;
  until(accept: (event: WorkerEvent) => boolean, past?: boolean): Promise<WorkerEvent>;
  readonly closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

export interface AttachOptions {
  /** The Origin header the page sends (none by default, as a non-browser client). */
  readonly origin?: string;
  /** The subprotocols offered (default: the live one alone). */
  readonly protocols?: string[];
}

/** Attaches to `server`; rejects with `refused <status>` when the upgrade is refused. */
export function attach(server: PodflowServer, options: AttachOptions = {}): Promise<TestPage> {
  const url = server.url.replace(/^http/, 'ws') + livePath;
  const socket = new WebSocket(url, options.protocols ?? [liveSubprotocol], {
    ...(options.origin !== undefined ? { origin: options.origin } : {}),
    rejectUnauthorized: false,
  });
  const events: WorkerEvent[] = [];
  const waiters: Array<{ accept: (event: WorkerEvent) => boolean; resolve: (event: WorkerEvent) => void }> = [];
  socket.on('message', (data) => {
    const message = decodeWire(String(data)) as WorkerMessage;
    for (const event of Array.isArray(message) ? (message as WorkerEvent[]) : [message as WorkerEvent]) {
      events.push(event);
      for (const waiter of [...waiters]) {
        if (!waiter.accept(event)) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  const page = {
    socket, events, closed,
    send: (command: Command) => socket.send(encodeWire(command)),
    until: (accept: (event: WorkerEvent) => boolean, past = false) => {
      const seen = past ? events.find(accept) : undefined;
      if (seen) return Promise.resolve(seen);
      return new Promise<WorkerEvent>((resolve) => waiters.push({ accept, resolve }));
    },
    close: () => socket.close(),
  } as TestPage;
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(page));
    socket.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
    socket.once('error', reject);
  });
}

/** Waits until the server's kube-apiserver answers a list of pods (over a real etcd it bootstraps as etcd answers). */
export async function serving(server: PodflowServer, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while ((await fetch(`${server.url}/api/v1/namespaces/default/pods`)).status !== 200) {
    if (performance.now() > deadline) throw new Error(`${server.url} did not serve within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

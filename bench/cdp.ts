// A flat Chrome DevTools Protocol connection over a browser's debugging port, with a session per attached
// target: the page benches reach the simulation worker through it (Playwright offers no CDP session on a
// dedicated worker).

import { createServer } from 'node:net';
import WebSocket from 'ws';

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A flat CDP connection to the browser, with a session per attached target. */
export class Cdp {
  private nextId = 1;
  private readonly waiting = new Map<number, (result: unknown) => void>();
  private readonly listeners = new Map<string, ((params: unknown) => void)[]>();
  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString('utf8')) as { id?: number; result?: unknown; error?: unknown; method?: string; params?: unknown };
      if (message.id !== undefined) {
        this.waiting.get(message.id)?.(message.error ? Promise.reject(new Error(JSON.stringify(message.error))) : message.result);
        this.waiting.delete(message.id);
      } else if (message.method) {
        for (const listener of this.listeners.get(message.method) ?? []) listener(message.params);
      }
    });
  }

  /** Calls `listener` with the params of each event `method` (e.g. `Tracing.dataCollected`). */
  on(method: string, listener: (params: unknown) => void): void {
    this.listeners.set(method, [...(this.listeners.get(method) ?? []), listener]);
  }

  static async connect(port: number): Promise<Cdp> {
    const version = await (await fetch(`http://127.0.0.1:${port}/json/version`)).json() as { webSocketDebuggerUrl: string };
    const socket = new WebSocket(version.webSocketDebuggerUrl, { perMessageDeflate: false, maxPayload: 1 << 30 });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    return new Cdp(socket);
  }

  send<T>(method: string, params: object = {}, sessionId?: string): Promise<T> {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    return new Promise<T>((resolve) => this.waiting.set(id, resolve as (result: unknown) => void));
  }

  close(): void {
    this.socket.close();
  }
}

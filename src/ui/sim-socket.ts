// The page attached to a server (`npm run apiserver`): the worker protocol over a WebSocket to
// /podflow/live (src/protocol/wire.ts, src/server/live.ts). Events flow into the store as the worker's do;
// commands go to the server, queued while the socket connects. A closed socket reconnects (the server
// sends its snapshot afresh); a refused token does not: the link's reason is the close reason
// (`token missing` or `token refused`), which the page words, and it waits for another token.

import type { Command, WorkerEvent, WorkerMessage } from '../protocol/index.ts';
import { decodeWire, encodeWire, liveCloseCodes, livePath, liveSubprotocol, liveTokenPrefix } from '../protocol/wire.ts';
import type { Inbox } from './store/inbox.ts';
import { addNotice, type ServerLink, type SimStore } from './store/sim-store.ts';

/** Real ms before a closed socket tries again. */
const reconnectMs = 1_500;
/** Commands kept while the socket connects; older ones are dropped. */
const queueLimit = 100;

/** The server's origin for what the user typed (a page URL, an API URL, host:port); throws when it is none. */
export function serverOrigin(input: string, base: string): string {
  const text = input.trim();
  const url = new URL(/^[a-z]+:\/\//i.test(text) ? text : `http://${text}`, base);
  const secure = url.protocol === 'https:' || url.protocol === 'wss:';
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) throw new TypeError(`not a server address: ${input}`);
  return `${secure ? 'https' : 'http'}://${url.host}`;
}

/** The WebSocket URL of the server at `origin`. */
function liveSocketUrl(origin: string): string {
  return `${origin.replace(/^http/, 'ws')}${livePath}`;
}

/** A token as the subprotocol carries it (base64url of its UTF-8 bytes). */
function tokenProtocol(token: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(token)) binary += String.fromCharCode(byte);
  return `${liveTokenPrefix}${btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}

export interface ServerTransport {
  post(command: Command): void;
  close(): void;
}

/** Attaches `store` to the server at `origin`: its messages go through `inbox`, the link's state is kept in `store` (`server`). */
export function connectServer(store: SimStore, inbox: Inbox, origin: string, token: string | null): ServerTransport {
  let socket: WebSocket | null = null;
  let queue: string[] = [];
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | null = null;
  const setLink = (link: Omit<ServerLink, 'url'>) => {
    inbox.flush();
    store.setState((state) => ({ ...state, server: { url: origin, ...link } }), true);
  };

  const open = (): void => {
    retry = null;
    setLink({ state: 'connecting', reason: null });
    const ws = new WebSocket(liveSocketUrl(origin), [liveSubprotocol, ...(token ? [tokenProtocol(token)] : [])]);
    socket = ws;
    ws.addEventListener('open', () => {
      setLink({ state: 'open', reason: null });
      for (const text of queue) ws.send(text);
      queue = [];
    });
    let attached = false;
    ws.addEventListener('message', (event: MessageEvent<string>) => {
      const message = decodeWire(event.data) as WorkerMessage;
      // Before its snapshot, the server speaks only to refuse the page (the close that follows says why).
      if (!attached && !Array.isArray(message) && (message as WorkerEvent).type === 'error') return;
      attached = true;
      inbox.receive(message);
    });
    ws.addEventListener('close', (event) => {
      if (socket !== ws || closed) return;
      socket = null;
      if (event.code === liveCloseCodes.badToken) {
        setLink({ state: 'refused', reason: event.reason });
        return;
      }
      setLink({ state: 'closed', reason: event.reason || null });
      retry = setTimeout(open, reconnectMs);
    });
  };
  open();

  return {
    post(command) {
      const text = encodeWire(command);
      if (socket?.readyState === WebSocket.OPEN) {
        socket.send(text);
        return;
      }
      if (store.getState().server?.state === 'refused') {
        inbox.flush();
        store.setState((state) => addNotice(state, command.type, state.server?.reason ?? 'the server refused this page'), true);
        return;
      }
      queue = [...queue, text].slice(-queueLimit);
    },
    close() {
      closed = true;
      if (retry !== null) clearTimeout(retry);
      socket?.close(1000, 'the page went back to its own cluster');
      socket = null;
    },
  };
}

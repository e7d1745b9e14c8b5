// The page attached to the server. `npm run apiserver` serves the built page (dist/, `npm run build`) at
// /podflow/ and the worker protocol (src/protocol) over a WebSocket at /podflow/live, so a browser shows
// the cluster real kubectl talks to, live: the same events the worker posts, from the same host
// (src/worker/host.ts) driven by the server's pacing (cluster-host.ts).
//
// Pages. Every page gets, on connecting, the host's snapshot (`ready` and the view at the position shown),
// then the host's events as they come, one message per turn (as the worker posts them). Each page has a
// view of its own (a PageViewer, src/worker/host-viewer.ts): pausing, stepping back or seeking holds that
// page at a step of the server's one timeline, while the other pages follow the head and the cluster goes
// on serving kubectl. Answers to one page's question (an inspection, a cause chain, a keyspace revision, a
// value description, a trace window, a tour's stops, the error its command caused) go to that page only,
// and a console command's output to the page that ran it (console ids are the server's, mapped back to
// each page's own).
//
// Doors. The WebSocket is accepted only from the page's own origin or a loopback origin (another one is
// refused 403 before upgrading, as is a page that does not speak `liveSubprotocol`). With `--token` the
// page offers its token as a subprotocol (`liveTokenPrefix` + base64url); a missing or wrong one is
// accepted, told why and closed with `liveCloseCodes.badToken`, so the page can say so. The page's files
// need no token: they hold nothing of the cluster.

import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, relative, resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Command, CommandType, WorkerEvent } from '../protocol/index.ts';
import { sideBySidePath } from '../protocol/side-by-side.ts';
import { decodeWire, encodeWire, liveCloseCodes, livePath, liveSubprotocol, liveTokenPrefix } from '../protocol/wire.ts';
import { PageViewer } from '../worker/host-viewer.ts';
import type { ClusterHost } from './cluster-host.ts';

/** Where the page lives on the server (index.html); its assets keep the root paths vite gave them. */
export const pagePath = '/podflow/';
/** A page whose socket buffers more than this is too slow: it is closed and reconnects afresh. */
const maxBufferedBytes = 16 * 1024 * 1024;

/** Events that answer the page that asked, and no other. */
const answers: ReadonlySet<WorkerEvent['type']> = new Set(['inspection', 'causeChain', 'valueDescription', 'traceRange', 'tourStops', 'error']);
/** Saved clusters live in each browser: attached, the page has none (an empty list answers it). */
const savedClusterCommands: ReadonlySet<CommandType> = new Set(['listClusters', 'createCluster', 'openCluster', 'renameCluster', 'duplicateCluster', 'deleteCluster', 'exportCluster', 'importCluster']);

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml',
  '.json': 'application/json', '.map': 'application/json', '.png': 'image/png', '.woff2': 'font/woff2', '.wasm': 'application/wasm', '.txt': 'text/plain; charset=utf-8',
};

export interface LiveOptions {
  readonly host: ClusterHost;
  /** The server's bearer token (`--token`), which a page must offer; null: none asked. */
  readonly token: string | null;
  /** The built page (default: dist/ of the working directory). */
  readonly distDir?: string;
}

export interface LiveFront {
  /** True when dist/ holds a built page to serve. */
  readonly hasPage: boolean;
  /** Serves a GET of the page's files; false when `path` is not one of them. */
  serveFile(path: string, res: ServerResponse): boolean;
  /** Takes a WebSocket upgrade of `livePath`; false when the request is for another path. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Pages attached now. */
  readonly pages: number;
  close(): void;
}

interface Page {
  readonly socket: WebSocket;
  /** Events for this page made in the current turn. */
  pending: WorkerEvent[];
  /** The page's own position on the server's timeline. */
  readonly viewer: PageViewer;
}

/** The page's files: index.html at `pagePath` (marked as attached), the rest at their own paths. */
function pageFiles(distDir: string): Map<string, { readonly body: Buffer; readonly type: string }> {
  const files = new Map<string, { body: Buffer; type: string }>();
  if (!existsSync(join(distDir, 'index.html'))) return files;
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(`/${relative(distDir, path).split('\\').join('/')}`, { body: readFileSync(path), type: contentTypes[extname(name)] ?? 'application/octet-stream' });
    }
  };
  walk(distDir);
  const index = files.get('/index.html')!;
  files.delete('/index.html');
  const sideBySide = files.get('/side-by-side.html');
  files.delete('/side-by-side.html');
  if (sideBySide) files.set(sideBySidePath, sideBySide);
  // The page finds out that it is attached (and where to) from this mark.
  const marked = index.body.toString('utf8').replace('<head>', `<head>\n    <meta name="podflow-live" content="${livePath}" />`);
  files.set(pagePath, { body: Buffer.from(marked), type: index.type });
  return files;
}

/** True for an Origin a page may attach from: the server's own, or a loopback one. */
export function allowedOrigin(origin: string | undefined, hostHeader: string | undefined): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (hostHeader !== undefined && url.host === hostHeader) return true;
  return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

export function startLive(options: LiveOptions): LiveFront {
  const { host } = options;
  const live = host.live;
  if (!live) throw new Error('the page needs the live host: start the server with live on');
  const files = pageFiles(resolve(options.distDir ?? 'dist'));
  const pages = new Set<Page>();
  /** The page whose command is being carried out (its answers go to it alone). */
  let asker: Page | null = null;
  /** Console ids: the server's → the page and its own id. */
  const consoleIds = new Map<number, { readonly page: Page; readonly id: number }>();
  let nextConsoleId = 1;
  let flushQueued = false;

  const flush = (): void => {
    flushQueued = false;
    for (const page of pages) {
      const events = page.pending;
      if (events.length === 0) continue;
      page.pending = [];
      send(page, events.length === 1 ? events[0] : events);
    }
  };
  const send = (page: Page, message: unknown): void => {
    if (page.socket.readyState !== page.socket.OPEN) return;
    if (page.socket.bufferedAmount > maxBufferedBytes) {
      page.socket.close(liveCloseCodes.tooSlow, 'the page fell behind; it reconnects afresh');
      return;
    }
    page.socket.send(encodeWire(message));
  };
  const queue = (page: Page, event: WorkerEvent): void => {
    page.pending.push(event);
    if (!flushQueued) {
      flushQueued = true;
      queueMicrotask(flush);
    }
  };
  const stopEvents = host.onLiveEvent((event) => {
    if (event.type === 'consoleOutput') {
      const owner = consoleIds.get(event.id);
      if (!owner) return;
      if (event.done) consoleIds.delete(event.id);
      if (pages.has(owner.page)) queue(owner.page, { ...event, id: owner.id });
      return;
    }
    // A keyspace at a revision the page picked is an answer too; the current one is everyone's view.
    if (asker && (answers.has(event.type) || (event.type === 'keyspaceSnapshot' && !event.current))) {
      queue(asker, event);
      return;
    }
    for (const page of pages) page.viewer.pass(event);
  });

  const carryOut = (page: Page, command: Command): void => {
    if (savedClusterCommands.has(command.type)) {
      queue(page, { type: 'clusters', clusters: [], openId: null });
      return;
    }
    if (command.type === 'consoleRun' || command.type === 'consoleInterrupt') {
      let id: number | null = null;
      if (command.type === 'consoleRun') {
        id = nextConsoleId++;
        consoleIds.set(id, { page, id: command.id });
      } else {
        for (const [serverId, owner] of consoleIds) if (owner.page === page && owner.id === command.id) id = serverId;
      }
      // Interrupting a command that is not running (or not this page's) does nothing.
      if (id === null) return;
      command = { ...command, id };
    }
    if (page.viewer.handle(command)) return;
    asker = page;
    try {
      live.handle(command);
    } finally {
      asker = null;
    }
  };

  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (offered) => (offered.has(liveSubprotocol) ? liveSubprotocol : false),
  });
  wss.on('connection', (socket: WebSocket, req: IncomingMessage) => {
    const offered = String(req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
    const token = offered.find((p) => p.startsWith(liveTokenPrefix))?.slice(liveTokenPrefix.length);
    if (options.token !== null && token !== base64url(options.token)) {
      const message = token === undefined
        ? 'this server asks for a token (it was started with --token): enter it to attach'
        : 'the server refused the token: it is not the one the server was started with (--token)';
      socket.send(encodeWire({ type: 'error', command: null, message } satisfies WorkerEvent));
      socket.close(liveCloseCodes.badToken, token === undefined ? 'token missing' : 'token refused');
      return;
    }
    const page: Page = { socket, pending: [], viewer: new PageViewer(live, (event) => queue(page, event)) };
    socket.send(encodeWire(host.liveSnapshot()));
    pages.add(page);
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      let command: Command;
      try {
        command = decodeWire(String(data)) as Command;
      } catch {
        queue(page, { type: 'error', command: null, message: 'the server could not read a command from this page (not JSON)' });
        return;
      }
      carryOut(page, command);
    });
    socket.on('close', () => {
      pages.delete(page);
      for (const [id, owner] of consoleIds) if (owner.page === page) consoleIds.delete(id);
    });
    socket.on('error', () => socket.terminate());
  });

  return {
    hasPage: files.size > 0,
    get pages() {
      return pages.size;
    },
    serveFile(path, res) {
      if (path === pagePath.slice(0, -1) && files.size > 0) {
        res.writeHead(301, { location: pagePath });
        res.end();
        return true;
      }
      const file = files.get(path);
      if (!file) return false;
      res.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length, 'cache-control': path === pagePath ? 'no-cache' : 'max-age=3600' });
      res.end(file.body);
      return true;
    },
    upgrade(req, socket, head) {
      const path = new URL(req.url ?? '/', 'http://podflow.invalid').pathname;
      if (path !== livePath) return false;
      if (!allowedOrigin(req.headers.origin, req.headers.host)) {
        socket.end('HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\nthis Origin may not attach to the Podflow server\n');
        return true;
      }
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
      return true;
    },
    close() {
      stopEvents();
      for (const page of pages) page.socket.terminate();
      wss.close();
    },
  };
}

// Upgraded connections for pods/exec and pods/attach: kubectl (1.30 and later) asks for a WebSocket with
// the Kubernetes stream subprotocol `v5.channel.k8s.io` (or v4); each binary message is one channel byte
// (1 stdout, 2 stderr, 3 the final Status as JSON) followed by data. The request enters the simulation as
// any other (`http.request`, with `connection: Upgrade`), goes kube-apiserver → kubelet there, and the
// connection is upgraded only when the simulated apiserver answers with a stream; an error answer (403,
// 404, 400) is written as the plain HTTP response it is, as kube-apiserver does before an upgrade.
// Models k8s.io/apimachinery/pkg/util/httpstream/wsstream (the channel protocol) and
// k8s.io/apiserver/pkg/util/proxy (streamtranslator: WebSocket on the client side).
//
// Not modelled: SPDY/3.1 (kubectl 1.29 and older, and every kubectl's port-forward, which tunnels SPDY
// inside a WebSocket): those upgrades are answered with a clear 501 Status; stdin and terminal resizes.

import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { builtinTokens } from '../sim/apiserver/filters/authentication.ts';
import type { HttpMethod, HttpRequest, HttpResponse, HttpStreamData } from '../sim/apiserver/http.ts';
import { livePath } from '../protocol/wire.ts';
import type { ClusterHost } from './cluster-host.ts';

export interface UpgradeOptions {
  readonly host: ClusterHost;
  readonly token: string | null;
}

/** The stream subprotocols served, best first. */
export const channelProtocols = ['v5.channel.k8s.io', 'v4.channel.k8s.io'] as const;

const statusText: Readonly<Record<number, string>> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 500: 'Internal Server Error', 501: 'Not Implemented' };

function writeStatus(socket: Duplex, code: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const lines = [`HTTP/1.1 ${code} ${statusText[code] ?? 'Error'}`, `Content-Type: ${typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json'}`,
    ...Object.entries(headers).filter(([k]) => k !== 'content-type').map(([k, v]) => `${k}: ${v}`), `Content-Length: ${Buffer.byteLength(text)}`, 'Connection: close'];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${text}`);
}

function status(code: number, reason: string, message: string): unknown {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

/** Serves WebSocket upgrades of pods/exec and pods/attach on `server`. */
export function serveUpgrades(server: Server, options: UpgradeOptions): void {
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (offered) => channelProtocols.find((p) => offered.has(p)) ?? false,
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    upgrade(wss, options, req, socket, head);
  });
}

function upgrade(wss: WebSocketServer, options: UpgradeOptions, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const url = new URL(req.url ?? '/', 'http://podflow.invalid');
  // The attached page's socket is live.ts's.
  if (url.pathname === livePath) return;
  const headers: Record<string, string> = {};
  for (const name of ['accept', 'user-agent', 'authorization', 'impersonate-user', 'impersonate-group', 'connection', 'upgrade', 'sec-websocket-protocol', 'x-stream-protocol-version']) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  // The door, as for every request (http-server.ts).
  if (options.token !== null) {
    if (headers.authorization !== `Bearer ${options.token}`) {
      writeStatus(socket, 401, status(401, 'Unauthorized', 'Unauthorized'));
      return;
    }
    headers.authorization = `Bearer ${builtinTokens.admin}`;
  } else if (headers.authorization === undefined) {
    headers.authorization = `Bearer ${builtinTokens.admin}`;
  }
  const websocket = (headers.upgrade ?? '').toLowerCase() === 'websocket';
  const offered = (headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
  if (!websocket || !channelProtocols.some((p) => offered.includes(p))) {
    writeStatus(socket, 501, status(501, 'NotImplemented', `${websocket ? `the WebSocket subprotocols ${JSON.stringify(offered)} are` : `${headers.upgrade ?? 'this'} upgrade is`} not modelled in Podflow's server: exec and attach are served over WebSocket (v5.channel.k8s.io or v4.channel.k8s.io, kubectl 1.30 and later); SPDY and port-forward are not`));
    return;
  }
  const request: HttpRequest = {
    method: (req.method ?? 'GET').toUpperCase() as HttpMethod,
    path: url.pathname,
    query: url.search.startsWith('?') ? url.search.slice(1) : url.search,
    headers,
  };
  let ws: WebSocket | null = null;
  let closed = false;
  const pending: HttpStreamData[] = [];
  let ended = false;
  const send = (chunk: HttpStreamData) => {
    if (!ws || ws.readyState !== ws.OPEN) return;
    ws.send(Buffer.concat([Buffer.from([chunk.channel]), Buffer.from(chunk.data, 'utf8')]));
  };
  const submission = options.host.submit(request, {
    response: (response: HttpResponse) => {
      if (closed) return;
      if (!response.stream) {
        const code = response.status >= 200 && response.status < 300 ? 501 : response.status;
        const body = code === response.status ? response.body : status(501, 'NotImplemented', 'port-forward is not modelled in Podflow\'s server');
        writeStatus(socket, code, body, response.headers);
        closed = true;
        return;
      }
      wss.handleUpgrade(req, socket, head, (opened) => {
        ws = opened;
        ws.on('close', () => {
          closed = true;
          submission.cancel();
        });
        ws.on('error', () => ws?.terminate());
        for (const chunk of pending.splice(0)) send(chunk);
        if (ended) ws.close(1000);
      });
    },
    watchEvent: () => undefined,
    streamData: (chunk) => {
      if (ws) send(chunk);
      else pending.push(chunk);
    },
    watchEnd: () => {
      ended = true;
      ws?.close(1000);
    },
  });
  socket.on('close', () => {
    if (!ws) {
      closed = true;
      submission.cancel();
    }
  });
}

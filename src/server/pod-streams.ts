// Upgraded connections for pods/exec and pods/attach: kubectl (1.30 and later) asks for a WebSocket with
// the Kubernetes stream subprotocol `v5.channel.k8s.io` (or v4); each binary message is one channel byte
// (1 stdout, 2 stderr, 3 the final Status as JSON) followed by data. The request enters the simulation as
// any other (`http.request`, with `connection: Upgrade`), goes kube-apiserver → kubelet there, and the
// connection is upgraded only when the simulated apiserver answers with a stream; an error answer (403,
// 404, 400) is written as the plain HTTP response it is, as kube-apiserver does before an upgrade.
// Models k8s.io/apimachinery/pkg/util/httpstream/wsstream (the channel protocol) and
// k8s.io/apiserver/pkg/util/proxy (streamtranslator: WebSocket on the client side).
//
// An exec with stdin is upgraded first and enters the simulation once the client closes stdin (see
// execWithStdin). Port-forward is served over SPDY/3.1 (port-forward.ts); its WebSocket tunnel is refused
// as a 1.28 apiserver refuses it, so kubectl falls back to SPDY. Not modelled: SPDY/3.1 exec and attach
// (kubectl 1.29 and older; the upgrade goes through the simulation for its errors, a successful one is a
// clear 501 Status); interactive stdin and terminal resizes.

import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { builtinTokens } from '../sim/wire/credentials.ts';
import type { HttpMethod, HttpRequest, HttpResponse, HttpStreamData } from '../sim/wire/http.ts';
import { livePath } from '../protocol/wire.ts';
import type { ClusterHost } from './cluster-host.ts';
import { servePortForward, switchingProtocols } from './port-forward.ts';

export interface UpgradeOptions {
  readonly host: ClusterHost;
  readonly token: string | null;
}

/** The stream subprotocols served, best first. */
export const channelProtocols = ['v5.channel.k8s.io', 'v4.channel.k8s.io'] as const;

/**
 * Wall ms between the upgrade and the first output sent. client-go starts reading the socket before it has
 * registered its streams (remotecommand/websocket.go: readDemuxLoop runs beside stream creation), so data
 * that arrives at once is dropped with "Unknown stream id 1, discarding message" on kubectl's stderr. A real
 * apiserver's first output comes after its own round trip to the kubelet; the model's is ready at once.
 */
const firstDataDelayMs = 50;

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

function simRequest(req: IncomingMessage, url: URL, headers: Record<string, string>): HttpRequest {
  return {
    method: (req.method ?? 'GET').toUpperCase() as HttpMethod,
    path: url.pathname,
    query: url.search.startsWith('?') ? url.search.slice(1) : url.search,
    headers,
  };
}

/**
 * A SPDY/3.1 upgrade (kubectl 1.29 and older; kubectl 1.30+ falls back to it when the WebSocket upgrade
 * is refused) goes through the simulation like any other, so its errors are the real ones: a container
 * that is not running is the kubelet's `container not found ("nginx")`, which kubectl prints as
 * `error: unable to upgrade connection: container not found ("nginx")`. An accepted port-forward is
 * upgraded and its streams served (port-forward.ts); an accepted exec or attach would need SPDY's
 * remotecommand streams, which are not modelled: 501.
 */
function upgradeSpdy(options: UpgradeOptions, req: IncomingMessage, url: URL, headers: Record<string, string>, socket: Duplex, head: Buffer): void {
  const request = simRequest(req, url, headers);
  submitUpgrade(options, request, socket, () => {
    if (isPortForward(url)) {
      socket.write(switchingProtocols);
      if (head.length > 0) socket.unshift(head);
      servePortForward(options.host, socket, request);
      return;
    }
    writeStatus(socket, 501, status(501, 'NotImplemented', 'SPDY/3.1 streams are not modelled in Podflow\'s server for exec and attach: they are served over WebSocket (v5.channel.k8s.io or v4.channel.k8s.io, kubectl 1.30 and later)'));
  });
}

function isPortForward(url: URL): boolean {
  return /^\/api\/v1\/namespaces\/[^/]+\/pods\/[^/]+\/portforward$/.test(url.pathname);
}

/**
 * kubectl 1.30+ first asks for port-forward over WebSocket (`SPDY/3.1+portforward.k8s.io` tunnelled in
 * its frames, without ports in the query). A 1.28 apiserver has no such handler: the request reaches the
 * kubelet, whose port-forward options need the ports of a WebSocket client, and its 400 `query parameter
 * "port" is required` comes back before any upgrade; kubectl takes that upgrade failure as the cue to fall
 * back to SPDY/3.1. With ports in the query, the kubelet's WebSocket port-forward is not modelled: 501.
 */
function refuseWebSocketPortForward(options: UpgradeOptions, req: IncomingMessage, url: URL, headers: Record<string, string>, socket: Duplex): void {
  submitUpgrade(options, simRequest(req, url, headers), socket, () => {
    writeStatus(socket, 501, status(501, 'NotImplemented', 'port-forward over WebSocket with ports in the query is not modelled in Podflow\'s server: port-forward is served over SPDY/3.1 (portforward.k8s.io)'));
  });
}

/**
 * Sends an upgrade request through the simulation and answers its socket once: `accepted` when the
 * simulation's answer is a success (the request is then cancelled there: what follows is the server's),
 * else that answer as it is. A socket closed first cancels the request.
 */
function submitUpgrade(options: UpgradeOptions, request: HttpRequest, socket: Duplex, accepted: () => void): void {
  let done = false;
  const submission = options.host.submit(request, {
    response: (response: HttpResponse) => {
      if (done) return;
      done = true;
      if (response.stream || (response.status >= 200 && response.status < 300)) {
        submission.cancel();
        accepted();
        return;
      }
      writeStatus(socket, response.status, response.body, response.headers);
    },
    watchEvent: () => undefined,
    streamData: () => undefined,
    watchEnd: () => undefined,
  });
  socket.on('close', () => {
    if (!done) submission.cancel();
    done = true;
  });
}

/** One binary WebSocket message: the channel byte, then the data (written as UTF-8 text). */
function channelMessage(chunk: HttpStreamData): Buffer {
  return Buffer.concat([Buffer.from([chunk.channel]), Buffer.from(chunk.data, 'utf8')]);
}

/**
 * An exec with stdin (`kubectl cp` into a pod, `kubectl exec -i`): the WebSocket is upgraded at once, as a
 * 1.30+ apiserver's stream translator does, and what arrives on channel 0 is kept until the client closes
 * stdin (v5's CLOSE message, `[255, 0]`); then the exec enters the simulation with stdin as its body (a
 * byte string) and its output streams back. An error answer becomes a Failure Status on channel 3.
 */
function execWithStdin(wss: WebSocketServer, options: UpgradeOptions, req: IncomingMessage, socket: Duplex, head: Buffer, request: HttpRequest): void {
  wss.handleUpgrade(req, socket, head, (ws) => {
    const stdin: Buffer[] = [];
    let submission: { cancel(): void } | null = null;
    const send = (chunk: HttpStreamData) => {
      if (ws.readyState === ws.OPEN) ws.send(channelMessage(chunk));
    };
    ws.on('error', () => ws.terminate());
    ws.on('close', () => submission?.cancel());
    ws.on('message', (data: Buffer) => {
      if (submission !== null || data.length === 0) return;
      if (data[0] === 0) stdin.push(data.subarray(1));
      else if (data[0] === 255 && data[1] === 0) {
        submission = options.host.submit({ ...request, body: Buffer.concat(stdin).toString('latin1') }, {
          response: (response: HttpResponse) => {
            if (response.stream) return;
            const message = typeof response.body === 'string' ? response.body.trim() : JSON.stringify(response.body);
            send({ channel: 3, data: JSON.stringify(status(response.status, '', message)) });
            ws.close(1000);
          },
          watchEvent: () => undefined,
          streamData: send,
          watchEnd: () => ws.close(1000),
        });
      }
    });
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
  const spdy = (headers.upgrade ?? '').toLowerCase() === 'spdy/3.1';
  const offered = (headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
  if (spdy) {
    upgradeSpdy(options, req, url, headers, socket, head);
    return;
  }
  if (websocket && isPortForward(url)) {
    refuseWebSocketPortForward(options, req, url, headers, socket);
    return;
  }
  if (!websocket || !channelProtocols.some((p) => offered.includes(p))) {
    writeStatus(socket, 501, status(501, 'NotImplemented', `${websocket ? `the WebSocket subprotocols ${JSON.stringify(offered)} are` : `${headers.upgrade ?? 'this'} upgrade is`} not modelled in Podflow's server: exec and attach are served over WebSocket (v5.channel.k8s.io or v4.channel.k8s.io, kubectl 1.30 and later), port-forward over SPDY/3.1`));
    return;
  }
  const request = simRequest(req, url, headers);
  if (/(?:^|&)stdin=(?:true|1)(?:&|$)/.test(request.query)) {
    execWithStdin(wss, options, req, socket, head, request);
    return;
  }
  let ws: WebSocket | null = null;
  let closed = false;
  /** Output is held until `firstDataDelayMs` after the upgrade (see there). */
  let ready = false;
  const pending: HttpStreamData[] = [];
  let ended = false;
  const send = (chunk: HttpStreamData) => {
    if (!ws || ws.readyState !== ws.OPEN) return;
    ws.send(channelMessage(chunk));
  };
  const submission = options.host.submit(request, {
    response: (response: HttpResponse) => {
      if (closed) return;
      if (!response.stream) {
        const code = response.status >= 200 && response.status < 300 ? 501 : response.status;
        const body = code === response.status ? response.body : status(501, 'NotImplemented', 'this stream is not modelled in Podflow\'s server');
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
        setTimeout(() => {
          ready = true;
          for (const chunk of pending.splice(0)) send(chunk);
          if (ended) ws?.close(1000);
        }, firstDataDelayMs);
      });
    },
    watchEvent: () => undefined,
    streamData: (chunk) => {
      if (ready) send(chunk);
      else pending.push(chunk);
    },
    watchEnd: () => {
      ended = true;
      if (ready) ws?.close(1000);
    },
  });
  socket.on('close', () => {
    if (!ws) {
      closed = true;
      submission.cancel();
    }
  });
}

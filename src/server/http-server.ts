// The Kubernetes-compatible HTTP front: node:http in, the simulated kube-apiserver behind. Each request
// becomes one `http.request` in the simulation with its method, path, query, the headers the apiserver
// reads and the body (text; a protobuf body as bytes); the simulated answer goes back with its
// status and headers (Warning, Audit-Id), its body encoded as its Content-Type says (JSON, YAML or
// Kubernetes protobuf: sim/apiserver/wire-encoding.ts). A watch is answered 200 with a chunked body of
// events (JSON lines, or length-prefixed protobuf frames) and stays open until the apiserver ends it; a
// client that disconnects cancels it
// (`http.cancel`). The trace of the simulation streams as server-sent events at /podflow/trace.
//
// Before anything reaches the simulation the front applies kube-apiserver's limits (request-limits.ts: 3 MiB
// write bodies through a limited reader, 1 MiB of headers, header, idle and request timeouts) and Go's
// request-target parsing (request-path.ts: %XX decoded, dot segments never resolved). A protobuf body goes on
// as bytes. Anything unexpected is a 500 Status and is logged; the server itself never goes down with it.
//
// Authentication at the door: with `--token T` the front listens on HTTPS (kubectl sends bearer tokens
// only over TLS) and only requests bearing T get in, acting as the cluster's admin. Without a token it
// listens on plain HTTP, meant for loopback: a request without credentials acts as the admin, one with a
// bearer token (one of the simulated cluster's, see filters/authentication.ts) is passed on as it is, so
// the simulated authenticator decides. Either way `kubectl --as alice` is impersonation, which the
// simulated apiserver authorizes and RBAC then judges as alice.

import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { builtinTokens } from '../sim/wire/credentials.ts';
import type { HttpMethod, HttpRequest, HttpResponse } from '../sim/wire/http.ts';
import type { Duplex } from 'node:stream';
import type { ClusterHost, Submission } from './cluster-host.ts';
import { defaultRequestLimits, discardRest, goPlainError, readLimitedBody, readsBody, type RequestLimits } from './request-limits.ts';
import { processMetricsText } from './process-metrics.ts';
import { parseRequestTarget } from './request-path.ts';
import { encodeBody, encodeWatchEvent, isPrettyPrint } from '../sim/apiserver/wire-encoding.ts';
import { protobufMediaType } from '../sim/apiserver/negotiation.ts';
import { serveTrace } from './trace-stream.ts';
import { serveUpgrades } from './pod-streams.ts';
import type { LiveFront } from './live.ts';

export interface FrontOptions {
  readonly host: ClusterHost;
  readonly address: string;
  readonly port: number;
  /** Bearer token required at the door; null lets every request through to the simulated authenticator. */
  readonly token: string | null;
  /** HTTPS certificate and key (required with a token). */
  readonly tls?: { readonly cert: string; readonly key: string };
  /** Size limits and timeouts (request-limits.ts); kube-apiserver's by default. */
  readonly limits?: Partial<RequestLimits>;
  /** Every answered request, as kube-apiserver's httplog line has it; by default 5xx answers go to stderr. */
  readonly log?: (entry: RequestLogEntry) => void;
  /** The attached page (live.ts): its files and its WebSocket, before the door (they need no bearer token). */
  readonly live?: LiveFront;
}

/** One answered request (k8s.io/apiserver/pkg/server/httplog: verb, URI, status, user agent, latency). */
export interface RequestLogEntry {
  readonly method: string;
  readonly uri: string;
  readonly status: number;
  readonly userAgent: string;
  readonly latencyMs: number;
  /** The unexpected error behind a 500, if any. */
  readonly error?: string;
}

const methods: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Request headers the simulated apiserver reads. */
const forwarded = ['accept', 'content-type', 'user-agent', 'authorization', 'impersonate-user', 'impersonate-group'];

export interface RunningFront {
  readonly server: Server;
  readonly port: number;
  close(): Promise<void>;
}

function logToStderr(entry: RequestLogEntry): void {
  if (entry.status < 500) return;
  console.error(`podflow apiserver: "HTTP" verb="${entry.method}" URI="${entry.uri}" latency="${entry.latencyMs.toFixed(3)}ms" userAgent="${entry.userAgent}" resp=${entry.status}${entry.error ? ` error="${entry.error}"` : ''}`);
}

export async function startFront(options: FrontOptions): Promise<RunningFront> {
  const limits: RequestLimits = { ...defaultRequestLimits, ...options.limits };
  const log = options.log ?? logToStderr;
  const listener: RequestListener = (req, res) => {
    const started = performance.now();
    const logged = { done: false };
    const record = (status: number, error?: string): void => {
      if (logged.done) return;
      logged.done = true;
      try {
        log({ method: req.method ?? '', uri: req.url ?? '', status, userAgent: String(req.headers['user-agent'] ?? ''), latencyMs: performance.now() - started, ...(error !== undefined ? { error } : {}) });
      } catch {
        // A failing logger must not fail the request.
      }
    };
    res.on('finish', () => record(res.statusCode));
    handle(options, limits, req, res).catch((err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      record(500, message);
      try {
        if (!res.headersSent) sendJson(res, 500, {}, internalError(message));
        else res.destroy();
      } catch {
        res.destroy();
      }
    });
  };
  const serverOptions = {
    maxHeaderSize: limits.maxHeaderBytes,
    headersTimeout: limits.headerTimeoutMs,
    keepAliveTimeout: limits.idleTimeoutMs,
    // The whole-request deadline is the front's own (504 Status, watches exempt), not Node's 408.
    requestTimeout: 0,
    connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(limits.headerTimeoutMs / 4))),
  };
  const server: Server = options.tls
    ? createTlsServer({ cert: options.tls.cert, key: options.tls.key, ...serverOptions }, listener)
    : createServer(serverOptions, listener);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // Errors before a handler, as Go's server answers them: 431 for oversized headers, 400 for a malformed
    // request, and a silent close for a header timeout or a connection already gone.
    if (err.code === 'ECONNRESET' || err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || !socket.writable) {
      socket.destroy();
      return;
    }
    socket.end(goPlainError(err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.address, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const live = options.live;
  if (live) server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => live.upgrade(req, socket, head));
  serveUpgrades(server, options);
  return {
    server,
    port,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

async function handle(options: FrontOptions, limits: RequestLimits, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const target = parseRequestTarget(req.url ?? '/');
  if (!target.ok) {
    // Go's server answers an unparsable request URI before any handler.
    res.socket?.end(goPlainError(400));
    return;
  }
  const method = (req.method ?? 'GET').toUpperCase() as HttpMethod;
  if (method === 'GET' && options.live?.serveFile(target.path, res)) {
    req.resume();
    return;
  }
  const headers: Record<string, string> = {};
  for (const name of forwarded) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  if (options.token !== null) {
    if (headers.authorization !== `Bearer ${options.token}`) {
      discardRest(req, limits);
      sendJson(res, 401, {}, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
      return;
    }
    headers.authorization = `Bearer ${builtinTokens.admin}`;
  } else if (headers.authorization === undefined) {
    headers.authorization = `Bearer ${builtinTokens.admin}`;
  }
  if (method === 'GET' && target.path === '/podflow/trace') {
    serveTrace(options.host, new URL(`http://podflow.invalid/podflow/trace?${target.rawQuery}`), req, res);
    return;
  }
  if (!methods.includes(method)) {
    discardRest(req, limits);
    sendJson(res, 405, {}, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `the server does not allow this method on the requested resource`, reason: 'MethodNotAllowed', code: 405 });
    return;
  }

  // The deadline of a non-long-running request, body included (a watch clears it once it streams).
  let submission: Submission | null = null;
  let streaming = false;
  let streamType: string | undefined;
  const deadline = setTimeout(() => {
    if (streaming || res.headersSent || res.destroyed) return;
    submission?.cancel();
    sendJson(res, 504, { connection: 'close' }, timeoutStatus);
    if (!req.complete) req.socket.destroy();
  }, limits.requestTimeoutMs);
  res.on('close', () => clearTimeout(deadline));

  let body: string | Uint8Array | undefined;
  if (readsBody(method)) {
    const read = await readLimitedBody(req, limits.maxRequestBodyBytes);
    if (!read.ok) {
      if (read.reason === 'too-large' && !res.headersSent && !res.destroyed) {
        sendJson(res, 413, { connection: 'close' }, entityTooLarge(limits.maxRequestBodyBytes));
        discardRest(req, limits);
      } else {
        res.destroy();
      }
      return;
    }
    if (res.headersSent || res.destroyed) return;
    if (read.bytes.length > 0) {
      const contentType = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      // Protobuf bodies go on as bytes (the apiserver's request-body decoder reads them); text otherwise.
      body = contentType === protobufMediaType ? new Uint8Array(read.bytes) : read.bytes.toString('utf8');
    }
  } else {
    // Read handlers never read a body: whatever was sent is dropped unread.
    req.resume();
  }
  const request: HttpRequest = {
    method,
    path: target.path,
    query: target.rawQuery,
    headers,
    ...(body !== undefined ? { body } : {}),
  };
  // /metrics: the model's families, then this process's own (prom-client).
  const processMetrics = method === 'GET' && target.path === '/metrics' ? await processMetricsText() : null;
  submission = options.host.submit(request, {
    response: (response) => {
      if (res.destroyed || res.headersSent) return;
      if (processMetrics !== null && response.status === 200 && typeof response.body === 'string') {
        sendResponse(res, { ...response, body: `${response.body}${processMetrics}` });
        return;
      }
      if (response.stream) {
        streaming = true;
        streamType = response.headers['content-type'];
        clearTimeout(deadline);
        res.writeHead(response.status, { ...response.headers, 'cache-control': 'no-cache, private' });
        res.flushHeaders();
        return;
      }
      sendResponse(res, response, isPrettyPrint(request));
    },
    watchEvent: (event) => {
      if (res.destroyed) return;
      let frame: string | Uint8Array;
      try {
        frame = encodeWatchEvent(streamType, event);
      } catch {
        // An event that cannot be encoded ends the stream, as a failed write does in watch.go.
        res.destroy();
        return;
      }
      res.write(frame);
    },
    watchEnd: () => {
      if (!res.destroyed) res.end();
    },
    // A followed log: the kubelet's bytes as they come (stdout and stderr are one log).
    streamData: (chunk) => {
      if (!res.destroyed && chunk.channel !== 3) res.write(chunk.data);
    },
  });
  const sent = submission;
  // In Node, the request's 'close' fires once its body is read; the response's fires on disconnect.
  res.on('close', () => {
    if (streaming || !res.writableFinished) sent.cancel();
  });
}

/** Writes an answer in the serializer its Content-Type names (JSON, YAML or protobuf bytes; text as is). */
function sendResponse(res: ServerResponse, response: HttpResponse, pretty = false): void {
  let body: string | Uint8Array;
  try {
    body = encodeBody(response.headers['content-type'], response.body, pretty);
  } catch (err) {
    response = { status: 500, headers: { 'content-type': 'application/json' }, body: internalError(`unable to encode the response: ${err instanceof Error ? err.message : String(err)}`) };
    body = encodeBody('application/json', response.body);
  }
  const headers = typeof response.body === 'string' ? response.headers : { 'content-type': 'application/json', ...response.headers };
  res.writeHead(response.status, { ...headers, 'content-length': typeof body === 'string' ? Buffer.byteLength(body) : body.length });
  res.end(typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.length));
}

function sendJson(res: ServerResponse, status: number, headers: Readonly<Record<string, string>>, body: unknown): void {
  sendResponse(res, { status, headers: { 'content-type': 'application/json', ...headers }, body });
}

const timeoutStatus = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Timeout: request did not complete within requested timeout - context deadline exceeded', reason: 'Timeout', details: {}, code: 504 };

function entityTooLarge(limit: number): unknown {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Request entity too large: limit is ${limit}`, reason: 'RequestEntityTooLarge', code: 413 };
}

/** apierrors.NewInternalError's Status. */
function internalError(message: string): unknown {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Internal error occurred: ${message}`, reason: 'InternalError', details: { causes: [{ message }] }, code: 500 };
}

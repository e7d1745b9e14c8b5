// The Kubernetes-compatible HTTP front: node:http in, the simulated kube-apiserver behind. Each request
// becomes one `http.request` in the simulation with its method, path, query, the headers the apiserver
// reads and the body (text; a protobuf body as a byte string); the simulated answer goes back with its
// status and headers (Warning, Audit-Id), its body encoded as its Content-Type says (JSON, YAML or
// Kubernetes protobuf: sim/apiserver/wire-encoding.ts). A watch is answered 200 with a chunked body of
// events (JSON lines, or length-prefixed protobuf frames) and stays open until the apiserver ends it; a
// client that disconnects cancels it
// (`http.cancel`). The trace of the simulation streams as server-sent events at /podflow/trace.
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
import { builtinTokens } from '../sim/apiserver/filters/authentication.ts';
import type { HttpMethod, HttpRequest, HttpResponse } from '../sim/apiserver/http.ts';
import { encodeBody, encodeWatchEvent, isPrettyPrint } from '../sim/apiserver/wire-encoding.ts';
import type { ClusterHost } from './cluster-host.ts';
import { serveTrace } from './trace-stream.ts';

export interface FrontOptions {
  readonly host: ClusterHost;
  readonly address: string;
  readonly port: number;
  /** Bearer token required at the door; null lets every request through to the simulated authenticator. */
  readonly token: string | null;
  /** HTTPS certificate and key (required with a token). */
  readonly tls?: { readonly cert: string; readonly key: string };
}

const methods: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Request headers the simulated apiserver reads. */
const forwarded = ['accept', 'content-type', 'user-agent', 'authorization', 'impersonate-user', 'impersonate-group'];

export interface RunningFront {
  readonly server: Server;
  readonly port: number;
  close(): Promise<void>;
}

export async function startFront(options: FrontOptions): Promise<RunningFront> {
  const listener: RequestListener = (req, res) => {
    handle(options, req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, {}, internalError(err instanceof Error ? err.message : String(err)));
      else res.destroy();
    });
  };
  const server: Server = options.tls ? createTlsServer({ cert: options.tls.cert, key: options.tls.key }, listener) : createServer(listener);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.address, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

async function handle(options: FrontOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://podflow.invalid');
  const method = (req.method ?? 'GET').toUpperCase() as HttpMethod;
  const headers: Record<string, string> = {};
  for (const name of forwarded) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  if (options.token !== null) {
    if (headers.authorization !== `Bearer ${options.token}`) {
      sendJson(res, 401, {}, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
      return;
    }
    headers.authorization = `Bearer ${builtinTokens.admin}`;
  } else if (headers.authorization === undefined) {
    headers.authorization = `Bearer ${builtinTokens.admin}`;
  }
  if (method === 'GET' && url.pathname === '/podflow/trace') {
    serveTrace(options.host, url, req, res);
    return;
  }
  if (!methods.includes(method)) {
    sendJson(res, 405, {}, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `the server does not allow this method on the requested resource`, reason: 'MethodNotAllowed', code: 405 });
    return;
  }
  const body = await readBody(req, headers['content-type']);
  const request: HttpRequest = {
    method,
    path: url.pathname,
    query: url.search.startsWith('?') ? url.search.slice(1) : url.search,
    headers,
    ...(body !== '' ? { body } : {}),
  };
  let streaming = false;
  let streamType: string | undefined;
  const pretty = isPrettyPrint(request);
  const submission = options.host.submit(request, {
    response: (response) => {
      if (res.destroyed) return;
      if (response.stream) {
        streaming = true;
        streamType = response.headers['content-type'];
        res.writeHead(response.status, { ...response.headers, 'cache-control': 'no-cache, private' });
        res.flushHeaders();
        return;
      }
      sendResponse(res, response, pretty);
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
  });
  // In Node, the request's 'close' fires once its body is read; the response's fires on disconnect.
  res.on('close', () => {
    if (streaming || !res.writableFinished) submission.cancel();
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

function internalError(message: string): unknown {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'InternalError', code: 500 };
}

/** The body as the model reads it: text (UTF-8) for JSON and YAML, a byte string (one char per byte) for protobuf. */
function readBody(req: IncomingMessage, contentType: string | undefined): Promise<string> {
  const binary = (contentType ?? '').split(';')[0]!.trim().toLowerCase() === 'application/vnd.kubernetes.protobuf';
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString(binary ? 'latin1' : 'utf8')));
    req.on('error', reject);
  });
}

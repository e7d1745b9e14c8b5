// The HTTP front under hostile input: body limits (3 MiB, the real 413, never buffered past the limit), paths
// with "." and ".." segments (never resolved), header limits, slow and half-sent requests (timed out, no socket
// left behind), unexpected errors (a 500 Status, still logged), protobuf bodies handed on as bytes, and the
// fast-forward clock that never runs ahead of the wall clock.

import { connect, type Socket } from 'node:net';
import { request as httpRequest } from 'node:http';
import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import type { HttpRequest } from '../../src/sim/wire/http.ts';
import type { RequestLogEntry } from '../../src/server/http-server.ts';
import { readLimitedBody } from '../../src/server/request-limits.ts';
import { defaultServerOptions, startPodflowServer, type PodflowServer, type ServerOptions } from '../../src/server/server.ts';
import { until } from '../wait.ts';

const servers: PodflowServer[] = [];

afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function start(options: Partial<ServerOptions> = {}): Promise<PodflowServer> {
  const server = await startPodflowServer({ ...defaultServerOptions, fastForward: true, port: 0, ...options });
  servers.push(server);
  return server;
}

interface Reply {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** One request; `body` may be a Buffer or a generator of chunks written as they come (chunked). */
function call(server: PodflowServer, method: string, path: string, body?: string | Buffer | Iterable<Buffer>, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    // `path` as given: a URL string would be resolved by Node's WHATWG parser (`%2e%2e` gone before sending).
    const req = httpRequest({ host: '127.0.0.1', port: server.front.port, path, method, headers: { accept: 'application/json', 'content-type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (b: Buffer) => chunks.push(b));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body === undefined || typeof body === 'string' || Buffer.isBuffer(body)) {
      req.end(body);
      return;
    }
    const it = body[Symbol.iterator]();
    const pump = (): void => {
      for (;;) {
        const next = it.next();
        if (next.done) {
          req.end();
          return;
        }
        if (req.destroyed) return;
        if (!req.write(next.value)) {
          req.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
}

/** Raw bytes on a socket; resolves with everything the server wrote before closing. */
function raw(server: PodflowServer, text: string | Buffer, options: { keepOpen?: boolean } = {}): { socket: Socket; reply: Promise<string> } {
  const socket = connect(server.front.port, '127.0.0.1');
  const chunks: Buffer[] = [];
  const reply = new Promise<string>((resolve) => {
    socket.on('data', (b: Buffer) => chunks.push(b));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString()));
    socket.on('error', () => undefined);
  });
  socket.write(text);
  if (!options.keepOpen) socket.end();
  return { socket, reply };
}

function* chunks(total: number, size = 64 << 10): Generator<Buffer> {
  const chunk = Buffer.alloc(size, 0x20);
  for (let sent = 0; sent < total; sent += size) yield total - sent >= size ? chunk : chunk.subarray(0, total - sent);
}

async function configMapCount(server: PodflowServer): Promise<number> {
  const list = JSON.parse((await call(server, 'GET', '/api/v1/configmaps')).body) as { items: unknown[] };
  return list.items.length;
}

const status = (reply: Reply) => JSON.parse(reply.body) as { kind: string; code: number; reason?: string; message: string };

describe('request bodies', () => {
  test('a body past 3 MiB gets the real 413 Status, streamed or declared, and nothing is stored', async () => {
    const server = await start();
    const before = await configMapCount(server);
    const streamed = await call(server, 'POST', '/api/v1/namespaces/default/configmaps', chunks(4 * 1024 * 1024));
    expect(streamed.status).toBe(413);
    expect(status(streamed)).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Request entity too large: limit is 3145728', reason: 'RequestEntityTooLarge', code: 413 });
    expect(streamed.headers.connection).toBe('close');
    const declared = await call(server, 'PUT', '/api/v1/namespaces/default/configmaps/x', Buffer.alloc(3 * 1024 * 1024 + 1, 0x20));
    expect([declared.status, status(declared).message]).toEqual([413, 'Request entity too large: limit is 3145728']);
    // At the limit the body is read and decoded (here: blank JSON, a 400 from the decoder, not a 413).
    const atLimit = await call(server, 'POST', '/api/v1/namespaces/default/configmaps', chunks(3 * 1024 * 1024));
    expect(atLimit.status).toBe(400);
    expect(await configMapCount(server)).toBe(before);
    // The server is still there.
    expect((await call(server, 'GET', '/version')).status).toBe(200);
  });

  test('the limited reader stops at limit + 1 bytes and leaves the rest unread', async () => {
    const stream = new PassThrough() as unknown as IncomingMessage & PassThrough;
    stream.headers = {};
    const result = readLimitedBody(stream, 1000);
    let written = 0;
    while (written < 10_000) {
      stream.write(Buffer.alloc(100));
      written += 100;
    }
    const read = await result;
    expect(read).toEqual({ ok: false, reason: 'too-large' });
    expect(stream.isPaused()).toBe(true);
    // What was not read is still in the stream's buffer, not in the reader's.
    expect(stream.readableLength).toBeGreaterThan(8_000);
  });

  test('a GET body is never read: the answer comes without it', async () => {
    const server = await start();
    // (Node's client frames a GET body only when asked to.)
    const reply = await call(server, 'GET', '/api/v1/namespaces/default/configmaps', chunks(8 * 1024 * 1024), { 'transfer-encoding': 'chunked' });
    expect(reply.status).toBe(200);
  });

  test('a protobuf body is handed to the apiserver as bytes', async () => {
    const server = await start();
    const bodies: unknown[] = [];
    server.host.onDelivery((m) => {
      if (m.kind === 'http.request' && (m.payload as HttpRequest).method === 'POST') bodies.push((m.payload as HttpRequest).body);
    });
    const bytes = Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x0a, 0x00]);
    await call(server, 'POST', '/api/v1/namespaces/default/configmaps', bytes, { 'content-type': 'application/vnd.kubernetes.protobuf' });
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toBeInstanceOf(Uint8Array);
    expect([...(bodies[0] as Uint8Array)]).toEqual([...bytes]);
  });
});

describe('paths', () => {
  test('"." and ".." segments, encoded or not, are never resolved: the real 400 and 500 answers', async () => {
    const server = await start();
    expect((await call(server, 'POST', '/api/v1/namespaces/default/configmaps', JSON.stringify({ metadata: { name: 'mine' }, data: { a: 'b' } }))).status).toBe(201);
    for (const path of ['/api/v1/namespaces/%2e%2e/configmaps', '/api/v1/namespaces/%2E%2E/configmaps', '/api/v1/namespaces/../configmaps']) {
      const reply = await call(server, 'GET', path);
      expect([path, reply.status, status(reply).message]).toEqual([path, 500, 'invalid key: "/configmaps/.."']);
    }
    const got = await call(server, 'GET', '/api/v1/namespaces/default/pods/%2e%2e');
    expect([got.status, status(got).reason, status(got).message]).toEqual([400, 'BadRequest', 'Name parameter invalid: "..": may not be \'..\'']);
    const dot = await call(server, 'DELETE', '/api/v1/namespaces/default/configmaps/.');
    expect([dot.status, status(dot).message]).toEqual([400, 'Name parameter invalid: ".": may not be \'.\'']);
    const percent = await call(server, 'GET', '/api/v1/namespaces/default/configmaps/a%25b');
    expect([percent.status, status(percent).message]).toEqual([400, 'Name parameter invalid: "a%b": may not contain \'%\'']);
    // `/api/v1/namespaces/default/configmaps/mine/..` is a subresource "..", not the collection.
    expect((await call(server, 'GET', '/api/v1/namespaces/default/configmaps/mine/..')).status).toBe(404);
    // A bad escape is Go's plain 400 before any handler.
    const bad = await raw(server, 'GET /api/v1/namespaces/%zz/pods HTTP/1.1\r\nHost: x\r\n\r\n').reply;
    expect(bad).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(bad.endsWith('400 Bad Request')).toBe(true);
  });
});

describe('headers and slow clients', () => {
  test('headers past 1 MiB get Go\'s 431; a large query within it is served', async () => {
    const server = await start();
    const big = await raw(server, `GET /version HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(1_100_000)}\r\n\r\n`).reply;
    expect(big).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    const query = await call(server, 'GET', `/api/v1/namespaces/default/configmaps?labelSelector=${'a'.repeat(60)}&x=${'b'.repeat(500_000)}`);
    expect(query.status).toBe(200);
    // The request line counts toward the same limit: a 1.1 MB query is refused the same way.
    const longQuery = await raw(server, `GET /version?x=${'q'.repeat(1_100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`).reply;
    expect(longQuery).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
  });

  test('a half-sent header, a stalled body and a never-answered request time out and leave no socket open', async () => {
    const server = await start({ limits: { headerTimeoutMs: 200, requestTimeoutMs: 400 } });
    const openSockets = () => new Promise<number>((resolve) => server.front.server.getConnections((_, n) => resolve(n)));
    // Headers never finished: the connection is closed without an answer.
    const slow = raw(server, 'GET /version HTTP/1.1\r\nHost: x\r\nX-Slow: ', { keepOpen: true });
    expect(await slow.reply).toBe('');
    // A body that stops half-way: 504 Status, then closed.
    const stalled = raw(server, 'POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"metadata":', { keepOpen: true });
    const answer = await stalled.reply;
    expect(answer).toMatch(/^HTTP\/1\.1 504 Gateway Timeout\r\n/);
    expect(answer).toContain('"message":"Timeout: request did not complete within requested timeout - context deadline exceeded","reason":"Timeout"');
    // A request the simulation never answers.
    server.host.submit = () => ({ id: null, cancel: () => undefined });
    const lost = await call(server, 'GET', '/version');
    expect([lost.status, status(lost).reason]).toEqual([504, 'Timeout']);
    await until('every socket closed', async () => (await openSockets()) === 0);
  });

  test('an unexpected error is a 500 Status and is still logged; the server goes on', async () => {
    const logs: RequestLogEntry[] = [];
    const server = await start({ log: (e) => logs.push(e) });
    const submit = server.host.submit.bind(server.host);
    server.host.submit = () => {
      throw new Error('boom');
    };
    const reply = await call(server, 'GET', '/api/v1/namespaces/default/pods');
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body)).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Internal error occurred: boom', reason: 'InternalError', details: { causes: [{ message: 'boom' }] }, code: 500 });
    expect(logs.find((e) => e.status === 500)).toMatchObject({ method: 'GET', uri: '/api/v1/namespaces/default/pods', status: 500, error: 'boom' });
    server.host.submit = submit;
    expect((await call(server, 'GET', '/version')).status).toBe(200);
    expect(logs.at(-1)).toMatchObject({ uri: '/version', status: 200 });
  });
});

describe('the fast-forward clock', () => {
  test('never runs ahead of the wall clock, while a Deployment\'s pods still start at once', async () => {
    const server = await start({ fastForward: true });
    const deployment = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } } },
    };
    expect((await call(server, 'POST', '/apis/apps/v1/namespaces/default/deployments', JSON.stringify(deployment))).status).toBe(201);
    const running = async () => {
      const pods = JSON.parse((await call(server, 'GET', '/api/v1/namespaces/default/pods')).body) as { items: Array<{ metadata: { creationTimestamp: string }; status: { phase?: string } }> };
      expect(server.host.clusterTimeMs).toBeLessThanOrEqual(Date.now());
      for (const p of pods.items) expect(Date.parse(p.metadata.creationTimestamp)).toBeLessThanOrEqual(Date.now());
      return pods.items.length === 3 && pods.items.every((p) => p.status.phase === 'Running');
    };
    await until('three Running pods', running);
  });
});

describe('/metrics and health over HTTP', () => {
  test('/metrics carries the model\'s families and this process\'s own (prom-client); /readyz?verbose lists its checks', async () => {
    const server = await start();
    const metrics = await call(server, 'GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(metrics.body).toMatch(/^# HELP apiserver_request_total \[STABLE\]/);
    expect(metrics.body).toMatch(/\netcd_request_duration_seconds_bucket\{operation="create",type="nodes",le="0\.005"\} \d+\n/);
    expect(metrics.body).toMatch(/\nprocess_resident_memory_bytes \d+\n/);
    const readyz = await call(server, 'GET', '/readyz?verbose');
    expect(readyz.body.endsWith('[+]shutdown ok\nreadyz check passed\n')).toBe(true);
  });
});

// The HTTP front of `npm run apiserver` without kubectl: watch streams and their cancellation on
// disconnect, the trace as server-sent events, command-log replay from the data directory, and the
// token door over HTTPS.

import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { defaultServerOptions, startPodflowServer, type PodflowServer, type ServerOptions } from '../../src/server/server.ts';
import { selfSignedCertificate } from '../../src/server/tls.ts';
import { until } from '../wait.ts';

const servers: PodflowServer[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(options: Partial<ServerOptions> = {}): Promise<PodflowServer> {
  const server = await startPodflowServer({ ...defaultServerOptions, fastForward: true, port: 0, ...options });
  servers.push(server);
  return server;
}

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'podflow-server-'));
  dirs.push(d);
  return d;
}

interface Reply {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

function call(server: PodflowServer, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${path}`, { method, headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}), ...headers } }, (res) => {
      let text = '';
      res.on('data', (b: Buffer) => {
        text += b.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

/** Opens a server-sent event stream and pushes each event's JSON data onto `into`; `onOpen` sees the response first. */
function serverSentEvents<T>(url: string, into: T[], onOpen?: (res: IncomingMessage) => void): ClientRequest {
  const req = httpRequest(url, (res) => {
    onOpen?.(res);
    let buffer = '';
    res.on('data', (b: Buffer) => {
      buffer += b.toString();
      const events = buffer.split('\n\n');
      buffer = events.pop()!;
      for (const e of events) {
        const data = e.split('\n').find((l) => l.startsWith('data: '));
        if (data) into.push(JSON.parse(data.slice('data: '.length)) as T);
      }
    });
    res.on('error', () => undefined);
  });
  req.on('error', () => undefined);
  req.end();
  return req;
}

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } });

describe('the Podflow apiserver over HTTP', () => {
  test('a watch streams newline-delimited events, one-row Tables when asked, and a disconnect cancels it in the simulation', async () => {
    const server = await start();
    const list = JSON.parse((await call(server, 'GET', '/api/v1/namespaces/default/configmaps')).body) as { metadata: { resourceVersion: string } };
    const cancels: number[] = [];
    server.host.onDelivery((m) => {
      if (m.kind === 'http.cancel') cancels.push((m.payload as { requestId: number }).requestId);
    });
    const lines: string[] = [];
    let response: IncomingMessage | null = null;
    const req = httpRequest(`${server.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${list.metadata.resourceVersion}`, {
      headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' },
    }, (res) => {
      response = res;
      let buffer = '';
      res.on('data', (b: Buffer) => {
        buffer += b.toString();
        const parts = buffer.split('\n');
        buffer = parts.pop()!;
        lines.push(...parts);
      });
      res.on('error', () => undefined);
    });
    req.on('error', () => undefined);
    req.end();
    await until('the watch answered', () => response !== null);
    expect(response!.statusCode).toBe(200);
    expect(response!.headers['content-type']).toBe('application/json'); // the serializer's type, as watch.go sets it
    expect(response!.headers['transfer-encoding']).toBe('chunked');
    expect((await call(server, 'POST', '/api/v1/namespaces/default/configmaps', configMap('one'))).status).toBe(201);
    expect((await call(server, 'POST', '/api/v1/namespaces/default/configmaps', configMap('two'))).status).toBe(201);
    await until('two watch events', () => lines.length >= 2);
    const events = lines.map((l) => JSON.parse(l) as { type: string; object: { kind: string; rows: Array<{ cells: unknown[] }> } });
    expect(events.map((e) => [e.type, e.object.kind, e.object.rows.length, e.object.rows[0]!.cells[0]])).toEqual([['ADDED', 'Table', 1, 'one'], ['ADDED', 'Table', 1, 'two']]);
    req.destroy();
    await until('the watch cancelled in the simulation', () => cancels.length > 0);
    expect(cancels).toHaveLength(1);
  });

  test('/podflow/trace streams every delivered message as a server-sent event', async () => {
    const server = await start();
    const records: Array<{ kind: string; from: string; to: string; replyTo: number | null; id: number }> = [];
    let streaming = false;
    const req = serverSentEvents(`${server.url}/podflow/trace?kind=http.`, records, (res) => {
      expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      streaming = true;
    });
    await until('the trace stream open', () => streaming);
    expect((await call(server, 'GET', '/version')).status).toBe(200);
    await until('the request and its response in the trace', () => records.length >= 2);
    req.destroy();
    const [sent, answered] = records;
    expect([sent!.kind, sent!.from, sent!.to]).toEqual(['http.request', 'user', 'kube-apiserver']);
    expect([answered!.kind, answered!.from, answered!.to, answered!.replyTo]).toEqual(['http.response', 'kube-apiserver', 'user', sent!.id]);

    // From step 1: the retained history first (boot: the apiserver's first etcd request), then live records.
    const history: Array<{ step: number; kind: string }> = [];
    const again = serverSentEvents(`${server.url}/podflow/trace?from=1`, history);
    await until('ten records of history', () => history.length >= 10);
    again.destroy();
    expect(history.slice(0, 10).map((r) => r.step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  test('with a data directory the command log replays on start to the same objects, uid and resourceVersion included', async () => {
    const dataDir = tempDir();
    const first = await start({ dataDir, seed: 'replay' });
    const created = JSON.parse((await call(first, 'POST', '/api/v1/namespaces/default/configmaps', configMap('kept'))).body) as { metadata: { uid: string; resourceVersion: string } };
    await first.close();
    servers.splice(servers.indexOf(first), 1);
    const second = await start({ dataDir, seed: 'replay' });
    expect(second.host.replayed).toBe(1);
    const got = JSON.parse((await call(second, 'GET', '/api/v1/namespaces/default/configmaps/kept')).body) as { metadata: { uid: string; resourceVersion: string } };
    expect(got.metadata.uid).toBe(created.metadata.uid);
    expect(got.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
    await second.close();
    servers.splice(servers.indexOf(second), 1);
    const otherSeed = await start({ dataDir, seed: 'another' });
    expect(otherSeed.host.replayed).toBe(0);
    expect((await call(otherSeed, 'GET', '/api/v1/namespaces/default/configmaps/kept')).status).toBe(404);
  });

  test('no credentials act as the admin; a simulated user\'s token is that user; an unknown token is 401', async () => {
    const server = await start();
    expect((await call(server, 'GET', '/api/v1/namespaces/default/secrets')).status).toBe(200);
    const alice = await call(server, 'GET', '/apis/apps/v1/namespaces/default/deployments', undefined, { authorization: 'Bearer podflow-alice-token' });
    expect(alice.status).toBe(403);
    expect(JSON.parse(alice.body)).toMatchObject({ reason: 'Forbidden', message: 'deployments.apps is forbidden: User "alice" cannot list resource "deployments" in API group "apps" in the namespace "default"' });
    const unknown = await call(server, 'GET', '/api/v1/pods', undefined, { authorization: 'Bearer nobody' });
    expect(unknown.status).toBe(401);
  });

  test('with --token the front is HTTPS and lets in only that bearer token', async () => {
    const dataDir = tempDir();
    const server = await start({ token: 's3cret', dataDir });
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const ca = (await selfSignedCertificate('127.0.0.1', dataDir)).cert;
    const get = (token: string | null): Promise<number> => new Promise((resolve, reject) => {
      const req = httpsRequest(`${server.url}/api/v1/namespaces`, { ca, headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
    expect(await get(null)).toBe(401);
    expect(await get('wrong')).toBe(401);
    expect(await get('s3cret')).toBe(200);
  });
});

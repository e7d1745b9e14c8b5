// The page's transport to the server: the worker protocol over a real `ws` connection to a server started
// in-process. A page gets the snapshot (`ready` first), the events of kubectl's requests as they happen,
// a view of its own (pausing and stepping back one page leaves the others at the head), its own console
// output under its own ids, and its questions' answers alone; a foreign Origin is refused
// before the upgrade, and in `--token` mode a missing or wrong token is told why and closed.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Etcd3 } from 'etcd3';
import { metasOfColumns, type WorkerEvent } from '../protocol/index.ts';
import { decodeWire, encodeWire, liveCloseCodes, livePath, liveSubprotocol, liveTokenPrefix } from '../protocol/wire.ts';
import { defaultServerOptions, startPodflowServer, type PodflowServer } from './server.ts';
import { allowedOrigin, pagePath } from './live.ts';
import { attach } from '../../test/live-etcd/attached-page.ts';

const manifest = `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: nginx
    image: nginx:1.25
`;

describe('the worker protocol over a WebSocket', () => {
  let dir: string;
  let server: PodflowServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'podflow-live-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><title>Podflow</title></head><body></body></html>');
    server = await startPodflowServer({ ...defaultServerOptions, port: 0, fastForward: true, nodes: 1, live: true, distDir: dir });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the page is served at /podflow/, marked as attached, without the API door', async () => {
    const response = await fetch(`${server.url}${pagePath}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(`<meta name="podflow-live" content="${livePath}" />`);
    expect(server.pageUrl).toBe(`${server.url}${pagePath}`);
  });

  test('a page gets the snapshot, then a request\'s trace, Txn and watch events as they happen; its console output under its own ids', async () => {
    const page = await attach(server, { origin: server.url });
    const ready = await page.until((e) => e.type === 'ready', true);
    expect(ready).toMatchObject({ type: 'ready', seed: 'podflow', nodes: 1 });
    expect(page.events.slice(0, 3).map((e) => e.type)).toEqual(['ready', 'story', 'traceBatch']);
    await page.until((e) => e.type === 'status', true);

    const other = await attach(server, { origin: 'http://localhost:5173' });
    await other.until((e) => e.type === 'ready', true);

    // A request from outside (as kubectl's): its delivery, etcd's Txn and the pod's key reach both pages.
    const created = await fetch(`${server.url}/api/v1/namespaces/default/pods`, { method: 'POST', headers: { 'content-type': 'application/yaml' }, body: manifest });
    expect(created.status).toBe(201);
    const isPodKey = (e: WorkerEvent) => e.type === 'keyspaceDiff' && e.changes.some((c) => c.key === '/registry/pods/default/web');
    for (const p of [page, other]) {
      await p.until(isPodKey, true);
      await p.until((e) => e.type === 'traceBatch' && e.records.some((r) => r.kind === 'etcd.Txn'), true);
      await p.until((e) => e.type === 'pods' && e.upserted.some((chip) => chip.name === 'web'), true);
    }

    // The console acts on the same cluster; the output comes back to the page that ran it, under its id.
    page.send({ type: 'consoleRun', id: 7, line: 'kubectl get pods' });
    const output = await page.until((e) => e.type === 'consoleOutput' && e.done);
    expect(output).toMatchObject({ type: 'consoleOutput', id: 7, exitCode: 0 });
    expect((output as Extract<WorkerEvent, { type: 'consoleOutput' }>).stdout).toMatch(/^NAME\s+READY\s+STATUS/);
    expect(other.events.some((e) => e.type === 'consoleOutput')).toBe(false);

    // Each page has a view of its own: one pauses and steps back (the server goes on) while the other
    // follows the head; play shows the first the head again.
    page.send({ type: 'pause' });
    const paused = await page.until((e) => e.type === 'status' && e.status.mode === 'paused') as Extract<WorkerEvent, { type: 'status' }>;
    page.send({ type: 'stepBack', count: 5 });
    const back = await page.until((e) => e.type === 'timeline' && !e.live) as Extract<WorkerEvent, { type: 'timeline' }>;
    expect(back.position).toBe(paused.status.step - 5);
    const heldFrom = page.events.length;
    const otherFrom = other.events.length;
    const second = await fetch(`${server.url}/api/v1/namespaces/default/pods`, { method: 'POST', headers: { 'content-type': 'application/yaml' }, body: manifest.replace('name: web', 'name: web2') });
    expect(second.status).toBe(201);
    const isWeb2 = (e: WorkerEvent) => e.type === 'keyspaceDiff' && e.changes.some((c) => c.key === '/registry/pods/default/web2');
    await other.until(isWeb2, true);
    const grown = await page.until((e) => e.type === 'timeline' && e.head > back.head, true) as Extract<WorkerEvent, { type: 'timeline' }>;
    expect(grown.position).toBe(back.position);
    const whileHeld = page.events.slice(heldFrom);
    expect(whileHeld.some((e) => e.type === 'keyspaceDiff' || e.type === 'traceBatch')).toBe(false);
    expect(whileHeld.filter((e) => e.type === 'status').every((e) => e.status.mode === 'paused' && e.status.step === back.position)).toBe(true);
    expect(other.events.slice(otherFrom).filter((e) => e.type === 'status').every((e) => e.status.mode === 'playing')).toBe(true);
    page.send({ type: 'play' });
    const head = await page.until((e) => e.type === 'keyspaceSnapshot' && e.current) as Extract<WorkerEvent, { type: 'keyspaceSnapshot' }>;
    expect(metasOfColumns(head.entries).map((e) => e.key)).toContain('/registry/pods/default/web2');
    await page.until((e) => e.type === 'status' && e.status.mode === 'playing');

    // A question's answer goes to the page that asked; a refused command says why, to it alone.
    other.send({ type: 'inspect', topics: ['objects'] });
    await other.until((e) => e.type === 'inspection');
    other.send({ type: 'keyspaceAt', revision: 2 });
    expect(await other.until((e) => e.type === 'keyspaceSnapshot')).toMatchObject({ revision: 2, current: false });
    other.send({ type: 'reset', seed: 'x', nodes: 1 });
    const refused = await other.until((e) => e.type === 'error');
    expect(refused).toMatchObject({ command: 'reset', message: expect.stringContaining('not available while attached to a server') });
    expect(page.events.some((e) => e.type === 'inspection' || e.type === 'error' || (e.type === 'keyspaceSnapshot' && !e.current))).toBe(false);

    page.socket.close();
    other.socket.close();
  });

  test('a foreign Origin is refused before the upgrade', async () => {
    await expect(attach(server, { origin: 'https://evil.example' })).rejects.toThrow('refused 403');
    expect(allowedOrigin('http://127.0.0.1:5173', 'example:1')).toBe(true);
    expect(allowedOrigin('http://[::1]:8080', undefined)).toBe(true);
    expect(allowedOrigin('null', '127.0.0.1:6443')).toBe(false);
  });
});

describe('clients of the etcd endpoint on the graph', () => {
  let server: PodflowServer;
  beforeAll(async () => {
    server = await startPodflowServer({ ...defaultServerOptions, port: 0, fastForward: true, nodes: 1, live: true, etcdListen: '127.0.0.1:0', distDir: join(tmpdir(), 'podflow-no-dist') });
  });
  afterAll(async () => {
    await server?.close();
  });

  test('a connection to --etcd-listen joins the topology beside etcd, and its calls are traced on its link', async () => {
    const page = await attach(server);
    const ready = await page.until((e) => e.type === 'ready', true) as Extract<WorkerEvent, { type: 'ready' }>;
    expect(ready.topology.components.some((c) => c.role === 'etcd-client')).toBe(false);
    const client = new Etcd3({ hosts: `http://${server.etcd!.address}` });
    try {
      await client.put('/greeting').value('hello');
      const topology = await page.until((e) => e.type === 'topology', true) as Extract<WorkerEvent, { type: 'topology' }>;
      const joined = topology.topology.components.filter((c) => c.role === 'etcd-client');
      expect(joined).toHaveLength(1);
      const name = joined[0]!.name;
      expect(name).toMatch(/^etcd-client\/127\.0\.0\.1:\d+$/);
      expect(topology.topology.links).toContainEqual(expect.objectContaining({ a: name, b: 'etcd' }));
      const isPut = (e: WorkerEvent) => e.type === 'traceBatch' && e.records.some((r) => r.from === name && r.to === 'etcd' && r.kind === 'etcd.Put');
      await page.until(isPut, true);
      await page.until((e) => e.type === 'traceBatch' && e.records.some((r) => r.from === 'etcd' && r.to === name && r.kind === 'etcd.PutResponse'), true);
      // A page that attaches later gets the client in its ready.
      const later = await attach(server);
      const laterReady = await later.until((e) => e.type === 'ready', true) as Extract<WorkerEvent, { type: 'ready' }>;
      expect(laterReady.topology.components).toContainEqual({ name, role: 'etcd-client', modelled: true });
      later.socket.close();
    } finally {
      client.close();
      page.socket.close();
    }
  });
});

describe('--token mode', () => {
  let server: PodflowServer;
  beforeAll(async () => {
    server = await startPodflowServer({ ...defaultServerOptions, port: 0, fastForward: true, nodes: 1, live: true, token: 's3cret', distDir: join(tmpdir(), 'podflow-no-dist') });
  });
  afterAll(async () => {
    await server?.close();
  });

  test('a wrong or missing token is told why and closed; the right one attaches', async () => {
    const wrong = await attach(server, { protocols: [liveSubprotocol, `${liveTokenPrefix}${Buffer.from('nope').toString('base64url')}`] });
    expect(await wrong.closed).toEqual({ code: liveCloseCodes.badToken, reason: 'token refused' });
    expect(wrong.events).toEqual([{ type: 'error', command: null, message: expect.stringContaining('refused the token') }]);

    const missing = await attach(server);
    expect((await missing.closed).code).toBe(liveCloseCodes.badToken);
    expect(missing.events[0]).toMatchObject({ message: expect.stringContaining('asks for a token') });

    const right = await attach(server, { protocols: [liveSubprotocol, `${liveTokenPrefix}${Buffer.from('s3cret').toString('base64url')}`] });
    expect(await right.until((e) => e.type === 'ready', true)).toMatchObject({ type: 'ready' });
    right.socket.close();
    expect(server.pageUrl).toBe(`${server.url}${pagePath}#token=s3cret`);
  });
});

describe('the wire codec', () => {
  test('carries what structured clone does and JSON does not', () => {
    const value = { bytes: new Uint8Array([0, 1, 255]), list: [1, undefined, Number.POSITIVE_INFINITY, Number.NaN], text: 'k8s\u0000' };
    const back = decodeWire(encodeWire(value)) as typeof value;
    expect(back.bytes).toEqual(new Uint8Array([0, 1, 255]));
    expect(back.list[0]).toBe(1);
    expect(back.list[1]).toBeUndefined();
    expect(back.list[2]).toBe(Number.POSITIVE_INFINITY);
    expect(back.list[3]).toBeNaN();
    expect(back.text).toBe('k8s\u0000');
  });
});

// Protobuf on the wire and the media-type rules, against the real kubectl and over plain HTTP: kubectl's
// generators (`create namespace|deployment|configmap|role|clusterrolebinding`) and `drain` send
// protobuf bodies (Evictions through pods/eviction); `get --watch-only` needs the column definitions in
// the first watch event; a body in an unserved media type is 415; duplicate fields are refused under
// Strict. Skipped, with a message, when kubectl is not installed (the HTTP cases run regardless).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decodeProtobuf, encodeProtobuf } from '../../src/sim/api/protobuf/index.ts';
import type { KubeObject } from '../../src/sim/api/types/meta.ts';
import { decodeWatchFrames } from '../../src/sim/apiserver/wire-encoding.ts';
import { defaultServerOptions, startPodflowServer, type PodflowServer } from '../../src/server/server.ts';
import { findKubectl, ok, rows, startKubectlEnv, type KubectlEnv, type KubectlResult } from './harness.ts';
import { until } from '../wait.ts';

const kubectl = findKubectl();
if (!kubectl) console.warn('test/kubectl/wire: kubectl is not on PATH; the real-kubectl cases are SKIPPED');

describe.skipIf(!kubectl)('real kubectl: protobuf requests and watch tables', () => {
  let env: KubectlEnv;
  const k = (...args: string[]): Promise<KubectlResult> => env.run(args);
  beforeAll(async () => {
    env = await startKubectlEnv(kubectl!);
  });
  afterAll(async () => {
    await env?.close();
  });

  test('the generators send protobuf and succeed, printing what a real cluster prints', async () => {
    expect(ok(await k('create', 'namespace', 'team'))).toBe('namespace/team created\n');
    expect(ok(await k('create', 'deployment', 'web', '--image=nginx', '--replicas=3'))).toBe('deployment.apps/web created\n');
    expect(ok(await k('create', 'configmap', 'settings', '--from-literal=a=b'))).toBe('configmap/settings created\n');
    expect(ok(await k('create', 'role', 'pod-getter', '--verb=get', '--resource=pods'))).toBe('role.rbac.authorization.k8s.io/pod-getter created\n');
    expect(ok(await k('create', 'clusterrolebinding', 'viewers', '--clusterrole=view', '--user=u'))).toBe('clusterrolebinding.rbac.authorization.k8s.io/viewers created\n');
    // What was decoded from the protobuf bodies is what was asked for.
    expect(ok(await k('get', 'ns', 'team', '-o', 'jsonpath={.status.phase}'))).toBe('Active');
    expect(ok(await k('get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas} {.spec.template.spec.containers[0].image} {.spec.selector.matchLabels.app}'))).toBe('3 nginx web');
    expect(ok(await k('get', 'cm', 'settings', '-o', 'jsonpath={.data.a}'))).toBe('b');
    expect(ok(await k('get', 'role', 'pod-getter', '-o', 'jsonpath={.rules[0].verbs[0]} {.rules[0].resources[0]} {.rules[0].apiGroups}'))).toBe('get pods [""]');
    expect(ok(await k('get', 'clusterrolebinding', 'viewers', '-o', 'jsonpath={.roleRef.name} {.subjects[0].kind} {.subjects[0].name}'))).toBe('view User u');
    expect(ok(await k('rollout', 'status', 'deployment/web', '--timeout=60s')).trim().split('\n').at(-1)).toBe('deployment "web" successfully rolled out');
    // A second create is the AlreadyExists a real cluster gives (the Status came back in protobuf).
    const again = await k('create', 'configmap', 'settings', '--from-literal=a=b');
    expect([again.code, again.stderr]).toEqual([1, 'error: failed to create configmap: configmaps "settings" already exists\n']);
  });

  test('drain --ignore-daemonsets --force cordons, evicts every pod on the node (bare pods with a warning) and the Deployment replaces its pod', async () => {
    expect(ok(await k('run', 'bare', '--image=nginx', '--overrides={"spec":{"nodeName":"node-1"}}'))).toBe('pod/bare created\n');
    expect(ok(await k('wait', '--for=condition=Ready', 'pod/bare', '--timeout=60s'))).toBe('pod/bare condition met\n');
    const onNode = async (): Promise<string[]> => ok(await k('get', 'pods', '--field-selector', 'spec.nodeName=node-1', '-o', 'name')).split('\n').filter((l) => l !== '');
    const before = await onNode();
    expect(before).toContain('pod/bare');
    const drain = await k('drain', 'node-1', '--ignore-daemonsets', '--force');
    expect(drain.code).toBe(0);
    const out = drain.stdout.split('\n').filter((l) => l !== '');
    expect(out[0]).toBe('node/node-1 cordoned');
    expect(out.at(-1)).toBe('node/node-1 drained');
    const names = before.map((p) => p.slice('pod/'.length)).sort();
    expect(out.filter((l) => l.startsWith('evicting pod ')).sort()).toEqual(names.map((n) => `evicting pod default/${n}`));
    expect(out.filter((l) => l.endsWith(' evicted')).sort()).toEqual(names.map((n) => `pod/${n} evicted`));
    expect(drain.stderr).toBe('Warning: deleting Pods that declare no controller: default/bare\n');
    expect(await onNode()).toEqual([]);
    expect(rows(ok(await k('get', 'node', 'node-1')))[1]).toEqual(expect.arrayContaining(['node-1', 'Ready,SchedulingDisabled']));
    expect(ok(await k('rollout', 'status', 'deployment/web', '--timeout=60s')).trim().split('\n').at(-1)).toBe('deployment "web" successfully rolled out');
    expect(ok(await k('uncordon', 'node-1'))).toBe('node/node-1 uncordoned\n');
  });

  test('get pods --watch-only --output-watch-events prints rows with columns: the first watch event carries the column definitions', async () => {
    const watch = env.spawn(['get', 'pods', '--watch-only', '--output-watch-events']);
    let out = '';
    let err = '';
    watch.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
    });
    watch.stderr!.on('data', (b: Buffer) => {
      err += b.toString();
    });
    let watching = false;
    const stop = env.server.host.onDelivery((m) => {
      const request = m.payload as { path?: string; query?: string };
      if (m.kind === 'http.request' && m.to === 'kube-apiserver' && request.path === '/api/v1/namespaces/default/pods' && /(^|&)watch=true/.test(request.query ?? '')) watching = true;
    });
    await until('the watch to start', () => watching, { timeoutMs: 30_000, everyMs: 50 });
    stop();
    expect(ok(await k('run', 'watched', '--image=nginx'))).toBe('pod/watched created\n');
    await until('the MODIFIED row of the watched pod', () => /MODIFIED\s+watched\s+1\/1\s+Running\s+\d+\s+\S+\n/.test(out), { timeoutMs: 30_000, everyMs: 50 });
    watch.kill();
    expect(err).toBe('');
    const lines = rows(out);
    expect(lines[0]).toEqual(['EVENT', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    expect(lines[1]).toEqual(['ADDED', 'watched', '0/1', 'Pending', '0', '0s']);
    expect(lines.slice(2).every((l) => l[0] === 'MODIFIED' && l[1] === 'watched' && l.length === 6)).toBe(true);
    expect(lines.at(-1)).toEqual(expect.arrayContaining(['MODIFIED', 'watched', '1/1', 'Running', '0']));
  });

  test('duplicate fields sent raw: refused under Strict with the decoder\'s words', async () => {
    const file = join(env.dir, 'dup.json');
    writeFileSync(file, '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup"},"data":{"a":"1","a":"2"}}');
    const strict = await k('create', '--raw', '/api/v1/namespaces/default/configmaps?fieldValidation=Strict', '-f', file);
    expect([strict.code, strict.stderr]).toEqual([1, 'Error from server (BadRequest): ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "data.a"\n']);
    const lax = await k('create', '--raw', '/api/v1/namespaces/default/configmaps', '-f', file);
    expect(lax.code).toBe(0);
    expect((JSON.parse(lax.stdout) as { data: unknown }).data).toEqual({ a: '2' });
  });
});

describe('the HTTP front: bytes on the wire', () => {
  let server: PodflowServer;
  beforeAll(async () => {
    server = await startPodflowServer({ ...defaultServerOptions, fastForward: true, port: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });

  function send(method: string, path: string, headers: Record<string, string>, body?: Uint8Array | string): Promise<{ res: IncomingMessage; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${server.url}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (b: Buffer) => chunks.push(b));
        res.on('end', () => resolve({ res, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  test('a text/plain body is 415 with the real message', async () => {
    const { res, body } = await send('POST', '/api/v1/namespaces/default/configmaps', { 'content-type': 'text/plain', accept: 'application/json' }, '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"t"}}');
    expect(res.statusCode).toBe(415);
    expect(JSON.parse(body.toString())).toMatchObject({
      kind: 'Status', reason: 'UnsupportedMediaType', code: 415,
      message: 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    });
  });

  test('JSON as the Go encoder writes it: a trailing newline; indented for curl and ?pretty=true', async () => {
    const plain = (await send('GET', '/api/v1/namespaces/default', { accept: 'application/json', 'user-agent': 'kubectl/v1.32.4' })).body.toString();
    expect(plain.startsWith('{"kind":"Namespace"')).toBe(true);
    expect(plain.endsWith('}\n')).toBe(true);
    const curl = (await send('GET', '/api/v1/namespaces/default', { accept: '*/*', 'user-agent': 'curl/8.5.0' })).body.toString();
    expect(curl.startsWith('{\n  "kind": "Namespace",\n')).toBe(true);
    const pretty = (await send('GET', '/api/v1/namespaces/default?pretty=true', { accept: 'application/json' })).body.toString();
    expect(pretty).toBe(curl);
    expect(JSON.parse(pretty)).toEqual(JSON.parse(plain));
  });

  test('protobuf in, protobuf out, and a protobuf watch read back frame by frame', async () => {
    const accept = 'application/vnd.kubernetes.protobuf, */*';
    const watchChunks: Buffer[] = [];
    const watchReq = httpRequest(`${server.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0&fieldSelector=metadata.name%3Dpb`, { headers: { accept } });
    const watchOpened = new Promise<IncomingMessage>((resolve) => {
      watchReq.on('response', (res) => {
        res.on('data', (b: Buffer) => watchChunks.push(b));
        resolve(res);
      });
    });
    watchReq.end();
    const watchRes = await watchOpened;
    expect(watchRes.headers['content-type']).toBe('application/vnd.kubernetes.protobuf;stream=watch');

    const sent = encodeProtobuf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pb' }, data: { k: 'v' } } as KubeObject);
    const created = await send('POST', '/api/v1/namespaces/default/configmaps', { 'content-type': 'application/vnd.kubernetes.protobuf', accept }, sent);
    expect(created.res.statusCode).toBe(201);
    expect(created.res.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
    expect(Number(created.res.headers['content-length'])).toBe(created.body.length);
    const decoded = decodeProtobuf(new Uint8Array(created.body));
    expect(decoded.ok && decoded.object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'pb', namespace: 'default' }, data: { k: 'v' } });

    const json = await send('GET', '/api/v1/namespaces/default/configmaps/pb', { accept: 'application/json' });
    expect(json.body.toString().endsWith('}\n')).toBe(true);
    expect(decoded.ok && decoded.object).toEqual(JSON.parse(json.body.toString()));

    const missing = await send('GET', '/api/v1/namespaces/default/configmaps/none', { accept });
    expect([missing.res.statusCode, missing.res.headers['content-type']]).toEqual([404, 'application/vnd.kubernetes.protobuf']);
    const status = decodeProtobuf(new Uint8Array(missing.body));
    expect(status.ok && status.object).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404 });

    await send('DELETE', '/api/v1/namespaces/default/configmaps/pb', { accept });
    const frames = (): ReturnType<typeof decodeWatchFrames> => decodeWatchFrames(new Uint8Array(Buffer.concat(watchChunks)));
    await until('two watch events', () => frames().events.length >= 2, { timeoutMs: 30_000, everyMs: 50 });
    watchReq.destroy();
    const { events, rest } = frames();
    expect(rest).toHaveLength(0);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'DELETED']);
    const objects = events.map((e) => decodeProtobuf(e.raw));
    expect(objects.map((o) => o.ok && o.object.metadata.name)).toEqual(['pb', 'pb']);
  });

  test('a protobuf request in the command log replays to the same object (bodies are byte strings, JSON-safe)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'podflow-wire-'));
    try {
      const first = await startPodflowServer({ ...defaultServerOptions, fastForward: true, port: 0, dataDir, seed: 'wire-replay' });
      const bytes = encodeProtobuf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'binary' }, data: { k: 'é\u0000\u00ff' } } as KubeObject);
      const post = (s: PodflowServer, path: string, headers: Record<string, string>, body?: Uint8Array): Promise<string> => new Promise((resolve, reject) => {
        const req = httpRequest(`${s.url}${path}`, { method: body ? 'POST' : 'GET', headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (b: Buffer) => chunks.push(b));
          res.on('end', () => resolve(Buffer.concat(chunks).toString()));
        });
        req.on('error', reject);
        req.end(body);
      });
      await post(first, '/api/v1/namespaces/default/configmaps', { 'content-type': 'application/vnd.kubernetes.protobuf', accept: 'application/json' }, bytes);
      const before = await post(first, '/api/v1/namespaces/default/configmaps/binary', { accept: 'application/json' });
      await first.close();
      const second = await startPodflowServer({ ...defaultServerOptions, fastForward: true, port: 0, dataDir, seed: 'wire-replay' });
      const after = await post(second, '/api/v1/namespaces/default/configmaps/binary', { accept: 'application/json' });
      await second.close();
      expect((JSON.parse(before) as { data: unknown }).data).toEqual({ k: 'é\u0000\u00ff' });
      expect(after).toBe(before);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

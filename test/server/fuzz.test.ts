// A property-based HTTP fuzz test against the real Node server (fast-check): random and hostile requests —
// valid and broken objects as JSON and YAML, random bytes, bodies of every size up to 50 MB streamed in
// chunks, odd paths (dot segments, percent-encodings, doubled slashes, unknown groups), odd methods, media
// types and header values, raw malformed HTTP, requests cut off half-way — sent one after another. After each:
// - the server is still up;
// - the answer is well-formed: a Kubernetes Status whose code is the HTTP status, or a real success (an object,
//   a List, a discovery document, health text), or one of the few plain-text answers the real server gives
//   (`404 page not found`, max-in-flight's 429, Go's 400 / 431 before any handler);
// - RBAC is never bypassed: a restricted user (alice, who may only read pods in `default`) never succeeds in
//   a write or in reading anything but discovery, and an unknown token always gets 401;
// - nothing already stored changes unless the request succeeded (the ConfigMaps, Secrets and RBAC objects
//   in etcd, by key and mod revision, compared before and after every request that did not succeed).
// Sized for CI: about 2,000 requests in well under a minute (`PODFLOW_FUZZ_RUNS` changes the count).

import * as fc from 'fast-check';
import { request as httpRequest, Agent } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { decodeProtobuf } from '../../src/sim/api/protobuf/index.ts';
import { builtinTokens } from '../../src/sim/wire/credentials.ts';
import { defaultServerOptions, startPodflowServer, type PodflowServer } from '../../src/server/server.ts';

const runs = Number(process.env.PODFLOW_FUZZ_RUNS ?? 2_000);

let server: PodflowServer;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  server = await startPodflowServer({ ...defaultServerOptions, fastForward: true, port: 0, seed: 'fuzz', log: () => undefined });
  for (let i = 0; i < 5; i++) {
    const created = await send({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', headers: { 'content-type': 'application/json' }, body: { kind: 'json', value: { metadata: { name: `keep-${i}` }, data: { k: 'v' } } }, token: 'admin', abort: false });
    expect(created.status).toBe(201);
  }
});

afterAll(async () => {
  agent.destroy();
  await server.close();
});

type Body =
  | { readonly kind: 'none' }
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'text'; readonly value: string }
  | { readonly kind: 'bytes'; readonly value: Uint8Array }
  | { readonly kind: 'big'; readonly size: number; readonly fill: number };

type Token = 'admin' | 'none' | 'alice' | 'bogus' | 'malformed';

interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Body;
  readonly token: Token;
  /** Cut the connection after sending part of the body. */
  readonly abort: boolean;
}

interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
  readonly aborted: boolean;
  /** The body's bytes (protobuf answers are not text). */
  readonly raw?: Buffer;
}

/** An answer's body decoded by its Content-Type, as kube-apiserver negotiated it: JSON, YAML or protobuf. */
function decodeAnswer(a: Answer): unknown {
  if (a.contentType.startsWith('application/vnd.kubernetes.protobuf')) {
    const decoded = decodeProtobuf(new Uint8Array(a.raw ?? Buffer.alloc(0)));
    if (!decoded.ok) throw new Error(decoded.error);
    return decoded.object;
  }
  if (a.contentType.startsWith('application/yaml')) return parseYaml(a.text) as unknown;
  return JSON.parse(a.text) as unknown;
}

const negotiatedTypes = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

const tokenHeader: Record<Token, string | undefined> = {
  admin: `Bearer ${builtinTokens.admin}`,
  none: undefined,
  alice: `Bearer ${builtinTokens.restricted}`,
  bogus: 'Bearer not-a-token',
  malformed: 'Basic Zm9vOmJhcg==',
};

function bodyBytes(body: Body): Buffer | null {
  switch (body.kind) {
    case 'none': return null;
    case 'json': return Buffer.from(JSON.stringify(body.value) ?? 'null');
    case 'text': return Buffer.from(body.value);
    case 'bytes': return Buffer.from(body.value);
    case 'big': return null;
  }
}

function send(r: FuzzRequest): Promise<Answer> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { ...r.headers };
    const auth = tokenHeader[r.token];
    if (auth !== undefined) headers.authorization = auth;
    const bytes = bodyBytes(r.body);
    if (r.body.kind === 'big' || r.abort) headers['transfer-encoding'] = 'chunked';
    else if (bytes) headers['content-length'] = String(bytes.length);
    let settled = false;
    const done = (a: Answer): void => {
      if (!settled) {
        settled = true;
        clearTimeout(hung);
        resolve(a);
      }
    };
    // An answer that never comes is a failure of its own (status -1), not a test timeout.
    const hung = setTimeout(() => {
      req.destroy();
      done({ status: -1, contentType: '', text: '', aborted: false });
    }, 15_000);
    const req = httpRequest({ host: '127.0.0.1', port: server.front.port, method: r.method, path: r.path, headers, agent: r.abort || r.body.kind === 'big' ? false : agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (b: Buffer) => chunks.push(b));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        done({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text: raw.toString(), raw, aborted: false });
      });
      res.on('error', () => done({ status: 0, contentType: '', text: '', aborted: true }));
    });
    req.on('error', () => done({ status: 0, contentType: '', text: '', aborted: true }));
    if (r.abort) {
      req.write(bytes && bytes.length > 1 ? bytes.subarray(0, Math.floor(bytes.length / 2)) : Buffer.from('{'));
      setImmediate(() => {
        req.destroy();
        done({ status: 0, contentType: '', text: '', aborted: true });
      });
      return;
    }
    if (r.body.kind !== 'big') {
      req.end(bytes ?? undefined);
      return;
    }
    // A big body streamed in 1 MiB chunks; the server may answer (413) and close before it is all sent.
    const chunk = Buffer.alloc(Math.min(1 << 20, r.body.size), r.body.fill);
    let left = r.body.size;
    const pump = (): void => {
      while (left > 0 && !req.destroyed) {
        const n = Math.min(left, chunk.length);
        left -= n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          req.once('drain', pump);
          return;
        }
      }
      if (!req.destroyed) req.end();
    };
    pump();
  });
}

/** Raw bytes on a fresh socket; resolves with what came back before the server closed or 2 s passed. */
function sendRaw(bytes: Uint8Array): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(server.front.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const finish = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('latin1'));
    };
    const timer = setTimeout(finish, 2_000);
    socket.on('data', (b: Buffer) => {
      chunks.push(b);
      // One answer is enough: stop once a complete response is in (a kept-alive socket stays open).
      const text = Buffer.concat(chunks).toString('latin1');
      const head = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(text);
      if (head >= 0 && (!length || text.length >= head + 4 + Number(length[1])) && !/transfer-encoding: chunked/i.test(text.slice(0, head))) finish();
    });
    socket.on('close', finish);
    socket.on('error', () => undefined);
    socket.end(bytes);
  });
}

// ---- arbitraries ----

const names = fc.constantFrom('keep-0', 'keep-1', 'fuzz-a', 'fuzz-b', '..', '.', '%2e%2e', '%2E.', 'a%2Fb', 'a%25b', 'UPPER', 'x'.repeat(300), 'ünï', '%ff%fe', '%zz', '');
const namespaces = fc.constantFrom('default', 'kube-system', 'fuzz', '..', '%2e%2e', '.', 'nope', '');
const resources = fc.constantFrom('configmaps', 'secrets', 'pods', 'namespaces', 'nodes', 'events', 'bogus', 'configmaps/..', 'roles');
const groupsPrefix = fc.constantFrom('/api/v1', '/apis/apps/v1', '/apis/rbac.authorization.k8s.io/v1', '/apis/nope/v9', '/api/v2', '/api', '/apis', '/api//v1');
const suffixes = fc.constantFrom('', '/status', '/scale', '/log', '/..', '/.', '/%2e%2e', '/x/y/z');
const queries = fc.oneof(
  fc.constant(''),
  fc.constantFrom('?watch=false', '?limit=1', '?limit=-1', '?labelSelector=a%3Db', '?labelSelector=!!', '?fieldSelector=metadata.name%3Dkeep-0', '?fieldSelector=bad', '?dryRun=All', '?dryRun=Bogus', '?fieldValidation=Strict', '?fieldValidation=Nope', '?resourceVersion=1&resourceVersionMatch=NotOlderThan', '?resourceVersion=abc', '?timeoutSeconds=-5', '?%zz=1', '?a=%zz', '?propagationPolicy=Orphan', '?fieldManager=' + 'm'.repeat(200)),
  fc.string({ maxLength: 40 }).map((s) => `?${encodeURIComponent(s)}=${encodeURIComponent(s)}`),
);

const resourcePath = fc.tuple(groupsPrefix, fc.boolean(), namespaces, resources, fc.option(names, { nil: undefined }), suffixes, queries)
  .map(([prefix, namespaced, ns, resource, name, suffix, query]) => `${prefix}${namespaced ? `/namespaces/${ns}` : ''}/${resource}${name !== undefined ? `/${name}${suffix}` : ''}${query}`);
const otherPath = fc.constantFrom(
  '/', '/version', '/healthz', '/livez?verbose', '/readyz?verbose&exclude=etcd', '/readyz/etcd', '/metrics', '/openapi/v3', '/openapi/v3/api/v1',
  '/api/v1/namespaces/%2e%2e/configmaps', '/api/v1/namespaces/default/pods/%2e%2e', '/api/../api/v1/pods', '/./api/v1', '//api//v1//pods',
  '/api/v1/namespaces/default/configmaps/keep-0/%2e%2e/%2e%2e/secrets', '/%00', '/api/v1/%2F', '/apis/apps/v1/namespaces/default/deployments/%',
);
const path = fc.oneof({ weight: 4, arbitrary: resourcePath }, { weight: 1, arbitrary: otherPath });

const contentTypes = fc.constantFrom('application/json', 'application/yaml', 'application/merge-patch+json', 'application/json-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml', 'application/vnd.kubernetes.protobuf', 'text/plain', 'application/json; charset=utf-16', '', '*/*', 'multipart/form-data; boundary=x');
const accepts = fc.constantFrom('application/json', 'application/json;as=Table;v=v1;g=meta.k8s.io', 'application/yaml', 'application/vnd.kubernetes.protobuf', '*/*', 'text/html', 'application/json;as=Table;v=v9;g=nope', 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList', '');
const headers = fc.record({
  'content-type': contentTypes,
  accept: accepts,
  'user-agent': fc.oneof(fc.constant('kubectl/v1.32.0'), fc.string({ maxLength: 30 }).map((s) => s.replace(/[^\x20-\x7e]/g, '?'))),
  'impersonate-user': fc.constantFrom('', 'alice', 'system:admin', 'system:anonymous'),
}, { requiredKeys: ['content-type'] }).map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== '')));

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const object = fc.record({
  apiVersion: fc.constantFrom('v1', 'apps/v1', 'v2', '', 'rbac.authorization.k8s.io/v1'),
  kind: fc.constantFrom('ConfigMap', 'Secret', 'Pod', 'Role', 'Status', 'List', ''),
  metadata: fc.oneof(
    fc.record({ name: names, namespace: fc.option(namespaces, { nil: undefined }), labels: fc.option(fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })), { nil: undefined }), resourceVersion: fc.option(fc.constantFrom('1', '0', 'abc', '999999999'), { nil: undefined }) }, { requiredKeys: ['name'] }),
    jsonValue,
  ),
  data: fc.option(fc.oneof(fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 })), jsonValue), { nil: undefined }),
  rules: fc.option(fc.constant([{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]), { nil: undefined }),
}, { requiredKeys: ['metadata'] });
const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 3, arbitrary: object.map((value): Body => ({ kind: 'json', value })) },
  { weight: 1, arbitrary: jsonValue.map((value): Body => ({ kind: 'json', value })) },
  { weight: 1, arbitrary: fc.constant<Body>({ kind: 'none' }) },
  { weight: 1, arbitrary: fc.constantFrom('{', '{"metadata":', 'null', '[]', '"x"', '{"metadata":{"name":"a","name":"b"}}', 'metadata:\n  name: y\n  : :', 'a: [', '\ufeff{}', '{"metadata":{"name":"keep-0"},"data":{"k":"changed"}}', '[{"op":"replace","path":"/data/k","value":"x"}]', '[{"op":"remove","path":"/metadata"}]', '{"$patch":"delete"}').map((value): Body => ({ kind: 'text', value })) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((value): Body => ({ kind: 'bytes', value })) },
  // Around the 3 MiB limit, and anywhere up to 8 MiB.
  { weight: 1, arbitrary: fc.oneof(fc.constantFrom(3 * 1024 * 1024 - 1, 3 * 1024 * 1024, 3 * 1024 * 1024 + 1), fc.integer({ min: 1, max: 8 * 1024 * 1024 })).map((size): Body => ({ kind: 'big', size, fill: 0x20 })) },
);
/** Anywhere up to 50 MB, streamed. */
const hugeBody = fc.integer({ min: 8 * 1024 * 1024, max: 50 * 1024 * 1024 }).map((size): Body => ({ kind: 'big', size, fill: 0x7b }));
const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'GET', 'POST', 'HEAD', 'OPTIONS', 'PROPFIND');
const token = fc.constantFrom<Token>('admin', 'admin', 'none', 'alice', 'alice', 'bogus', 'malformed');

const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc.record({
  method, path, headers, token,
  body: fc.oneof({ weight: 200, arbitrary: body }, { weight: 1, arbitrary: hugeBody }),
  abort: fc.oneof({ weight: 20, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
});

const rawRequest = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 300 }),
  fc.tuple(fc.constantFrom('GET', 'POST', 'G\u0000T', '', 'GET GET'), fc.constantFrom('/version', '/api/v1/namespaces/%zz/pods', '/a b', 'http://x/version', '*', '/%', 'version', '/api/v1/namespaces/%2e%2e/configmaps'), fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/9.9', ''), fc.constantFrom('Host: x\r\n', 'Host: x\r\nContent-Length: 5\r\n', 'Host: x\r\nContent-Length: -1\r\n', 'Host: x\r\nTransfer-Encoding: chunked\r\n', 'Host: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n', 'X: \u0001\r\n', ''), fc.string({ maxLength: 20 }))
    .map(([m, p, v, h, b]) => new Uint8Array(Buffer.from(`${m} ${p} ${v}\r\n${h}\r\n${b}`, 'latin1'))),
);

// ---- checks ----

const discoveryKinds = new Set(['APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList', 'APIGroupDiscoveryList']);

function isStatusFor(status: number, parsed: unknown): boolean {
  if (typeof parsed !== 'object' || parsed === null) return false;
  const s = parsed as Record<string, unknown>;
  return s.kind === 'Status' && s.apiVersion === 'v1' && s.status === 'Failure' && s.code === status && typeof s.message === 'string';
}

/** Why an answer is not well-formed, or null. */
function malformed(r: FuzzRequest, a: Answer): string | null {
  if (a.status === -1) return 'no answer within 15 s';
  // Go's raw 400 carries its text even to a HEAD, which Node's client then cannot parse.
  if (a.aborted) return r.abort || r.body.kind === 'big' || r.method === 'HEAD' ? null : `no answer to a complete ${r.method}`;
  const plain = a.contentType.startsWith('text/plain');
  if (r.method === 'HEAD') return a.status >= 200 && a.status < 600 ? null : `HEAD got ${a.status}`; // no body to check
  if (a.status >= 400) {
    if (a.status === 404 && plain && a.text === '404 page not found\n') return null;
    if (a.status === 429 && plain) return null;
    // Go's answer to an unparsable request target (a bad %-escape), before any handler.
    if (a.status === 400 && plain && a.text === '400 Bad Request') return null;
    if (a.status === 500 && plain && /check failed\n$/.test(a.text)) return null;
    if (!negotiatedTypes.some((t) => a.contentType.startsWith(t))) return `error ${a.status} as ${a.contentType}: ${a.text.slice(0, 200)}`;
    let parsed: unknown;
    try {
      parsed = decodeAnswer(a);
    } catch {
      return `error ${a.status} body is not ${a.contentType}: ${a.text.slice(0, 200)}`;
    }
    return isStatusFor(a.status, parsed) ? null : `error ${a.status} is not a Status: ${a.text.slice(0, 300)}`;
  }
  if (a.status < 200 || a.status >= 300) return `status ${a.status}`;
  if (plain || a.contentType.startsWith('text/event-stream')) return null;
  let parsed: unknown = null;
  if (negotiatedTypes.some((t) => a.contentType.startsWith(t))) {
    try {
      parsed = decodeAnswer(a);
    } catch {
      return `success body is not ${a.contentType}: ${a.text.slice(0, 200)}`;
    }
    if (typeof parsed !== 'object' || parsed === null) return `success body is not an object: ${a.text.slice(0, 200)}`;
  }
  // A "." or ".." segment (plain or %2e-encoded) is never resolved into another collection.
  const kind = (parsed as { kind?: unknown } | null)?.kind;
  if (/\/(\.|%2e){1,2}(\/|\?|$)/i.test(r.path.split('?')[0]!.replace(/\/+$/, '/')) && typeof kind === 'string' && /List$/.test(kind)) return `a dot segment reached a list: ${a.text.slice(0, 120)}`;
  return null;
}

/** Why an answer to a restricted or unknown user bypasses authentication or RBAC, or null. */
function bypass(r: FuzzRequest, a: Answer): string | null {
  if (a.aborted || a.status < 200 || a.status >= 300) return null;
  if (r.token === 'bogus') return `an unknown token got ${a.status}`;
  if (r.token !== 'alice' || r.headers['impersonate-user']) {
    // alice may not impersonate anyone: anything impersonated by her must fail.
    if (r.token === 'alice' && r.headers['impersonate-user']) return `alice impersonated ${r.headers['impersonate-user']} with ${a.status}`;
    return null;
  }
  if (r.method !== 'GET' && r.method !== 'HEAD') return `alice's ${r.method} ${r.path} got ${a.status}`;
  let kind: unknown;
  try {
    kind = (JSON.parse(a.text) as { kind?: unknown }).kind;
  } catch {
    return null; // health and metrics text, openapi
  }
  if (kind === undefined || discoveryKinds.has(kind as string)) return null;
  // Her one Role: get, list and watch pods in `default`.
  if ((kind === 'Pod' || kind === 'PodList' || kind === 'Table') && /^\/api\/v1\/namespaces\/default\/pods(\/[^/]+)?(\?|$)/.test(r.path)) return null;
  return `alice read ${kind} at ${r.path}`;
}

/** The ConfigMaps, Secrets and RBAC objects in etcd: key → mod revision. */
function stored(): Map<string, number> {
  const kv = server.host.modelEtcd.kv;
  const out = new Map<string, number>();
  for (const prefix of ['/registry/configmaps/', '/registry/secrets/', '/registry/roles/', '/registry/rolebindings/', '/registry/clusterroles/', '/registry/clusterrolebindings/']) {
    for (const item of kv.range({ key: prefix, rangeEnd: `${prefix.slice(0, -1)}0` }).kvs) out.set(item.key, item.modRevision);
  }
  return out;
}

function sameStore(a: Map<string, number>, b: Map<string, number>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

async function serverUp(): Promise<boolean> {
  const a = await send({ method: 'GET', path: '/version', headers: {}, body: { kind: 'none' }, token: 'admin', abort: false });
  return a.status === 200;
}

describe('the HTTP front under fuzzing', () => {
  test(`${runs} random and hostile requests: answers well-formed, RBAC kept, nothing stored changed by a failed request`, async () => {
    let before = stored();
    const seen = new Map<number, number>();
    await fc.assert(fc.asyncProperty(fuzzRequest, async (r) => {
      const now = stored();
      // Nothing changed between requests (a cut-off request never reaches the apiserver).
      expect(sameStore(before, now), 'the store changed while no request was running').toBe(true);
      const a = await send(r);
      seen.set(a.status, (seen.get(a.status) ?? 0) + 1);
      expect(malformed(r, a), `${r.method} ${r.path}`).toBeNull();
      expect(bypass(r, a)).toBeNull();
      // Let any answer's aftermath (a watch or a cut-off request's cancel) settle before comparing.
      const after = stored();
      if (a.aborted || a.status < 200 || a.status >= 300 || r.method === 'GET' || r.method === 'HEAD') {
        expect(sameStore(now, after), `${r.method} ${r.path} → ${a.status} changed the store`).toBe(true);
      }
      before = after;
    }), { numRuns: runs, seed: Number(process.env.PODFLOW_FUZZ_SEED ?? 17), endOnFailure: true });
    expect(await serverUp()).toBe(true);
    // The run covered successes, client errors, 413s and cut-off requests.
    expect([...seen.keys()].some((s) => s >= 200 && s < 300)).toBe(true);
    expect(seen.get(413) ?? 0).toBeGreaterThan(0);
    expect(seen.get(0) ?? 0).toBeGreaterThan(0);
  }, 120_000);

  test('raw malformed HTTP gets Go\'s plain 400 or a real answer, and the server stays up', async () => {
    await fc.assert(fc.asyncProperty(rawRequest, async (bytes) => {
      const text = await sendRaw(bytes);
      if (text !== '') expect(text, Buffer.from(bytes).toString('latin1')).toMatch(/^HTTP\/1\.1 (\d{3}) /);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      if (status === 400 && !/content-type: application\/json/i.test(text)) expect(text.endsWith('400 Bad Request')).toBe(true);
    }), { numRuns: Math.max(50, Math.floor(runs / 10)), seed: 5 });
    expect(await serverUp()).toBe(true);
  }, 60_000);
});

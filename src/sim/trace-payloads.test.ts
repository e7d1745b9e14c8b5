import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinTokens } from './wire/credentials.ts';
import { httpKinds, type HttpMethod } from './wire/http.ts';
import { createCluster, type Cluster, type ClusterConfig } from './cluster.ts';
import type { Message, PayloadRebuilder } from './engine/index.ts';
import { etcdHistoryRebuilder, type HistoryMember } from './trace-payloads.ts';
import { wholeBodyLimit } from './trace-payloads-bodies.ts';
import { causeChain } from '../worker/queries.ts';
import { TraceRangeIndex } from '../worker/trace-range.ts';

type Options = Pick<ClusterConfig, 'tracePayloadLimit' | 'etcdMembers' | 'storageMediaType'> & {
  /** Wraps the cluster's rebuilder (a test's tampering one). */
  rebuilder?: (inner: PayloadRebuilder) => PayloadRebuilder;
};

/** Per light run: the requests whose answer was delivered when the trace summarized them. */
const answeredBy = new WeakMap<Cluster, ReadonlySet<number>>();

/**
 * The same seeded flow: a Deployment of 12 replicas on 3 nodes; a dry-run scale, a read of its scale
 * subresource and one Pod, the deletion of one Pod; then scaled to 4; each run until idle.
 */
function run(options: Options): Cluster {
  const { rebuilder = (inner) => inner, ...config } = options;
  const cluster = createCluster({ seed: 'light-records', nodes: 3, ...config });
  const inner = rebuilder(etcdHistoryRebuilder(cluster.etcdMembers as readonly HistoryMember[], cluster.engine.epochMs));
  const answered = new Set<number>();
  answeredBy.set(cluster, answered);
  cluster.engine.trace.rebuildWith({
    refOf(message, reply) {
      const answer = reply();
      if (answer) answered.add(message.id);
      return inner.refOf(message, () => answer);
    },
    rebuild: (message, ref) => inner.rebuild(message, ref),
  });
  cluster.boot();
  const request = (method: HttpMethod, path: string, body?: unknown, contentType = 'application/json', query = '') => cluster.user.request('kube-apiserver', httpKinds.request, {
    method, path, query, headers: { authorization: `Bearer ${builtinTokens.admin}`, 'content-type': contentType }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const deployment = '/apis/apps/v1/namespaces/default/deployments/web';
  request('POST', '/apis/apps/v1/namespaces/default/deployments', {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
    spec: { replicas: 12, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.14.2' }] } } },
  });
  cluster.engine.runUntilIdle();
  request('PATCH', deployment, { spec: { replicas: 2 } }, 'application/merge-patch+json', 'dryRun=All');
  request('GET', `${deployment}/scale`);
  const pods = cluster.etcd.kv.range({ key: '/registry/pods/default/', rangeEnd: '/registry/pods/default0', keysOnly: true }).kvs.map((kv) => kv.key.split('/').pop()!);
  request('GET', `/api/v1/namespaces/default/pods/${pods[0]}`);
  request('DELETE', `/api/v1/namespaces/default/pods/${pods[1]}`);
  cluster.engine.runUntilIdle();
  request('PATCH', deployment, { spec: { replicas: 4 } }, 'application/merge-patch+json');
  cluster.engine.runUntilIdle();
  return cluster;
}

const carriesKv = (payload: unknown): boolean => /"modRevision":\d+,"version":\d+,"value":"[^"]/.test(JSON.stringify(payload));
type Obj = { kind?: string; metadata?: { resourceVersion?: string } } | null;
/** A stored object as it is: not a Status, List, Table, Scale or PartialObjectMetadata. */
const storedObject = (object: unknown): boolean => {
  const o = object as Obj;
  return typeof o?.metadata?.resourceVersion === 'string' && !/^(Status|Table|Scale|PartialObjectMetadata)$|List$/.test(o.kind ?? '');
};

/** The whole run's messages by id, and its replies by the request they answer. */
function indexOf(whole: Cluster): { byId: Map<number, Message>; replies: Map<number, Message> } {
  const all = whole.engine.trace.all();
  return { byId: new Map(all.map((m) => [m.id, m])), replies: new Map(all.filter((m) => m.replyTo !== null).map((m) => [m.replyTo!, m])) };
}

/** A List of stored objects as a List serves them: each at its resourceVersion, without kind and apiVersion. */
const storedList = (body: unknown): boolean => {
  const list = body as { kind?: string; items?: Obj[] } | null;
  return /List$/.test(list?.kind ?? '') && !/^PartialObjectMetadata/.test(list!.kind!) && (list!.items?.length ?? 0) > 0
    && list!.items!.every((item) => item?.kind === undefined && typeof item?.metadata?.resourceVersion === 'string');
};

/**
 * What inspecting a summarized step of the light trace must give: whole again (byte for byte) for every
 * etcd reply with a key-value or a log line, every Txn whose puts its reply stored, every watch event and
 * response carrying a stored object (but a dry run's), every request without a body (its headers), every
 * component's request whose answer carries a stored object (its body; `answered`: the requests whose
 * answer was delivered when the trace summarized them); the user's requests with a body and the
 * components' small bodies answered without a stored object (a Binding) are kept whole.
 */
function mustRebuild(message: Message, { byId, replies }: ReturnType<typeof indexOf>, answered: ReadonlySet<number>): 'rebuilt' | 'whole' | null {
  const payload = message.payload as Record<string, unknown>;
  if (message.kind.startsWith('etcd.') && message.kind.endsWith('Response')) return carriesKv(payload) || typeof payload.log === 'string' ? 'rebuilt' : null;
  if (message.kind === 'etcd.Txn') {
    const puts = (branch: string) => JSON.stringify(payload[branch] ?? []).includes('"value":"');
    const write = (replies.get(message.id)?.payload as { write?: { branch: string } | null } | undefined)?.write;
    return puts('success') && !puts('failure') && write?.branch === 'success' ? 'rebuilt' : null;
  }
  if (message.kind === httpKinds.watchEvent) return storedObject(payload.object) ? 'rebuilt' : null;
  if (message.kind === httpKinds.response) {
    const request = byId.get(message.replyTo!)?.payload as { query: string } | undefined;
    return (storedObject(payload.body) || storedList(payload.body)) && !request?.query.includes('dryRun') ? 'rebuilt' : null;
  }
  if (message.kind === httpKinds.request) {
    if (message.from === 'user' && payload.body !== undefined) return 'whole';
    if (payload.body === undefined) return 'rebuilt';
    const answer = replies.get(message.id)?.payload as { status: number; body: unknown } | undefined;
    if (answer && answered.has(message.id) && answer.status < 300 && storedObject(answer.body) && !String(payload.query).includes('dryRun')) return 'rebuilt';
    return JSON.stringify(payload.body).length <= wholeBodyLimit ? 'whole' : null;
  }
  return null;
}

/** Each summarized step of `light` that does not give `whole`'s payload back as it must, by kind; and the steps rebuilt, by kind. */
function compare(whole: Cluster, light: Cluster): { problems: Map<string, number>; rebuilt: Map<string, number> } {
  const problems = new Map<string, number>();
  const rebuilt = new Map<string, number>();
  const index = indexOf(whole);
  const count = (map: Map<string, number>, kind: string) => map.set(kind, (map.get(kind) ?? 0) + 1);
  for (let step = 1; step < light.engine.trace.payloadsFrom; step++) {
    const expected = whole.engine.trace.at(step)!;
    const got = light.engine.trace.payloadAt(step)!;
    const must = mustRebuild(expected, index, answeredBy.get(light)!);
    if (got.kept === 'summary') {
      if (must || JSON.stringify(got.payload) !== JSON.stringify(light.engine.trace.at(step)!.payload)) count(problems, expected.kind);
      continue;
    }
    if (got.kept === 'rebuilt') count(rebuilt, expected.kind);
    if (JSON.stringify(got.payload) !== JSON.stringify(expected.payload) || (must && must !== got.kept)) count(problems, expected.kind);
  }
  return { problems, rebuilt };
}

const rebuiltKinds = ['etcd.TxnResponse', 'etcd.RangeResponse', 'etcd.Txn', 'http.watchEvent', 'http.response', 'http.request'];
/** Lists answered at least this many times in the summarized steps, each rebuilt. */
const rebuiltLists = 5;

describe('light trace records', () => {
  const variants = [{ etcdMembers: 1 }, { etcdMembers: 3 }, { etcdMembers: 1, storageMediaType: 'json' }] as const;
  for (const variant of variants) {
    it(`rebuild every summarized etcd reply, Txn request, watch event, stored object answered and component's request, byte for byte (${JSON.stringify(variant)})`, () => {
      const whole = run(variant);
      const light = run({ ...variant, tracePayloadLimit: 400 });
      expect(light.engine.step).toBe(whole.engine.step);
      expect(light.engine.trace.payloadsFrom).toBeGreaterThan(light.engine.step / 2);
      const { problems, rebuilt } = compare(whole, light);
      expect(Object.fromEntries(problems)).toEqual({});
      for (const kind of rebuiltKinds) expect(rebuilt.get(kind) ?? 0, kind).toBeGreaterThan(20);
      const lists = whole.engine.trace.all().flatMap((m, i) => (i + 1 < light.engine.trace.payloadsFrom && m.kind === httpKinds.response
        && storedList((m.payload as { body?: unknown }).body) ? [light.engine.trace.payloadAt(i + 1)!.kept] : []));
      expect(lists.length).toBeGreaterThanOrEqual(rebuiltLists);
      expect(lists.every((kept) => kept === 'rebuilt')).toBe(true);
      // The flow's answers that are not a stored object as it is stay summaries: the dry run's, the Scale.
      const { byId } = indexOf(whole);
      const summarized = (pred: (m: Message) => boolean) => whole.engine.trace.all().flatMap((m, i) => (i + 1 < light.engine.trace.payloadsFrom && pred(m) ? [light.engine.trace.payloadAt(i + 1)!.kept] : []));
      const answers = (pred: (request: { query: string; path: string }) => boolean) => summarized((m) => m.kind === httpKinds.response
        && pred(byId.get(m.replyTo!)!.payload as { query: string; path: string }));
      expect(answers((r) => r.query === 'dryRun=All')).toEqual(['summary']);
      expect(answers((r) => r.path.endsWith('/scale'))).toEqual(['summary']);
      expect(summarized((m) => m.kind === httpKinds.watchEvent && (m.payload as { type: string }).type === 'DELETED').length).toBeGreaterThan(0);
      // The components' bodies: each kind of request the flow makes is given back whole.
      const bodies = (method: string, path: RegExp) => summarized((m) => m.kind === httpKinds.request && m.from !== 'user'
        && (m.payload as { method: string }).method === method && path.test((m.payload as { path: string }).path));
      const sent: [string, RegExp, 'rebuilt' | 'whole'][] = [
        ['POST', /\/pods$/, 'rebuilt'], ['PATCH', /\/pods\/[^/]+\/status$/, 'rebuilt'], ['PUT', /\/replicasets\/[^/]+\/status$/, 'rebuilt'],
        ['PUT', /\/deployments\/[^/]+\/status$/, 'rebuilt'], ['POST', /\/events$/, 'rebuilt'], ['POST', /\/binding$/, 'whole'],
      ];
      for (const [method, path, kept] of sent) {
        const steps = bodies(method, path);
        // Rebuilt, or kept whole when its answer came after the trace summarized it (three Events at 3 members).
        expect(steps.filter((k) => k === kept).length, `${method} ${path}`).toBeGreaterThan(steps.length / 2);
        expect(steps.filter((k) => k === 'summary'), `${method} ${path}`).toEqual([]);
      }
    }, 600_000);
  }

  it('fail the comparison when a rebuilder changes one field', () => {
    const whole = run({});
    /** A rebuilder whose payloads of `kind` have one field changed (`change` edits their JSON). */
    const tamper = (kind: string, change: (json: string) => string) => (inner: PayloadRebuilder): PayloadRebuilder => ({
      refOf: (m, reply) => inner.refOf(m, reply),
      rebuild(m, ref) {
        const payload = inner.rebuild(m, ref);
        return payload === undefined || m.kind !== kind ? payload : JSON.parse(change(JSON.stringify(payload))) as unknown;
      },
    });
    const cases: [string, (json: string) => string][] = [
      ['http.watchEvent', (json) => json.replace('"uid":"', '"uid":"0')],
      ['http.response', (json) => json.replace('"phase":"', '"phase":"0')],
      ['etcd.Txn', (json) => json.replace('"value":"', '"value":"\\u0000')],
      ['etcd.TxnResponse', (json) => json.replace('"revision":', '"revision":1')],
      ['http.request', (json) => json.replace('"lastProbeTime":null', '"lastProbeTime":0')],
    ];
    for (const [kind, change] of cases) {
      const light = run({ tracePayloadLimit: 400, rebuilder: tamper(kind, change) });
      expect(compare(whole, light).problems.get(kind) ?? 0, kind).toBeGreaterThan(0);
    }
  }, 600_000);

  it('answer the inspector (traceRange with full payloads, and why-chains) with the rebuilt payloads, for any step', () => {
    const whole = run({});
    const light = run({ tracePayloadLimit: 400 });
    const wholeIndex = new TraceRangeIndex();
    const lightIndex = new TraceRangeIndex();
    const first = light.engine.trace.payloadsFrom - 1;
    fc.assert(fc.property(fc.integer({ min: 1, max: first }), (step) => {
      const command = { type: 'traceRange', id: 1, fromStep: step, count: 1 } as const;
      const expected = wholeIndex.answer(whole.engine, command).records[0]!;
      const got = lightIndex.answer(light.engine, command).records[0]!;
      expect(got.step).toBe(step);
      const chain = causeChain(light.engine, got.id).chain[0]!;
      const kept = light.engine.trace.payloadAt(step)!.kept;
      if (kept === 'summary') {
        expect(got.payload).toEqual(light.engine.trace.at(step)!.payload);
        expect([got.payloadKept, chain.payloadKept]).toEqual(['summary', 'summary']);
      } else {
        expect(JSON.stringify(got.payload)).toBe(JSON.stringify(expected.payload));
        expect(JSON.stringify(chain.payload)).toBe(JSON.stringify(expected.payload));
        expect([got.payloadKept, chain.payloadKept]).toEqual(kept === 'rebuilt' ? ['rebuilt', 'rebuilt'] : [undefined, undefined]);
      }
    }), { numRuns: 300 });
  }, 600_000);

  it('show the summary once etcd has compacted the revision a payload was rebuilt from', () => {
    const cluster = run({ tracePayloadLimit: 400 });
    const stored = (s: number) => cluster.engine.trace.payloadAt(s)!;
    const steps = Array.from({ length: cluster.engine.trace.payloadsFrom - 1 }, (_, i) => i + 1).filter((s) => stored(s).kept === 'rebuilt');
    const store = cluster.etcd.store;
    store.compact(store.currentRev);
    const after = steps.map((s) => [cluster.engine.trace.at(s)!.kind, stored(s)] as const);
    for (const kind of ['http.watchEvent', 'etcd.Txn', 'etcd.TxnResponse', 'http.request']) expect(after.some(([k, p]) => k === kind && p.kept === 'summary'), kind).toBe(true);
    for (const [i, [, p]] of after.entries()) if (p.kept === 'summary') expect(p.payload).toBe(cluster.engine.trace.at(steps[i]!)!.payload);
  }, 600_000);
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinTokens } from './wire/credentials.ts';
import { httpKinds } from './wire/http.ts';
import { createCluster, type Cluster } from './cluster.ts';
import { causeChain } from '../worker/queries.ts';
import { TraceRangeIndex } from '../worker/trace-range.ts';

/** The same seeded flow: a Deployment of 12 replicas on 3 nodes, then scaled to 4, each run until idle. */
function run(options: { tracePayloadLimit?: number; etcdMembers?: 1 | 3 }): Cluster {
  const cluster = createCluster({ seed: 'light-records', nodes: 3, ...options });
  cluster.boot();
  const request = (method: 'POST' | 'PATCH', path: string, body: unknown, contentType = 'application/json') => cluster.user.request('kube-apiserver', httpKinds.request, {
    method, path, query: '', headers: { authorization: `Bearer ${builtinTokens.admin}`, 'content-type': contentType }, body: JSON.stringify(body),
  });
  request('POST', '/apis/apps/v1/namespaces/default/deployments', {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
    spec: { replicas: 12, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.14.2' }] } } },
  });
  cluster.engine.runUntilIdle();
  request('PATCH', '/apis/apps/v1/namespaces/default/deployments/web', { spec: { replicas: 4 } }, 'application/merge-patch+json');
  cluster.engine.runUntilIdle();
  return cluster;
}

const carriesKv = (payload: unknown): boolean => /"modRevision":\d+,"version":\d+,"value":"[^"]/.test(JSON.stringify(payload));

describe('light trace records of etcd replies', () => {
  for (const etcdMembers of [1, 3] as const) {
    it(`rebuild every summarized etcd reply byte for byte while etcd keeps its history (${etcdMembers} member${etcdMembers > 1 ? 's' : ''})`, () => {
      const whole = run({ etcdMembers });
      const light = run({ etcdMembers, tracePayloadLimit: 400 });
      expect(light.engine.step).toBe(whole.engine.step);
      expect(light.engine.trace.payloadsFrom).toBeGreaterThan(light.engine.step / 2);
      let rebuilt = 0;
      for (let step = 1; step < light.engine.trace.payloadsFrom; step++) {
        const expected = whole.engine.trace.at(step)!;
        const got = light.engine.trace.payloadAt(step)!;
        if (got.kept === 'rebuilt') {
          rebuilt++;
          expect(JSON.stringify(got.payload), `step ${step} ${expected.kind}`).toBe(JSON.stringify(expected.payload));
        } else {
          expect(got.payload).toEqual(light.engine.trace.at(step)!.payload);
          // Only replies without stored values or a request-stats line (or from another component) stay summaries here.
          const logged = typeof (expected.payload as { log?: unknown }).log === 'string';
          if (expected.kind.startsWith('etcd.') && expected.kind.endsWith('Response') && (carriesKv(expected.payload) || logged)) expect(got.kept, `step ${step}`).toBe('rebuilt');
        }
      }
      expect(rebuilt).toBeGreaterThan(100);
    }, 600_000);
  }

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
      if (light.engine.trace.payloadAt(step)!.kept === 'rebuilt') {
        expect(JSON.stringify(got.payload)).toBe(JSON.stringify(expected.payload));
        expect(JSON.stringify(chain.payload)).toBe(JSON.stringify(expected.payload));
        expect([got.payloadKept, chain.payloadKept]).toEqual(['rebuilt', 'rebuilt']);
      } else {
        expect(got.payload).toEqual(light.engine.trace.at(step)!.payload);
        expect([got.payloadKept, chain.payloadKept]).toEqual(['summary', 'summary']);
      }
    }), { numRuns: 300 });
  }, 600_000);

  it('show the summary once etcd has compacted the revision a reply read', () => {
    const cluster = run({ tracePayloadLimit: 400 });
    const stored = (s: number) => cluster.engine.trace.payloadAt(s)!;
    const steps = Array.from({ length: cluster.engine.trace.payloadsFrom - 1 }, (_, i) => i + 1).filter((s) => stored(s).kept === 'rebuilt');
    const store = cluster.etcd.store;
    store.compact(store.currentRev);
    const after = steps.map(stored);
    expect(after.some((p) => p.kept === 'summary')).toBe(true);
    for (const [i, p] of after.entries()) if (p.kept === 'summary') expect(p.payload).toBe(cluster.engine.trace.at(steps[i]!)!.payload);
  }, 600_000);
});

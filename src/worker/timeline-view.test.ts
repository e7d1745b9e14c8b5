// After a far seek the recent deliveries the page lists are the steps before the position, the older ones
// light, with the payloads the inspector shows once the page asks for them: rebuilt from etcd's history
// past the trace's whole payloads.

import { describe, expect, it } from 'vitest';
import type { Command, TraceRecord, WorkerEvent } from '../protocol/index.ts';
import { traceTailLimit } from '../protocol/index.ts';
import { createCluster } from '../sim/cluster.ts';
import { slimPayload } from '../sim/engine/trace-summary.ts';
import { initialSimState, reduceWorkerEvent, type SimState } from '../ui/store/sim-store.ts';
import { payloadQuestions } from '../ui/store/payloads.ts';
import { SimHost, type HostClock } from './host.ts';
import { labelPayload, wholeTailRecords } from './token-payload.ts';

const stillClock: HostClock = { now: () => 0, setTimeout: () => 0, clearTimeout: () => undefined };

const deployment = [
  'apiVersion: apps/v1', 'kind: Deployment', 'metadata: {name: web}',
  'spec: {replicas: 4, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: "nginx:1.14.2"}]}}}',
].join('\n');

/** A host of the same seeded flow, keeping the newest `tracePayloadLimit` payloads whole (default: all). */
function hostOf(tracePayloadLimit?: number) {
  const events: WorkerEvent[] = [];
  const host = new SimHost({
    post: (e) => events.push(e), clock: stillClock, initial: { seed: 'recent-deliveries', nodes: 2 },
    buildCluster: (spec) => createCluster({ ...spec, ...(tracePayloadLimit ? { tracePayloadLimit } : {}) }),
  });
  const send = (command: Command): WorkerEvent[] => {
    events.length = 0;
    host.handle(command);
    return [...events];
  };
  send({ type: 'applyManifest', yaml: deployment });
  send({ type: 'runUntilIdle' });
  return { host, send };
}

const tailAfterSeek = (send: (c: Command) => WorkerEvent[], step: number): readonly TraceRecord[] => {
  const batch = send({ type: 'seek', step }).find((e) => e.type === 'traceBatch' && e.replace);
  if (batch?.type !== 'traceBatch') throw new Error('a seek ships the deliveries before the position');
  return batch.records;
};

/**
 * The deliveries a page holds after a seek and after asking for the whole payloads of its light records
 * (src/ui/store/payloads.ts): the answers folded in as the store folds them.
 */
const wholeTailAfterSeek = (send: (c: Command) => WorkerEvent[], step: number): readonly TraceRecord[] => {
  const records = tailAfterSeek(send, step);
  let state: SimState = { ...initialSimState, recent: records };
  for (const question of payloadQuestions(records.filter((r) => r.payloadOmitted).map((r) => r.step))) {
    const answer = send({ type: 'traceRange', ...question }).find((e) => e.type === 'traceRange');
    if (answer?.type !== 'traceRange') throw new Error('a payload question is answered');
    state = reduceWorkerEvent(state, answer);
  }
  return state.recent;
};

describe('the recent deliveries after a far seek', () => {
  it('ship the older ones light, and whole the newest, the requests and causes they name', () => {
    const { send, host } = hostOf();
    const step = host.timeline.head - 10;
    const shipped = tailAfterSeek(send, step);
    const whole = wholeTailAfterSeek(send, step);
    expect(shipped.length).toBe(traceTailLimit);
    expect(shipped.slice(-wholeTailRecords).some((r) => r.payloadOmitted)).toBe(false);
    const named = new Set(shipped.slice(-wholeTailRecords).flatMap((r) => [r.cause, r.replyTo]));
    const light = shipped.filter((r) => r.payloadOmitted);
    expect(light.length).toBeGreaterThan(traceTailLimit / 2);
    expect(light.filter((r) => named.has(r.id))).toEqual([]);
    for (const [i, record] of shipped.entries()) {
      if (record.payloadOmitted) expect(record.payload).toEqual(labelPayload(whole[i]!));
      else expect(record).toBe(shipped[i]);
      expect({ ...record, payload: null, payloadOmitted: null }).toEqual({ ...whole[i], payload: null, payloadOmitted: null });
    }
    expect(whole.filter((r) => r.payloadOmitted)).toEqual([]);
    expect(JSON.stringify(shipped).length).toBeLessThan(JSON.stringify(whole).length / 2);
  }, 300_000);

  it('carry the payloads rebuilt from history where the trace keeps light records, the components\' request bodies included', () => {
    const whole = hostOf();
    const light = hostOf(300);
    expect(light.host.timeline.head).toBe(whole.host.timeline.head);
    const { payloadsFrom } = light.host.engine.trace;
    const step = payloadsFrom - 1;
    expect(step).toBeGreaterThan(traceTailLimit);

    const expected = wholeTailAfterSeek(whole.send, step);
    const got = wholeTailAfterSeek(light.send, step);
    expect(got.map((r) => r.step)).toEqual(expected.map((r) => r.step));
    const kept = { whole: 0, rebuilt: 0, summary: 0 };
    for (const [i, record] of got.entries()) {
      const wholePayload = expected[i]!.payload;
      kept[record.payloadKept ?? 'whole']++;
      if (record.payloadKept === 'summary') expect(record.payload).toEqual(slimPayload(wholePayload));
      else expect(JSON.stringify(record.payload), `step ${record.step} ${record.kind}`).toBe(JSON.stringify(wholePayload));
      expect({ ...record, payload: null, payloadKept: null }).toEqual({ ...expected[i], payload: null, payloadKept: null });
    }
    expect(kept.rebuilt).toBeGreaterThan(traceTailLimit / 4);
    // The watch events in the list are whole again, as the inspector shows them.
    expect(got.filter((r) => r.kind === 'http.watchEvent').every((r) => r.payloadKept === 'rebuilt')).toBe(true);
    // So are the components' requests with their bodies (rebuilt, or kept whole: a Binding).
    const bodies = got.filter((r, i) => r.kind === 'http.request' && r.from !== 'user' && (expected[i]!.payload as { body?: unknown }).body !== undefined);
    expect(bodies.length).toBeGreaterThan(0);
    expect(bodies.filter((r) => r.payloadKept === 'summary')).toEqual([]);
  }, 300_000);
});

describe('stepping back through the recent deliveries', () => {
  it('ships what a seek to the step ships, rebuilding only the step that enters the list', () => {
    const light = hostOf(300);
    const fresh = hostOf(300);
    const step = light.host.engine.trace.payloadsFrom - 1;
    tailAfterSeek(light.send, step);
    const { trace } = light.host.engine;
    const payloadAt = trace.payloadAt.bind(trace);
    const asked: number[] = [];
    trace.payloadAt = (at: number) => {
      asked.push(at);
      return payloadAt(at);
    };
    for (let back = 1; back <= 3; back++) {
      asked.length = 0;
      const batch = light.send({ type: 'stepBack', count: 1 }).find((e) => e.type === 'traceBatch' && e.replace);
      if (batch?.type !== 'traceBatch') throw new Error('a step back ships the deliveries before the position');
      expect(asked).toEqual([step - back - traceTailLimit + 1]);
      expect(JSON.stringify(batch.records)).toBe(JSON.stringify(tailAfterSeek(fresh.send, step - back)));
    }
    // A seek to the same step again reuses all of it; once the engine has moved, nothing shipped is reused.
    tailAfterSeek(light.send, step - 3);
    asked.length = 0;
    tailAfterSeek(light.send, step - 3);
    expect(asked).toEqual([]);
    const head = light.host.engine.step;
    light.host.engine.run({ maxSteps: 1 });
    expect(light.host.engine.step).toBe(head + 1);
    tailAfterSeek(light.send, step - 3);
    expect(asked.length).toBe(traceTailLimit);
  }, 300_000);
});

import { describe, expect, it } from 'vitest';
import type { TraceRangeCommand, TraceRangeEvent, WorkerEvent } from '../protocol/index.ts';
import { traceRangeLimit } from '../protocol/index.ts';
import { createCluster } from '../sim/cluster.ts';
import { nginxDeploymentYaml } from '../sim/scenarios/manifests.ts';
import { SimHost } from './host.ts';
import { applyUserCommand } from './user-commands.ts';
// The labels the page prints (a pure function of the record): slim payloads must keep them as they are.
import { tokenLabel } from '../ui/graph/token-label.ts';
import { slimPayload } from '../sim/engine/trace-summary.ts';
import { fallbackLevel, TraceRangeIndex } from './trace-range.ts';

function booted(traceLimit?: number) {
  const cluster = createCluster({ seed: 'trace-range', nodes: 1, ...(traceLimit ? { traceLimit } : {}) });
  cluster.boot();
  return cluster;
}

const ask = (index: TraceRangeIndex, engine: ReturnType<typeof booted>['engine'], query: Omit<TraceRangeCommand, 'type' | 'id'>): TraceRangeEvent =>
  index.answer(engine, { type: 'traceRange', id: 7, ...query });

describe('traceRange', () => {
  const cluster = booted();
  const { engine } = cluster;

  it('at level internal answers one row per step, the records as the engine traced them', () => {
    const index = new TraceRangeIndex();
    const answer = ask(index, engine, { fromStep: 5, count: 3 });
    expect(answer).toMatchObject({ type: 'traceRange', id: 7, level: 'internal', fromRow: 4, firstRow: 0, rows: engine.step, lastStep: engine.step });
    expect(answer.records.map((r) => r.step)).toEqual([5, 6, 7]);
    expect(answer.records[0]).toMatchObject({ ...engine.trace.at(5), step: 5 });
    expect(answer.folded).toEqual([0, 0, 0]);
    // Past the end: the last row; a count of 0 gives the totals only.
    expect(ask(index, engine, { fromRow: 10 ** 9, count: 5 }).records.map((r) => r.step)).toEqual([engine.step]);
    expect(ask(index, engine, { fromRow: 0, count: 0 }).records).toEqual([]);
  });

  it('says from which step on the records hold whole payloads; rows before it carry the summaries', () => {
    const bounded = createCluster({ seed: 'trace-range', nodes: 1, tracePayloadLimit: 200 });
    bounded.boot();
    const index = new TraceRangeIndex();
    expect(ask(index, engine, { fromRow: 0, count: 0 }).payloadsFrom).toBe(1);
    const answer = ask(index, bounded.engine, { fromRow: 0, count: 5 });
    expect(answer.payloadsFrom).toBe(bounded.engine.trace.payloadsFrom);
    expect(answer.payloadsFrom).toBeGreaterThan(bounded.engine.step - 200);
    expect(answer.records.map((r) => r.step)).toEqual([1, 2, 3, 4, 5]);
    // The same deliveries as the unbounded cluster's (same seed): etcd's replies rebuilt whole from its
    // history (said by payloadKept), the other payloads summarised.
    for (const r of answer.records) {
      const whole = engine.trace.at(r.step)!.payload;
      expect(r.payloadKept).toBe(bounded.engine.trace.payloadAt(r.step)!.kept);
      expect(r.payload).toEqual(r.payloadKept === 'rebuilt' ? whole : slimPayload(whole));
    }
    expect(answer.records.map((r) => r.payloadKept)).toContain('summary');
    expect(ask(index, bounded.engine, { fromStep: bounded.engine.step, count: 1 }).records[0]!.payload).toEqual(engine.trace.at(bounded.engine.step)!.payload);
    // Every step: the same record, its payload whole from payloadsFrom on and its summary before.
    for (let step = 1; step <= bounded.engine.step; step++) {
      const whole = engine.trace.at(step)!;
      const kept = bounded.engine.trace.at(step)!;
      expect(kept).toEqual(step < answer.payloadsFrom ? { ...whole, payload: slimPayload(whole.payload) } : whole);
    }
  });

  it('at level request folds every internal step into the row before it, covering every step once', () => {
    const index = new TraceRangeIndex();
    const { rows } = ask(index, engine, { fromRow: 0, count: 0, level: 'request' });
    expect(rows).toBeGreaterThan(10);
    expect(rows).toBeLessThan(engine.step);
    let next = 1;
    let stages = 0;
    for (let from = 0; from < rows; from += traceRangeLimit) {
      const page = ask(index, engine, { fromRow: from, count: traceRangeLimit, level: 'request' });
      page.records.forEach((record, i) => {
        expect(record.step).toBe(next);
        if (record.step > 1) expect(record.from === record.to || record.kind === 'timer').toBe(false);
        expect(record.level).toBe(record.step === 1 ? fallbackLevel(record) : 'request');
        for (let s = record.step + 1; s <= record.step + page.folded[i]!; s++) {
          const folded = engine.trace.at(s)!;
          expect(fallbackLevel(folded)).toBe('internal');
          if (folded.kind.startsWith('apiserver.')) stages++;
        }
        next = record.step + page.folded[i]! + 1;
      });
    }
    expect(next).toBe(engine.step + 1);
    expect(stages).toBeGreaterThan(0);
  });

  it('finds the row a step is folded into, and extends the index as the trace grows', () => {
    const index = new TraceRangeIndex();
    const stage = engine.trace.all().findIndex((m) => m.kind === 'apiserver.authentication') + 1;
    const holder = ask(index, engine, { fromStep: stage, count: 1, level: 'request' });
    const row = holder.records[0]!;
    expect(row.step).toBeLessThan(stage);
    expect(row.step + holder.folded[0]!).toBeGreaterThanOrEqual(stage);

    const before = ask(index, engine, { fromRow: 0, count: 0, level: 'request' });
    applyUserCommand(cluster, { type: 'consoleRun', id: 1, line: 'kubectl get pods' });
    engine.runUntilIdle();
    const after = ask(index, engine, { fromRow: 0, count: 0, level: 'request' });
    expect(after.epoch).toBe(before.epoch);
    expect(after.rows).toBeGreaterThan(before.rows);
    expect(after.lastStep).toBe(engine.step);
  });

  it('starts a new epoch for a new engine, and numbers rows past what the trace no longer retains', () => {
    const index = new TraceRangeIndex();
    const first = ask(index, engine, { fromRow: 0, count: 1, level: 'request' });
    const small = booted(100);
    const answer = ask(index, small.engine, { fromRow: 0, count: 3 });
    expect(answer.epoch).toBe(first.epoch + 1);
    expect(answer.firstRow).toBe(small.engine.trace.firstStep - 1);
    expect(answer.records[0]!.step).toBe(small.engine.trace.firstStep);
    const request = ask(index, small.engine, { fromStep: 1, count: 2, level: 'request' });
    expect(request.firstRow).toBe(0);
    expect(request.records[0]!.step).toBeGreaterThanOrEqual(small.engine.trace.firstStep);
  });

  it('refuses counts over the limit', () => {
    expect(() => ask(new TraceRangeIndex(), engine, { fromRow: 0, count: traceRangeLimit + 1 })).toThrow(RangeError);
  });
});

describe('traceRange in the host', () => {
  it('answers with the story\'s levels and milestones: the nginx flow\'s milestones in step order at level milestone', () => {
    const events: WorkerEvent[] = [];
    const clock = { now: () => 0, setTimeout: () => 0, clearTimeout: () => undefined };
    const host = new SimHost({ post: (event) => events.push(event), clock, initial: { seed: 'podflow', nodes: 3 } });
    host.handle({ type: 'applyManifest', yaml: nginxDeploymentYaml });
    for (let i = 0; i < 40 && !host.engine.idle; i++) host.handle({ type: 'step', count: 500 });
    events.length = 0;
    host.handle({ type: 'traceRange', id: 1, fromRow: 0, count: traceRangeLimit, level: 'milestone' });
    const answer = events.find((e): e is TraceRangeEvent => e.type === 'traceRange')!;
    const milestones = answer.records.filter((r) => r.milestone !== undefined);
    expect(milestones.length).toBeGreaterThan(5);
    expect(milestones.every((r) => r.level === 'milestone' && r.milestone!.step === r.step)).toBe(true);
    const kinds = milestones.map((r) => r.milestone!.kind);
    expect(kinds.indexOf('podBound')).toBeGreaterThan(kinds.indexOf('podCreated'));
    expect(kinds).toContain('deploymentAvailable');
    // Every milestone is a row at request level too, with the story's level.
    host.handle({ type: 'traceRange', id: 2, fromStep: milestones[0]!.step, count: 1, level: 'request' });
    const request = events.filter((e): e is TraceRangeEvent => e.type === 'traceRange').at(-1)!;
    expect(request.records[0]).toMatchObject({ step: milestones[0]!.step, level: 'milestone' });
    // A query reports nothing else (no batch, timeline or save): its answer and the status.
    events.length = 0;
    host.handle({ type: 'traceRange', id: 4, fromRow: 0, count: 1 });
    expect(events.map((e) => e.type)).toEqual(['traceRange', 'status']);
    host.handle({ type: 'traceRange', id: 5, fromRow: 0, count: -1 });
    expect(events.slice(2).map((e) => e.type)).toEqual(['error', 'status']);
  });
});

describe('slim payloads', () => {
  it('keep every label the graph and the sequence view print, at a fraction of the size', () => {
    const events: WorkerEvent[] = [];
    const clock = { now: () => 0, setTimeout: () => 0, clearTimeout: () => undefined };
    const host = new SimHost({ post: (event) => events.push(event), clock, initial: { seed: 'slim', nodes: 2 } });
    host.handle({ type: 'applyManifest', yaml: nginxDeploymentYaml.replace('replicas: 1', 'replicas: 4') });
    for (let i = 0; i < 40 && !host.engine.idle; i++) host.handle({ type: 'step', count: 500 });
    host.handle({ type: 'consoleRun', id: 1, line: 'kubectl get pods' });
    host.handle({ type: 'fault', fault: { type: 'compactEtcd' } });
    for (let i = 0; i < 40 && !host.engine.idle; i++) host.handle({ type: 'step', count: 500 });
    let full = 0;
    let slim = 0;
    for (const message of host.engine.trace.all()) {
      const cut = { ...message, payload: slimPayload(message.payload) };
      expect(tokenLabel(cut), message.kind).toEqual(tokenLabel(message));
      full += JSON.stringify(message.payload ?? null).length;
      slim += JSON.stringify(cut.payload ?? null).length;
    }
    expect(slim).toBeLessThan(full / 2);
    events.length = 0;
    host.handle({ type: 'traceRange', id: 3, fromRow: 0, count: 50, payloads: 'slim' });
    const answer = events.find((e): e is TraceRangeEvent => e.type === 'traceRange')!;
    expect(answer.records[10]!.payload).toEqual(slimPayload(host.engine.trace.at(11)!.payload));
  });
});

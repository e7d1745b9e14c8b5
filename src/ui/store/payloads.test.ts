// Whole payloads on demand: the questions the page asks for light records' steps, and how the answers are
// folded into the deliveries and tokens it holds, never reaching the views' own traceRange answers.

import { describe, expect, it } from 'vitest';
import type { Flight, TraceRangeEvent, TraceRecord } from '../../protocol/index.ts';
import { traceRangeLimit } from '../../protocol/index.ts';
import { awaitsPayload, foldWholePayloads, payloadQuestions } from './payloads.ts';
import { initialSimState, reduceWorkerEvent, type SimState } from './sim-store.ts';

const record = (step: number, payload: unknown = { whole: step }): TraceRecord => ({
  step, id: 1000 + step, from: 'a', to: 'b', kind: 'http.request', payload, sentAt: step, deliverAt: step, cause: null, replyTo: null, background: false,
});
const lightRecord = (step: number): TraceRecord => ({ ...record(step, { label: step }), payloadOmitted: true });
const answer = (id: number, records: TraceRecord[]): TraceRangeEvent => ({
  type: 'traceRange', id, level: 'internal', epoch: 1, fromRow: records[0]!.step - 1, firstRow: 0, rows: 100, lastStep: 100, payloadsFrom: 1, records, folded: records.map(() => 0),
});

describe('questions for whole payloads', () => {
  it('ask for the steps in as few windows as the trace range allows, each with a new negative id', () => {
    const asked = payloadQuestions([7, 3, 5, 3, 3 + traceRangeLimit, 4 + traceRangeLimit]);
    expect(asked.map(({ fromStep, count, payloads }) => ({ fromStep, count, payloads }))).toEqual([
      { fromStep: 3, count: 5, payloads: 'full' },
      { fromStep: 3 + traceRangeLimit, count: 2, payloads: 'full' },
    ]);
    expect(asked.every((q) => q.id < 0)).toBe(true);
    expect(new Set([...asked, ...payloadQuestions([1])].map((q) => q.id)).size).toBe(3);
    expect(payloadQuestions([])).toEqual([]);
  });
});

describe('an answer to a payload question', () => {
  it('makes the light deliveries and tokens it names whole, and leaves the rest and the views\' answer alone', () => {
    const token: Flight = { ...lightRecord(4), step: 4 };
    const inFlight: Flight = { ...lightRecord(9), step: null };
    const state: SimState = { ...initialSimState, recent: [record(2), lightRecord(3), lightRecord(4), lightRecord(5)], tokens: [token, inFlight] };
    const whole = [record(3), { ...record(4), payloadKept: 'rebuilt' as const }];
    const next = reduceWorkerEvent(state, answer(-1, whole));
    expect(next.recent).toEqual([record(2), record(3), { ...record(4), payloadKept: 'rebuilt' }, lightRecord(5)]);
    expect(next.recent[0]).toBe(state.recent[0]);
    expect(next.tokens).toEqual([{ ...record(4), step: 4, payloadKept: 'rebuilt' }, inFlight]);
    expect(next.traceRange).toBeNull();
    // Nothing light among the records answered: the state is kept as it is.
    expect(foldWholePayloads(next, answer(-2, whole))).toBe(next);
    // A view's own question (a positive id) is its answer, and changes no record.
    const view = reduceWorkerEvent(state, answer(3, whole));
    expect(view.traceRange?.id).toBe(3);
    expect(view.recent).toBe(state.recent);
  });
});

describe('a record awaiting its payload', () => {
  it('is a light one with a step to ask by: not a whole one, nor a token in flight (its payload comes on pause)', () => {
    expect(awaitsPayload(lightRecord(3))).toBe(true);
    expect(awaitsPayload(record(3))).toBe(false);
    expect(awaitsPayload({ ...lightRecord(3), step: null })).toBe(false);
    expect(awaitsPayload(undefined)).toBe(false);
  });
});

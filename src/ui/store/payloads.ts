// Whole payloads on demand (issue 20, part 2). A seek or a Step back ships its older deliveries, and the
// tokens already delivered at a past step, light: the payload holds only what the record's label reads
// (`payloadOmitted`, src/worker/token-payload.ts). A view that shows such a record (its body, its
// caption, the caption of a message answering it) asks the worker for the whole record here: a
// `traceRange` of the records' steps, with a negative id so that the answer is folded into the records
// the store holds and never reaches the views that ask with positive ids (the sequence view).

import { useEffect } from 'react';
import { traceRangeLimit, type Flight, type TraceRangeCommand, type TraceRangeEvent, type TraceRecord } from '../../protocol/index.ts';
import { useSimActions } from './sim-context.ts';
import type { SimState } from './sim-store.ts';

/** What a view shows of a record: its step (absent or null: none, e.g. a token in flight) and whether it is light. */
type Shown = { readonly step?: number | null; readonly payloadOmitted?: true } | undefined;

/**
 * True for a delivered record or token whose payload is light (its whole one can be asked for by step):
 * nothing is read from its payload until it comes (captions and words wait; a token's label reads only
 * the fields a light payload keeps).
 */
export function awaitsPayload(record: Shown): record is { readonly step: number; readonly payloadOmitted: true } {
  return record?.payloadOmitted === true && typeof record.step === 'number';
}

let questions = 0;

/**
 * The questions for the whole records of `steps` (ascending, each at most `traceRangeLimit` steps long),
 * each with a new negative id.
 */
export function payloadQuestions(steps: readonly number[]): Array<Omit<TraceRangeCommand, 'type'>> {
  const sorted = [...new Set(steps)].sort((a, b) => a - b);
  const asked: Array<Omit<TraceRangeCommand, 'type'>> = [];
  for (let i = 0; i < sorted.length;) {
    const from = sorted[i]!;
    let last = from;
    while (i < sorted.length && sorted[i]! - from < traceRangeLimit) last = sorted[i++]!;
    asked.push({ id: -++questions, fromStep: from, count: last - from + 1, payloads: 'full' });
  }
  return asked;
}

/** `state` with the light records and tokens an answer to a payload question holds replaced by whole ones. */
export function foldWholePayloads(state: SimState, answer: TraceRangeEvent): SimState {
  const whole = new Map<number, TraceRecord>();
  for (const record of answer.records) whole.set(record.id, record);
  const upgrade = <T extends TraceRecord | Flight>(record: T): T => {
    const found = record.payloadOmitted ? whole.get(record.id) : undefined;
    if (!found) return record;
    const { payloadOmitted: _omitted, ...rest } = record;
    return { ...rest, payload: found.payload, ...(found.payloadKept ? { payloadKept: found.payloadKept } : {}) } as T;
  };
  const recent = replaced(state.recent, upgrade);
  const tokens = replaced(state.tokens, upgrade);
  return recent === state.recent && tokens === state.tokens ? state : { ...state, recent, tokens };
}

/** `list` with `change` applied, the same array when it changed nothing. */
function replaced<T>(list: readonly T[], change: (item: T) => T): readonly T[] {
  let next: T[] | null = null;
  list.forEach((item, i) => {
    const changed = change(item);
    if (changed !== item) (next ??= [...list])[i] = changed;
  });
  return next ?? list;
}

/** Asks for the whole payloads of the light ones among `records` (once per set of steps shown). */
export function useWholePayloads(records: readonly Shown[]): void {
  const actions = useSimActions();
  const steps = records.filter(awaitsPayload).map((record) => record.step);
  const key = steps.join(',');
  useEffect(() => {
    if (key === '') return;
    for (const question of payloadQuestions(key.split(',').map(Number))) actions.traceRange(question);
  }, [key, actions]);
}

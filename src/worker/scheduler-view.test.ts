import { describe, expect, it } from 'vitest';
import { schedulerListLimit } from '../protocol/index.ts';
import { AttemptLog, AttemptRecord, filterDecision } from '../sim/scheduler/attempt-record.ts';
import { schedulerView } from './queries.ts';

/** A log of `made` attempts, one per virtual ms, pods `default/p<n % 7>`, kept at most `limit`. */
function logOf(made: number, limit = Number.POSITIVE_INFINITY): AttemptLog {
  const log = new AttemptLog(limit);
  const decision = filterDecision(['node-1'], ['NodeResourcesFit'], Int16Array.of(-1), []);
  for (let n = 1; n <= made; n++) log.record(new AttemptRecord(`default/p${n % 7}`, `uid-${n}`, 1, n, decision, 'node-1', '', true));
  return log;
}

describe('the scheduler view: a bounded list and one attempt in full, whatever the log holds', () => {
  it('lists the newest attempts made by the step shown, newest first, at most the limit, and counts all that match', () => {
    const log = logOf(1_000);
    const view = schedulerView(log, 600, {});
    expect(view).toMatchObject({ made: 600, dropped: 0, pod: '', matching: 600 });
    expect(view.attempts).toHaveLength(schedulerListLimit);
    expect(view.attempts[0]!.seq).toBe(600);
    expect(view.attempts.at(-1)!.seq).toBe(600 - schedulerListLimit + 1);
    // Each summary is its record's; no nodes cross.
    expect(view.attempts[0]).toEqual({ seq: 600, pod: 'default/p5', attempt: 1, time: 600, selected: 'node-1', message: '', bound: true });
    expect(view.detail).toMatchObject({ seq: 600, time: 600, nodes: [{ node: 'node-1', feasible: true }] });
  });

  it('filters by the pod\'s name and counts every match, listed or not', () => {
    const view = schedulerView(logOf(2_000), 2_000, { pod: ' p3 ' });
    expect(view.pod).toBe('p3');
    // n % 7 === 3 for n in 1..2000.
    const expected = Array.from({ length: 2_000 }, (_, i) => i + 1).filter((n) => n % 7 === 3);
    expect(view.matching).toBe(expected.length);
    expect(view.attempts.map((a) => a.seq)).toEqual(expected.reverse().slice(0, schedulerListLimit));
    expect(view.detail?.seq).toBe(view.attempts[0]!.seq);
  });

  it('numbers attempts among all made once the oldest are dropped, and details only a kept one made by then that matches', () => {
    const log = logOf(1_000, 400);
    expect(log.dropped).toBe(log.total - log.records.length);
    expect(log.records.length).toBeLessThanOrEqual(400);
    const view = schedulerView(log, 1_000, {});
    expect(view).toMatchObject({ made: 1_000, dropped: log.dropped, matching: log.records.length });
    // The numbers are the attempts' own: attempt n was made at time n.
    for (const a of view.attempts) expect(a.time).toBe(a.seq);
    expect(schedulerView(log, 1_000, { seq: 900 }).detail).toMatchObject({ seq: 900, time: 900 });
    // Dropped, made after the step shown, or not matching: the newest matching instead.
    expect(schedulerView(log, 1_000, { seq: 10 }).detail?.seq).toBe(1_000);
    expect(schedulerView(log, 950, { seq: 990 }).detail?.seq).toBe(950);
    expect(schedulerView(log, 1_000, { seq: 994, pod: 'p3' }).detail?.seq).toBe(997);
  });

  it('does not send again the attempt the panel holds: only whether it is still the one to show', () => {
    const log = logOf(1_000);
    // The newest at step 600 is 600: held, so not built again; the list still comes.
    const same = schedulerView(log, 600, { held: 600 });
    expect(same).toMatchObject({ made: 600, matching: 600, detail: null, detailHeld: 600 });
    expect(same.attempts[0]!.seq).toBe(600);
    // A newer attempt made since, or another one asked for: sent in full, as without `held`.
    expect(schedulerView(log, 601, { held: 600 })).toMatchObject({ detail: { seq: 601 } });
    expect(schedulerView(log, 601, { held: 600 }).detailHeld).toBeUndefined();
    expect(schedulerView(log, 601, { seq: 500, held: 600 }).detail?.seq).toBe(500);
    expect(schedulerView(log, 601, { seq: 500, held: 500 })).toMatchObject({ detail: null, detailHeld: 500 });
  });
});

import { describe, expect, it } from 'vitest';
import { AttemptLog, AttemptRecord, filterDecision, scoredDecision } from './attempt-record.ts';

const filters = Object.freeze(['NodeName', 'NodeResourcesFit']);
const pass = (plugin: string) => ({ plugin, pass: true, reasons: [] });

describe('AttemptRecord', () => {
  it('builds each node\'s filter verdicts, scores and weighted total from the compact decision, exactly', () => {
    const filtered = filterDecision(['a', 'b', 'c'], filters, Int16Array.from([-1, 1, -1]), [['Insufficient cpu']]);
    const scores = [
      { plugin: { name: 'Ints' }, weight: 3, raw: [7, -2], normalized: [100, 0] },
      { plugin: { name: 'Large' }, weight: 2, raw: [256, 70_000], normalized: [255, 1] },
      // Fractions and -0 are kept as they are (doubles).
      { plugin: { name: 'Fractions' }, weight: 1, raw: [0.1, -0], normalized: [0.2, 33.3] },
    ];
    const record = new AttemptRecord('default/p', 'u', 1, 5, scoredDecision(filtered, scores, 2), 'a', '', false);
    expect(record.nodes).toEqual([
      { node: 'a', filters: [pass('NodeName'), pass('NodeResourcesFit')], feasible: true, finalScore: 0 + 100 * 3 + 255 * 2 + 0.2 * 1,
        scores: [{ plugin: 'Ints', weight: 3, raw: 7, normalized: 100 }, { plugin: 'Large', weight: 2, raw: 256, normalized: 255 },
          { plugin: 'Fractions', weight: 1, raw: 0.1, normalized: 0.2 }] },
      { node: 'b', filters: [pass('NodeName'), { plugin: 'NodeResourcesFit', pass: false, reasons: ['Insufficient cpu'] }], feasible: false, scores: [], finalScore: null },
      { node: 'c', filters: [pass('NodeName'), pass('NodeResourcesFit')], feasible: true, finalScore: 0 + 0 * 3 + 1 * 2 + 33.3 * 1,
        scores: [{ plugin: 'Ints', weight: 3, raw: -2, normalized: 0 }, { plugin: 'Large', weight: 2, raw: 70_000, normalized: 1 },
          { plugin: 'Fractions', weight: 1, raw: -0, normalized: 33.3 }] },
    ]);
    expect(Object.is(record.nodes[2]!.scores[2]!.raw, -0)).toBe(true);
  });

  it('serializes as the plain record, in its key order, with its outcome once settled', () => {
    const decision = filterDecision(['a'], filters, Int16Array.from([0]), [['node(s) didn\'t match the requested node name']]);
    const record = new AttemptRecord('default/p', 'u', 2, 9, decision, null, '0/1 nodes are available', false);
    const settled = record.settled({ bound: true });
    expect(JSON.stringify(settled)).toBe(JSON.stringify({
      pod: 'default/p', uid: 'u', attempt: 2, time: 9,
      nodes: [{ node: 'a', filters: [{ plugin: 'NodeName', pass: false, reasons: ['node(s) didn\'t match the requested node name'] }], feasible: false, scores: [], finalScore: null }],
      selected: null, message: '0/1 nodes are available', bound: true,
    }));
    expect(record.bound).toBe(false);
  });

  it('a feasible node with every Score plugin skipped totals 0', () => {
    const record = new AttemptRecord('default/p', 'u', 1, 0, scoredDecision(filterDecision(['a'], filters, Int16Array.from([-1]), []), [], 1), 'a', '', true);
    expect(record.nodes[0]).toMatchObject({ feasible: true, scores: [], finalScore: 0 });
  });
});

describe('AttemptLog', () => {
  it('shares the node names between attempts while they are equal', () => {
    const log = new AttemptLog(10);
    const first = log.sharedNodes(['a', 'b']);
    expect(log.sharedNodes(['a', 'b'])).toBe(first);
    const changed = log.sharedNodes(['a', 'c']);
    expect(changed).toEqual(['a', 'c']);
    expect(log.sharedNodes(['a', 'c'])).toBe(changed);
  });
});

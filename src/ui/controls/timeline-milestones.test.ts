import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MilestoneKind } from '../../protocol/index.ts';
import { bucketSpan, labelGap, labelWidth, layoutMilestoneMarks, minGap } from './timeline-milestones.ts';

const m = (step: number, kind: MilestoneKind = 'objectCreated') => ({ step, kind });
const short = (x: { step: number }) => `milestone ${x.step}`;

describe('timeline milestone markers', () => {
  it('sit at their step\'s share of the track and are labelled when there is room', () => {
    const marks = layoutMilestoneMarks([m(100), m(500), m(900)], 1000, 1000, short);
    expect(marks.map((x) => x.x)).toEqual([100, 500, 900]);
    expect(marks.every((x) => x.labelled)).toBe(true);
  });

  it('leave off a label that would run into the next marker, never the marker', () => {
    const marks = layoutMilestoneMarks([m(100), m(120), m(400)], 1000, 1000, short);
    expect(marks).toHaveLength(3);
    expect(marks.map((x) => x.labelled)).toEqual([false, true, true]);
    for (let i = 1; i < marks.length; i++) {
      const before = marks.slice(0, i).filter((x) => x.labelled).at(-1);
      if (marks[i]!.labelled && before) expect(marks[i]!.x).toBeGreaterThanOrEqual(before.x + labelWidth(short(before.milestone)));
    }
  });

  it('always label the current milestone, to the left at the track\'s end, and keep other labels clear of it', () => {
    const marks = layoutMilestoneMarks([m(100), m(120), m(400), m(990)], 1000, 1000, short, 120);
    expect(marks.map((x) => x.labelled)).toEqual([false, true, true, false]);
    const end = layoutMilestoneMarks([m(100), m(400), m(960), m(990)], 1000, 1000, short, 990);
    expect(end.at(-1)).toMatchObject({ labelled: true, anchor: 'left' });
    expect(end[2]?.labelled).toBe(false);
    expect(end[1]?.labelled).toBe(true);
  });

  it('keep the current milestone drawn when it shares its place with others', () => {
    const crowded = [m(500), m(501), m(502)];
    const marks = layoutMilestoneMarks(crowded, 1000, 1000, short, 501);
    expect(marks).toHaveLength(1);
    expect(marks[0]).toMatchObject({ labelled: true, count: 3 });
    expect(marks[0]?.milestone.step).toBe(501);
    // Drawn where its first milestone lies (the page places it at that step over the head).
    expect(marks[0]).toMatchObject({ at: 500, x: 500 });
  });

  it('draw crowded milestones as one marker, a failure winning', () => {
    const crowded = Array.from({ length: 5000 }, (_, i) => m(i + 1));
    crowded[2500] = m(2501, 'imagePullBackOff');
    const marks = layoutMilestoneMarks(crowded, 5000, 800, short);
    expect(marks.length).toBeLessThanOrEqual(Math.ceil(800 / minGap) + 1);
    for (let i = 1; i < marks.length; i++) expect(marks[i]!.x - marks[i - 1]!.x).toBeGreaterThanOrEqual(minGap);
    expect(marks.reduce((n, x) => n + x.count, 0)).toBe(5000);
    expect(marks.some((x) => x.failure && x.milestone.step === 2501)).toBe(true);
    expect(marks.at(-1)?.milestone.step).toBe(5000);
  });

  it('mark failures', () => {
    const [ok, failed] = layoutMilestoneMarks([m(1), m(900, 'conflict')], 1000, 1000, short);
    expect(ok?.failure).toBe(false);
    expect(failed?.failure).toBe(true);
  });

  it('measure CJK labels wider than Latin ones of the same length', () => {
    expect(labelWidth('调度到节点')).toBeGreaterThan(labelWidth('abcde'));
  });
});

describe('the current milestone\'s label', () => {
  it('runs to the side with fewer markers under it', () => {
    const marks = layoutMilestoneMarks([m(500), m(520), m(540), m(560), m(600), m(300)].sort((a, b) => a.step - b.step), 1000, 1000, short, 600);
    const current = marks.find((x) => x.milestone.step === 600)!;
    expect(current).toMatchObject({ labelled: true, anchor: 'right' });
    const crowdedRight = layoutMilestoneMarks([m(400), m(620), m(640), m(660)], 1000, 1000, short, 400);
    expect(crowdedRight[0]).toMatchObject({ labelled: true, anchor: 'right' });
    const leftIsFree = layoutMilestoneMarks([m(100), m(500), m(520), m(540), m(560)], 1000, 1000, short, 500);
    expect(leftIsFree.find((x) => x.milestone.step === 500)).toMatchObject({ labelled: true, anchor: 'left' });
  });
});

describe('milestone markers as the head grows', () => {
  // A long create: a milestone every few steps, some failures, on an 800 px track.
  const run = (head: number) => Array.from({ length: Math.floor(head / 3) }, (_, i) => m(3 * i + 1, i % 97 === 0 ? 'conflict' : 'objectCreated'));
  const byKey = <T extends { key: string }>(marks: readonly T[]) => new Map(marks.map((x) => [x.key, x]));

  it('keep their key, place, milestone and label while the head grows within a span', () => {
    const before = layoutMilestoneMarks(run(3000), 3000, 800, short);
    const after = layoutMilestoneMarks(run(3300), 3300, 800, short);
    expect(bucketSpan(3000, 800)).toBe(bucketSpan(3300, 800));
    const later = byKey(after);
    // All but the newest two places and the labels near the track's end (which only appear as it moves left).
    for (const mark of before.slice(0, -2)) {
      const same = later.get(mark.key);
      expect(same).toMatchObject({ at: mark.at, milestone: mark.milestone, count: mark.count });
      if (mark.labelled) expect(same?.labelled).toBe(true);
      else if (same!.x + labelWidth(short(mark.milestone)) < 800 - 2 * labelGap) expect(same?.labelled).toBe(false);
    }
  });

  it('keep their key and place when the oldest milestones are dropped', () => {
    const all = run(3000);
    const before = byKey(layoutMilestoneMarks(all, 3000, 800, short));
    const after = layoutMilestoneMarks(all.slice(200), 3000, 800, short);
    for (const mark of after.slice(2)) expect(before.get(mark.key)).toMatchObject({ at: mark.at, milestone: mark.milestone, count: mark.count, labelled: mark.labelled });
  });

  it('stay minGap pixels apart, inside the track, whatever the steps', () => {
    fc.assert(fc.property(
      fc.uniqueArray(fc.integer({ min: 0, max: 20_000 }), { maxLength: 400 }),
      fc.integer({ min: 0, max: 5_000 }),
      fc.integer({ min: 200, max: 1600 }),
      (steps, extra, width) => {
        const sorted = [...steps].sort((a, b) => a - b);
        const head = (sorted.at(-1) ?? 0) + extra;
        const marks = layoutMilestoneMarks(sorted.map((s) => m(s)), head, width, short, sorted[Math.floor(sorted.length / 2)] ?? null);
        expect(marks.reduce((n, x) => n + x.count, 0)).toBe(sorted.length);
        for (let i = 1; i < marks.length; i++) expect(marks[i]!.x - marks[i - 1]!.x).toBeGreaterThanOrEqual(minGap - 1e-9);
        for (const mark of marks) expect(mark.x).toBeLessThanOrEqual(width + 1e-9);
        expect(new Set(marks.map((x) => x.key)).size).toBe(marks.length);
      },
    ));
  });
});

import { describe, expect, it } from 'vitest';
import type { Milestone, StepLevel } from '../../protocol/index.ts';
import { milestoneLimit } from '../../protocol/index.ts';
import type { Message } from '../../sim/engine/index.ts';
import { milestoneKeep, StoryRecord } from './record.ts';

const message = (id: number): Message => ({ id, from: 'a', to: 'b', kind: 'k', payload: null, sentAt: 0, deliverAt: id, cause: null, replyTo: null, background: false });
const milestone = (step: number): Milestone => ({
  step, messageId: step, at: step, components: ['user'], kind: 'userAction', tool: 'kubectl', summary: `POST /${step}`, object: null,
});

function recordOf(levels: readonly StepLevel[]): StoryRecord {
  const record = new StoryRecord();
  levels.forEach((level, i) => record.record(i + 1, { level, milestone: level === 'milestone' ? milestone(i + 1) : null }));
  return record;
}

describe('StoryRecord', () => {
  const record = recordOf(['internal', 'request', 'internal', 'milestone', 'internal', 'request', 'milestone']);

  it('finds the next and previous step at a level or coarser', () => {
    expect(record.next(0, 'internal')).toBe(1);
    expect(record.next(1, 'request')).toBe(2);
    expect(record.next(2, 'request')).toBe(4);
    expect(record.next(4, 'milestone')).toBe(7);
    expect(record.next(7, 'internal')).toBeNull();
    expect(record.next(4, 'milestone', 6)).toBeNull();
    expect(record.previous(7, 'milestone')).toBe(4);
    expect(record.previous(4, 'request')).toBe(2);
    expect(record.previous(2, 'request')).toBeNull();
    expect(record.previous(1, 'internal')).toBeNull();
  });

  it('annotates a delivery with its level and milestone', () => {
    expect(record.annotate(3, message(3))).toMatchObject({ step: 3, id: 3, level: 'internal' });
    expect(record.annotate(3, message(3))).not.toHaveProperty('milestone');
    expect(record.annotate(4, message(4))).toMatchObject({ level: 'milestone', milestone: milestone(4) });
    // A step not recorded (yet) has no level.
    expect(record.annotate(9, message(9))).not.toHaveProperty('level');
  });

  it('hands out new milestones once, and all of them (the newest milestoneLimit) for a replace', () => {
    const fresh = recordOf(['milestone', 'internal', 'milestone']);
    expect(fresh.takeNew().map((m) => m.step)).toEqual([1, 3]);
    expect(fresh.takeNew()).toEqual([]);
    fresh.record(4, { level: 'milestone', milestone: milestone(4) });
    expect(fresh.takeNew().map((m) => m.step)).toEqual([4]);
    expect(fresh.takeAll().map((m) => m.step)).toEqual([1, 3, 4]);
    expect(fresh.takeNew()).toEqual([]);
  });

  it('keeps a bounded number of milestones; older steps keep their level', () => {
    const many = new StoryRecord();
    const total = milestoneKeep + milestoneLimit + 10;
    for (let step = 1; step <= total; step++) many.record(step, { level: 'milestone', milestone: milestone(step) });
    expect(many.milestones.length).toBeLessThanOrEqual(milestoneKeep + milestoneLimit);
    expect(many.milestones.at(-1)?.step).toBe(total);
    expect(many.milestoneAt(1)).toBeUndefined();
    expect(many.levelAt(1)).toBe('milestone');
    expect(many.takeAll()).toHaveLength(milestoneLimit);
  });
});

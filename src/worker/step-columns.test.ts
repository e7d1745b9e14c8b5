import { describe, expect, it } from 'vitest';
import { float64Column, uint32Column, uint8Column } from './step-columns.ts';
import { Timeline } from './timeline.ts';

describe('step columns', () => {
  it('keep every value across chunk boundaries, truncate, and grow again without copying what is kept', () => {
    const times = float64Column();
    const n = 200_000;
    for (let i = 0; i < n; i++) times.push(i * 0.125 + 1_000_000.5);
    expect(times.length).toBe(n);
    expect([times.at(0), times.at(65_535), times.at(65_536), times.at(n - 1), times.at(n)]).toEqual([1_000_000.5, 65_535 * 0.125 + 1_000_000.5, 65_536 * 0.125 + 1_000_000.5, (n - 1) * 0.125 + 1_000_000.5, undefined]);
    // Four chunks of 64 Ki doubles: 8 bytes a step, no spare capacity beyond the last chunk.
    expect(times.bytes).toBe(4 * 65_536 * 8);
    times.truncate(65_536);
    expect(times.length).toBe(65_536);
    expect(times.bytes).toBe(65_536 * 8);
    times.push(7);
    expect([times.at(65_535), times.at(65_536), times.length]).toEqual([65_535 * 0.125 + 1_000_000.5, 7, 65_537]);
    expect(() => times.set(65_537, 1)).toThrow(RangeError);
    const flags = uint8Column();
    flags.push(1);
    flags.set(0, 0);
    expect(flags.at(0)).toBe(0);
    const ids = uint32Column();
    ids.push(4_000_000_000);
    expect(ids.at(0)).toBe(4_000_000_000);
  });

  it('a timeline reads back each step as recorded, the unknown newest message included, past a truncate', () => {
    const timeline = new Timeline({ now: 0, pending: 0, idle: true, revision: 1 });
    for (let step = 1; step <= 70_000; step++) timeline.record({ now: step * 1.5, pending: step % 7, idle: step % 3 === 0, revision: 1 + (step >> 2), ...(step % 5 === 0 ? {} : { sent: step * 2 }) });
    expect(timeline.head).toBe(70_000);
    expect(timeline.sample(0)).toEqual({ now: 0, pending: 0, idle: true, revision: 1 });
    expect(timeline.sample(65_537)).toEqual({ now: 65_537 * 1.5, pending: 65_537 % 7, idle: false, revision: 1 + (65_537 >> 2), sent: 131_074 });
    expect(timeline.sample(65_540)).toEqual({ now: 65_540 * 1.5, pending: 65_540 % 7, idle: false, revision: 1 + (65_540 >> 2) });
    expect(timeline.stepOfRevision(1 + (65_540 >> 2))).toBe(65_540);
    timeline.truncate(65_536);
    expect(timeline.head).toBe(65_536);
    timeline.record({ now: 1, pending: 2, idle: true, revision: 3 });
    timeline.noteSent(99);
    expect(timeline.sample(65_537)).toEqual({ now: 1, pending: 2, idle: true, revision: 3, sent: 99 });
  });
});

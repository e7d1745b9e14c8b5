import { describe, expect, it } from 'vitest';
import type { TimelineMarker } from '../../protocol/index.ts';
import { markerPercent, maxDrawn, visibleMarkers } from './timeline-markers.ts';

const marker = (step: number, kind: TimelineMarker['kind'] = 'command'): TimelineMarker => ({ step, kind, label: `m${step}` });

describe('timeline markers', () => {
  it('sit at their step\'s share of the track', () => {
    expect(markerPercent(50, 200)).toBe(25);
    expect(markerPercent(0, 0)).toBe(0);
    expect(markerPercent(300, 200)).toBe(100);
  });

  it('keep every marker when they are far apart, and one per kind per bucket when crowded', () => {
    expect(visibleMarkers([marker(10), marker(500, 'error'), marker(1000)]).map((m) => m.step)).toEqual([10, 500, 1000]);
    const crowded = Array.from({ length: 10_000 }, (_, i) => marker(i + 1));
    const drawn = visibleMarkers(crowded);
    expect(drawn.length).toBeLessThanOrEqual(maxDrawn);
    expect(drawn.at(-1)?.step).toBe(10_000);
    expect(visibleMarkers([marker(5), marker(5, 'error')]).map((m) => m.kind)).toEqual(['command', 'error']);
  });
});

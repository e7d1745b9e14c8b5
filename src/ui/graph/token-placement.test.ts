import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Rect } from './geometry.ts';
import { intersects, labelSpots, placeLabels, RectGrid, type LabelRequest } from './token-placement.ts';

// kube-apiserver and etcd side by side, as in the default layout: a short horizontal link between them.
const apiserver: Rect = { x: 360, y: 160, width: 220, height: 84 };
const etcd: Rect = { x: 720, y: 160, width: 220, height: 64 };
const title = (box: Rect): Rect => ({ x: box.x + 8, y: box.y + 6, width: 120, height: 16 });
const link = (key: string, from: Rect, to: Rect): Pick<LabelRequest, 'key' | 'segment'> => ({
  key, segment: [{ x: from.x + from.width, y: from.y + 32 }, { x: to.x, y: to.y + 32 }],
});

describe('token label placement', () => {
  it('offers spots beside the link first, clear of it, then on the line', () => {
    const spots = labelSpots({ segment: [{ x: 0, y: 100 }, { x: 200, y: 100 }], width: 80, height: 16 });
    expect(spots[0]).toEqual({ x: 60, y: 100 - 3 - 16, width: 80, height: 16 });
    expect(spots[1]).toEqual({ x: 60, y: 103, width: 80, height: 16 });
    expect(spots.at(-1)!.y).toBe(92);
    const vertical = labelSpots({ segment: [{ x: 50, y: 0 }, { x: 50, y: 300 }], width: 80, height: 16 });
    expect(vertical[0]!.x + 80).toBeLessThanOrEqual(50 - 3);
  });

  it('keeps a label off the titles and off the labels placed before it', () => {
    const requests: LabelRequest[] = [
      // Important (they may lie over the boxes' bodies): three wide labels crowd a short link.
      { ...link('a', apiserver, etcd), width: 200, height: 16, important: true },
      { ...link('b', apiserver, etcd), width: 200, height: 16, important: true },
      { ...link('c', apiserver, etcd), width: 200, height: 16, important: true },
    ];
    const titles = [title(apiserver), title(etcd)];
    const placed = placeLabels(requests, titles, [apiserver, etcd]);
    const rects = [...placed.values()].flatMap((p) => (p ? [p.rect] : []));
    expect(rects.length).toBeGreaterThanOrEqual(2);
    for (const [i, r] of rects.entries()) {
      for (const t of titles) expect(intersects(r, t)).toBe(false);
      for (const s of rects.slice(i + 1)) expect(intersects(r, s)).toBe(false);
    }
  });

  it('keeps a link\'s previous spot while it is free', () => {
    const request = { ...link('a', apiserver, etcd), width: 60, height: 16 };
    const first = placeLabels([request], [], [apiserver, etcd]).get('a')!;
    const moved = placeLabels([request], [], [apiserver, etcd], new Map([['a', { rect: first.rect, spot: 3 }]])).get('a')!;
    expect(moved.spot).toBe(3);
  });

  it('never overlaps a title or another label, whatever the links and sizes (property)', () => {
    const point = fc.record({ x: fc.integer({ min: 0, max: 900 }), y: fc.integer({ min: 0, max: 600 }) });
    const rect = fc.record({ x: fc.integer({ min: 0, max: 900 }), y: fc.integer({ min: 0, max: 600 }), width: fc.integer({ min: 20, max: 200 }), height: fc.integer({ min: 10, max: 30 }) });
    fc.assert(fc.property(
      fc.array(fc.record({ a: point, b: point, width: fc.integer({ min: 10, max: 260 }) }), { maxLength: 14 }),
      fc.array(rect, { maxLength: 8 }),
      (links, titles) => {
        const placed = placeLabels(links.map((l, i) => ({ key: String(i), segment: [l.a, l.b] as const, width: l.width, height: 16 })), titles, []);
        const rects = [...placed.values()].flatMap((p) => (p ? [p.rect] : []));
        return rects.every((r, i) => titles.every((t) => !intersects(r, t)) && rects.slice(i + 1).every((s) => !intersects(r, s)));
      },
    ), { numRuns: 200 });
  });
  it('keeps a label inside the graph rather than past its edge, beside a link near the edge', () => {
    // A column of two boxes at the graph's left edge, a vertical link down its middle: left of it a label would pass x = 0.
    const upper: Rect = { x: 0, y: 0, width: 180, height: 70 };
    const lower: Rect = { x: 0, y: 160, width: 180, height: 70 };
    const wide: Rect = { x: 200, y: 0, width: 400, height: 230 };
    const request: LabelRequest = { key: 'a--b', segment: [{ x: 90, y: 70 }, { x: 90, y: 160 }], width: 150, height: 16 };
    const placed = placeLabels([request], [], [upper, lower, wide]).get('a--b')!;
    expect(placed.rect.x).toBeGreaterThanOrEqual(0);
    // Wider than the column, a label only important may hang past the edge or over the boxes.
    const wider = { ...request, width: 420 };
    expect(placeLabels([wider], [], [upper, lower, wide]).get('a--b')).toBeNull();
    expect(placeLabels([{ ...wider, important: true }], [], [upper, lower, wide]).get('a--b')).not.toBeNull();
  });

  it('puts only the selected or the step shown\'s label mostly over a component\'s body', () => {
    // A short link between two boxes inside a third, wide box: every spot for a long label lies over boxes.
    const left: Rect = { x: 0, y: 100, width: 200, height: 80 };
    const right: Rect = { x: 260, y: 100, width: 200, height: 80 };
    const around: Rect = { x: -200, y: 0, width: 860, height: 300 };
    const request: LabelRequest = { key: 'a--b', segment: [{ x: 200, y: 140 }, { x: 260, y: 140 }], width: 240, height: 16 };
    const coverOf = (rect: Rect) => [left, right, around].reduce((sum, box) => {
      const w = Math.min(rect.x + rect.width, box.x + box.width) - Math.max(rect.x, box.x);
      const h = Math.min(rect.y + rect.height, box.y + box.height) - Math.max(rect.y, box.y);
      return sum + (w > 0 && h > 0 ? w * h : 0);
    }, 0);
    expect(placeLabels([request], [], [left, right, around]).get('a--b')).toBeNull();
    const important = placeLabels([{ ...request, important: true }], [], [left, right, around]).get('a--b')!;
    expect(coverOf(important.rect)).toBeGreaterThan(0.25 * 240 * 16);
    // A longer link with nothing around it has a spot clear of its two boxes.
    const far: Rect = { ...right, x: 600 };
    const clear = placeLabels([{ ...request, segment: [{ x: 200, y: 140 }, { x: 600, y: 140 }] }], [], [left, far]).get('a--b')!;
    expect([left, far].some((box) => intersects(clear.rect, box))).toBe(false);
  });
});

describe('RectGrid', () => {
  const rect = fc.record({
    x: fc.integer({ min: -3000, max: 3000 }), y: fc.integer({ min: -3000, max: 3000 }),
    width: fc.integer({ min: 0, max: 900 }), height: fc.integer({ min: 0, max: 900 }),
  });
  it('finds every rect within the margin of a query, each once, as a scan of all of them would', () => {
    fc.assert(fc.property(fc.array(rect, { maxLength: 60 }), rect, fc.integer({ min: 0, max: 40 }), fc.integer({ min: 16, max: 512 }), (rects, query, margin, size) => {
      const near = new RectGrid(rects, size).near(query, margin);
      expect(new Set(near).size).toBe(near.length);
      for (const r of rects) if (intersects(query, r, margin)) expect(near).toContain(r);
    }));
  });
  it('finds a rect in the next cell that lies within the margin', () => {
    const beyond = { x: 256, y: 0, width: 10, height: 10 };
    expect(new RectGrid([beyond], 256).near({ x: 0, y: 0, width: 250, height: 10 }, 10)).toEqual([beyond]);
    expect(new RectGrid([beyond], 256).near({ x: 0, y: 0, width: 250, height: 10 }, 2)).toEqual([]);
  });
  it('leaves out rects far from the query', () => {
    const far = { x: 5000, y: 5000, width: 10, height: 10 };
    const close = { x: 10, y: 10, width: 10, height: 10 };
    expect(new RectGrid([far, close]).near({ x: 0, y: 0, width: 40, height: 40 })).toEqual([close]);
  });
});

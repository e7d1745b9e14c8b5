// Where the token labels go: at most one label per link, placed along or beside its link so that no label
// covers another or a component's title. Each link tries a few spots (beside the link at its middle, then
// further along it on either side, then on the line itself); a spot that meets a title or a label already
// placed is out, and among the rest the cheapest wins: the area of component boxes it covers plus three
// times its area outside the graph (which a fit may leave outside the pane), the link's
// previous spot first when it is still free (labels do not hop about while playing). Links are placed in
// priority order (the selected message's, the step shown's, then the newest), so a link that finds no
// free spot is one of the least important; its tokens stay dots and their count. Only the selected
// message's and the step shown's label may lie mostly over a component's body (what the box says is the
// page's too) or outside the graph: any other spot with more than a quarter of its area over boxes or
// outside the graph is out.

import type { Point, Rect } from './geometry.ts';

export interface LabelRequest {
  /** The link, e.g. `kube-apiserver--etcd` (one label per link, both directions). */
  readonly key: string;
  /** The link, border to border. */
  readonly segment: readonly [Point, Point];
  readonly width: number;
  readonly height: number;
  /** The selected message's or the step shown's label: it may cover component boxes when nothing clear of them is free. */
  readonly important?: boolean;
}

export interface LabelPlacement {
  readonly rect: Rect;
  /** Which spot of the link's list (kept to prefer it next time). */
  readonly spot: number;
}

/** Gap between a label and its link, and between two labels or a label and a title. */
const gap = 3;
const along = [0.5, 0.36, 0.64, 0.24, 0.76, 0.14, 0.86];
/** The share of a label's area that may lie over component boxes, unless it is important. */
const coverLimit = 0.25;

/** The spots a label of this size may take on `segment`, most wanted first. */
export function labelSpots({ segment: [a, b], width, height }: Pick<LabelRequest, 'segment' | 'width' | 'height'>): Rect[] {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length = Math.hypot(dx, dy) || 1;
  // The unit normal, pointing up (or left for a vertical link) first.
  let nx = -dy / length;
  let ny = dx / length;
  if (ny > 0 || (ny === 0 && nx > 0)) {
    nx = -nx;
    ny = -ny;
  }
  // How far the label's centre must be from the line for its nearest edge to clear it by `gap`.
  const clear = gap + Math.abs(nx) * (width / 2) + Math.abs(ny) * (height / 2);
  const spots: Rect[] = [];
  const at = (t: number, offset: number) => {
    const cx = a.x + dx * t + nx * offset;
    const cy = a.y + dy * t + ny * offset;
    spots.push({ x: cx - width / 2, y: cy - height / 2, width, height });
  };
  for (const t of along) {
    at(t, clear);
    at(t, -clear);
  }
  for (const t of along) at(t, 0);
  return spots;
}

export function intersects(r: Rect, s: Rect, margin = 0): boolean {
  return r.x < s.x + s.width + margin && s.x < r.x + r.width + margin && r.y < s.y + s.height + margin && s.y < r.y + r.height + margin;
}

/**
 * Rects bucketed in square cells of the graph, so that a spot meets only the boxes and titles near it: at
 * 5,000 nodes, every spot of every label against every box was most of a frame while playing.
 */
export class RectGrid {
  private readonly cells = new Map<number, Rect[]>();

  constructor(rects: readonly Rect[], private readonly size = 256) {
    for (const rect of rects) this.forCells(rect, 0, (key) => {
      const cell = this.cells.get(key);
      if (cell) cell.push(rect);
      else this.cells.set(key, [rect]);
    });
  }

  /** The rects that may lie within `margin` of `rect` (each once; a superset of those that do). */
  near(rect: Rect, margin = 0): Rect[] {
    const found = new Set<Rect>();
    this.forCells(rect, margin, (key) => {
      for (const r of this.cells.get(key) ?? []) found.add(r);
    });
    return [...found];
  }

  private forCells(rect: Rect, margin: number, visit: (key: number) => void): void {
    const x0 = Math.floor((rect.x - margin) / this.size);
    const x1 = Math.floor((rect.x + rect.width + margin) / this.size);
    const y0 = Math.floor((rect.y - margin) / this.size);
    const y1 = Math.floor((rect.y + rect.height + margin) / this.size);
    // Cells are keyed by column and row, each within ±2^20 cells.
    for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) visit((x + 0x100000) * 0x200000 + (y + 0x100000));
  }
}

function overlapArea(r: Rect, s: Rect): number {
  const w = Math.min(r.x + r.width, s.x + s.width) - Math.max(r.x, s.x);
  const h = Math.min(r.y + r.height, s.y + s.height) - Math.max(r.y, s.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * Places the labels of `requests` (in priority order): `titles` and the labels placed are never covered;
 * covering `boxes` costs its area (outside the graph, three times), and more than `coverLimit` of a label's own
 * over boxes or outside is allowed only an important one. `previous` holds each link's last spot (for the
 * same links), kept when it is still free and clear of every box. Links without a free spot get null.
 */
export function placeLabels(
  requests: readonly LabelRequest[],
  titles: readonly Rect[],
  boxes: readonly Rect[],
  previous: ReadonlyMap<string, LabelPlacement> = new Map(),
): Map<string, LabelPlacement | null> {
  const placed: Rect[] = [];
  const result = new Map<string, LabelPlacement | null>();
  // The graph's extent, the boxes' union: what lies outside it may lie outside the pane after a fit.
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const b of boxes) {
    left = Math.min(left, b.x);
    top = Math.min(top, b.y);
    right = Math.max(right, b.x + b.width);
    bottom = Math.max(bottom, b.y + b.height);
  }
  const graph: Rect = { x: left, y: top, width: right - left, height: bottom - top };
  const titleGrid = new RectGrid(titles);
  const boxGrid = new RectGrid(boxes);
  /** What lying at `rect` costs `request` beyond its spot's rank: boxes covered and area outside the graph; null: not allowed. */
  const cover = (rect: Rect, request: LabelRequest): number | null => {
    if (titleGrid.near(rect, gap).some((title) => intersects(rect, title, gap)) || placed.some((other) => intersects(rect, other, gap))) return null;
    let covered = 0;
    for (const box of boxGrid.near(rect)) covered += overlapArea(rect, box);
    const area = rect.width * rect.height;
    const outside = boxes.length > 0 ? area - overlapArea(rect, graph) : 0;
    if (!request.important && covered + outside > coverLimit * area) return null;
    return covered + 3 * outside;
  };
  for (const request of requests) {
    const prior = previous.get(request.key);
    // Its last spot, still free and clear of every box, is where it stays (no spot is cheaper but by rank).
    if (prior && prior.rect.width === request.width && prior.rect.height === request.height && cover(prior.rect, request) === 0) {
      result.set(request.key, prior);
      placed.push(prior.rect);
      continue;
    }
    let best: LabelPlacement | null = null;
    let bestCost = Number.POSITIVE_INFINITY;
    labelSpots(request).forEach((rect, spot) => {
      const covered = cover(rect, request);
      if (covered === null) return;
      const cost = spot * 40 + covered - (spot === prior?.spot ? 400 : 0);
      if (cost < bestCost) {
        bestCost = cost;
        best = { rect, spot };
      }
    });
    result.set(request.key, best);
    if (best) placed.push((best as LabelPlacement).rect);
  }
  return result;
}

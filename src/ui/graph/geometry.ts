// Plane geometry for floating edges: a link is drawn between the borders of its two component boxes,
// on the line joining their centres, and a token at flight progress p sits at that fraction of it.

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface Rect extends Point {
  readonly width: number;
  readonly height: number;
}

export function center(rect: Rect): Point {
  return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
}

/** Where the ray from the centre of `rect` towards `toward` leaves the rectangle. */
export function borderPoint(rect: Rect, toward: Point): Point {
  const c = center(rect);
  const dx = toward.x - c.x;
  const dy = toward.y - c.y;
  if (dx === 0 && dy === 0) return c;
  const scale = Math.min(
    dx === 0 ? Number.POSITIVE_INFINITY : rect.width / 2 / Math.abs(dx),
    dy === 0 ? Number.POSITIVE_INFINITY : rect.height / 2 / Math.abs(dy),
  );
  return { x: c.x + dx * scale, y: c.y + dy * scale };
}

/** The segment joining two boxes, border to border. */
export function linkSegment(a: Rect, b: Rect): [Point, Point] {
  return [borderPoint(a, center(b)), borderPoint(b, center(a))];
}

export function lerp(from: Point, to: Point, p: number): Point {
  return { x: from.x + (to.x - from.x) * p, y: from.y + (to.y - from.y) * p };
}

// A revision names one change: `main` is the store revision of the write transaction, `sub` the change's
// position within it. Models mvcc/revision.go.

export interface Revision {
  readonly main: number;
  readonly sub: number;
}

export const zeroRevision: Revision = Object.freeze({ main: 0, sub: 0 });

/** Subs per main revision in `revisionId`; no write transaction records this many changes. */
const subSpan = 0x100000;

export function revision(main: number, sub = 0): Revision {
  return { main, sub };
}

export function revisionGreaterThan(a: Revision, b: Revision): boolean {
  return a.main > b.main || (a.main === b.main && a.sub > b.sub);
}

export function compareRevisions(a: Revision, b: Revision): number {
  return a.main !== b.main ? a.main - b.main : a.sub - b.sub;
}

/** A number that orders like the revision, usable as a Set or Map key. */
export function revisionId(main: number, sub: number): number {
  if (sub >= subSpan) throw new RangeError(`revision ${main}.${sub}: sub-revision out of range`);
  return main * subSpan + sub;
}

/** The main revision of a revisionId. */
export function mainOf(id: number): number {
  return Math.floor(id / subSpan);
}

/** The revision a revisionId stands for. */
export function revisionOf(id: number): Revision {
  const main = Math.floor(id / subSpan);
  return { main, sub: id - main * subSpan };
}

export function formatRevision(r: Revision): string {
  return `${r.main}.${r.sub}`;
}

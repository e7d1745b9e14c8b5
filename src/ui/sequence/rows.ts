// The sequence view's data, apart from React: the rows it has received from the worker's `traceRange`
// answers (a cache by row number, one per level), which rows a window of the list still lacks, and the
// list's items: the rows at the view's level with, under each row the reader expanded, the internal steps
// folded into it (kube-apiserver's filter-chain stages, timers), one item each.

import type { StepLevel, TraceRangeEvent, TraceRecord } from '../../protocol/index.ts';

export interface SequenceRow {
  readonly record: TraceRecord;
  /** Internal steps folded into this row (they follow its step). */
  readonly folded: number;
}

/** Rows kept at most; beyond it, the rows farthest from the ones asked about last are forgotten. */
export const rowCacheLimit = 4_000;

/** The rows of one level received so far, for one epoch of the worker's trace. */
export class RowCache {
  epoch = -1;
  firstRow = 0;
  rows = 0;
  lastStep = 0;
  /** Steps before this one carry their payloads' summaries only (the trace's payload retention). */
  payloadsFrom = 1;
  private readonly byRow = new Map<number, SequenceRow>();

  constructor(readonly level: StepLevel) {}

  get size(): number {
    return this.byRow.size;
  }

  get(row: number): SequenceRow | undefined {
    return this.byRow.get(row);
  }

  /**
   * Takes an answer at this level in; true when what the list shows changed. A new epoch (new cluster,
   * fork, restore) drops everything held first.
   */
  apply(event: TraceRangeEvent, keep: ReadonlySet<number> = new Set()): boolean {
    if (event.level !== this.level) return false;
    let changed = false;
    if (event.epoch !== this.epoch) {
      this.byRow.clear();
      this.epoch = event.epoch;
      changed = true;
    }
    if (event.firstRow !== this.firstRow || event.rows !== this.rows || event.lastStep !== this.lastStep || event.payloadsFrom !== this.payloadsFrom) changed = true;
    // The last row held may have gained folded steps since it was received: it is asked for again.
    this.firstRow = event.firstRow;
    this.rows = event.rows;
    this.lastStep = event.lastStep;
    this.payloadsFrom = event.payloadsFrom;
    event.records.forEach((record, i) => {
      const row = event.fromRow + i;
      const held = this.byRow.get(row);
      const folded = event.folded[i] ?? 0;
      if (held?.record.id === record.id && held.folded === folded && held.record.level === record.level) return;
      this.byRow.set(row, { record, folded });
      changed = true;
    });
    for (const row of this.byRow.keys()) if (row < event.firstRow || row >= event.rows) this.byRow.delete(row);
    if (this.byRow.size > rowCacheLimit) this.evict(event.fromRow, keep);
    return changed;
  }

  /** Forgets the rows farthest from `near`, down to three quarters of the limit (`keep` stays). */
  private evict(near: number, keep: ReadonlySet<number>): void {
    const rows = [...this.byRow.keys()].filter((row) => !keep.has(row)).sort((a, b) => Math.abs(b - near) - Math.abs(a - near));
    for (const row of rows.slice(0, this.byRow.size - Math.floor(rowCacheLimit * 0.75))) this.byRow.delete(row);
  }

  /**
   * The first stretch of rows in `[from, to]` not held (or held but possibly stale: the newest row, whose
   * folded count still grows), as `[first, last]`; null when all are held.
   */
  missing(from: number, to: number): readonly [number, number] | null {
    // Rows past the last one known are missing too: the trace may have grown since the last answer.
    const lo = Math.max(from, this.firstRow);
    const hi = to;
    let first = -1;
    for (let row = lo; row <= hi; row++) {
      const held = this.byRow.has(row) && row !== this.rows - 1;
      if (!held && first < 0) first = row;
      if (held && first >= 0) return [first, row - 1];
    }
    return first >= 0 ? [first, hi] : null;
  }
}

// ── Items: rows and the expanded rows' folded steps ───────────────────────────────────────────────

/** A row the reader expanded, with how many folded steps it shows under it. */
export interface Expansion {
  readonly row: number;
  readonly step: number;
  readonly count: number;
}

export type SequenceItem =
  | { readonly type: 'row'; readonly row: number }
  /** A folded step shown under its row: at level internal it is row `step − 1`. */
  | { readonly type: 'folded'; readonly parent: number; readonly step: number };

/** Expansions in row order, those at or after `firstRow` only. */
export function sortedExpansions(expansions: Iterable<Expansion>, firstRow: number): Expansion[] {
  return [...expansions].filter((e) => e.row >= firstRow).sort((a, b) => a.row - b.row);
}

export function itemCount(firstRow: number, rows: number, expansions: readonly Expansion[]): number {
  return Math.max(0, rows - firstRow) + expansions.reduce((sum, e) => sum + (e.row < rows ? e.count : 0), 0);
}

/** The item at list index `index` (expansions sorted by row). */
export function itemAt(index: number, firstRow: number, expansions: readonly Expansion[]): SequenceItem {
  let extra = 0;
  for (const e of expansions) {
    const at = e.row - firstRow + extra;
    if (index <= at) break;
    if (index <= at + e.count) return { type: 'folded', parent: e.row, step: e.step + (index - at) };
    extra += e.count;
  }
  return { type: 'row', row: firstRow + index - extra };
}

/** The list index of `row`, or of step `step` folded into it when that step is shown expanded. */
export function indexOf(row: number, firstRow: number, expansions: readonly Expansion[], step?: number): number {
  let extra = 0;
  for (const e of expansions) {
    if (e.row > row) break;
    if (e.row === row) {
      const offset = step !== undefined ? step - e.step : 0;
      return row - firstRow + extra + (offset > 0 && offset <= e.count ? offset : 0);
    }
    extra += e.count;
  }
  return row - firstRow + extra;
}

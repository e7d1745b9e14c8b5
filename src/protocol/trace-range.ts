// A window of the trace, for the sequence diagram: the page holds only the newest deliveries, so views
// that scroll through the whole retained trace ask the worker for the part they show. The worker answers
// from the engine's trace (every delivery still retained), numbered in rows at the level asked:
//   internal  one row per step (row r is step r + 1);
//   request   one row per step at request level or above; the internal steps that follow a row (kube-
//             apiserver's filter-chain stages, timers) are folded into it and counted (`folded`), as the
//             story's request level hides them; asking at level internal from the row's step + 1 shows them;
//   milestone one row per milestone step, everything after it folded.
// Row numbers are stable while `epoch` is unchanged (a new cluster, fork or restore starts a new epoch);
// rows whose steps the trace no longer retains are below `firstRow`.

import type { StepLevel } from './story.ts';
import type { TraceRecord } from './trace.ts';

export interface TraceRangeCommand {
  readonly type: 'traceRange';
  /**
   * Echoed by the answer, so the asker can match answers to questions. Negative ids are the page store's
   * own questions for whole payloads of light records it holds (src/ui/store/payloads.ts): it folds those
   * answers into its records and keeps them from the views that ask with positive ids.
   */
  readonly id: number;
  /** The first step wanted: the answer starts at the row holding it (the row it is folded into). */
  readonly fromStep?: number;
  /** Or the first row wanted (takes precedence over `fromStep`). One of the two is needed. */
  readonly fromRow?: number;
  /** Rows wanted, 0 ≤ count ≤ `traceRangeLimit` (0: only the totals). */
  readonly count: number;
  /** Default `internal`: every step. */
  readonly level?: StepLevel;
  /**
   * `full` (default): the payloads as delivered. `slim`: cut to what a one-line label reads (nested
   * objects past a few levels emptied, long strings such as stored values shortened, long lists kept to
   * their first items and their length), for views that show many rows and open a message by seeking to it.
   */
  readonly payloads?: 'full' | 'slim';
}

export interface TraceRangeEvent {
  readonly type: 'traceRange';
  /** The command's id. */
  readonly id: number;
  readonly level: StepLevel;
  /** Changes whenever the trace is rebuilt (new cluster, fork, restore): rows of another epoch are void. */
  readonly epoch: number;
  /** The row of `records[0]` (when there are none, where it would have been). */
  readonly fromRow: number;
  /** The first row still retained (older rows' steps were dropped by the trace's retention). */
  readonly firstRow: number;
  /** Rows at this level so far: row numbers run from `firstRow` to `rows − 1`. */
  readonly rows: number;
  /** The newest step delivered (the head: at a past position the steps after it are still here). */
  readonly lastStep: number;
  /** The first step whose record holds its whole payload: retained steps before it carry its summary only. */
  readonly payloadsFrom: number;
  /** The rows' deliveries, oldest first, with their `level` (and `milestone`) when the worker classified them. */
  readonly records: readonly TraceRecord[];
  /** For each record, the steps after it folded into its row (0 at level internal). */
  readonly folded: readonly number[];
}

/** At most this many rows travel in one answer. */
export const traceRangeLimit = 500;

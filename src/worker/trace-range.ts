// Answers `traceRange` (src/protocol/trace-range.ts): windows of the engine's retained trace, in rows at a
// story level. Rows at level internal are steps; at the coarser levels an index of the rows' steps is
// built lazily, on the first question and then from where it stopped, so a cluster nobody looks at in
// the sequence view pays nothing. The index follows one engine: a new engine (reset, fork, restore) is a
// new epoch.

import type { Milestone, StepLevel, TraceRangeCommand, TraceRangeEvent, TraceRecord } from '../protocol/index.ts';
import { stepLevelRank, traceRangeLimit } from '../protocol/index.ts';
import type { Engine, Message } from '../sim/engine/index.ts';
import { slimPayload } from '../sim/engine/trace-summary.ts';
import { partitionPoint } from './sorted.ts';

/** What the story classifier recorded of a step (story/record.ts's StoryRecord): its level and milestone. */
export interface StoryLookup {
  levelAt(step: number): StepLevel | null;
  milestoneAt(step: number): Milestone | undefined;
}

/**
 * The level of a delivery when no classifier says: a message a component sends itself (kube-apiserver's
 * filter-chain stages, timers and wake-ups) and watch bookmarks are internal, every other message between
 * components is a request. Milestones need the classifier.
 */
export function fallbackLevel(message: Pick<Message, 'from' | 'to' | 'kind' | 'payload'>): StepLevel {
  if (message.from === message.to || message.kind === 'timer') return 'internal';
  if (message.kind === 'http.watchEvent' && (message.payload as { type?: unknown } | null)?.type === 'BOOKMARK') return 'internal';
  return 'request';
}

/** The steps of one coarse level's rows, in order; row i is rowSteps[i]. */
interface LevelIndex {
  readonly steps: number[];
  /** Steps up to this one are indexed. */
  through: number;
}

export class TraceRangeIndex {
  private engine: Engine | null = null;
  private epoch = 0;
  private levels = new Map<StepLevel, LevelIndex>();
  private story: StoryLookup | null = null;
  private slim = false;

  /** Answers from `engine`'s trace, with the levels and milestones `story` recorded for it (when given). */
  answer(engine: Engine, command: TraceRangeCommand, story: StoryLookup | null = null): TraceRangeEvent {
    this.story = story;
    if (engine !== this.engine) {
      this.engine = engine;
      this.epoch++;
      this.levels.clear();
    }
    const level = command.level ?? 'internal';
    if (!(level in stepLevelRank)) throw new RangeError(`unknown level ${String(level)}`);
    const count = command.count;
    if (!(Number.isInteger(count) && count >= 0 && count <= traceRangeLimit)) throw new RangeError(`traceRange count must be an integer from 0 to ${traceRangeLimit}, got ${count}`);
    const { trace } = engine;
    const lastStep = trace.lastStep;
    this.slim = command.payloads === 'slim';
    const base = { type: 'traceRange', id: command.id, level, epoch: this.epoch, lastStep, payloadsFrom: trace.payloadsFrom } as const;

    if (level === 'internal') {
      const firstRow = trace.firstStep - 1;
      const rows = lastStep;
      const fromRow = clampRow(command.fromRow ?? (command.fromStep ?? 1) - 1, firstRow, rows);
      const records: TraceRecord[] = [];
      for (let row = fromRow; row < Math.min(rows, fromRow + count); row++) records.push(this.record(engine, row + 1));
      return { ...base, fromRow, firstRow, rows, records, folded: records.map(() => 0) };
    }

    const index = this.index(engine, level);
    const { steps } = index;
    const firstRow = Math.min(steps.length, lowerBound(steps, trace.firstStep));
    const rows = steps.length;
    const fromRow = clampRow(command.fromRow ?? rowOfStep(steps, command.fromStep ?? 1), firstRow, rows);
    const records: TraceRecord[] = [];
    const folded: number[] = [];
    for (let row = fromRow; row < Math.min(rows, fromRow + count); row++) {
      const step = steps[row]!;
      records.push(this.record(engine, step));
      folded.push((steps[row + 1] ?? lastStep + 1) - step - 1);
    }
    return { ...base, fromRow, firstRow, rows, records, folded };
  }

  private levelOf(step: number, message: Message): StepLevel {
    return this.story?.levelAt(step) ?? fallbackLevel(message);
  }

  private record(engine: Engine, step: number): TraceRecord {
    const message = engine.trace.at(step);
    if (!message) throw new Error(`step ${step} is not retained`);
    const milestone = this.story?.milestoneAt(step);
    const level = this.levelOf(step, message);
    if (this.slim) return { step, ...message, payload: slimPayload(message.payload), level, ...(milestone ? { milestone } : {}) };
    // Full payloads of summarized steps are rebuilt from history where the trace kept a light record.
    const { payload, kept } = engine.trace.payloadAt(step)!;
    return { step, ...message, payload, level, ...(milestone ? { milestone } : {}), ...(kept === 'whole' ? {} : { payloadKept: kept }) };
  }

  /** The rows at `level` (request or milestone), indexed up to the newest step. */
  private index(engine: Engine, level: StepLevel): LevelIndex {
    let index = this.levels.get(level);
    const { trace } = engine;
    if (!index) {
      index = { steps: [], through: trace.firstStep - 1 };
      this.levels.set(level, index);
    }
    // Steps dropped before they were indexed are skipped: the rows start where the trace still is.
    const start = Math.max(index.through + 1, trace.firstStep);
    const rank = stepLevelRank[level];
    for (let step = start; step <= trace.lastStep; step++) {
      const message = trace.at(step)!;
      // The first step indexed is always a row, so internal steps before any coarser one have a home.
      if (index.steps.length === 0 || stepLevelRank[this.levelOf(step, message)] >= rank) index.steps.push(step);
    }
    index.through = trace.lastStep;
    return index;
  }
}

function clampRow(row: number, first: number, rows: number): number {
  if (!Number.isFinite(row)) throw new RangeError(`traceRange needs fromStep or fromRow, got ${row}`);
  return Math.max(first, Math.min(Math.floor(row), Math.max(first, rows - 1)));
}

/** The first index whose step is ≥ `step`. */
function lowerBound(steps: readonly number[], step: number): number {
  return partitionPoint(steps.length, (i) => steps[i]! < step);
}

/** The row holding `step`: the last row whose step is ≤ it (the first row for steps before every row). */
export function rowOfStep(steps: readonly number[], step: number): number {
  const i = lowerBound(steps, step);
  return steps[i] === step ? i : Math.max(0, i - 1);
}

// What the worker keeps of the story of one timeline: every step's level (one byte a step, in a growing
// Uint8Array: index = step) and the milestones in step order (the newest `milestoneKeep`; the UI gets the
// newest `milestoneLimit`). It answers "the next / previous step at level L or above" for stepLevel,
// annotates the TraceRecords the worker posts with their level and milestone, and hands the host the
// milestones not yet posted. A StoryTap attaches a classifier to a cluster's engine and records into it.

import type { Milestone, StepLevel, TraceRecord } from '../../protocol/index.ts';
import { milestoneLimit, stepLevelRank, stepLevels } from '../../protocol/index.ts';
import type { Engine, Message } from '../../sim/engine/index.ts';
import type { KeyspaceSource } from '../keyspace.ts';
import { StoryClassifier, type Classified } from './classifier.ts';

/** Milestones kept for annotating past steps (older ones keep only their level). */
export const milestoneKeep = 4 * milestoneLimit;

/** Stored rank + 1, so that 0 means "not recorded". */
const unknown = 0;

export class StoryRecord {
  private levels = new Uint8Array(1024);
  private headStep = 0;
  private list: Milestone[] = [];
  /** How many milestones of `list` were handed out by `takeNew` (reset by `takeAll`). */
  private posted = 0;

  /** The newest recorded step. */
  get head(): number {
    return this.headStep;
  }

  /** Records the classification of `step` (steps come in order; a gap is left unknown). */
  record(step: number, classified: Classified): void {
    if (step >= this.levels.length) {
      let size = this.levels.length * 2;
      while (size <= step) size *= 2;
      const grown = new Uint8Array(size);
      grown.set(this.levels.subarray(0, this.headStep + 1));
      this.levels = grown;
    }
    this.levels[step] = stepLevelRank[classified.level] + 1;
    if (step > this.headStep) this.headStep = step;
    if (classified.milestone) {
      this.list.push(classified.milestone);
      if (this.list.length > milestoneKeep + milestoneLimit) {
        const drop = this.list.length - milestoneKeep;
        this.list = this.list.slice(drop);
        this.posted = Math.max(0, this.posted - drop);
      }
    }
  }

  /** The level of `step`, null when it was not recorded. */
  levelAt(step: number): StepLevel | null {
    if (step < 1 || step > this.headStep) return null;
    const stored = this.levels[step]!;
    return stored === unknown ? null : stepLevels[stored - 1]!;
  }

  /** The rank of `step` (-1 when not recorded). */
  rankAt(step: number): number {
    if (step < 1 || step > this.headStep) return -1;
    return this.levels[step]! - 1;
  }

  /** The milestone delivered at `step`, if it is one (and still kept). */
  milestoneAt(step: number): Milestone | undefined {
    const list = this.list;
    let lo = 0;
    let hi = list.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = list[mid]!.step;
      if (s === step) return list[mid];
      if (s < step) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** The first recorded step after `from` (up to `last`) whose level is `level` or coarser; null if none. */
  next(from: number, level: StepLevel, last = this.headStep): number | null {
    const min = stepLevelRank[level] + 1;
    const levels = this.levels;
    const end = Math.min(last, this.headStep);
    for (let step = Math.max(1, from + 1); step <= end; step++) if (levels[step]! >= min) return step;
    return null;
  }

  /** The last step before `from` whose level is `level` or coarser; null if none. */
  previous(from: number, level: StepLevel): number | null {
    const min = stepLevelRank[level] + 1;
    const levels = this.levels;
    for (let step = Math.min(from - 1, this.headStep); step >= 1; step--) if (levels[step]! >= min) return step;
    return null;
  }

  /** A delivery as the UI receives it: with its step, level and milestone. */
  annotate(step: number, message: Message): TraceRecord {
    const level = this.levelAt(step);
    if (level === null) return { step, ...message };
    if (level !== 'milestone') return { step, ...message, level };
    const milestone = this.milestoneAt(step);
    return milestone ? { step, ...message, level, milestone } : { step, ...message, level };
  }

  /** Milestones recorded since the last call (in step order). */
  takeNew(): Milestone[] {
    const fresh = this.list.slice(this.posted);
    this.posted = this.list.length;
    return fresh;
  }

  /** The newest `milestoneLimit` milestones (for a `story` event with `replace`); all count as posted. */
  takeAll(): Milestone[] {
    this.posted = this.list.length;
    return this.list.slice(-milestoneLimit);
  }

  /** Every milestone kept, in step order. */
  get milestones(): readonly Milestone[] {
    return this.list;
  }
}

/** A classifier on a cluster's engine, recording every delivery into a StoryRecord. */
export class StoryTap {
  readonly record = new StoryRecord();
  readonly classifier: StoryClassifier;
  private readonly detach: () => void;

  constructor(cluster: { readonly engine: Engine; readonly etcd?: KeyspaceSource }) {
    const { engine } = cluster;
    this.classifier = new StoryClassifier(cluster.etcd ?? null);
    this.detach = engine.onDelivery((message) => {
      const step = engine.step;
      this.record.record(step, this.classifier.classify(step, message));
    });
  }

  /** Runs `boot` with milestones off: the story starts when the user can act. */
  quietly<T>(boot: () => T): T {
    this.classifier.quiet = true;
    try {
      return boot();
    } finally {
      this.classifier.quiet = false;
    }
  }

  stop(): void {
    this.detach();
  }
}

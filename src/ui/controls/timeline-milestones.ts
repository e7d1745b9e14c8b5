// Where the timeline's milestone markers sit and which carry their label. Milestones can number in the
// thousands and grow at the head while playing, so places come from a bucketing of steps that stays put as
// the head grows: buckets of `span` steps, a power of two at least `minGap` pixels wide at the head now,
// so the span (and every place) changes only when the head doubles. A bucket with a milestone in either
// neighbour is drawn at its middle, an isolated one at its first milestone's step: places stay at least
// `span` steps (`minGap` pixels) apart. A crowded place stands for its milestones (the current one, else a
// failure, else the latest, wins). The current milestone's label is always drawn; another where it fits
// before the next marker with the head at the end of the span's range (so it keeps fitting as the head
// grows), inside the track and clear of the current label (a marker without one keeps the full text as
// its title).

import { failureMilestones, type Milestone, type MilestoneKind } from '../../protocol/index.ts';

/** What the layout needs of a milestone. */
export interface Placed {
  readonly step: number;
  readonly kind: MilestoneKind;
}

export interface MilestoneMark<M extends Placed = Milestone> {
  /** Stable while the head grows within one span: the span and the bucket. */
  readonly key: string;
  readonly milestone: M;
  /** The step its place is drawn at (a bucket's middle, or its first milestone's step when isolated). */
  readonly at: number;
  /** Pixels from the track's left edge. */
  readonly x: number;
  readonly failure: boolean;
  /** Whether its short text is drawn beside it. */
  readonly labelled: boolean;
  /** Which side of the marker the label runs to. */
  readonly anchor: 'left' | 'right';
  /** How many milestones this marker stands for (1 unless crowded). */
  readonly count: number;
}

/** Pixels between two markers below which they are drawn as one. */
export const minGap = 9;
/** Pixels kept free after a label. */
export const labelGap = 10;

/** A label's width in pixels at the timeline's 11 px font: CJK characters are square, others about 0.58 em. */
export function labelWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += /[\u2e80-\u9fff\uff00-\uffef]/.test(ch) ? 11 : 6.4;
  return Math.ceil(width) + 6;
}

/** Steps per bucket: the smallest power of two at least `minGap` pixels wide on a track of `width` pixels for `head` steps. */
export function bucketSpan(head: number, width: number): number {
  let span = 1;
  while ((span * width) / Math.max(head, 1) < minGap) span *= 2;
  return span;
}

interface Bucket<M> {
  readonly index: number;
  readonly first: number;
  milestone: M;
  count: number;
}

/** The milestones by bucket of `span` steps, each with the milestone drawn for it. */
function bucketsOf<M extends Placed>(milestones: readonly M[], span: number, currentStep: number | null): Bucket<M>[] {
  const buckets: Bucket<M>[] = [];
  for (const milestone of milestones) {
    const index = Math.floor(milestone.step / span);
    const last = buckets.at(-1);
    if (last?.index !== index) {
      buckets.push({ index, first: milestone.step, milestone, count: 1 });
      continue;
    }
    last.count += 1;
    if (wins(milestone, last.milestone, currentStep)) last.milestone = milestone;
  }
  return buckets;
}

/** Whether `later` is drawn for a place rather than `held`: the current milestone wins, then a failure, then the later one. */
function wins<M extends Placed>(later: M, held: M, currentStep: number | null): boolean {
  if (held.step === currentStep && later.step !== currentStep) return false;
  return later.step === currentStep || failureMilestones.has(later.kind) || !failureMilestones.has(held.kind);
}

/**
 * The markers to draw, with their labels. The milestone at `currentStep` (the one the step shown belongs
 * to) is always labelled, drawn left of its marker when it would run off the track; any other label is
 * drawn only where it fits before the next marker (with the head at the end of the span's range), inside
 * the track and clear of the current one.
 */
export function layoutMilestoneMarks<M extends Placed>(
  milestones: readonly M[],
  head: number,
  trackWidth: number,
  shortText: (milestone: M) => string,
  currentStep: number | null = null,
): MilestoneMark<M>[] {
  const width = Math.max(1, trackWidth);
  const steps = Math.max(head, 1);
  const span = bucketSpan(head, width);
  const buckets = bucketsOf(milestones, span, currentStep);
  const ats = buckets.map(({ index, first }, i) => {
    const isolated = buckets[i - 1]?.index !== index - 1 && buckets[i + 1]?.index !== index + 1;
    return isolated ? first : index * span + span / 2;
  });
  // The newest bucket's middle may lie past the head: until the head reaches it, it joins the one before.
  const newest = buckets.at(-1);
  if (newest && ats.at(-1)! > steps && buckets.length > 1) {
    const before = buckets.at(-2)!;
    before.count += newest.count;
    if (wins(newest.milestone, before.milestone, currentStep)) before.milestone = newest.milestone;
    buckets.pop();
    ats.pop();
  }
  const xs = ats.map((at) => (at / steps) * width);
  // Where the places lie with the head at the end of this span's range (the most crowded they get).
  const tightest = ats.map((at) => (at * minGap) / span);
  const labels = new Map<number, 'left' | 'right'>();
  let currentLabel: readonly [number, number] | null = null;
  const current = buckets.findIndex((b) => b.milestone.step === currentStep);
  if (current >= 0) {
    const x = xs[current]!;
    const w = labelWidth(shortText(buckets[current]!.milestone));
    // The side it fits on with fewer other markers under it (right on a tie).
    const under = (a: number, b: number) => xs.filter((other, i) => i !== current && other >= a && other <= b).length;
    const fitsRight = x + w <= width;
    const fitsLeft = x - w >= 0;
    const anchor = fitsRight && (!fitsLeft || under(x, x + w) <= under(x - w, x)) ? 'right' : 'left';
    labels.set(current, anchor);
    currentLabel = anchor === 'right' ? [x - minGap, x + w + labelGap] : [x - w - labelGap, x + minGap];
  }
  buckets.forEach((bucket, index) => {
    if (index === current) return;
    const w = labelWidth(shortText(bucket.milestone));
    const next = tightest[index + 1] ?? Number.POSITIVE_INFINITY;
    if (tightest[index]! + w + minGap / 2 > next) return;
    const x = xs[index]!;
    if (x + w > width + labelGap) return;
    if (currentLabel && x < currentLabel[1] && x + w + labelGap > currentLabel[0]) return;
    labels.set(index, 'right');
  });
  return buckets.map(({ index, milestone, count }, i) => ({
    key: `${span}:${index}`,
    milestone,
    at: ats[i]!,
    x: xs[i]!,
    failure: failureMilestones.has(milestone.kind),
    labelled: labels.has(i),
    anchor: labels.get(i) ?? 'right',
    count,
  }));
}

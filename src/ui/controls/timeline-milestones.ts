// Where the timeline's milestone markers sit and which carry their label. Milestones can number in the
// thousands: markers closer than `minGap` pixels share one place (the current one, else a failure, else
// the later one, wins). The current milestone's label is always drawn; another only where it fits before
// the next marker and clear of the labels placed (a marker without one keeps the full text as its title).

import { failureMilestones, type Milestone, type MilestoneKind } from '../../protocol/index.ts';

/** What the layout needs of a milestone. */
export interface Placed {
  readonly step: number;
  readonly kind: MilestoneKind;
}
import { markerPercent } from './timeline-markers.ts';

export interface MilestoneMark<M extends Placed = Milestone> {
  readonly milestone: M;
  /** The step its place is drawn at: its first milestone's (a crowded place stands for several). */
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

/**
 * The markers to draw, with their labels. The milestone at `currentStep` (the one the step shown belongs
 * to) is always labelled, drawn left of its marker when it would run off the track; any other label is
 * drawn only where it fits before the next marker and clear of every label already placed.
 */
export function layoutMilestoneMarks<M extends Placed>(
  milestones: readonly M[],
  head: number,
  trackWidth: number,
  shortText: (milestone: M) => string,
  currentStep: number | null = null,
): MilestoneMark<M>[] {
  const width = Math.max(1, trackWidth);
  // A marker closer than `minGap` pixels to the one before it joins that one's place.
  const places: Array<{ milestone: M; count: number; x: number; at: number }> = [];
  for (const milestone of milestones) {
    const x = (markerPercent(milestone.step, head) / 100) * width;
    const last = places.at(-1);
    if (last && x - last.x < minGap) {
      last.count += 1;
      // The current milestone wins its place, then a failure, then the later one.
      const keep = last.milestone.step === currentStep && milestone.step !== currentStep;
      const take = milestone.step === currentStep || failureMilestones.has(milestone.kind) || !failureMilestones.has(last.milestone.kind);
      if (!keep && take) last.milestone = milestone;
    } else {
      places.push({ milestone, count: 1, x, at: milestone.step });
    }
  }
  // A shared place is drawn where its first milestone lies, so places stay `minGap` apart.
  const xs = places.map((place) => place.x);
  const taken: Array<readonly [number, number]> = [];
  const labels = new Map<number, 'left' | 'right'>();
  const current = places.findIndex((p) => p.milestone.step === currentStep);
  if (current >= 0) {
    const x = xs[current]!;
    const w = labelWidth(shortText(places[current]!.milestone));
    // The side it fits on with fewer other markers under it (right on a tie).
    const under = (a: number, b: number) => xs.filter((other, i) => i !== current && other >= a && other <= b).length;
    const fitsRight = x + w <= width;
    const fitsLeft = x - w >= 0;
    const anchor = fitsRight && (!fitsLeft || under(x, x + w) <= under(x - w, x)) ? 'right' : 'left';
    labels.set(current, anchor);
    taken.push(anchor === 'right' ? [x - minGap, x + w + labelGap] : [x - w - labelGap, x + minGap]);
  }
  places.forEach((place, index) => {
    if (index === current) return;
    const x = xs[index]!;
    const end = x + labelWidth(shortText(place.milestone));
    const next = xs[index + 1] ?? width + labelGap;
    if (end + minGap / 2 > next || end > width + labelGap) return;
    if (taken.some(([a, b]) => x < b && end + labelGap > a)) return;
    labels.set(index, 'right');
    taken.push([x - minGap, end + labelGap]);
  });
  return places.map(({ milestone, count, at }, index) => ({
    milestone,
    at,
    x: xs[index]!,
    failure: failureMilestones.has(milestone.kind),
    labelled: labels.has(index),
    anchor: labels.get(index) ?? 'right',
    count,
  }));
}

// Where the timeline's milestone markers sit and which carry their label. Milestones can number in the
// thousands: markers closer than `minGap` pixels share one place (the failure, else the later one, wins);
// labels are placed left to right and a label that would overlap the one before it is left off (its
// marker stays, with the full text as its hover title).

import { failureMilestones, type Milestone, type MilestoneKind } from '../../protocol/index.ts';

/** What the layout needs of a milestone. */
export interface Placed {
  readonly step: number;
  readonly kind: MilestoneKind;
}
import { markerPercent } from './timeline-markers.ts';

export interface MilestoneMark<M extends Placed = Milestone> {
  readonly milestone: M;
  /** Place on the track, 0–100 %. */
  readonly percent: number;
  /** Pixels from the track's left edge. */
  readonly x: number;
  readonly failure: boolean;
  /** Whether its short text is drawn beside it. */
  readonly labelled: boolean;
  /** How many milestones this marker stands for (1 unless crowded). */
  readonly count: number;
}

/** Pixels between two markers below which they are drawn as one. */
export const minGap = 6;
/** Pixels kept free after a label. */
export const labelGap = 10;

/** A label's width in pixels at the timeline's 11 px font: CJK characters are square, others about 0.58 em. */
export function labelWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += /[\u2e80-\u9fff\uff00-\uffef]/.test(ch) ? 11 : 6.4;
  return Math.ceil(width) + 6;
}

export function layoutMilestoneMarks<M extends Placed>(
  milestones: readonly M[],
  head: number,
  trackWidth: number,
  shortText: (milestone: M) => string,
): MilestoneMark<M>[] {
  const width = Math.max(1, trackWidth);
  // One marker per `minGap` pixels.
  const places: Array<{ milestone: M; count: number; bucket: number }> = [];
  for (const milestone of milestones) {
    const bucket = Math.floor((markerPercent(milestone.step, head) / 100) * width / minGap);
    const last = places.at(-1);
    if (last && last.bucket === bucket) {
      last.count += 1;
      if (failureMilestones.has(milestone.kind) || !failureMilestones.has(last.milestone.kind)) last.milestone = milestone;
    } else {
      places.push({ milestone, count: 1, bucket });
    }
  }
  let free = -Infinity;
  return places.map(({ milestone, count }) => {
    const percent = markerPercent(milestone.step, head);
    const x = (percent / 100) * width;
    const w = labelWidth(shortText(milestone));
    const labelled = x >= free && x + w <= width + labelGap;
    if (labelled) free = x + w + labelGap;
    else free = Math.max(free, x + minGap);
    return { milestone, percent, x, failure: failureMilestones.has(milestone.kind), labelled, count };
  });
}

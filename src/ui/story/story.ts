// Pure helpers for the story on the page: which milestone a step belongs to (the newest at or before it),
// and the milestones around a position.

import type { Milestone } from '../../protocol/index.ts';

/** Index of the newest milestone whose step is ≤ `step` in `milestones` (in step order), or -1. */
export function milestoneIndexAt(milestones: readonly Pick<Milestone, 'step'>[], step: number): number {
  let lo = 0;
  let hi = milestones.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (milestones[mid]!.step <= step) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

/** The milestone the step belongs to: the newest at or before it (several on one step: the last). */
export function milestoneAt<M extends Pick<Milestone, 'step'>>(milestones: readonly M[], step: number): M | undefined {
  const index = milestoneIndexAt(milestones, step);
  return index < 0 ? undefined : milestones[index];
}

/** True when some milestone lies strictly before `step` (so "Previous milestone" has somewhere to go). */
export function hasMilestoneBefore(milestones: readonly Pick<Milestone, 'step'>[], step: number): boolean {
  return milestones.length > 0 && milestones[0]!.step < step;
}

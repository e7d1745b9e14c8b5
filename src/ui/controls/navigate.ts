// What Step, Step back and the milestone buttons (and their keys) send, at the level of detail the user
// picked: at "All" the plain one-delivery `step` and `stepBack` (as Step always did); at "Requests" and
// "Story" the worker's `stepLevel`, which finds the next or previous step at that level (story.ts).

import type { StepLevel } from '../../protocol/index.ts';
import type { SimActions } from '../store/sim-store.ts';

export type Direction = 'forward' | 'back';

export function stepAtLevel(actions: Pick<SimActions, 'step' | 'stepBack' | 'stepLevel'>, level: StepLevel, direction: Direction): void {
  if (level === 'internal') {
    if (direction === 'forward') actions.step();
    else actions.stepBack();
  } else {
    actions.stepLevel(level, direction);
  }
}

export function stepMilestone(actions: Pick<SimActions, 'stepLevel'>, direction: Direction): void {
  actions.stepLevel('milestone', direction);
}

// Where the learner is in a guided tour: which tour, whether it is still being prepared (the cluster reset
// and the tour's commands run), which stop is shown, and whether they left it to explore. The stops
// themselves (where each is in the trace) are the worker's answer, in the simulation store (`tourStops`).
// A vanilla store: the graph's component boxes read the highlight with one hook.

import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';

export type TourPhase =
  /** Resetting the cluster and running the tour's commands. */
  | 'preparing'
  /** The stops are known; `stop` is shown (unless the learner is away). */
  | 'touring'
  /** Preparing failed (the message says why). */
  | 'failed';

export interface TourState {
  /** The tour under way; null when none is. */
  readonly tourId: string | null;
  readonly phase: TourPhase;
  /** The stop shown (index in the tour's stops). */
  readonly stop: number;
  /** The learner left the tour to explore; "Back to the tour" returns to `stop`. */
  readonly away: boolean;
  /** What went wrong while preparing. */
  readonly error: string | null;
  /** Components of the shown stop, lit on the graph (empty when away or between stops). */
  readonly highlight: readonly string[];
}

export const idleTour: TourState = { tourId: null, phase: 'preparing', stop: 0, away: false, error: null, highlight: [] };

export type TourStore = StoreApi<TourState>;

export function createTourStore(): TourStore {
  return createStore<TourState>()(() => idleTour);
}

/** The page's one tour store. */
export const tourStore = createTourStore();

export function useTour<T>(selector: (state: TourState) => T): T {
  return useStore(tourStore, selector);
}

/** True when component `name` belongs to the tour stop shown. */
export function useTourHighlight(name: string): boolean {
  return useStore(tourStore, (state) => state.highlight.includes(name));
}

// Answers `tourLocate`: finds a tour's stops (src/protocol/tours.ts) in the deliveries the engine recorded.

import type { TourStopsEvent, TraceRecord } from '../protocol/index.ts';
import { locateStops, tourById, tourTrace } from '../protocol/index.ts';
import type { Trace } from '../sim/engine/index.ts';

/** The retained deliveries as trace records, numbered by step. */
export function traceRecords(trace: Pick<Trace, 'all' | 'firstStep'>): TraceRecord[] {
  const first = trace.firstStep;
  return trace.all().map((message, i) => ({ step: first + i, ...message }));
}

export function locateTour(id: string, trace: Pick<Trace, 'all' | 'firstStep'>): TourStopsEvent {
  const tour = tourById(id);
  if (!tour) throw new Error(`there is no tour "${id}"`);
  return { type: 'tourStops', tour: id, stops: locateStops(tour, tourTrace(traceRecords(trace))) };
}

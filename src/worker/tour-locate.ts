// Answers `tourLocate`: finds a tour's stops (src/protocol/tours.ts) in the deliveries the engine recorded.

import type { TourStopsEvent, TraceRecord } from '../protocol/index.ts';
import { locateStops, tourById, tourTrace } from '../protocol/index.ts';
import type { Message, Trace } from '../sim/engine/index.ts';

/** Makes a delivery a trace record with its story level and milestone (the host's story record). */
export type Annotate = (step: number, message: Message) => TraceRecord;

const plain: Annotate = (step, message) => ({ step, ...message });

/** The retained deliveries as trace records, numbered by step. */
export function traceRecords(trace: Pick<Trace, 'all' | 'firstStep'>, annotate: Annotate = plain): TraceRecord[] {
  const first = trace.firstStep;
  return trace.all().map((message, i) => annotate(first + i, message));
}

export function locateTour(id: string, trace: Pick<Trace, 'all' | 'firstStep'>, annotate?: Annotate): TourStopsEvent {
  const tour = tourById(id);
  if (!tour) throw new Error(`there is no tour "${id}"`);
  return { type: 'tourStops', tour: id, stops: locateStops(tour, tourTrace(traceRecords(trace, annotate))) };
}

// Where a message is at virtual time t. A message is in flight from `sentAt` to `deliverAt`; at exactly
// `deliverAt` it has arrived (and stays drawn at its end while the playhead rests there); after that it
// is gone. Progress is (t − sentAt) / (deliverAt − sentAt), clamped to [0, 1].

import type { TraceRecord, VirtualTime } from '../../protocol/index.ts';

export type FlightPhase = 'unsent' | 'in-flight' | 'arrived' | 'gone';

type Flight = Pick<TraceRecord, 'sentAt' | 'deliverAt'>;

export function flightPhase(message: Flight, t: VirtualTime): FlightPhase {
  if (t < message.sentAt) return 'unsent';
  if (t < message.deliverAt) return 'in-flight';
  return t === message.deliverAt ? 'arrived' : 'gone';
}

export function flightProgress(message: Flight, t: VirtualTime): number {
  const duration = message.deliverAt - message.sentAt;
  if (duration <= 0) return t >= message.deliverAt ? 1 : 0;
  return Math.min(1, Math.max(0, (t - message.sentAt) / duration));
}

/** Phases in which the token is drawn. */
export function isDrawn(phase: FlightPhase): boolean {
  return phase === 'in-flight' || phase === 'arrived';
}

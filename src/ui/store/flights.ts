// The messages the graph draws as tokens: the worker's `flights` diffs applied to the list it mirrors
// (messages over links near the playhead, delivered or still in flight at the step shown), in id (send)
// order. Flights a diff does not touch keep their identity, so their tokens do not re-render; a flight
// shipped again (with the payload it lacked while playing) replaces the one held.

import type { Flight, FlightsEvent } from '../../protocol/index.ts';

export function applyFlights(tokens: readonly Flight[], event: FlightsEvent): readonly Flight[] {
  if (!event.replace && event.added.length === 0 && event.removed.length === 0 && event.stepped.length === 0) return tokens;
  const removed = new Set(event.removed);
  const stepped = new Map(event.stepped);
  const kept: Flight[] = [];
  if (!event.replace) {
    for (const flight of tokens) {
      if (removed.has(flight.id)) continue;
      const step = stepped.get(flight.id);
      kept.push(step === undefined || step === flight.step ? flight : { ...flight, step });
    }
  }
  if (event.added.length === 0) return kept;
  const again = new Set(event.added.map((f) => f.id));
  const result = kept.filter((t) => !again.has(t.id));
  result.push(...event.added);
  return result.sort((a, b) => a.id - b.id);
}

// Where timeline markers sit on the scrubber, and which are drawn: markers closer than one pixel's worth
// of steps would overlap, so for each kind only the newest of a bucket is drawn (at most `maxDrawn`).

import type { TimelineMarker } from '../../protocol/index.ts';

export const maxDrawn = 200;

/** The marker's horizontal place on the track, 0–100 %. */
export function markerPercent(step: number, head: number): number {
  return head <= 0 ? 0 : Math.min(100, Math.max(0, (step / head) * 100));
}

/** The markers to draw: one per kind per 1/maxDrawn of the track, the later one winning. */
export function visibleMarkers(markers: readonly TimelineMarker[], head = Math.max(0, ...markers.map((m) => m.step))): TimelineMarker[] {
  const buckets = new Map<string, TimelineMarker>();
  for (const marker of markers) {
    const bucket = Math.floor((markerPercent(marker.step, head) / 100) * (maxDrawn - 1));
    buckets.set(`${marker.kind}:${bucket}`, marker);
  }
  return [...buckets.values()].sort((a, b) => a.step - b.step);
}

// The timeline: a scrubber over every step from 0 to the head, with markers where the user acted (and
// where errors and forks happened), the position the view shows, and a way back to the live head.
// Moving the scrubber seeks (the worker serves past steps from its records); a user action at a past
// position forks the timeline there (the worker says so with a `fork` marker).

import type { TimelineMarker } from '../../protocol/index.ts';
import { useSim, useSimActions } from '../store/sim-context.ts';
import { markerPercent, visibleMarkers } from './timeline-markers.ts';

export function Timeline() {
  const actions = useSimActions();
  const timeline = useSim((state) => state.timeline);
  if (!timeline) return <div className="timeline" aria-hidden="true" />;
  const { position, head, live, markers } = timeline;
  return (
    <div className="timeline" role="group" aria-label="Timeline">
      <div className="timeline-track">
        <input
          type="range"
          className="timeline-scrubber"
          aria-label="Timeline position (step)"
          aria-valuetext={`step ${position} of ${head}${live ? ', live' : ''}`}
          min={0}
          max={Math.max(head, 1)}
          step={1}
          value={position}
          onChange={(event) => actions.seek(Number(event.target.value))}
        />
        <div className="timeline-markers">
          {visibleMarkers(markers).map((marker) => <Marker key={`${marker.kind}-${marker.step}-${marker.label}`} marker={marker} head={head} />)}
        </div>
      </div>
      <p className="timeline-position" data-testid="timeline-position">
        {live ? <>step {position} · live</> : <>step {position} of {head}</>}
      </p>
      <button type="button" onClick={() => actions.seek(head)} disabled={live} title="Back to the newest step">
        Live
      </button>
    </div>
  );
}

function Marker({ marker, head }: { readonly marker: TimelineMarker; readonly head: number }) {
  const actions = useSimActions();
  return (
    <button
      type="button"
      tabIndex={-1}
      className={`timeline-marker timeline-marker--${marker.kind}`}
      style={{ left: `${markerPercent(marker.step, head)}%` }}
      title={`step ${marker.step}: ${marker.label}`}
      aria-label={`Go to step ${marker.step}: ${marker.label}`}
      data-testid="timeline-marker"
      data-kind={marker.kind}
      onClick={() => actions.seek(marker.step)}
    />
  );
}

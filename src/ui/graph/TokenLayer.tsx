// Every message near the playhead as a token on its link, in one SVG layer above the graph (in React
// Flow's viewport, so it pans and zooms with it). A token's position is a pure function of the playhead:
// at virtual time t it sits at flight progress (t − sentAt)/(deliverAt − sentAt) between the sender's and
// the receiver's borders, drawn only while in flight or resting at its arrival (flight.ts). React renders
// a token when it joins or its selection changes; the motion itself is one playhead listener for the whole
// layer writing transforms, so the clock moving re-renders nothing and a frame costs one pass over the
// tokens. `data-phase` mirrors the flight phase and `data-delivered` whether the step shown delivered it.

import { ViewportPortal } from '@xyflow/react';
import { memo, useCallback, useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import type { Flight, VirtualTime } from '../../protocol/index.ts';
import { flightPhase, flightProgress, isDrawn, type FlightPhase } from '../playback/flight.ts';
import { usePlayhead } from '../playback/PlayheadProvider.tsx';
import { useSim, useSimActions } from '../store/sim-context.ts';
import { linkSegment, type Point, type Rect } from './geometry.ts';
import { describeMessage, isResponse, messageFamily } from './message-kind.ts';
import { tokenLabel } from './token-label.ts';

/** Each link's segment, border to border, by `a--b` for both orders (first point at the first name). */
export type LinkSegments = ReadonlyMap<string, readonly [Point, Point]>;

export function linkSegments(boxes: ReadonlyMap<string, Rect>, links: readonly { readonly a: string; readonly b: string }[]): LinkSegments {
  const segments = new Map<string, readonly [Point, Point]>();
  for (const { a, b } of links) {
    const ra = boxes.get(a);
    const rb = boxes.get(b);
    if (!ra || !rb) continue;
    const [pa, pb] = linkSegment(ra, rb);
    segments.set(`${a}--${b}`, [pa, pb]);
    segments.set(`${b}--${a}`, [pb, pa]);
  }
  return segments;
}

/** Where a token is drawn at `t`: its phase and, while drawn, its point. */
export function tokenAt(flight: Pick<Flight, 'sentAt' | 'deliverAt'>, [from, to]: readonly [Point, Point], t: VirtualTime): { phase: FlightPhase; x: number; y: number } {
  const p = flightProgress(flight, t);
  return { phase: flightPhase(flight, t), x: from.x + (to.x - from.x) * p, y: from.y + (to.y - from.y) * p };
}

/** Beyond this many tokens only the selected one is labelled: hundreds of labels are noise, and costly to paint. */
const crowdedAt = 48;

interface Placed {
  readonly flight: Flight;
  readonly segment: readonly [Point, Point];
  phase: FlightPhase | null;
  x: number;
  y: number;
}

/** Moves one token's element to where it is at `t`, touching the DOM only for what changed. */
function place(element: SVGGElement, placed: Placed, t: VirtualTime): void {
  const { phase, x, y } = tokenAt(placed.flight, placed.segment, t);
  if (phase !== placed.phase) {
    element.dataset.phase = phase;
    element.style.visibility = isDrawn(phase) ? 'visible' : 'hidden';
  }
  if (isDrawn(phase) && (x !== placed.x || y !== placed.y || phase !== placed.phase)) {
    element.style.transform = `translate(${x}px, ${y}px)`;
    placed.x = x;
    placed.y = y;
  }
  placed.phase = phase;
}

export function TokenLayer({ segments }: { readonly segments: LinkSegments }) {
  const tokens = useSim((state) => state.tokens);
  const selected = useSim((state) => (state.selection?.type === 'message' ? state.selection.id : null));
  const actions = useSimActions();
  const time = usePlayhead();
  const placed = useRef(new Map<SVGGElement, Placed>());

  useEffect(() => time.on('change', (t) => {
    for (const [element, entry] of placed.current) place(element, entry, t);
  }), [time]);

  const register = useCallback((element: SVGGElement | null, flight: Flight, segment: readonly [Point, Point]) => {
    if (!element) return;
    const entry: Placed = { flight, segment, phase: null, x: Number.NaN, y: Number.NaN };
    placed.current.set(element, entry);
    place(element, entry, time.get());
    return () => {
      placed.current.delete(element);
    };
  }, [time]);
  const select = useCallback((id: number) => actions.select({ type: 'message', id }), [actions]);

  // Messages still in flight first, so that delivered ones are drawn on top: a reply leaving a component
  // at the instant the request arrives starts where the request rests, under it.
  const drawn = useMemo(() => {
    const inFlight: Array<{ flight: Flight; segment: readonly [Point, Point] }> = [];
    const delivered: typeof inFlight = [];
    for (const flight of tokens) {
      const segment = segments.get(`${flight.from}--${flight.to}`);
      if (segment) (flight.step === null ? inFlight : delivered).push({ flight, segment });
    }
    return inFlight.concat(delivered);
  }, [tokens, segments]);

  return (
    <ViewportPortal>
      <svg className={`token-layer${drawn.length > crowdedAt ? ' token-layer--crowded' : ''}`} data-testid="token-layer" aria-label="Messages in flight">
        {drawn.map(({ flight, segment }) => (
          <Token key={flight.id} flight={flight} segment={segment} selected={flight.id === selected} register={register} onSelect={select} />
        ))}
      </svg>
    </ViewportPortal>
  );
}

interface TokenProps {
  readonly flight: Flight;
  readonly segment: readonly [Point, Point];
  readonly selected: boolean;
  readonly register: (element: SVGGElement | null, flight: Flight, segment: readonly [Point, Point]) => (() => void) | undefined;
  readonly onSelect: (id: number) => void;
}

const Token = memo(function Token({ flight, segment, selected, register, onSelect }: TokenProps) {
  const ref = useCallback((element: SVGGElement | null) => register(element, flight, segment), [register, flight, segment]);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      event.stopPropagation();
      onSelect(flight.id);
    }
  };
  const family = messageFamily(flight.kind);
  // While playing a flight comes without its payload (it follows on pause): its kind says enough then.
  const label = flight.payloadOmitted ? { text: flight.kind, failed: false } : tokenLabel(flight);
  return (
    <g
      ref={ref}
      className={`token token--${family}${isResponse(flight) ? ' token--response' : ''}${label.failed ? ' token--failed' : ''}${selected ? ' token--selected' : ''}`}
      data-testid="token"
      data-kind={flight.kind}
      data-from={flight.from}
      data-to={flight.to}
      data-message-id={flight.id}
      data-delivered={flight.step !== null}
      data-failed={label.failed ? 'true' : undefined}
      role="button"
      tabIndex={0}
      aria-label={`${describeMessage(flight)}: ${label.text}${label.failed ? ' (failed)' : ''}${flight.step === null ? ', in flight' : ''}`}
      aria-pressed={selected}
      onClick={(event) => {
        event.stopPropagation();
        onSelect(flight.id);
      }}
      onKeyDown={onKeyDown}
    >
      <circle className="token-dot" r={7} />
      <text className="token-label" y={-12} textAnchor="middle">{label.text}</text>
    </g>
  );
});

// Every message near the playhead as a token on its link, in one SVG layer above the graph (in React
// Flow's viewport, so it pans and zooms with it). A token's position is a pure function of the playhead:
// at virtual time t it sits at flight progress (t − sentAt)/(deliverAt − sentAt) between the sender's and
// the receiver's borders, drawn only while in flight or resting at its arrival (flight.ts). The tokens'
// elements are written outside React (token-elements.ts) when the store's flights or selection change
// (while playing, a token's element is made when it is first drawn);
// the motion itself is one playhead listener for the whole layer writing transforms, so the clock moving re-renders nothing and a frame costs one pass over the
// tokens. `data-phase` mirrors the flight phase and `data-delivered` whether the step shown delivered it.
// A flight the playhead passes over between two frames (shorter than a frame's advance, as most are at
// 1×: real kubectl's requests on an attached page) would never be drawn; while playing it rests at its arrival for
// `restMs` of real time instead (`shownPhase`).
// The labels are a layer of their own (token-labels.ts): one per link, placed clear of the other labels
// and of the components' titles, updated from the same per-frame pass (while playing, at most every
// `labelEveryMs`); hovering a token shows its label. Under a burst, a token coming to rest where another
// rests takes over its element after `restShownMs`, and a token gone while playing gives its element back:
// the layer's cost follows what is visible, not the messages passed over.

import { useReactFlow, ViewportPortal } from '@xyflow/react';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { flightLimit, type Flight, type VirtualTime } from '../../protocol/index.ts';
import { flightPhase, flightProgress, isDrawn, type FlightPhase } from '../playback/flight.ts';
import { usePlayhead } from '../playback/PlayheadProvider.tsx';
import { useSimActions, useSimStore } from '../store/sim-context.ts';
import type { SimState } from '../store/sim-store.ts';
import { linkSegment, type Point, type Rect } from './geometry.ts';
import { TokenElements, type DrawnToken } from './token-elements.ts';
import { TokenLabels, type Obstacles } from './token-labels.ts';
import './token-labels.css';

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

/**
 * Real ms between two choices of the labels while playing: a label changing with every frame cannot be
 * read, and each change lays its text out again (a thousand Pods created at 1× changed ~20 labels a frame).
 */
export const labelEveryMs = 100;

/** Real ms a token the playhead passed over between two frames rests drawn at its arrival. */
export const restMs = 300;

/**
 * Real ms a resting token is shown before a later one coming to rest at the same point (the same sender
 * and receiver) takes its place, and its element: the two would be drawn one on top of the other. Under a
 * burst (a thousand Pods created at 1×), a link end then changes the message it shows every few frames,
 * with the same element, instead of piling one element a message. Two coming to rest in the same frame
 * are both drawn (each message passed over is drawn).
 */
export const restShownMs = 50;

/** Whether a token coming to rest at real time `now` takes the place of `other`, drawn resting at the same point. */
export function takesPlace(other: { readonly phase: FlightPhase | null; readonly restUntil: number; readonly restShownAt: number }, now: number): boolean {
  return other.phase === 'arrived' && other.restUntil > now && now - other.restShownAt >= restShownMs;
}

/**
 * The phase a token is drawn in at `t` (real time `nowMs`), given the phase it was drawn in at the
 * previous frame (null: none yet) and the real instant its rest ends (0: not resting): as `flightPhase`,
 * except that while `playing`, a flight gone at `t` that was still unsent at the previous frame was never
 * drawn, so it rests at its arrival until `nowMs` reaches the returned `restUntil`. A step or a jump while
 * paused shows where it lands, not each token it passed over.
 */
export function shownPhase(flight: Pick<Flight, 'sentAt' | 'deliverAt'>, t: VirtualTime, previous: FlightPhase | null, restUntil: number, nowMs: number, playing = true): { phase: FlightPhase; restUntil: number } {
  const phase = flightPhase(flight, t);
  if (phase !== 'gone') return { phase, restUntil: 0 };
  const until = previous === 'unsent' && playing ? nowMs + restMs : restUntil;
  return { phase: nowMs < until ? 'arrived' : 'gone', restUntil: until };
}

/** Each link's segment once, by its canonical key (`a--b` with a < b), as the labels are placed on it. */
function canonicalSegments(segments: LinkSegments): Map<string, readonly [Point, Point]> {
  const canonical = new Map<string, readonly [Point, Point]>();
  for (const [key, segment] of segments) {
    const [a, b] = key.split('--') as [string, string];
    if (a < b) canonical.set(key, segment);
  }
  return canonical;
}

/** Obstacles are measured again after this long (real ms): boxes seldom change (their headings are measured once). */
const remeasureMs = 2_000;

/**
 * Each box's heading relative to its box's top-left corner, in flow units, by node id. A heading does not
 * move inside its box, so it is read from the DOM (a forced layout) once per node, not at every measure.
 */
type TitleOffsets = Map<string, Rect>;

/** Where the heading of a box drawn as `element` lies in it (`boxWidth` wide in flow units); null when not laid out yet. */
function measureTitle(element: Element, boxWidth: number): Rect | null {
  const heading = element.querySelector('.component-heading') ?? element.querySelector('.component-title');
  if (!heading) return null;
  const outer = element.getBoundingClientRect();
  const inner = heading.getBoundingClientRect();
  const zoom = boxWidth > 0 ? outer.width / boxWidth : 1;
  if (!(zoom > 0) || inner.width === 0) return null;
  return { x: (inner.left - outer.left) / zoom, y: (inner.top - outer.top) / zoom, width: inner.width / zoom, height: inner.height / zoom };
}

/**
 * The component boxes (React Flow's nodes) and their headings (`offsets`, measured for the boxes drawn that
 * it lacks), in flow coordinates. A box not drawn (out of view in a large graph) has no heading until it is.
 */
function measureObstacles(flow: ReturnType<typeof useReactFlow>, container: Element | null, offsets: TitleOffsets): Obstacles {
  const titles: Rect[] = [];
  const boxes: Rect[] = [];
  const root = container?.closest('.react-flow') ?? document;
  let drawn: Map<string, Element> | null = null;
  for (const node of flow.getNodes()) {
    const internal = flow.getInternalNode(node.id);
    if (!internal) continue;
    const box = {
      ...internal.internals.positionAbsolute,
      width: internal.measured.width ?? node.width ?? 0,
      height: internal.measured.height ?? node.height ?? 0,
    };
    boxes.push(box);
    let offset = offsets.get(node.id) ?? null;
    if (offset === null) {
      drawn ??= new Map([...root.querySelectorAll('.react-flow__node')].map((element) => [element.getAttribute('data-id') ?? '', element]));
      const element = drawn.get(node.id);
      offset = element ? measureTitle(element, box.width) : null;
      if (offset !== null) offsets.set(node.id, offset);
    }
    if (offset !== null) titles.push({ x: box.x + offset.x, y: box.y + offset.y, width: offset.width, height: offset.height });
  }
  return { titles, boxes };
}

interface Placed {
  readonly id: number;
  /** Null until first drawn (while playing, most tokens are gone before the playhead reaches them). */
  element: SVGGElement | null;
  readonly flight: Flight;
  readonly segment: readonly [Point, Point];
  phase: FlightPhase | null;
  /** Real ms (performance.now) when its rest at the arrival ends (shownPhase); 0: not resting. */
  restUntil: number;
  /** Dropped by the store before the playhead is done with it: drawn until it is gone (its rest over), then it goes. */
  leaving: boolean;
  /** Real ms (performance.now) when it was first drawn resting at its arrival; 0: never. */
  restShownAt: number;
  x: number;
  y: number;
}

/** How the layer gives a token its element as it is first drawn, and takes it back. */
interface TokenElementOps {
  show(placed: Placed, nowMs: number): SVGGElement | null;
  /** Takes a token's element off the page (kept for reuse); it is shown anew if drawn again. */
  release(placed: Placed): void;
}

/**
 * Moves one token's element to where it is at `t` (real time `nowMs`), touching the DOM only for what
 * changed; `previous` is the phase it was drawn in (shownPhase). A token without an element gets one from
 * `ops.show` once drawn; while playing, a token gone gives its element back (a hidden element still costs
 * every frame's style and layout, and while playing a token gone is not drawn again).
 */
function place(placed: Placed, t: VirtualTime, nowMs: number, playing: boolean, ops: TokenElementOps, previous = placed.phase): void {
  const { x, y } = tokenAt(placed.flight, placed.segment, t);
  const { phase, restUntil } = shownPhase(placed.flight, t, previous, placed.restUntil, nowMs, playing);
  placed.restUntil = restUntil;
  let { element } = placed;
  if (element && playing && phase === 'gone') {
    ops.release(placed);
    placed.element = element = null;
  }
  // A new element (or one reused) has everything written.
  const fresh = element === null && isDrawn(phase);
  if (fresh) element = placed.element = ops.show(placed, nowMs);
  if (element && (fresh || phase !== placed.phase)) {
    element.dataset.phase = phase;
    element.style.visibility = isDrawn(phase) ? 'visible' : 'hidden';
  }
  if (element && isDrawn(phase) && (fresh || x !== placed.x || y !== placed.y || phase !== placed.phase)) {
    element.style.transform = `translate(${x}px, ${y}px)`;
    placed.x = x;
    placed.y = y;
  }
  placed.phase = phase;
}

export function TokenLayer({ segments }: { readonly segments: LinkSegments }) {
  const store = useSimStore();
  const actions = useSimActions();
  const flow = useReactFlow();
  const time = usePlayhead();
  const placed = useRef(new Map<number, Placed>());
  /** Tokens the store dropped that the playhead has not finished with (at most `flightLimit`). */
  const lingering = useRef(0);
  const tokenElements = useRef<TokenElements | null>(null);
  // State, not a ref: React Flow's viewport portal mounts the layer only once its viewport exists.
  const [tokenRoot, setTokenRoot] = useState<SVGGElement | null>(null);
  const labelRoot = useRef<SVGGElement>(null);
  const labels = useRef<TokenLabels | null>(null);
  const canonical = useMemo(() => canonicalSegments(segments), [segments]);
  const obstacles = useRef<{ value: Obstacles; at: number; segments: LinkSegments; offsets: TitleOffsets } | null>(null);

  // Chooses and places the labels from where the tokens are now (after the tokens moved or changed);
  // while playing, at most every `labelEveryMs` unless `force`d (a selection, or play ending).
  const labelledAt = useRef(0);
  const relabel = useCallback((force = false) => {
    const root = labelRoot.current;
    if (!root) return;
    const now = performance.now();
    if (!force && now - labelledAt.current < labelEveryMs && store.getState().status.mode === 'playing') return;
    labelledAt.current = now;
    labels.current ??= new TokenLabels(root);
    let measured = obstacles.current;
    if (!measured || measured.segments !== segments || now - measured.at > remeasureMs || measured.value.titles.length === 0) {
      // A new layout (a new cluster or components) has its headings measured afresh.
      const offsets = measured?.segments === segments ? measured.offsets : new Map<string, Rect>();
      measured = { value: measureObstacles(flow, root.ownerSVGElement, offsets), at: now, segments, offsets };
      obstacles.current = measured;
    }
    const { status, selection } = store.getState();
    labels.current.update(placed.current.values(), canonical, measured.value, status.step, selection?.type === 'message' ? selection.id : null);
  }, [flow, canonical, segments, store]);

  // Gives a token its element as it is first drawn. One coming to rest at its arrival takes the element
  // of the token resting at the same point (which ends its rest) once that one has been shown `restShownMs`.
  const restingAt = useRef(new Map<string, Placed>());
  const elementOps = useMemo<TokenElementOps>(() => ({
    show(entry, now) {
      const elements = tokenElements.current;
      if (!elements) return null;
      if (entry.restUntil <= now) return elements.show(entry.id);
      entry.restShownAt = now;
      const point = `${entry.flight.from}>${entry.flight.to}`;
      const other = restingAt.current.get(point);
      restingAt.current.set(point, entry);
      if (other && other !== entry && takesPlace(other, now)) {
        const element = elements.handover(other.id, entry.id);
        if (element) {
          other.element = null;
          other.restUntil = 0;
          other.phase = 'gone';
          return element;
        }
      }
      return elements.show(entry.id);
    },
    release: (entry) => tokenElements.current?.release(entry.id),
  }), []);

  // Places every token at `t`; while some rest at their arrival, again when the first rest ends (the
  // playhead may not move by then: paused).
  const rest = useRef<{ timer: ReturnType<typeof setTimeout> | undefined; wake: number }>({ timer: undefined, wake: Number.POSITIVE_INFINITY });
  const placeAgain = useRef<(t: VirtualTime) => void>(() => undefined);
  const wakeAt = useCallback((wake: number, now: number) => {
    if (wake >= rest.current.wake) return;
    clearTimeout(rest.current.timer);
    rest.current = { timer: setTimeout(() => placeAgain.current(time.get()), wake - now), wake };
  }, [time]);
  const placeAll = useCallback((t: VirtualTime) => {
    const now = performance.now();
    clearTimeout(rest.current.timer);
    rest.current = { timer: undefined, wake: Number.POSITIVE_INFINITY };
    const playing = store.getState().status.mode === 'playing';
    let leaving = 0;
    for (const entry of placed.current.values()) {
      place(entry, t, now, playing, elementOps);
      if (entry.leaving && entry.phase === 'gone') {
        // Held again meanwhile (the worker shipped it once more, unchanged): it stays, placed as any other.
        if (tokenElements.current?.drop(entry.id) !== false) {
          placed.current.delete(entry.id);
          continue;
        }
        entry.leaving = false;
      }
      if (entry.leaving) leaving++;
      if (entry.restUntil > now) wakeAt(entry.restUntil, now);
    }
    lingering.current = leaving;
    relabel();
  }, [relabel, wakeAt, store, elementOps]);
  useEffect(() => {
    placeAgain.current = placeAll;
  }, [placeAll]);
  useEffect(() => () => clearTimeout(rest.current.timer), []);
  useEffect(() => time.on('change', placeAll), [time, placeAll]);

  // Tokens joining or leaving, the selection or the step shown changing: label again once, next frame.
  const frame = useRef(0);
  const forceNext = useRef(false);
  const relabelSoon = useCallback((force = false) => {
    forceNext.current ||= force;
    if (frame.current !== 0) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      const forced = forceNext.current;
      forceNext.current = false;
      relabel(forced);
    });
  }, [relabel]);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  // The tokens' elements follow the store's flights and selection directly, in the store update that
  // changed them (no render). `learnedAt` is the playhead's time when the flights last changed: a token
  // joining then was still to come if it was unsent at that time (the playhead may have passed it since).
  useLayoutEffect(() => {
    const root = tokenRoot;
    if (!root) return undefined;
    const learnedAt = { t: time.get() };
    // A token joining, or changed (`before`: what it was shown as, its rest included: its delivery is
    // recorded in the report after the playhead passed it, and a token resting at its arrival rests on).
    const join = ({ flight, segment }: DrawnToken, element: SVGGElement | null, before: Placed | undefined) => {
      // Its phase and place are written afresh (an element shown now may be a reused one).
      const entry: Placed = { id: flight.id, element, flight, segment, phase: null, restUntil: before?.restUntil ?? 0, leaving: false, restShownAt: before?.restShownAt ?? 0, x: Number.NaN, y: Number.NaN };
      if (before?.leaving) lingering.current--;
      placed.current.set(flight.id, entry);
      const now = performance.now();
      const previous = before ? before.phase : flightPhase(flight, learnedAt.t) === 'gone' ? null : 'unsent';
      place(entry, time.get(), now, store.getState().status.mode === 'playing', elementOps, previous);
      if (entry.restUntil > now) wakeAt(entry.restUntil, now);
      relabelSoon();
    };
    const elements = new TokenElements(root, {
      added: (token, element) => join(token, element, undefined),
      changed: (token, element) => join(token, element, placed.current.get(token.flight.id)),
      removed(id) {
        placed.current.delete(id);
        relabelSoon();
      },
      lingers(id) {
        // Still to come at the playhead (the worker ran further ahead than usual: a tick under load), in
        // flight, or resting at its arrival: it plays out before it goes.
        const entry = placed.current.get(id);
        if (!entry || entry.phase === null || entry.phase === 'gone') return false;
        // Fast play passes over every flight of every report: the rests beyond the limit end now.
        if (lingering.current >= flightLimit) return false;
        lingering.current++;
        entry.leaving = true;
        return true;
      },
      select: (id) => actions.select({ type: 'message', id }),
      hover(id) {
        const entry = id === null ? undefined : placed.current.get(id);
        if (!labelRoot.current) return;
        labels.current ??= new TokenLabels(labelRoot.current);
        labels.current.showHover(entry?.flight ?? null, entry ? { x: entry.x, y: entry.y } : undefined);
      },
    });
    tokenElements.current = elements;
    // Paused (or stepping, seeking), every token held has its element: what is on the page is what the
    // step shows, gone tokens included (hidden).
    const sync = (state: SimState) => elements.sync(drawnTokens(state.tokens, segments), selectedMessage(state), state.status.mode !== 'playing');
    sync(store.getState());
    const unsubscribe = store.subscribe((state, previous) => {
      if (state.tokens !== previous.tokens) learnedAt.t = time.get();
      const leftPlaying = previous.status.mode === 'playing' && state.status.mode !== 'playing';
      if (leftPlaying || state.tokens !== previous.tokens || state.selection !== previous.selection) sync(state);
      if (leftPlaying || state.selection !== previous.selection) relabelSoon(true);
      else if (state.status.step !== previous.status.step) relabelSoon();
    });
    return () => {
      unsubscribe();
      elements.dispose();
      tokenElements.current = null;
    };
  }, [tokenRoot, store, segments, time, actions, wakeAt, relabelSoon, elementOps]);

  return (
    <ViewportPortal>
      <svg className="token-layer" data-testid="token-layer" aria-label="Messages in flight">
        <g className="tokens" ref={setTokenRoot} />
        <g className="token-labels" ref={labelRoot} />
      </svg>
    </ViewportPortal>
  );
}

function selectedMessage(state: SimState): number | null {
  return state.selection?.type === 'message' ? state.selection.id : null;
}

/**
 * The tokens drawn, in drawing order: messages still in flight first, so that delivered ones are drawn on
 * top (a reply leaving a component at the instant the request arrives starts where the request rests, under it).
 */
function drawnTokens(tokens: readonly Flight[], segments: LinkSegments): DrawnToken[] {
  const inFlight: DrawnToken[] = [];
  const delivered: DrawnToken[] = [];
  for (const flight of tokens) {
    const segment = segments.get(`${flight.from}--${flight.to}`);
    if (segment) (flight.step === null ? inFlight : delivered).push({ flight, segment });
  }
  return inFlight.concat(delivered);
}

// The messages the graph draws as tokens at the step shown. A message over a link is in flight from its
// `sentAt` to its `deliverAt`; at the step shown (virtual time `now`) that includes messages not delivered
// yet, which the trace of deliveries alone cannot show. So the flights are read from both sides of the
// step: deliveries made up to it (from the engine's trace, back to `now − window`, as the playhead trails
// the engine while playing) and messages sent by it but delivered later: at the head the engine's queue,
// in the past the trace after the step (only messages sent by the step: ids grow in send order). The
// tracker ships what changed since the last report as a `flights` diff, each flight once with its payload.

import type { Flight, FlightsEvent, TraceRecord } from '../protocol/index.ts';
import { flightLimit } from '../protocol/index.ts';
import type { Engine, Message } from '../sim/engine/index.ts';
import { labelPayload } from './token-payload.ts';

/** The step shown: its number, virtual time, and the newest message id sent by then. */
export interface FlightPosition {
  readonly step: number;
  readonly now: number;
  readonly sent: number;
  /** True at the head of the live engine (its queue holds what is in flight). */
  readonly live: boolean;
  /**
   * Where the UI's playhead is expected: `now` when paused, `now − longest flight` while playing (it
   * trails the engine by that much). Over the limit, the flights covering it are kept first.
   */
  readonly playhead?: number;
  /**
   * Virtual ms the page's playhead may trail `playhead` by (it skips ahead past that): the flights
   * delivered that much earlier are still held, so a page whose reports come late or in bursts draws
   * them (default 0: the page's playhead keeps up with the reports).
   */
  readonly trail?: number;
}

/** How much further back than the longest flight a report reaches, at most (virtual ms of the last advance). */
const maxAdvanceWindow = 50;

/**
 * While playing, how far back a report reaches at most besides the longest flights: the clock of the
 * report two before (a tick advances at most 100 ms of real time at the speed played, and delivers at most
 * 5,000 messages, so the walk costs what the last two ticks delivered).
 */
const maxPlayWindow = 60_000;

/** A message near the playhead and the step that delivered it (null: not delivered by the step shown). */
export interface Near {
  readonly message: Message;
  readonly step: number | null;
}

/**
 * The messages over links sent by `at` and delivered at or after `from`, the soonest delivered first, at
 * most `limit`.
 */
export function flightsAt(engine: Engine, at: FlightPosition, from: number, limit = flightLimit): Near[] {
  const { trace } = engine;
  const found: Near[] = [];
  const onLink = (m: Message) => m.from !== m.to;
  for (let step = Math.min(at.step, trace.lastStep); step >= trace.firstStep; step--) {
    const m = trace.at(step)!;
    if (m.deliverAt < from) break;
    if (onLink(m)) found.push({ message: m, step });
  }
  const sentByThen = (m: Message) => onLink(m) && m.id <= at.sent;
  let reachedHead = at.live;
  if (!at.live) {
    // Deliveries are in deliverAt order; a message sent by `now` on a link arrives within the longest
    // flight plus any delay its sender added, so scan a generous horizon after the step.
    // A step older than the trace retains is answered from the oldest retained one on: the steps between
    // have no records, and walking them cost time in proportion to the whole run (a second at 10,000 Pods).
    const horizon = at.now + 4 * engine.longestLink() + maxAdvanceWindow;
    let step = Math.max(at.step + 1, trace.firstStep);
    for (; step <= trace.lastStep; step++) {
      const m = trace.at(step);
      if (!m) continue;
      if (m.deliverAt > horizon) break;
      if (sentByThen(m)) found.push({ message: m, step: null });
    }
    reachedHead = step > trace.lastStep;
  }
  if (reachedHead) engine.forEachQueued((m) => {
    if (sentByThen(m)) found.push({ message: m, step: null });
  });
  const byDelivery = (a: Near, b: Near) => a.message.deliverAt - b.message.deliverAt || a.message.id - b.message.id;
  if (found.length <= limit) return found.sort(byDelivery);
  // Too many: first those in flight at the playhead, then those still to come, then those already gone.
  const t = at.playhead ?? at.now;
  const rank = ({ message: m }: Near) => (m.sentAt <= t && t <= m.deliverAt ? 0 : m.deliverAt > t ? 1 : 2);
  return found.sort((a, b) => rank(a) - rank(b) || byDelivery(a, b)).slice(0, limit).sort(byDelivery);
}

/** The story level and milestone of a delivered message (absent for messages in flight). */
export type StoryOf = (step: number, message: Message) => Pick<TraceRecord, 'level' | 'milestone'>;

function toFlight({ message: m, step }: Near, withPayload: boolean, storyOf: StoryOf | null): Flight {
  const base = { id: m.id, from: m.from, to: m.to, kind: m.kind, sentAt: m.sentAt, deliverAt: m.deliverAt, cause: m.cause, replyTo: m.replyTo, background: m.background, step };
  let flight: Omit<Flight, 'payload'> = base;
  if (step !== null && storyOf) {
    const { level, milestone } = storyOf(step, m);
    if (level !== undefined) flight = milestone !== undefined ? { ...base, level, milestone } : { ...base, level };
  }
  return withPayload ? { ...flight, payload: m.payload } : { ...flight, payload: labelPayload(m), payloadOmitted: true };
}

/**
 * How a flight's payload was shipped: whole; `label` while playing (shipped again whole on a pause); or
 * `onDemand`, delivered at a past step shown, which the page asks for by its step when it shows it (only
 * shipped again whole if a Step back makes it in flight again, when no step names it).
 */
type PayloadShipped = 'whole' | 'label' | 'onDemand';

interface Shipped {
  readonly step: number | null;
  readonly payload: PayloadShipped;
}

export class FlightTracker {
  /** What the UI holds: flight id → the step that delivered it (null: in flight), and whether with its payload. */
  private shipped = new Map<number, Shipped>();
  private lastNow: number | null = null;
  /** While playing, the clocks of the last two reports (reset when not playing). */
  private playedNows: number[] = [];

  /** `storyOf` gives delivered flights their story level and milestone. */
  constructor(private readonly storyOf: StoryOf | null = null) {}

  /**
   * The UI dropped its flights (a `ready`: a new cluster). A fork or restore that rebuilds the same
   * timeline needs no reset: replay sends the same messages with the same ids.
   */
  reset(): void {
    this.shipped = new Map();
    this.lastNow = null;
    this.playedNows = [];
  }

  /**
   * What changed since the last call for the step shown; null when nothing did. Without `withPayloads`
   * (playing) new flights carry only what their label reads (token-payload.ts); with it, flights held
   * without their whole payload are shipped again. At a past step (`at.live` false: a seek) the flights
   * delivered by it carry only their label too, marked `payloadOmitted`: the page asks for one's payload
   * by its step when it shows it, so a seek ships a fraction of the bytes.
   */
  report(engine: Engine, at: FlightPosition, withPayloads = true): FlightsEvent | null {
    const longest = engine.longestLink();
    let advance = this.lastNow === null ? 0 : Math.min(maxAdvanceWindow, Math.max(0, at.now - this.lastNow));
    this.lastNow = at.now;
    if (!withPayloads) {
      // Playing: the page's playhead never trails the clock of the report before the one it last applied
      // (src/ui/playback/playhead.ts), so a flight is held until two reports later: by the time the page
      // learns it went, its playhead has passed it (and drawn it, resting at its arrival if a frame's
      // advance jumped over it). A tick under load may advance far more than maxAdvanceWindow.
      const oldest = this.playedNows[0];
      if (oldest !== undefined) advance = Math.max(advance, Math.min(maxPlayWindow, Math.max(0, at.now - oldest)));
      this.playedNows = [...this.playedNows.slice(-1), at.now];
    } else this.playedNows = [];
    const flights = flightsAt(engine, at, at.now - (2 * longest + advance + (at.trail ?? 0)));
    const held = this.shipped;
    const next = new Map<number, Shipped>();
    const added: Flight[] = [];
    const stepped: Array<[number, number | null]> = [];
    for (const near of flights) {
      const id = near.message.id;
      const before = held.get(id);
      if (!before || (withPayloads && (before.payload === 'label' || (before.payload === 'onDemand' && near.step === null)))) {
        const payload: PayloadShipped = !withPayloads ? 'label' : !at.live && near.step !== null ? 'onDemand' : 'whole';
        added.push(toFlight(near, payload === 'whole', this.storyOf));
        next.set(id, { step: near.step, payload });
        continue;
      }
      next.set(id, { step: near.step, payload: before.payload });
      if (before.step !== near.step) stepped.push([id, near.step]);
    }
    const removed = [...held.keys()].filter((id) => !next.has(id));
    this.shipped = next;
    if (added.length === 0 && removed.length === 0 && stepped.length === 0) return null;
    return { type: 'flights', replace: false, added, removed, stepped };
  }
}

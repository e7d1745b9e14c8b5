// One delivery as the UI receives it: the engine's message plus the step that delivered it. The payload
// is the engine's own plain data, unchanged (structured-clone-safe by the engine's contract).

import type { Milestone, StepLevel } from './story.ts';
import type { VirtualTime } from './topology.ts';

export interface TraceRecord {
  /** The step that delivered this message: the first delivery is step 1. */
  readonly step: number;
  /** Unique, increasing in send order. */
  readonly id: number;
  readonly from: string;
  /** Equal to `from` for timers and wake-ups a component sends itself. */
  readonly to: string;
  /** e.g. `etcd.Put`, `http.request`, `timer`. */
  readonly kind: string;
  readonly payload: unknown;
  readonly sentAt: VirtualTime;
  readonly deliverAt: VirtualTime;
  /** The message whose delivery caused this one; null for user commands and boot. */
  readonly cause: number | null;
  /** On a response: the id of the request it answers. */
  readonly replyTo: number | null;
  /** Heartbeats, resyncs and what they cause; they do not keep "run until idle" going. */
  readonly background: boolean;
  /** The story level the worker classified this delivery at (see story.ts); absent on messages not yet delivered. */
  readonly level?: StepLevel;
  /** The milestone this delivery is, when it is one. */
  readonly milestone?: Milestone;
  /**
   * Set on a step older than the trace's whole payloads (issue 20): `rebuilt` when the payload was rebuilt
   * from etcd's history (equal to the delivered one), `summary` when only its summary remains.
   */
  readonly payloadKept?: 'rebuilt' | 'summary';
  /**
   * Set on a light record: `payload` holds only the fields its label reads (src/worker/token-payload.ts).
   * A seek's replacing `traceBatch` ships its older records so, and tokens shipped while playing or at a
   * past step; the page asks for the whole payload when it shows one (a `traceRange` of its step with a
   * negative id, src/ui/store/payloads.ts) or, for a token in flight, gets it when playback pauses.
   */
  readonly payloadOmitted?: true;
}

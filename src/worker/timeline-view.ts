// Serves past steps to the UI from what was recorded, never touching the live simulation: the deliveries
// from the engine's trace (while retained), the keyspace from etcd's MVCC history at the step's revision,
// the status from the timeline's samples. Stepping forward through the past ships the same kinds of
// events as live steps (a `traceBatch` of the steps and a `keyspaceDiff` of their writes); stepping back
// or seeking ships the keys written between the two steps (keyspace.ts `move`: a `keyspaceDiff`, or a
// `keyspaceMove` for a long jump), so it costs what changed, and a whole snapshot only for a compacted
// revision or the same step.

import type { KeyspaceTracker } from './keyspace.ts';
import type { Timeline } from './timeline.ts';
import type { TraceRecord, WorkerEvent } from '../protocol/index.ts';
import { traceTailLimit } from '../protocol/index.ts';
import type { Engine, Message } from '../sim/engine/index.ts';
import { lightTail } from './token-payload.ts';

/** The position a view moves: the timeline's own (the host's), or a page's over it (host-viewer.ts). */
export type TimelineCursor = Pick<Timeline, 'head' | 'position' | 'live' | 'seek' | 'revisionAt' | 'stepOfRevision'>;

/**
 * The keyspace a view reads past revisions from. With `flush` (the host's own view), a seek drops the
 * head's writes not yet shipped, which the move (or snapshot) to the position covers.
 */
export type KeyspaceHistory = Pick<KeyspaceTracker, 'at' | 'between' | 'move'> & Partial<Pick<KeyspaceTracker, 'flush'>>;

export class TimelineView {
  /** The records of the last `records` call, by step, and the engine and its step then. */
  private shipped: { readonly engine: Engine | null; readonly head: number; readonly records: ReadonlyMap<number, TraceRecord> } = { engine: null, head: -1, records: new Map() };

  constructor(
    private readonly timeline: TimelineCursor,
    private readonly live: () => { readonly engine: Engine },
    private readonly keyspace: KeyspaceHistory | null,
    private readonly post: (event: WorkerEvent) => void,
    /** A delivery as posted: with its step, and its story level and milestone (story/record.ts). */
    private readonly annotate: (step: number, message: Message) => TraceRecord = (step, message) => ({ step, ...message }),
  ) {}

  /**
   * Shows `step`: the deliveries up to it (replacing the UI's; the older ones light, token-payload.ts
   * `lightTail`), the keyspace at its revision (a diff from
   * the position's revision, which the page holds, or short of it by the head's writes not yet shipped).
   */
  seek(step: number): void {
    const from = this.timeline.position;
    this.timeline.seek(step);
    const { records, omitted } = this.tailAt(step);
    this.post({ type: 'traceBatch', records: lightTail(records), omitted, replace: true });
    if (!this.keyspace) return;
    this.keyspace.flush?.();
    const to = this.timeline.revisionAt(step);
    const diff = from === step ? null : this.keyspace.move(this.timeline.revisionAt(from), to, step, (revision) => this.timeline.stepOfRevision(revision) ?? step);
    if (!diff) this.post({ ...this.keyspace.at(to), current: true });
    else if (diff.type === 'keyspaceMove' || diff.changes.length > 0) this.post(diff);
  }

  /** Returns to the head if the view is in the past. */
  toHead(): void {
    if (!this.timeline.live) this.seek(this.timeline.head);
  }

  /**
   * Moves the view forward by up to `count` recorded steps (not past the head), shipping them as live
   * steps are shipped; returns how many it served.
   */
  forward(count: number): number {
    const from = this.timeline.position;
    const to = Math.min(this.timeline.head, from + count);
    if (to === from) return 0;
    const { records, omitted } = this.records(from + 1, to);
    this.timeline.seek(to);
    if (this.keyspace) {
      const diff = this.keyspace.between(this.timeline.revisionAt(from), this.timeline.revisionAt(to), (revision) => this.timeline.stepOfRevision(revision) ?? to);
      if (diff.changes.length > 0) this.post(diff);
    }
    this.post({ type: 'traceBatch', records, omitted });
    return to - from;
  }

  /** The newest deliveries up to `step` (at most `traceTailLimit`) and how many older ones are left out. */
  tailAt(step: number): { records: TraceRecord[]; omitted: number } {
    const { records } = this.records(Math.max(1, step - traceTailLimit + 1), step);
    return { records, omitted: step - records.length };
  }

  /**
   * The retained deliveries of steps `first`…`last`, newest `traceTailLimit` only, with their payloads as
   * the inspector shows them (trace.payloadAt: rebuilt from history past the trace's whole payloads).
   */
  private records(first: number, last: number): { records: TraceRecord[]; omitted: number } {
    const { engine } = this.live();
    const { trace } = engine;
    // The records last shipped are reused while the engine has not moved: a Step back re-ships the tail
    // one step shorter, and rebuilding its summarized payloads again cost ~15 ms a click at 1,000 Pods.
    const reusable = this.shipped.engine === engine && this.shipped.head === engine.step ? this.shipped.records : null;
    const shipped = new Map<number, TraceRecord>();
    const records: TraceRecord[] = [];
    for (let step = Math.max(first, last - traceTailLimit + 1, trace.firstStep); step <= last; step++) {
      let record = reusable?.get(step);
      if (record === undefined) {
        const message = trace.at(step);
        if (!message) continue;
        const { payload, kept } = trace.payloadAt(step)!;
        const annotated = this.annotate(step, kept === 'whole' ? message : { ...message, payload });
        record = kept === 'whole' ? annotated : { ...annotated, payloadKept: kept };
      }
      shipped.set(step, record);
      records.push(record);
    }
    this.shipped = { engine, head: engine.step, records: shipped };
    return { records, omitted: last - first + 1 - records.length };
  }
}

// The trace: one record per delivery, in delivery order. A record is the delivered message itself (its
// `cause` links it to the delivery that sent it), numbered by step: the first delivery is step 1.
// Retention is bounded twice, oldest first: past `payloadLimit` steps a record keeps its ids, kind,
// times and cause but its payload becomes the payload's summary (trace-summary.ts: what labels and
// rows read); past `limit` records the record goes. Step numbers never shift.
// A light record (issue 20): when a record is summarized, a `PayloadRebuilder` may keep beside it what
// cannot be recomputed (e.g. etcd key-values as key + revision), or keep the record whole (a request body
// a client sent); `payloadAt` rebuilds the whole payload from the model's history on demand, and gives the
// summary where that history is gone (compacted).

import type { Message } from './message.ts';
import { slimPayload } from './trace-summary.ts';

/** Rebuilds payloads of summarized records from what the model keeps anyway (its history). */
export interface PayloadRebuilder {
  /**
   * What must be kept to rebuild `message`'s payload later; undefined when it cannot be rebuilt. `reply`
   * finds the reply to `message` among the retained records delivered after it (`replyLookahead` at most).
   * Called for each record as it is summarized, in step order. Returning the payload itself keeps the
   * record whole (what cannot be recomputed, e.g. a request body a client sent).
   */
  refOf(message: Message, reply: () => Message | undefined): unknown;
  /** The whole payload, equal to the delivered one, from `ref`; undefined when the history it needs is gone. */
  rebuild(message: Message, ref: unknown): unknown;
}

/** A step's payload as the trace can give it: whole (kept or rebuilt), or only its summary. */
export interface TracedPayload {
  readonly payload: unknown;
  readonly kept: 'whole' | 'rebuilt' | 'summary';
}

/** How many records after a request `PayloadRebuilder.refOf`'s reply lookup reads at most. */
const replyLookahead = 4096;

export class Trace {
  private records: Message[] = [];
  private dropped = 0;
  /** Records before this index (into `records`) hold summaries instead of payloads. */
  private summarized = 0;
  /** Light records' refs, by step (only for summarized records the rebuilder can rebuild). */
  private readonly refs = new Map<number, unknown>();
  private rebuilder: PayloadRebuilder | null = null;

  /**
   * @param limit records kept (default: all)
   * @param payloadLimit the newest steps whose records keep their whole payloads (default: all kept)
   */
  constructor(readonly limit: number = Number.POSITIVE_INFINITY, readonly payloadLimit: number = limit) {
    if (!(limit > 0)) throw new RangeError(`trace limit must be positive, got ${limit}`);
    if (!(payloadLimit > 0)) throw new RangeError(`trace payload limit must be positive, got ${payloadLimit}`);
  }

  /** Number of the last recorded step (0 before the first delivery). */
  get lastStep(): number {
    return this.dropped + this.records.length;
  }

  /** The first step still retained. */
  get firstStep(): number {
    return this.dropped + 1;
  }

  /**
   * The first step whose record still holds its whole payload (earlier retained steps: summaries, but for
   * those the rebuilder kept whole; `payloadAt` says which).
   */
  get payloadsFrom(): number {
    return this.dropped + this.summarized + 1;
  }

  /** Summarized records from now on keep refs for `rebuilder` (the cluster's etcd history). */
  rebuildWith(rebuilder: PayloadRebuilder): void {
    this.rebuilder = rebuilder;
  }

  append(message: Message): void {
    this.records.push(message);
    // Both bounds act in chunks of a quarter, so retention costs O(1) amortised per append.
    const full = this.records.length - this.summarized;
    if (full > this.payloadLimit) {
      const end = Math.min(this.records.length - 1, this.summarized + Math.max(full - this.payloadLimit, Math.ceil(this.payloadLimit / 4)));
      for (let i = this.summarized; i < end; i++) {
        const record = this.records[i]!;
        const ref = this.rebuilder?.refOf(record, () => this.replyAfter(i, record.id));
        if (ref !== undefined) this.refs.set(this.dropped + i + 1, ref);
        if (ref !== record.payload) this.records[i] = { ...record, payload: slimPayload(record.payload) };
      }
      this.summarized = end;
    }
    if (this.records.length > this.limit) {
      const excess = Math.max(this.records.length - this.limit, Math.ceil(this.limit / 4));
      const drop = Math.min(excess, this.records.length - 1);
      this.records.splice(0, drop);
      for (let step = this.dropped + 1; step <= this.dropped + drop; step++) this.refs.delete(step);
      this.dropped += drop;
      this.summarized = Math.max(0, this.summarized - drop);
    }
  }

  /** The reply to request `id` among the `replyLookahead` records after index `i` (into `records`). */
  private replyAfter(i: number, id: number): Message | undefined {
    const end = Math.min(this.records.length, i + 1 + replyLookahead);
    for (let j = i + 1; j < end; j++) if (this.records[j]!.replyTo === id) return this.records[j];
    return undefined;
  }

  /**
   * The message delivered at `step`, if still retained (before `payloadsFrom`: with its payload's summary,
   * unless the rebuilder kept it whole).
   */
  at(step: number): Message | undefined {
    return this.records[step - this.dropped - 1];
  }

  /**
   * The payload delivered at `step`: whole while kept, rebuilt from a light record's ref while the
   * history it needs remains, else the summary. Undefined when the step is no longer retained.
   */
  payloadAt(step: number): TracedPayload | undefined {
    const record = this.at(step);
    if (!record) return undefined;
    if (step >= this.payloadsFrom) return { payload: record.payload, kept: 'whole' };
    const ref = this.refs.get(step);
    if (ref !== undefined && ref === record.payload) return { payload: record.payload, kept: 'whole' };
    const rebuilt = ref === undefined || !this.rebuilder ? undefined : this.rebuilder.rebuild(record, ref);
    return rebuilt === undefined ? { payload: record.payload, kept: 'summary' } : { payload: rebuilt, kept: 'rebuilt' };
  }

  /** Records for steps > `afterStep`, in order. */
  since(afterStep: number): Message[] {
    return this.records.slice(Math.max(0, afterStep - this.dropped));
  }

  all(): readonly Message[] {
    return this.records;
  }
}

/**
 * A 64-bit FNV-1a hash (two 32-bit lanes) of the serialized trace, as 16 hex digits. Two runs with the
 * same seed and commands must produce the same hash; this is what the determinism tests compare.
 */
export function traceHash(records: readonly Message[]): string {
  let lo = 0x84222325;
  let hi = 0xcbf29ce4;
  for (const record of records) {
    const s = JSON.stringify(record);
    for (let i = 0; i < s.length; i++) {
      lo = (lo ^ s.charCodeAt(i)) >>> 0;
      // Multiply the 64-bit value (hi, lo) by the FNV prime 0x100000001b3 in 32-bit pieces.
      const loMul = lo * 0x1b3;
      const carry = Math.floor(loMul / 4294967296);
      hi = (Math.imul(hi, 0x1b3) + Math.imul(lo, 0x100) + carry) >>> 0;
      lo = loMul >>> 0;
    }
  }
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

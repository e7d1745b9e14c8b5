// The trace: one record per delivery, in delivery order. A record is the delivered message itself (its
// `cause` links it to the delivery that sent it), numbered by step: the first delivery is step 1.
// Retention is bounded by `limit` (oldest records are dropped first); step numbers never shift.

import type { Message } from './message.ts';

export class Trace {
  private records: Message[] = [];
  private dropped = 0;

  constructor(readonly limit: number = Number.POSITIVE_INFINITY) {
    if (!(limit > 0)) throw new RangeError(`trace limit must be positive, got ${limit}`);
  }

  /** Number of the last recorded step (0 before the first delivery). */
  get lastStep(): number {
    return this.dropped + this.records.length;
  }

  /** The first step still retained. */
  get firstStep(): number {
    return this.dropped + 1;
  }

  append(message: Message): void {
    this.records.push(message);
    if (this.records.length > this.limit) {
      // Drop in chunks so retention costs O(1) amortised per append.
      const excess = Math.max(this.records.length - this.limit, Math.ceil(this.limit / 4));
      const drop = Math.min(excess, this.records.length - 1);
      this.records.splice(0, drop);
      this.dropped += drop;
    }
  }

  /** The message delivered at `step`, if still retained. */
  at(step: number): Message | undefined {
    return this.records[step - this.dropped - 1];
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

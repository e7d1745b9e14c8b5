// The two forms in which the etcd backend (backend.ts) keeps a put's value as a delta instead of whole: a
// superseded value against its key's next revision, and a value its key has not replaced against a recent
// value of another key (see backend.ts's header). Each keeps the KeyValue's other fields.

import { fossilTargetSize } from './delta-apply.ts';
import type { KeyValue } from './kv.ts';

/** A put's record whose value is kept as a delta: its KeyValue's other fields. */
abstract class PackedKv {
  readonly key: string;
  readonly createRevision: number;
  readonly modRevision: number;
  readonly version: number;
  readonly lease: string;
  /** A Fossil delta to this record's value, as a byte string. */
  abstract readonly delta: string;

  constructor(kv: Omit<KeyValue, 'value'>) {
    this.key = kv.key;
    this.createRevision = kv.createRevision;
    this.modRevision = kv.modRevision;
    this.version = kv.version;
    this.lease = kv.lease;
  }
}

/** A superseded put: its value is `delta` applied to the value of the key's revision `next`. */
export class SupersededKv extends PackedKv {
  constructor(
    kv: Omit<KeyValue, 'value'>,
    /** The revisionId of the key's next revision, a put of the same generation. */
    readonly next: number,
    /** The Fossil delta from that revision's value to this one's. */
    readonly delta: string,
    /** This delta's place in its run of consecutive deltas of the key (1 after a whole value). */
    readonly run: number,
  ) {
    super(kv);
  }
}

/** A put's value kept as `delta` applied to `base`, a value of another put (see the header). */
export class SharedBaseKv extends PackedKv {
  constructor(
    kv: Omit<KeyValue, 'value'>,
    /** The value the delta applies to (a byte string, shared with the put it came from). */
    readonly base: string,
    /** The Fossil delta from `base` to this value. */
    readonly delta: string,
  ) {
    super(kv);
  }
}

export type Packed = SupersededKv | SharedBaseKv;

/** A stored value's size in bytes; a packed one's is its delta's target size, read from the delta's header alone. */
export function valueSize(kv: KeyValue | Packed): number {
  return isPacked(kv) ? fossilTargetSize(kv.delta) : kv.value.length;
}

export function isPacked(kv: unknown): kv is Packed {
  return kv instanceof PackedKv;
}

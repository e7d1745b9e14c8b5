// The live keyspace mirror's records, held in columns: one slot per key in typed arrays (its meta, the step
// that wrote it, its previous version's meta) instead of one object per key. At 150,000 Pods the page
// mirrors 800,000 keys; as objects (a record and most often a previous version each) they were about half
// of the page's heap and most of what its collector walked, and every diff allocated a new record per key
// it changed. Here a write changes numbers in place. The values (and a previous version's value) the diffs
// bring are held for the `valuesHeld` keys written last only, as before.
//
// `get` builds a key's record when asked (the keyspace panel's visible rows, the key details) and keeps it
// until that key changes, so a subscriber reading an unchanged key gets the same object each time; that
// cache is bounded too.

import type { KeyMeta } from '../../protocol/index.ts';

/** A version of a key as the page holds it: its value when a diff brought it, absent when a snapshot did. */
export type HeldVersion = KeyMeta & { readonly value?: string };

export interface KeyRecord extends KeyMeta {
  readonly value?: string;
  /** The step whose delivery wrote this version; null when it came with a snapshot. */
  readonly step: number | null;
  /** The version before this one, when the UI received the change (null on create or if unseen). */
  readonly previous: HeldVersion | null;
}

/** The read side of the live records, as the panels use it (a `ReadonlyMap`'s `get`, `has` and `size`). */
export interface KeyRecords {
  get(key: string): KeyRecord | undefined;
  has(key: string): boolean;
  readonly size: number;
}

/**
 * How many of the keys written last hold their values (and their previous version's) on the page; the
 * others keep their metas only, as a snapshot gives them. Holding every value shipped made the page grow
 * with the cluster: a Pod's stored bytes and its previous version's are ~4 KB, and its Events as much
 * again. A 3-node cluster writes a few hundred keys, so there every key keeps its value; past the bound
 * the worker reads a value at its revision when the details show it (a previous version compacted since
 * then shows no change).
 */
export const valuesHeld = 4_096;

/** How many built records `get` keeps for keys that did not change since (a few screens of rows). */
const recordsKept = 8_192;

/** The values a recently written key holds: its own and its previous version's (when the page saw it). */
interface Values {
  readonly value: string;
  readonly previous: string | undefined;
}

/** No step (the key came with a snapshot), no previous version: NaN in the number columns. */
const none = Number.NaN;

export class KeyTable implements KeyRecords {
  private readonly slots = new Map<string, number>();
  private readonly free: number[] = [];
  private capacity = 0;
  private end = 0;
  /** Per slot. Revisions and steps are counts far below 2^53; versions and sizes fit 32 bits. */
  private columns = makeColumns(0);
  /** Distinct lease IDs (decimal, '0' for none) and their index. */
  private readonly leases: string[] = [];
  private readonly leaseIndex = new Map<string, number>();
  /** The keys holding values, the one written longest ago first (a Map keeps insertion order). */
  private readonly values = new Map<string, Values>();
  /** Records built by `get`, dropped when their key changes; the one built longest ago first. */
  private readonly built = new Map<string, KeyRecord>();

  /** `held`: how many keys written last hold their values (a test's small bound; else `valuesHeld`). */
  constructor(private readonly held = valuesHeld) {}

  get size(): number {
    return this.slots.size;
  }

  has(key: string): boolean {
    return this.slots.has(key);
  }

  /** How many keys hold their value, and the characters of those values and their previous versions' (a bench's figure). */
  heldValues(): { readonly keys: number; readonly chars: number } {
    let chars = 0;
    for (const { value, previous } of this.values.values()) chars += value.length + (previous?.length ?? 0);
    return { keys: this.values.size, chars };
  }

  get(key: string): KeyRecord | undefined {
    const kept = this.built.get(key);
    if (kept) return kept;
    const slot = this.slots.get(key);
    if (slot === undefined) return undefined;
    const record = this.recordAt(key, slot);
    this.built.set(key, record);
    if (this.built.size > recordsKept) this.built.delete(this.built.keys().next().value!);
    return record;
  }

  /**
   * A write the page saw as a diff: the key takes `meta`, `value` and `step`; its version before becomes its
   * previous one when it is the same key generation (same createRevision), else it has none. True when the key is new.
   */
  write(meta: KeyMeta, value: string, step: number): boolean {
    const slot = this.slots.get(meta.key);
    let previousValue: string | undefined;
    if (slot !== undefined && this.columns.createRevision[slot] === meta.createRevision) {
      this.columns.previousModRevision[slot] = this.columns.modRevision[slot]!;
      this.columns.previousVersion[slot] = this.columns.version[slot]!;
      this.columns.previousSize[slot] = this.columns.size[slot]!;
      this.columns.previousLease[slot] = this.columns.lease[slot]!;
      previousValue = this.values.get(meta.key)?.value;
    } else if (slot !== undefined) {
      this.columns.previousModRevision[slot] = none;
    }
    const at = slot ?? this.place(meta.key);
    if (slot === undefined) this.columns.previousModRevision[at] = none;
    this.setMeta(at, meta, step);
    this.values.delete(meta.key);
    this.values.set(meta.key, { value, previous: previousValue });
    if (this.values.size > this.held) {
      const oldest = this.values.keys().next().value!;
      this.values.delete(oldest);
      this.built.delete(oldest);
    }
    return slot === undefined;
  }

  /** A key as a snapshot or a move gives it: its meta and step (null: none), no value, no previous version. True when the key is new. */
  set(meta: KeyMeta, step: number | null): boolean {
    const slot = this.slots.get(meta.key);
    const at = slot ?? this.place(meta.key);
    this.setMeta(at, meta, step ?? none);
    this.columns.previousModRevision[at] = none;
    this.values.delete(meta.key);
    return slot === undefined;
  }

  /** Removes `key`; false when it was not held. */
  delete(key: string): boolean {
    const slot = this.slots.get(key);
    if (slot === undefined) return false;
    this.slots.delete(key);
    this.free.push(slot);
    this.values.delete(key);
    this.built.delete(key);
    return true;
  }

  private setMeta(at: number, meta: KeyMeta, step: number): void {
    this.columns.createRevision[at] = meta.createRevision;
    this.columns.modRevision[at] = meta.modRevision;
    this.columns.version[at] = meta.version;
    this.columns.size[at] = meta.size;
    this.columns.lease[at] = this.leaseId(meta.lease);
    this.columns.step[at] = step;
    this.built.delete(meta.key);
  }

  private recordAt(key: string, slot: number): KeyRecord {
    const createRevision = this.columns.createRevision[slot]!;
    const lease = this.leases[this.columns.lease[slot]!]!;
    const step = this.columns.step[slot]!;
    const values = this.values.get(key);
    const previousModRevision = this.columns.previousModRevision[slot]!;
    let previous: HeldVersion | null = null;
    if (!Number.isNaN(previousModRevision)) {
      const meta = {
        key, createRevision, modRevision: previousModRevision, version: this.columns.previousVersion[slot]!,
        lease: this.leases[this.columns.previousLease[slot]!]!, size: this.columns.previousSize[slot]!,
      };
      previous = values?.previous === undefined ? meta : { ...meta, value: values.previous };
    }
    const record = {
      key, createRevision, modRevision: this.columns.modRevision[slot]!, version: this.columns.version[slot]!, lease,
      size: this.columns.size[slot]!, step: Number.isNaN(step) ? null : step, previous,
    };
    return values ? { ...record, value: values.value } : record;
  }

  private leaseId(lease: string): number {
    let index = this.leaseIndex.get(lease);
    if (index === undefined) {
      index = this.leases.length;
      this.leases.push(lease);
      this.leaseIndex.set(lease, index);
    }
    return index;
  }

  /** A slot for a new key: a freed one, or the next, growing the columns by half when full. */
  private place(key: string): number {
    let slot = this.free.pop();
    if (slot === undefined) {
      if (this.end === this.capacity) this.grow(Math.max(1_024, Math.ceil(this.capacity * 1.5)));
      slot = this.end++;
    }
    this.slots.set(key, slot);
    return slot;
  }

  private grow(capacity: number): void {
    const wider = makeColumns(capacity);
    for (const name of Object.keys(wider) as (keyof Columns)[]) wider[name].set(this.columns[name]);
    this.columns = wider;
    this.capacity = capacity;
  }
}

/** The table's columns: a key's meta and step, and its previous version's meta (NaN mod revision: none). */
interface Columns {
  readonly createRevision: Float64Array;
  readonly modRevision: Float64Array;
  readonly version: Uint32Array;
  readonly size: Uint32Array;
  readonly lease: Uint32Array;
  readonly step: Float64Array;
  readonly previousModRevision: Float64Array;
  readonly previousVersion: Uint32Array;
  readonly previousSize: Uint32Array;
  readonly previousLease: Uint32Array;
}

function makeColumns(capacity: number): Columns {
  return {
    createRevision: new Float64Array(capacity), modRevision: new Float64Array(capacity), version: new Uint32Array(capacity),
    size: new Uint32Array(capacity), lease: new Uint32Array(capacity), step: new Float64Array(capacity),
    previousModRevision: new Float64Array(capacity), previousVersion: new Uint32Array(capacity),
    previousSize: new Uint32Array(capacity), previousLease: new Uint32Array(capacity),
  };
}

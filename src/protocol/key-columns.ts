// Keys without values, in columns: what a long move of the page's keyspace mirror and a keyspace snapshot
// ship (a seek across a rollout names every key: 170,000 at 30,000 Pods). As objects, each crossing to the page is a structured
// clone of 170,000 objects, hundreds of ms of the page's main thread to deserialize; as one string of keys
// and typed arrays of numbers it is a few copies of memory, and the page builds its records from them.

import type { KeyMeta } from './keyspace.ts';

/** Keys with their metas and the step that wrote each, column by column, in key order. */
export interface KeyMetaColumns {
  readonly count: number;
  /** The keys, concatenated (byte strings, one char per byte), and where each one ends in it. */
  readonly keys: string;
  readonly keyEnds: Uint32Array;
  /** Per key, `fields` numbers: createRevision, modRevision, version, size, step (-1 in a snapshot: none). */
  readonly numbers: Float64Array;
  /** The distinct lease IDs (decimal; '0' for none) and each key's index into them. */
  readonly leases: readonly string[];
  readonly leaseOf: Uint32Array;
}

const fields = 5;

/**
 * Builds columns one key at a time (in the order added), with no array of metas first: a long seek's 170,000
 * keys go straight from etcd's index into typed arrays.
 */
export class KeyMetaColumnsBuilder {
  private count = 0;
  private keyEnds = new Uint32Array(64);
  private numbers = new Float64Array(64 * fields);
  private leaseOf = new Uint32Array(64);
  private readonly leases: string[] = [];
  private readonly leaseIndex = new Map<string, number>();
  private readonly keys: string[] = [];
  private end = 0;

  /** Adds a key's meta; `step` -1 for none (a snapshot's). */
  add(meta: KeyMeta, step: number): void {
    const i = this.count++;
    if (i === this.keyEnds.length) this.grow();
    this.keys.push(meta.key);
    this.end += meta.key.length;
    this.keyEnds[i] = this.end;
    const at = i * fields;
    const { numbers } = this;
    numbers[at] = meta.createRevision;
    numbers[at + 1] = meta.modRevision;
    numbers[at + 2] = meta.version;
    numbers[at + 3] = meta.size;
    numbers[at + 4] = step;
    let lease = this.leaseIndex.get(meta.lease);
    if (lease === undefined) {
      lease = this.leases.length;
      this.leases.push(meta.lease);
      this.leaseIndex.set(meta.lease, lease);
    }
    this.leaseOf[i] = lease;
  }

  build(): KeyMetaColumns {
    const { count } = this;
    return {
      count,
      keys: this.keys.join(''),
      keyEnds: this.keyEnds.slice(0, count),
      numbers: this.numbers.slice(0, count * fields),
      leases: [...this.leases],
      leaseOf: this.leaseOf.slice(0, count),
    };
  }

  private grow(): void {
    const size = this.keyEnds.length * 2;
    const keyEnds = new Uint32Array(size);
    keyEnds.set(this.keyEnds);
    this.keyEnds = keyEnds;
    const numbers = new Float64Array(size * fields);
    numbers.set(this.numbers);
    this.numbers = numbers;
    const leaseOf = new Uint32Array(size);
    leaseOf.set(this.leaseOf);
    this.leaseOf = leaseOf;
  }
}

/** The columns of `metas` (in the order given); a meta without a step (a snapshot's) gets -1. */
export function packKeyMetas(metas: readonly (KeyMeta & { readonly step?: number })[]): KeyMetaColumns {
  const builder = new KeyMetaColumnsBuilder();
  for (const meta of metas) builder.add(meta, meta.step ?? -1);
  return builder.build();
}

/**
 * Calls `f` with each key's fields, in order, building nothing: a caller makes its own record in one object
 * literal. (The page's mirror, making a meta and then copying it into its record, took ~5× as long for a
 * seek's 170,000 keys.)
 */
export function forEachKeyFields(
  columns: KeyMetaColumns,
  f: (key: string, createRevision: number, modRevision: number, version: number, lease: string, size: number, step: number) => void,
): void {
  const { keys, keyEnds, numbers, leases, leaseOf } = columns;
  let start = 0;
  for (let i = 0; i < columns.count; i++) {
    const end = keyEnds[i]!;
    const at = i * fields;
    f(keys.slice(start, end), numbers[at]!, numbers[at + 1]!, numbers[at + 2]!, leases[leaseOf[i]!]!, numbers[at + 3]!, numbers[at + 4]!);
    start = end;
  }
}

/** Calls `f` with each key's meta and step, in order. */
export function forEachKeyMeta(columns: KeyMetaColumns, f: (meta: KeyMeta, step: number) => void): void {
  forEachKeyFields(columns, (key, createRevision, modRevision, version, lease, size, step) => f({ key, createRevision, modRevision, version, lease, size }, step));
}

/** The keys under `prefix`, in order, without slicing out the others (a seek's pods among 170,000 keys). */
export function keysUnder(columns: KeyMetaColumns, prefix: string): string[] {
  const keys: string[] = [];
  let start = 0;
  for (let i = 0; i < columns.count; i++) {
    const end = columns.keyEnds[i]!;
    if (end - start >= prefix.length && columns.keys.startsWith(prefix, start)) keys.push(columns.keys.slice(start, end));
    start = end;
  }
  return keys;
}

/** The metas alone, in order (as a snapshot's entries read). */
export function metasOfColumns(columns: KeyMetaColumns): KeyMeta[] {
  const metas: KeyMeta[] = [];
  forEachKeyMeta(columns, (meta) => metas.push(meta));
  return metas;
}

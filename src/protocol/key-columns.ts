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

/** The columns of `metas` (in the order given); a meta without a step (a snapshot's) gets -1. */
export function packKeyMetas(metas: readonly (KeyMeta & { readonly step?: number })[]): KeyMetaColumns {
  const count = metas.length;
  const keyEnds = new Uint32Array(count);
  const numbers = new Float64Array(count * fields);
  const leaseOf = new Uint32Array(count);
  const leases: string[] = [];
  const leaseIndex = new Map<string, number>();
  const keys: string[] = [];
  let end = 0;
  metas.forEach((meta, i) => {
    keys.push(meta.key);
    end += meta.key.length;
    keyEnds[i] = end;
    const at = i * fields;
    numbers[at] = meta.createRevision;
    numbers[at + 1] = meta.modRevision;
    numbers[at + 2] = meta.version;
    numbers[at + 3] = meta.size;
    numbers[at + 4] = meta.step ?? -1;
    let lease = leaseIndex.get(meta.lease);
    if (lease === undefined) {
      lease = leases.length;
      leases.push(meta.lease);
      leaseIndex.set(meta.lease, lease);
    }
    leaseOf[i] = lease;
  });
  return { count, keys: keys.join(''), keyEnds, numbers, leases, leaseOf };
}

/** Calls `f` with each key and its place, in order. */
function forEachKey(columns: KeyMetaColumns, f: (key: string, i: number) => void): void {
  let start = 0;
  for (let i = 0; i < columns.count; i++) {
    const end = columns.keyEnds[i]!;
    f(columns.keys.slice(start, end), i);
    start = end;
  }
}

/** Calls `f` with each key's meta and step, in order. */
export function forEachKeyMeta(columns: KeyMetaColumns, f: (meta: KeyMeta, step: number) => void): void {
  const { numbers, leases, leaseOf } = columns;
  forEachKey(columns, (key, i) => {
    const at = i * fields;
    f({ key, createRevision: numbers[at]!, modRevision: numbers[at + 1]!, version: numbers[at + 2]!, lease: leases[leaseOf[i]!]!, size: numbers[at + 3]! }, numbers[at + 4]!);
  });
}

/** The keys alone, in order. */
export function keysOfColumns(columns: KeyMetaColumns): string[] {
  const keys: string[] = [];
  forEachKey(columns, (key) => keys.push(key));
  return keys;
}

/** The metas alone, in order (as a snapshot's entries read). */
export function metasOfColumns(columns: KeyMetaColumns): KeyMeta[] {
  const metas: KeyMeta[] = [];
  forEachKeyMeta(columns, (meta) => metas.push(meta));
  return metas;
}

// Slices of the keyspace state the panel reads: the keyspace on show is the picked past revision's
// (while one is picked) or the live one.

import type { HeldVersion, KeyRecord } from '../store/key-table.ts';
import type { SimState } from '../store/sim-store.ts';

export function shownKeys(state: SimState): readonly string[] {
  const { past, live } = state.keyspace;
  return past ? past.keys : live.keys;
}

/** The entry of `key` in the keyspace on show; live entries carry their previous version. */
export function shownEntry(state: SimState, key: string): { readonly entry: HeldVersion; readonly previous: HeldVersion | null } | undefined {
  const { past, live } = state.keyspace;
  if (past) {
    const entry = past.entries.get(key);
    return entry && { entry, previous: null };
  }
  const record: KeyRecord | undefined = live.entries.get(key);
  return record && { entry: record, previous: record.previous };
}

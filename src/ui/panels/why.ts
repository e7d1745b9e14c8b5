// Pure helpers for the "why?" chain: where a message is found (the recent deliveries, else the chain
// the worker sent), and the chain read root first, as a story from the user's action to the step.

import type { Flight, TraceRecord } from '../../protocol/index.ts';
import type { SimState } from '../store/sim-store.ts';

/**
 * The recent deliveries by message id. Built once per `recent` array (the store replaces the array when
 * deliveries arrive), so that every caption's lookup of its request is O(1) instead of a scan of up to
 * 500 records on every store update.
 */
const byIdOf = new WeakMap<readonly TraceRecord[], ReadonlyMap<number, TraceRecord>>();
export function recentById(recent: readonly TraceRecord[]): ReadonlyMap<number, TraceRecord> {
  let index = byIdOf.get(recent);
  if (index === undefined) {
    index = new Map(recent.map((r) => [r.id, r]));
    byIdOf.set(recent, index);
  }
  return index;
}

/** A delivered message the UI still holds: among the recent deliveries or in the answered chain. */
export function heldRecord(state: Pick<SimState, 'recent' | 'why'>, id: number): TraceRecord | undefined {
  return recentById(state.recent).get(id) ?? state.why?.answer?.chain.find((r) => r.id === id);
}

/** A message the UI holds, delivered or (as a token) still in flight at the step shown. */
export function heldMessage(state: Pick<SimState, 'recent' | 'why' | 'tokens'>, id: number): TraceRecord | Flight | undefined {
  return heldRecord(state, id) ?? state.tokens.find((t) => t.id === id);
}

/** The chain root first (the user's action or a start-up timer), ending with the message asked about. */
export function storyOrder(chain: readonly TraceRecord[]): TraceRecord[] {
  return [...chain].reverse();
}

/** What started the chain: the user's own command, a component's own timer, or something older than the trace. */
export function rootKind(chain: readonly TraceRecord[], truncated: boolean): 'user' | 'timer' | 'start-up' | 'truncated' {
  if (truncated) return 'truncated';
  const root = chain.at(-1);
  if (!root) return 'start-up';
  if (root.from === 'user') return 'user';
  return root.from === root.to ? 'timer' : 'start-up';
}

/** The delivery that wrote the live version of `key` (the step the keyspace tagged it with), if held. */
export function writerOf(state: Pick<SimState, 'recent' | 'keyspace'>, key: string): TraceRecord | undefined {
  const step = state.keyspace.live.entries.get(key)?.step;
  if (step === null || step === undefined) return undefined;
  return state.recent.find((r) => r.step === step);
}

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

/** One top-level entry of the causal tree, with the deliveries that led to it since the entry before. */
export interface WhyNode {
  /** A milestone, the chain's root (the user's action, a timer) or the step asked about. */
  readonly record: TraceRecord;
  readonly role: 'root' | 'milestone' | 'asked';
  /** The requests and deliveries between the previous entry and this one, root first. */
  readonly between: readonly TraceRecord[];
}

/**
 * The cause chain as a tree, root first: the root, every milestone on the way, and the step asked about
 * at the top level; each holds the requests and deliveries that came between it and the entry before.
 * `chain` is as the worker answers it (the message first, back to the root).
 */
export function whyTree(chain: readonly TraceRecord[]): WhyNode[] {
  const ordered = storyOrder(chain);
  const nodes: WhyNode[] = [];
  let between: TraceRecord[] = [];
  ordered.forEach((record, index) => {
    const role = index === 0 ? 'root' : record.milestone !== undefined ? 'milestone' : index === ordered.length - 1 ? 'asked' : null;
    if (role === null) {
      between.push(record);
      return;
    }
    nodes.push({ record, role, between });
    between = [];
  });
  return nodes;
}

/** How many of `records` are requests (or milestones) and how many other deliveries. */
export function countByLevel(records: readonly TraceRecord[]): { readonly requests: number; readonly deliveries: number } {
  let requests = 0;
  for (const record of records) if (record.level === 'request' || record.level === 'milestone') requests++;
  return { requests, deliveries: records.length - requests };
}

/**
 * The message Why? explains: the selected one, else the step shown (the newest delivery held). Null when
 * nothing is delivered yet.
 */
export function whyTarget(state: Pick<SimState, 'selection' | 'recent'>): number | null {
  if (state.selection?.type === 'message') return state.selection.id;
  return state.recent.at(-1)?.id ?? null;
}

/**
 * Whether the open tree must be asked again for `target`: not when it already explains it, nor when the
 * playhead merely moved to a step of the chain on show (clicking an entry seeks there; the tree stays).
 */
export function whyNeedsAsking(why: SimState['why'], target: number | null, selected: boolean): boolean {
  if (why === null || target === null || why.id === target) return false;
  if (!selected && why.answer?.chain.some((r) => r.id === target)) return false;
  return true;
}

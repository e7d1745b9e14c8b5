// The scheduling framework's extension points: a plugin implements the interfaces of the points it is
// registered at, and the framework (runtime.ts) calls them in this order for each pod:
//   PreFilter → Filter (per node) → PostFilter (no node fits) → PreScore → Score (per feasible node)
//   → NormalizeScore → Reserve → Permit → PreBind → Bind.
// CycleState carries what a plugin computed at PreFilter or PreScore to its own later calls, for one pod.
// Models pkg/scheduler/framework/interface.go (the plugin interfaces, Status codes) and cycle_state.go.
//
// Not modelled: Permit's Wait (a plugin allows or rejects at once), PostBind, QueueSort and EnqueueExtensions.

import type { Pod } from '../../api/types/core.ts';
import type { Co } from '../../engine/index.ts';
import type { NodeInfo } from './types.ts';

/** framework.CycleState: per-pod data plugins write at one extension point and read at a later one. */
export class CycleState {
  private readonly data = new Map<string, unknown>();

  write(key: string, value: unknown): void {
    this.data.set(key, value);
  }

  /** The value a plugin wrote under `key` earlier in this cycle; a missing key is a plugin bug. */
  read<T>(key: string): T {
    if (!this.data.has(key)) throw new Error(`cycle state has no ${key}`);
    return this.data.get(key) as T;
  }
}

/** A Filter's or PostFilter's verdict: no reasons is Success; otherwise Unschedulable (or UnschedulableAndUnresolvable). */
export interface FilterResult {
  readonly reasons: readonly string[];
  /** UnschedulableAndUnresolvable: preemption cannot help. */
  readonly unresolvable: boolean;
}

/** The Status of the points after scheduling (Reserve, Permit, PreBind, Bind): null is Success. */
export type PluginFailure = { readonly code: 'Unschedulable' | 'Error'; readonly message: string } | null;

interface Plugin {
  readonly name: string;
}

export interface PreFilterPlugin extends Plugin {
  preFilter(state: CycleState, pod: Pod): void;
}

export interface FilterPlugin extends Plugin {
  filter(state: CycleState, pod: Pod, info: NodeInfo): FilterResult;
}

export interface PostFilterPlugin extends Plugin {
  /** Runs when no node fits; returns the message FitError appends ('' for none). */
  postFilter(state: CycleState, pod: Pod, numNodes: number, failures: readonly FilterResult[]): string;
}

export interface PreScorePlugin extends Plugin {
  /** False is Skip: the plugin's Score is not run for this pod. */
  preScore(state: CycleState, pod: Pod, feasible: readonly NodeInfo[], all: readonly NodeInfo[]): boolean;
}

export interface ScorePlugin extends Plugin {
  score(state: CycleState, pod: Pod, info: NodeInfo): number;
  /** ScoreExtensions.NormalizeScore: the raw scores of the feasible nodes, in order, to 0..100. */
  normalizeScore?(state: CycleState, raw: readonly number[]): number[];
}

interface ReservePlugin extends Plugin {
  reserve(state: CycleState, pod: Pod, nodeName: string): PluginFailure;
  unreserve(state: CycleState, pod: Pod, nodeName: string): void;
}

interface PermitPlugin extends Plugin {
  permit(state: CycleState, pod: Pod, nodeName: string): PluginFailure;
}

interface PreBindPlugin extends Plugin {
  preBind(state: CycleState, pod: Pod, nodeName: string): Co<PluginFailure>;
}

export interface BindPlugin extends Plugin {
  bind(state: CycleState, pod: Pod, nodeName: string): Co<PluginFailure>;
}

/** A Score plugin with its weight in the profile. */
interface WeightedScorePlugin {
  readonly plugin: ScorePlugin;
  readonly weight: number;
}

/** The plugins enabled at each extension point, in the order they run (a profile's `plugins`). */
export interface Plugins {
  readonly preFilter: readonly PreFilterPlugin[];
  readonly filter: readonly FilterPlugin[];
  readonly postFilter: readonly PostFilterPlugin[];
  readonly preScore: readonly PreScorePlugin[];
  readonly score: readonly WeightedScorePlugin[];
  readonly reserve: readonly ReservePlugin[];
  readonly permit: readonly PermitPlugin[];
  readonly preBind: readonly PreBindPlugin[];
  /** At least one binder (the configuration's validation requires it). */
  readonly bind: readonly [BindPlugin, ...BindPlugin[]];
}

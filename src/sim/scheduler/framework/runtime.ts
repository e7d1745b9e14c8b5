// The framework runtime: runs a profile's plugins at each extension point, in the profile's order.
// Filter stops at a node's first failing plugin; Score runs every plugin PreScore did not skip over the
// feasible nodes, normalizes and weighs them; Reserve, Permit, PreBind and Bind stop at the first failure
// (Bind at the first binder).
// Models pkg/scheduler/framework/runtime/framework.go (RunPreFilterPlugins, RunFilterPlugins,
// RunPostFilterPlugins, RunPreScorePlugins, RunScorePlugins, RunReservePluginsReserve/Unreserve,
// RunPermitPlugins, RunPreBindPlugins, RunBindPlugins).

import type { Pod } from '../../api/types/core.ts';
import type { Co } from '../../engine/index.ts';
import type { CycleState, FilterResult, PluginFailure, Plugins, ScorePlugin } from './interface.ts';
import type { NodeInfo } from './types.ts';

/** One Score plugin's scores of the feasible nodes, in their order. */
interface PluginScores {
  readonly plugin: ScorePlugin;
  readonly weight: number;
  readonly raw: readonly number[];
  readonly normalized: readonly number[];
}

/** The Filter plugin a node failed at (its place in the profile) and its verdict. */
interface FilterFailure {
  readonly index: number;
  readonly result: FilterResult;
}

export class Framework {
  constructor(readonly plugins: Plugins) {}

  runPreFilterPlugins(state: CycleState, pod: Pod): void {
    for (const p of this.plugins.preFilter) p.preFilter(state, pod);
  }

  /** The node's first failing Filter plugin, or null when it passes them all. */
  runFilterPlugins(state: CycleState, pod: Pod, info: NodeInfo): FilterFailure | null {
    const filters = this.plugins.filter;
    for (let index = 0; index < filters.length; index++) {
      const result = filters[index]!.filter(state, pod, info);
      if (result.reasons.length > 0) return { index, result };
    }
    return null;
  }

  /** No node fits: the PostFilter plugins' messages ('' when none has one). */
  runPostFilterPlugins(state: CycleState, pod: Pod, numNodes: number, failures: readonly FilterResult[]): string {
    return this.plugins.postFilter.map((p) => p.postFilter(state, pod, numNodes, failures)).filter((m) => m !== '').join(' ');
  }

  /** Runs PreScore; returns the names of the plugins that asked to skip their Score for this pod. */
  runPreScorePlugins(state: CycleState, pod: Pod, feasible: readonly NodeInfo[], all: readonly NodeInfo[]): ReadonlySet<string> {
    const skip = new Set<string>();
    for (const p of this.plugins.preScore) if (!p.preScore(state, pod, feasible, all)) skip.add(p.name);
    return skip;
  }

  runScorePlugins(state: CycleState, pod: Pod, feasible: readonly NodeInfo[], skip: ReadonlySet<string>): PluginScores[] {
    const scores: PluginScores[] = [];
    for (const { plugin, weight } of this.plugins.score) {
      if (skip.has(plugin.name)) continue;
      const raw = feasible.map((info) => plugin.score(state, pod, info));
      scores.push({ plugin, weight, raw, normalized: plugin.normalizeScore ? plugin.normalizeScore(state, raw) : raw });
    }
    return scores;
  }

  runReservePluginsReserve(state: CycleState, pod: Pod, nodeName: string): PluginFailure {
    for (const p of this.plugins.reserve) {
      const failure = p.reserve(state, pod, nodeName);
      if (failure) return failure;
    }
    return null;
  }

  /** Unreserve runs in the reverse order of Reserve. */
  runReservePluginsUnreserve(state: CycleState, pod: Pod, nodeName: string): void {
    for (const p of [...this.plugins.reserve].reverse()) p.unreserve(state, pod, nodeName);
  }

  runPermitPlugins(state: CycleState, pod: Pod, nodeName: string): PluginFailure {
    for (const p of this.plugins.permit) {
      const failure = p.permit(state, pod, nodeName);
      if (failure) return failure;
    }
    return null;
  }

  *runPreBindPlugins(state: CycleState, pod: Pod, nodeName: string): Co<PluginFailure> {
    for (const p of this.plugins.preBind) {
      const failure = yield* p.preBind(state, pod, nodeName);
      if (failure) return failure;
    }
    return null;
  }

  /** The first Bind plugin binds (none of Podflow's binders skips a pod). */
  *runBindPlugins(state: CycleState, pod: Pod, nodeName: string): Co<PluginFailure> {
    return yield* this.plugins.bind[0].bind(state, pod, nodeName);
  }
}

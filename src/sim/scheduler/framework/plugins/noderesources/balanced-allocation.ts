// NodeResourcesBalancedAllocation (PreScore, Score): a node whose cpu and memory would be used in
// equal fractions after the pod scores higher.
// Models pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go.

import type { PreScorePlugin, ScorePlugin } from '../../interface.ts';
import { allocatable, maxNodeScore, podRequests, requested, type Resources } from '../../types.ts';

const preScoreStateKey = 'PreScoreNodeResourcesBalancedAllocation';

/** The requested fraction of one resource, at most 1. */
function requestedFraction(req: number, cap: number): number {
  return cap === 0 ? 0 : Math.min(1, req / cap);
}

export const balancedAllocation: PreScorePlugin & ScorePlugin = {
  name: 'NodeResourcesBalancedAllocation',
  preScore(state, pod) {
    state.write(preScoreStateKey, podRequests(pod, true));
    return true;
  },
  score(state, _pod, info) {
    const want = state.read<Resources>(preScoreStateKey);
    const alloc = allocatable(info.node);
    const used = requested(info, true);
    const std = Math.abs(requestedFraction(used.cpu + want.cpu, alloc.cpu) - requestedFraction(used.memory + want.memory, alloc.memory)) / 2;
    return Math.floor((1 - std) * maxNodeScore);
  },
};

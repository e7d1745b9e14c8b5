// NodeResourcesFit (PreFilter, Filter, PreScore, Score): a node fits when its allocatable pods, cpu and
// memory hold the pod beside the requests already there; it scores by the LeastAllocated strategy.
// Models pkg/scheduler/framework/plugins/noderesources/fit.go (PreFilter, Filter, fitsRequest,
// PreScore, Score).

import type { CycleState, FilterPlugin, FilterResult, PreFilterPlugin, PreScorePlugin, ScorePlugin } from '../../interface.ts';
import { allocatable, podRequests, requested, type Resources } from '../../types.ts';
import { leastAllocatedScore } from './least-allocated.ts';

const pass: FilterResult = { reasons: [], unresolvable: false };
const preFilterStateKey = 'PreFilterNodeResourcesFit';
const preScoreStateKey = 'PreScoreNodeResourcesFit';

export const nodeResourcesFit: PreFilterPlugin & FilterPlugin & PreScorePlugin & ScorePlugin = {
  name: 'NodeResourcesFit',
  preFilter(state, pod) {
    state.write(preFilterStateKey, podRequests(pod));
  },
  filter(state, _pod, info) {
    const alloc = allocatable(info.node);
    const used = requested(info, false);
    const want = state.read<Resources>(preFilterStateKey);
    const reasons: string[] = [];
    if ((info.podCount ?? info.pods.length) + 1 > alloc.pods) reasons.push('Too many pods');
    if (want.cpu > 0 && want.cpu > alloc.cpu - used.cpu) reasons.push('Insufficient cpu');
    if (want.memory > 0 && want.memory > alloc.memory - used.memory) reasons.push('Insufficient memory');
    return reasons.length ? { reasons, unresolvable: false } : pass;
  },
  preScore(state, pod) {
    state.write(preScoreStateKey, podRequests(pod, true));
    return true;
  },
  score(state: CycleState, _pod, info) {
    return leastAllocatedScore(info, state.read<Resources>(preScoreStateKey));
  },
};

// The NodeResourcesFit plugin's default scoring strategy: the more of cpu and memory a node would have
// left after the pod, the higher it scores (cpu and memory weigh 1 each).
// Models pkg/scheduler/framework/plugins/noderesources/least_allocated.go.

import { allocatable, maxNodeScore, requested, type NodeInfo, type Resources } from '../../types.ts';

/** leastRequestedScore for one resource. */
function leastRequestedScore(cap: number, req: number): number {
  return cap === 0 || req > cap ? 0 : Math.floor(((cap - req) * maxNodeScore) / cap);
}

/** The node's score for a pod requesting `want` (non-zero requests). */
export function leastAllocatedScore(info: NodeInfo, want: Resources): number {
  const alloc = allocatable(info.node);
  const used = requested(info, true);
  return Math.floor((leastRequestedScore(alloc.cpu, used.cpu + want.cpu) + leastRequestedScore(alloc.memory, used.memory + want.memory)) / 2);
}

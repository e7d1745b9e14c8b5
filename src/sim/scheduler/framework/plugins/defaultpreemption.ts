// DefaultPreemption (PostFilter): when no node fits, it looks for lower-priority victims to evict.
// Podflow's pods all have the same priority, so every node is either not helpful (its failure is
// UnschedulableAndUnresolvable) or has no victims; the plugin only writes that message, which the
// FailedScheduling event appends to the FitError (ending in `..`, as a 1.28 scheduler's does).
// Models pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go and
// pkg/scheduler/framework/preemption/preemption.go (Evaluator.Preempt's "preemption: 0/N nodes are available").

import type { PostFilterPlugin } from '../interface.ts';

export const defaultPreemption: PostFilterPlugin = {
  name: 'DefaultPreemption',
  postFilter(_state, _pod, numNodes, failures) {
    if (numNodes === 0) return '';
    const unresolvable = failures.filter((f) => f.unresolvable).length;
    const preempt: string[] = [];
    if (unresolvable > 0) preempt.push(`${unresolvable} Preemption is not helpful for scheduling`);
    if (failures.length - unresolvable > 0) preempt.push(`${failures.length - unresolvable} No preemption victims found for incoming pod`);
    return `preemption: 0/${numNodes} nodes are available: ${preempt.sort().join(', ')}..`;
  },
};

// The message of a pod no node fits, as the FailedScheduling event and the PodScheduled condition show it.
// Models pkg/scheduler/framework/types.go (FitError.Error: the reasons histogram, then PostFilterMsg).

import type { FilterResult } from './interface.ts';

/** `0/<N> nodes are available: <count> <reason>, ….` then the PostFilter plugins' message. */
export function fitErrorMessage(numNodes: number, failures: readonly FilterResult[], postFilterMessage: string): string {
  const histogram = new Map<string, number>();
  for (const f of failures) for (const r of f.reasons) histogram.set(r, (histogram.get(r) ?? 0) + 1);
  const reasons = [...histogram].map(([r, n]) => `${n} ${r}`).sort();
  const message = `0/${numNodes} nodes are available: ${reasons.join(', ')}.`;
  return postFilterMessage === '' ? message : `${message} ${postFilterMessage}`;
}

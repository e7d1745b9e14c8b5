// How many feasible nodes kube-scheduler looks for before it stops filtering, and where it starts.
// Models pkg/scheduler/schedule_one.go (numFeasibleNodesToFind; the constants minFeasibleNodesToFind and
// minFeasibleNodesPercentageToFind in pkg/scheduler/scheduler.go).

/** Below this many nodes every node is filtered; above it the search stops at no fewer feasible nodes. */
export const minFeasibleNodesToFind = 100;

/** The adaptive percentage never goes below this. */
export const minFeasibleNodesPercentageToFind = 5;

/**
 * The number of feasible nodes that, once found, ends the search: all nodes below 100; otherwise the
 * profile's percentageOfNodesToScore when it sets one, else the global one, 0 meaning adaptive
 * (50 − nodes/125, at least 5), of the nodes, and at least 100. Integer arithmetic as upstream's int32.
 */
export function numFeasibleNodesToFind(globalPercentage: number, numAllNodes: number, profilePercentage?: number): number {
  if (numAllNodes < minFeasibleNodesToFind) return numAllNodes;
  let percentage = profilePercentage ?? globalPercentage;
  if (percentage === 0) {
    percentage = 50 - Math.trunc(numAllNodes / 125);
    if (percentage < minFeasibleNodesPercentageToFind) percentage = minFeasibleNodesPercentageToFind;
  }
  const numNodes = Math.trunc((numAllNodes * percentage) / 100);
  return numNodes < minFeasibleNodesToFind ? minFeasibleNodesToFind : numNodes;
}

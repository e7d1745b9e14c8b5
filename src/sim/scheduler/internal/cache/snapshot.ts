// One node as a scheduling cycle sees it: the Node, its pod count and request sums, and its pods (the
// informer's assigned ones in key order, then the ones this scheduler assumed there), listed only when a
// plugin reads them (host ports, topology spread).
// Models pkg/scheduler/internal/cache/snapshot.go (the NodeInfo list a cycle reads) over
// framework/types.go NodeInfo.

import type { Node, Pod } from '../../../api/types/core.ts';
import type { Indexer } from '../../../client/index.ts';
import type { NodeInfo, Resources } from '../../framework/types.ts';

/** The pod informer's index of assigned pods by node (the cache's NodeInfo pods). */
export const nodeNameIndex = 'spec.nodeName';

export class CachedNodeInfo implements NodeInfo {
  private listed: readonly Pod[] | undefined;

  constructor(readonly node: Node, private readonly index: Indexer<Pod>, private readonly assumed: readonly Pod[] | undefined,
    readonly podCount: number, readonly requested: Resources, readonly nonZeroRequested: Resources) {}

  get pods(): readonly Pod[] {
    if (this.listed === undefined) {
      const name = this.node.metadata.name ?? '';
      const assigned = name === '' ? [] : this.index.byIndex(nodeNameIndex, name);
      this.listed = this.assumed ? [...assigned, ...this.assumed] : assigned;
    }
    return this.listed;
  }
}

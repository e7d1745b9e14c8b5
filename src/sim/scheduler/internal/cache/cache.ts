// The scheduler cache: the nodes and the pods assigned to them, from the informers, plus the pods this
// scheduler has assumed on a node (bound, or being bound, but not yet seen assigned). Each cycle reads a
// snapshot of it: every node in name order with its pods counted and their requests summed.
// Models pkg/scheduler/internal/cache/cache.go (AssumePod, ForgetPod, AddPod confirming an assumed pod,
// RemovePod, UpdateSnapshot) and snapshot.go (NodeInfoList).
//
// Not modelled: the assumed pods' expiry (a pod stays assumed until the informer shows it assigned or
// deleted, or its binding fails). The cache reads the pod informer's index instead of keeping its own
// copy of the assigned pods; the per-node sums are kept until a pod of that node changes, and a node's
// NodeInfo is given again by the next snapshot while neither the node nor its pods changed. As
// UpdateSnapshot, a snapshot starts from the last one and makes again only the nodes that changed since
// (told by the informers' indexes) and those with assumed pods, then or now: at 5,000 nodes, walking every
// node each cycle was a tenth of a 150,000-Pod run's time. A node added or removed sorts them all again.

import type { Node, Pod } from '../../../api/types/core.ts';
import type { SharedIndexInformer } from '../../../client/index.ts';
import { sumRequests, type NodeInfo, type Resources } from '../../framework/types.ts';
import { CachedNodeInfo, nodeNameIndex } from './snapshot.ts';

/** The node informer's index of nodes by name: its changes tell the cache which nodes to make again. */
const schedulerNodeIndex = 'scheduler-cache.node';

interface PodSums {
  readonly count: number;
  readonly requested: Resources;
  readonly nonZeroRequested: Resources;
}

export class SchedulerCache {
  /** Pods bound by this scheduler that the informer has not shown assigned yet, by `namespace/name`. */
  private readonly assumed = new Map<string, Pod>();
  /** Per node name: the informer's assigned pods counted and their requests summed, until one of them changes. */
  private readonly nodePodSums = new Map<string, PodSums>();
  /** nodesByName's cache: node names in key order and their permutation into name order. */
  private nodeOrder: { names: readonly string[]; order: readonly number[] } | null = null;
  /**
   * Per node name, the NodeInfo the last snapshot gave a node with no assumed pod, with the node object
   * and the pod sums it was made from: the next snapshot gives it again while both are the same objects
   * (nothing of that node changed: UpdateSnapshot's generation check). Emptied when the set of nodes changes.
   */
  private readonly lastInfos = new Map<string, { readonly node: Node; readonly sums: PodSums; readonly info: NodeInfo }>();
  /** The last snapshot and each node's place in it (null: make the next one from every node). */
  private last: { readonly infos: NodeInfo[]; readonly place: ReadonlyMap<string, number> } | null = null;
  /** Nodes whose object or assigned pods changed since the last snapshot. */
  private readonly changed = new Set<string>();
  /** Nodes the last snapshot counted assumed pods on. */
  private lastAssumed: ReadonlySet<string> = new Set();

  constructor(private readonly pods: SharedIndexInformer<Pod>, private readonly nodes: SharedIndexInformer<Node>) {
    pods.indexer.addIndexer(nodeNameIndex, (p) => (p.spec.nodeName ? [p.spec.nodeName] : []));
    pods.indexer.onIndexChange(nodeNameIndex, (node) => {
      this.nodePodSums.delete(node);
      this.changed.add(node);
    });
    nodes.indexer.addIndexer(schedulerNodeIndex, (n) => [n.metadata.name ?? '']);
    nodes.indexer.onIndexChange(schedulerNodeIndex, (node) => this.changed.add(node));
  }

  /** AssumePod: the pod counts on its node from now on, before the informer shows it there. */
  assumePod(key: string, pod: Pod): void {
    this.assumed.set(key, pod);
  }

  /** ForgetPod (its binding failed), or AddPod and RemovePod (the informer shows it assigned, or gone). */
  forgetPod(key: string): void {
    this.assumed.delete(key);
  }

  /** UpdateSnapshot + NodeInfoList: each node with its pods (assigned, then assumed), in name order. */
  snapshot(): NodeInfo[] {
    const assumedByNode = new Map<string, Pod[]>();
    for (const [key, p] of this.assumed) {
      const [ns, n] = key.split('/') as [string, string];
      if (!p.spec.nodeName || this.pods.get(ns, n)?.spec.nodeName) continue;
      const list = assumedByNode.get(p.spec.nodeName) ?? [];
      list.push(p);
      assumedByNode.set(p.spec.nodeName, list);
    }
    const infos = this.changedOnly(assumedByNode) ?? this.everyNode(assumedByNode);
    this.changed.clear();
    this.lastAssumed = new Set(assumedByNode.keys());
    // The caller's array is its own: the next snapshot starts from the cache's.
    return infos.slice();
  }

  /** The last snapshot with the nodes changed since made again; null when a node was added or removed. */
  private changedOnly(assumedByNode: ReadonlyMap<string, Pod[]>): NodeInfo[] | null {
    const { last } = this;
    if (last === null || last.infos.length !== this.nodes.indexer.size) return null;
    for (const name of [...this.changed, ...this.lastAssumed, ...assumedByNode.keys()]) {
      const at = last.place.get(name);
      const node = this.nodes.indexer.getByKey(name);
      if (at === undefined || node === undefined) return null;
      last.infos[at] = this.infoOf(node, name, assumedByNode.get(name));
    }
    return last.infos;
  }

  private everyNode(assumedByNode: ReadonlyMap<string, Pod[]>): NodeInfo[] {
    const infos = this.nodesByName().map((node) => this.infoOf(node, node.metadata.name ?? '', assumedByNode.get(node.metadata.name ?? '')));
    this.last = { infos, place: new Map(infos.map((info, i) => [info.node.metadata.name ?? '', i])) };
    return infos;
  }

  private infoOf(node: Node, name: string, assumed: readonly Pod[] | undefined): NodeInfo {
    const podsIndex = this.pods.indexer;
    const sums = this.podSums(name);
    if (assumed === undefined) {
      const last = this.lastInfos.get(name);
      if (last !== undefined && last.node === node && last.sums === sums) return last.info;
      const info = new CachedNodeInfo(node, podsIndex, undefined, sums.count, sums.requested, sums.nonZeroRequested);
      this.lastInfos.set(name, { node, sums, info });
      return info;
    }
    return new CachedNodeInfo(node, podsIndex, assumed, sums.count + assumed.length,
      sumRequests(assumed, false, sums.requested), sumRequests(assumed, true, sums.nonZeroRequested));
  }

  private podSums(node: string): PodSums {
    let sums = this.nodePodSums.get(node);
    if (sums === undefined) {
      const pods = node === '' ? [] : this.pods.indexer.byIndex(nodeNameIndex, node);
      sums = { count: pods.length, requested: sumRequests(pods, false), nonZeroRequested: sumRequests(pods, true) };
      this.nodePodSums.set(node, sums);
    }
    return sums;
  }

  /** The nodes in name order; the order is sorted again only when the set of nodes changes. */
  private nodesByName(): Node[] {
    const nodes = this.nodes.list();
    const names = nodes.map((n) => n.metadata.name ?? '');
    const cached = this.nodeOrder;
    if (cached === null || cached.names.length !== names.length || cached.names.some((n, i) => n !== names[i])) {
      const order = names.map((_, i) => i).sort((a, b) => names[a]!.localeCompare(names[b]!));
      this.nodeOrder = { names, order };
      this.lastInfos.clear();
      return order.map((i) => nodes[i]!);
    }
    return cached.order.map((i) => nodes[i]!);
  }
}

// Lays the cluster out as React Flow nodes and edges, from the topology alone: kube-apiserver in the
// middle with etcd to its right, kubectl/etcdctl top left, the controller manager and the scheduler
// along the top, one kubelet per node along the bottom (the row moves down as it widens). No straight
// link crosses a third component's box; etcdctl's direct link to etcd passes above kube-apiserver.
// Kubelets (the pods on their node) and kube-scheduler (the pods not yet bound) are taller: they hold
// two rows of pod chips, at a fixed size whatever the number of pods, so nothing moves while playing.

import type { Edge, Node } from '@xyflow/react';
import type { ComponentRole, ComponentView, Topology } from '../../protocol/index.ts';

const componentSize = { width: 220, height: 64 } as const;
/** kube-apiserver's box, with its row of request stages. */
const apiserverSize = { width: 220, height: 84 } as const;
/** A box with pod chips (kubelets, kube-scheduler). */
const podBoxSize = { width: 220, height: 120 } as const;

/** Whether the role's box shows pod chips: a kubelet its node's pods, kube-scheduler the unbound ones. */
export function showsPods(role: ComponentRole): boolean {
  return role === 'kubelet' || role === 'kube-scheduler';
}

export interface ComponentNodeData extends Record<string, unknown> {
  readonly component: ComponentView;
  readonly title: string;
  /** The node, for a kubelet; `user` for the user; otherwise empty. */
  readonly subtitle: string;
}

export interface LinkEdgeData extends Record<string, unknown> {
  readonly latency: number;
  readonly jitter: number;
  /** Both ends are modelled, so messages can travel it. */
  readonly live: boolean;
}

export type ComponentNodeType = Node<ComponentNodeData, 'component'>;
export type LinkEdgeType = Edge<LinkEdgeData, 'link'>;

const titles: Record<ComponentRole, string> = {
  user: 'kubectl / etcdctl',
  'kube-apiserver': 'kube-apiserver',
  etcd: 'etcd',
  'kube-controller-manager': 'kube-controller-manager',
  'kube-scheduler': 'kube-scheduler',
  kubelet: 'kubelet',
};

const column = componentSize.width + 140;
const row = 160;

const fixedPositions: Record<Exclude<ComponentRole, 'kubelet'>, { x: number; y: number }> = {
  user: { x: 0, y: 0 },
  'kube-controller-manager': { x: column, y: 0 },
  'kube-scheduler': { x: 2 * column, y: 0 },
  'kube-apiserver': { x: column, y: row },
  etcd: { x: 2 * column, y: row },
};

const kubeletRow = { y: 2 * row + 20, spacing: componentSize.width + 40, extraYPerKubelet: 60 } as const;

export function layoutTopology(topology: Topology): { nodes: ComponentNodeType[]; edges: LinkEdgeType[] } {
  const kubelets = topology.components.filter((c) => c.role === 'kubelet');
  const apiserverCenterX = fixedPositions['kube-apiserver'].x + componentSize.width / 2;
  const position = (component: ComponentView): { x: number; y: number } => {
    if (component.role !== 'kubelet') return fixedPositions[component.role];
    const i = kubelets.indexOf(component);
    return {
      x: apiserverCenterX - componentSize.width / 2 + (i - (kubelets.length - 1) / 2) * kubeletRow.spacing,
      y: kubeletRow.y + Math.max(0, kubelets.length - 3) * kubeletRow.extraYPerKubelet,
    };
  };
  const nodes = topology.components.map((component): ComponentNodeType => ({
    id: component.name,
    type: 'component',
    position: position(component),
    ...(showsPods(component.role) ? podBoxSize : component.role === 'kube-apiserver' ? apiserverSize : componentSize),
    draggable: false,
    connectable: false,
    selectable: false,
    ariaRole: 'group',
    ariaLabel: `${component.name}${component.modelled ? '' : ', not modelled yet'}`,
    data: {
      component,
      title: titles[component.role],
      subtitle: component.role === 'kubelet' ? (component.node ?? component.name) : component.role === 'user' ? 'user' : '',
    },
  }));
  const modelled = new Set(topology.components.filter((c) => c.modelled).map((c) => c.name));
  const edges = topology.links.map((link): LinkEdgeType => ({
    id: linkId(link.a, link.b),
    type: 'link',
    source: link.a,
    target: link.b,
    // Above the nodes (the token layer is above both). etcdctl's direct link to etcd crosses the
    // controller manager's link to kube-apiserver at its middle: it is drawn on top, so clicking it there
    // picks it.
    zIndex: link.a === 'user' && link.b === 'etcd' ? 2 : 1,
    selectable: false,
    ariaLabel: `link between ${link.a} and ${link.b}, ${link.latency} ms`,
    data: { latency: link.latency, jitter: link.jitter, live: modelled.has(link.a) && modelled.has(link.b) },
  }));
  return { nodes, edges };
}

function linkId(a: string, b: string): string {
  return `${a}--${b}`;
}

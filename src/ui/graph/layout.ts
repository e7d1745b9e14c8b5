// Lays the cluster out as React Flow nodes and edges, from the topology alone. Every box is sized for
// what it shows inside (protocol/insides.ts) at 11 px text or more, and the default 3-node graph fits in
// 720 × 400 CSS px at zoom 1:
//
//   [kubectl / etcdctl]        [kube-controller-manager] [kube-scheduler ]    row A
//   [etcd        ] [kube-apiserver                                    ]       row B
//   [kubelet node-1] [kubelet node-2] [kubelet node-3]                        row C (more kubelets: more rows)
//
// Clients of the server's etcd endpoint (real etcdctl, etcd client libraries) stand in a column left of
// etcd, one box per connection, as they connect. etcdctl reaches etcd straight down; kubectl's link to kube-apiserver passes between the controller
// manager and etcd; the controller manager and the scheduler link straight down to kube-apiserver. No
// link of the first kubelet row crosses a third box. Kubelets beyond the first row wrap into more rows
// under it; their links are drawn beneath the boxes (as wires behind cards), so they never cover a box's
// text. Box sizes never depend on the state shown, so nothing moves while playing.
//
// A 3-member etcd fits the panes of 1280×720 (about 760 × 520) and 1440×900 (about 1040 × 410) at zoom 1,
// in 722 × 388: the members stand in a column of compact boxes in the etcd slot and below it (their role and
// term in the heading), and the kubelets, narrower, centre under kube-apiserver right of the column. etcd-1's
// and etcd-2's links to kube-apiserver pass no other box and are drawn above the boxes; etcd-3's, the peer
// links raft travels and the links from kubectl / etcdctl are drawn beneath them, so a member's numbers are
// never covered.
//
//   [kubectl / etcdctl]   [kube-controller-manager] [kube-scheduler]
//   [etcd-1]        [kube-apiserver                    ]
//   [etcd-2]
//   [etcd-3] [kubelet node-1] [kubelet node-2] [kubelet node-3]
//
// A 5-member etcd takes the etcd slot as a zigzag of member boxes, odd members in a column beside
// kube-apiserver and even ones in a column further left, so each member's link to kube-apiserver passes
// between the members of the near column; the kubelet rows move down below the members (this graph is
// taller than the pane at 1280×720, and the pane scrolls).
//
//   [kubectl / etcdctl]
//              [etcd-1]  [kube-apiserver]
//   [etcd-2]
//              [etcd-3]
//   [etcd-4]
//              [etcd-5]

import { Position, type Edge, type Node } from '@xyflow/react';
import type { ComponentRole, ComponentView, Topology } from '../../protocol/index.ts';

interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** The graph's size target at zoom 1 (the default 3-node cluster). */
export const graphTarget = { width: 720, height: 400 } as const;

const rowA = { y: 0, height: 96 } as const;
const rowB = { y: rowA.y + rowA.height + 40, height: 88 } as const;
/** The first kubelet row's top in the default graph: low enough that its links climb steeply past their neighbours. */
const rowC = { y: rowB.y + rowB.height + 80, height: 84 } as const;

const fixedBoxes: Record<Exclude<ComponentRole, 'kubelet' | 'etcd-client'>, Box> = {
  user: { x: 0, y: rowA.height - 36, width: 150, height: 40 },
  'kube-controller-manager': { x: 190, y: rowA.y, width: 270, height: rowA.height },
  'kube-scheduler': { x: 474, y: rowA.y, width: 246, height: rowA.height },
  etcd: { x: 0, y: rowB.y, width: 240, height: rowB.height },
  'kube-apiserver': { x: 270, y: rowB.y, width: 400, height: rowB.height },
};

const kubelet = { width: 230, height: rowC.height, gap: 15, rowGap: 24 } as const;

/** A member box of a 3-member etcd: a heading and three lines. */
const memberBox = { width: 180, height: 70, gap: 10 } as const;

/**
 * Where the three members of a 3-member etcd stand (see the top of this file): a column whose boxes step
 * 5 px right each, so every peer link (the links between the members, down the column's middle) leans
 * right going down. A token label's first spot is on a link's upper side (token-placement.ts), which for
 * these links is its right, inside the graph: left of them a label of a raft message would pass the
 * graph's, and at 1280×720 the pane's, left edge.
 */
const threeMembers: readonly Box[] = [0, 1, 2].map((i) => ({
  x: 12 + 5 * i, y: rowB.y + i * (memberBox.height + memberBox.gap), width: memberBox.width, height: memberBox.height,
}));

/** The kubelets beside a 3-member etcd's column: narrower, centred under kube-apiserver, 16 px right of etcd-3. */
const besideMembers = { width: 160, gap: 12 } as const;

/** A 5-member etcd's zigzag: the near and far columns' left edges and how far each member sits below the one before it. */
const fiveMembers = { near: 90, far: -80, stride: 64 } as const;

/** The box of member `index` (0-based) of `count` (3 or 5). */
function memberBoxOf(index: number, count: number): Box {
  if (count === 3) return threeMembers[index]!;
  return { x: index % 2 === 0 ? fiveMembers.near : fiveMembers.far, y: rowB.y + index * fiveMembers.stride, width: 150, height: 92 };
}

/** Whether member `index` of `count` links to kube-apiserver past no other box (its link is drawn above the boxes). */
function memberInView(index: number, count: number): boolean {
  return count === 3 ? index < 2 : index % 2 === 0;
}
/** The least slope of a first-row kubelet's link to kube-apiserver. */
const minSlope = 0.47;

/** Kubelets per row: three, or more for large clusters so the rows stay few. */
export function kubeletsPerRow(count: number): number {
  return Math.max(3, Math.ceil(Math.sqrt(count)));
}

export interface ComponentNodeData extends Record<string, unknown> {
  readonly component: ComponentView;
  readonly title: string;
  /** The node, for a kubelet; the connection's address, for an etcd client; otherwise empty. */
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
  'etcd-client': 'etcd client',
};

/** The `index`-th client of the server's etcd endpoint: a column left of etcd. */
function etcdClientBox(index: number): Box {
  return { x: fixedBoxes.etcd.x - 240, y: fixedBoxes.etcd.y + index * 48, width: 220, height: 40 };
}

/**
 * The box of the `index`-th of `count` kubelets: rows of `kubeletsPerRow`, each centred under the graph.
 * A wide first row moves down, so that the link of its outermost kubelet still climbs past its neighbour
 * (slope ≥ `minSlope`).
 */
function kubeletBox(index: number, count: number, drop: number, beside: boolean): Box {
  const perRow = kubeletsPerRow(count);
  const { width, gap } = beside ? besideMembers : kubelet;
  const rowWidth = (n: number) => n * width + (n - 1) * gap;
  const apiserver = fixedBoxes['kube-apiserver'];
  const apiserverCenter = { x: apiserver.x + apiserver.width / 2, y: apiserver.y + apiserver.height / 2 };
  const centerX = beside ? apiserverCenter.x : graphTarget.width / 2;
  const firstLeft = centerX - rowWidth(Math.min(perRow, count)) / 2;
  const farthest = Math.max(apiserverCenter.x - (firstLeft + width / 2), firstLeft + rowWidth(Math.min(perRow, count)) - width / 2 - apiserverCenter.x);
  const top = Math.max(rowC.y, Math.ceil(apiserverCenter.y + minSlope * farthest - kubelet.height / 2)) + drop;
  const row = Math.floor(index / perRow);
  const inRow = Math.min(perRow, count - row * perRow);
  const left = centerX - rowWidth(inRow) / 2;
  return {
    x: left + (index % perRow) * (width + gap),
    y: top + row * (kubelet.height + kubelet.rowGap),
    width,
    height: kubelet.height,
  };
}

export function layoutTopology(topology: Topology): { nodes: ComponentNodeType[]; edges: LinkEdgeType[] } {
  const kubelets = topology.components.filter((c) => c.role === 'kubelet');
  const members = topology.components.filter((c) => c.role === 'etcd');
  const clustered = members.length > 1;
  // Five members: the kubelet rows keep their gap below the etcd slot's lowest box, and more, so the
  // first kubelet's link climbs past the lowest member.
  const lowest = memberBoxOf(4, 5);
  const drop = members.length === 5 ? lowest.y + lowest.height - (fixedBoxes.etcd.y + fixedBoxes.etcd.height) + 50 : 0;
  const etcdClients = topology.components.filter((c) => c.role === 'etcd-client');
  const boxOf = (component: ComponentView): Box => {
    if (component.role === 'etcd-client') return etcdClientBox(etcdClients.indexOf(component));
    if (component.role === 'kubelet') return kubeletBox(kubelets.indexOf(component), kubelets.length, drop, members.length === 3);
    if (component.role === 'etcd' && clustered) return memberBoxOf(members.indexOf(component), members.length);
    return fixedBoxes[component.role];
  };
  const nodes = topology.components.map((component): ComponentNodeType => {
    const { x, y, width, height } = boxOf(component);
    return {
      id: component.name,
      type: 'component',
      position: { x, y },
      width,
      height,
      // Known without drawing the box (its size is fixed, its two handles anchor links only), so that a
      // graph drawing only the boxes in view (ClusterGraph.tsx) never has to draw the others once to measure them.
      measured: { width, height },
      handles: [
        { type: 'target', position: Position.Top, x: width / 2, y: 0 },
        { type: 'source', position: Position.Bottom, x: width / 2, y: height },
      ],
      draggable: false,
      connectable: false,
      selectable: false,
      ariaRole: 'group',
      ariaLabel: `${component.name}${component.modelled ? '' : ', not modelled yet'}`,
      data: {
        component,
        title: component.role === 'etcd' && clustered ? component.name : titles[component.role],
        subtitle: component.role === 'kubelet' ? (component.node ?? component.name) : component.role === 'etcd-client' ? component.name.slice(component.name.indexOf('/') + 1) : '',
      },
    };
  });
  const modelled = new Set(topology.components.filter((c) => c.modelled).map((c) => c.name));
  const perRow = kubeletsPerRow(kubelets.length);
  const wrapped = new Set(kubelets.slice(perRow).map((k) => k.name));
  const memberNames = new Set(clustered ? members.map((m) => m.name) : []);
  const nearMembers = new Set(members.filter((_, i) => memberInView(i, members.length)).map((m) => m.name));
  const apiservers = new Set(topology.components.filter((c) => c.role === 'kube-apiserver').map((c) => c.name));
  const beneath = (a: string, b: string): boolean => {
    if (wrapped.has(a) || wrapped.has(b)) return true;
    if (!memberNames.has(a) && !memberNames.has(b)) return false;
    // kube-apiserver's links to the near column reach their members without passing another box.
    const other = memberNames.has(a) ? b : a;
    return !(apiservers.has(other) && (nearMembers.has(a) || nearMembers.has(b)));
  };
  const edges = topology.links.map((link): LinkEdgeType => ({
    id: linkId(link.a, link.b),
    type: 'link',
    source: link.a,
    target: link.b,
    // Above the boxes (the token layer is above both), except the links of wrapped kubelet rows, which
    // pass beneath the kubelets of the rows above, and the members' (see the top of this file).
    zIndex: beneath(link.a, link.b) ? 0 : 1,
    selectable: false,
    ariaLabel: `link between ${link.a} and ${link.b}, ${link.latency} ms`,
    data: { latency: link.latency, jitter: link.jitter, live: modelled.has(link.a) && modelled.has(link.b) },
  }));
  return { nodes, edges };
}

function linkId(a: string, b: string): string {
  return `${a}--${b}`;
}

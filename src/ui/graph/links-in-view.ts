// Which links a large graph draws (past ClusterGraph's `drawAllUpTo` boxes). React Flow, drawing only what
// is in view, still draws every link whose bounding box meets the view, and every kubelet's link to
// kube-apiserver spans the rows above it: at 5,000 nodes about 4,000 of them, wires beneath the boxes that
// cost most of a frame to paint. Here a kubelet's links are drawn while its box is within one view of the
// view (so a kubelet coming into view has its wire), the first row's always (their fan into kube-apiserver
// passes above every other box: one link per column), and the links between the other boxes (etcd,
// kube-apiserver, the controllers, the clients: a handful) always. The
// messages on a link not drawn still travel it (the token layer draws them from the layout, not from the
// links).

import type { ComponentNodeType, LinkEdgeType } from './layout.ts';

/** The part of the graph on screen, in the graph's coordinates. */
export interface View {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** The view of a React Flow pane of `width` × `height` px under `transform` ([x, y, zoom]). */
export function viewOf([tx, ty, zoom]: readonly [number, number, number], width: number, height: number): View {
  return { x: -tx / zoom, y: -ty / zoom, width: width / zoom, height: height / zoom };
}

/** The boxes of a layout's kubelets below its first row (whose links are drawn near the view only), by name. */
export function kubeletBoxes(nodes: readonly ComponentNodeType[]): Map<string, View> {
  const kubelets = nodes.filter((n) => n.data.component.role === 'kubelet');
  const firstRow = Math.min(...kubelets.map((n) => n.position.y));
  return new Map(kubelets.filter((n) => n.position.y > firstRow).map((n) => [n.id, { ...n.position, width: n.width ?? 0, height: n.height ?? 0 }]));
}

/** The ids of the links to draw in `view` (see the file's comment), in the layout's order. */
export function linksInView(edges: readonly LinkEdgeType[], kubelets: ReadonlyMap<string, View>, view: View): string[] {
  const left = view.x - view.width;
  const top = view.y - view.height;
  const right = view.x + 2 * view.width;
  const bottom = view.y + 2 * view.height;
  const near = (name: string) => {
    const box = kubelets.get(name);
    return box === undefined || (box.x < right && box.x + box.width > left && box.y < bottom && box.y + box.height > top);
  };
  return edges.filter((edge) => near(edge.source) && near(edge.target)).map((edge) => edge.id);
}

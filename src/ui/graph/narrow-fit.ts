// A narrow window's fit (ClusterGraph.tsx): the whole graph in the pane, clear of the etcd members switch in
// the pane's top-left corner and of the zoom buttons at its right edge. The boxes keep clear of the switch
// either by starting below it or by starting right of it, whichever leaves the larger zoom: a short wide
// pane (a side-by-side column on a laptop) loses less beside the switch than under it.

interface Size {
  readonly width: number;
  readonly height: number;
}

/** Padding in screen px, as React Flow's fitView takes it. */
interface FitPadding {
  readonly top: `${number}px`;
  readonly right: `${number}px`;
  readonly bottom: `${number}px`;
  readonly left: `${number}px`;
}

/** Space between the boxes and the pane's edges or its overlays (CSS px). */
const fitGap = 8;

/**
 * The padding that fits `graph` (flow units) largest in `pane`, keeping `corner` (the switch's right and
 * bottom edges from the pane's top-left, CSS px) and the rightmost `rightReserve` px (the zoom buttons) free.
 */
export function narrowFitPadding(pane: Size, graph: Size, corner: { readonly right: number; readonly bottom: number }, rightReserve: number): FitPadding {
  const right = rightReserve + fitGap;
  const below = { top: corner.bottom + fitGap, left: fitGap };
  const beside = { top: fitGap, left: corner.right + fitGap };
  const zoom = (p: { top: number; left: number }) => Math.min(
    (pane.width - p.left - right) / Math.max(graph.width, 1),
    (pane.height - p.top - fitGap) / Math.max(graph.height, 1),
  );
  const best = zoom(beside) > zoom(below) ? beside : below;
  return { top: `${best.top}px`, right: `${right}px`, bottom: `${fitGap}px`, left: `${best.left}px` };
}

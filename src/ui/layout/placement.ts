// Where the dock goes: below the graph when the window is tall enough for both a usable graph and a
// usable dock, beside it (stacked under the right-hand column) on short or very wide windows. The graph's
// floor is the product's promise: at least 720 × 400 CSS px whatever the dock shows. Windows narrower than
// `narrowWidth` (a small window, a column of the side-by-side page) cannot hold that floor beside a side
// column: there the graph, the side column and the dock are stacked, each the window's full width
// (`narrow`), and the graph is fitted to its pane even below its readable zoom (graph/ClusterGraph.tsx).

import { useSyncExternalStore } from 'react';

/** The graph pane never gets smaller than this (CSS px). */
export const graphFloor = { width: 720, height: 400 } as const;
/** The dock's smallest open height when it sits below the graph. */
export const dockFloorBelow = 240;
/** Rows above the panes: header, playback bar, timeline, caption (CSS px, with room for a notice). */
export const chromeHeight = 200;
/** From this width on, the dock sits beside the graph even when the window is tall. */
export const wideWidth = 1800;
/** Below this width the panes are stacked (the page's CSS switches at the same width, app.css). */
export const narrowWidth = 1280;

export type DockPlacement = 'below' | 'beside' | 'narrow';

export function dockPlacement(width: number, height: number): DockPlacement {
  if (width < narrowWidth) return 'narrow';
  if (width >= wideWidth) return 'beside';
  return height - chromeHeight >= graphFloor.height + dockFloorBelow ? 'below' : 'beside';
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

export function useDockPlacement(): DockPlacement {
  return useSyncExternalStore(subscribe, () => dockPlacement(window.innerWidth, window.innerHeight), () => 'below');
}

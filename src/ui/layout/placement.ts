// Where the dock goes: below the graph when the window is tall enough for both a usable graph and a
// usable dock, beside it (stacked under the right-hand column) on short or very wide windows. The graph's
// floor is the product's promise: at least 720 × 400 CSS px whatever the dock shows.

import { useSyncExternalStore } from 'react';

/** The graph pane never gets smaller than this (CSS px). */
export const graphFloor = { width: 720, height: 400 } as const;
/** The dock's smallest open height when it sits below the graph. */
export const dockFloorBelow = 240;
/** Rows above the panes: header, playback bar, timeline, caption (CSS px, with room for a notice). */
export const chromeHeight = 200;
/** From this width on, the dock sits beside the graph even when the window is tall. */
export const wideWidth = 1800;

export type DockPlacement = 'below' | 'beside';

export function dockPlacement(width: number, height: number): DockPlacement {
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

// The box the learner asked the graph to go to (a kubelet, by the "Go to node" form or a panel's "Show on
// the graph"): the graph centres its view on it once per request and draws it outlined until another is
// asked for, the pane is clicked, or the cluster is replaced.

import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

interface FoundNode {
  /** The component (React Flow node id) asked for last; null: none, or a name the cluster lacks. */
  readonly name: string | null;
  /** Counts the requests, so that asking for the same box again centres it again. */
  readonly asked: number;
}

export const foundNodeStore = createStore<FoundNode>()(() => ({ name: null, asked: 0 }));

/** Asks the graph to centre its view on `component`'s box and outline it (null: outline none). */
export function goToNode(component: string | null): void {
  foundNodeStore.setState((state) => ({ name: component, asked: state.asked + 1 }));
}

/** Whether `component`'s box is the one asked for last (drawn outlined). */
export function useFoundNode(component: string): boolean {
  return useStore(foundNodeStore, (state) => state.name === component);
}

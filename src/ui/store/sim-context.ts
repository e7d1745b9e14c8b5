// Hands the simulation store and its actions to components. Components select narrow slices, so a
// status update re-renders the counters, not the graph.

import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { SimActions, SimState, SimStore } from './sim-store.ts';

export interface SimConnection {
  readonly store: SimStore;
  readonly actions: SimActions;
}

export const SimContext = createContext<SimConnection | null>(null);

function useConnection(): SimConnection {
  const connection = useContext(SimContext);
  if (!connection) throw new Error('no SimContext provider above this component');
  return connection;
}

export function useSim<T>(selector: (state: SimState) => T): T {
  return useStore(useConnection().store, selector);
}

export function useSimStore(): SimStore {
  return useConnection().store;
}

export function useSimActions(): SimActions {
  return useConnection().actions;
}

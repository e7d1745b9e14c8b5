// Hands the simulation store and its actions to components. Components select narrow slices, so a
// status update re-renders the counters, not the graph.

import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { SimActions, SimState, SimStore } from './sim-store.ts';

/** Which cluster the page shows: its own (the worker) or a server's (sim-link.ts). */
export interface SimLink {
  /** Attaches to the server at `url` (its page or API address), offering `token` in `--token` mode. */
  attach(url: string, token: string | null): void;
  /** Back to the in-browser cluster (the worker reopens the saved cluster). */
  detach(): void;
}

export interface SimConnection {
  readonly store: SimStore;
  readonly actions: SimActions;
  readonly link?: SimLink;
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

/** Attaching to a server and back; null where the connection has no link (tests). */
export function useSimLink(): SimLink | null {
  return useConnection().link ?? null;
}

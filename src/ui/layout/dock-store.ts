// Which dock tab is shown and whether the dock is open, remembered across loads (localStorage), like the
// pane sizes the layout library keeps. Kept outside the dock so a change of placement (below ↔ beside the
// graph), which mounts the panes anew, keeps the user's choice.

import { useStore } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { createStore, type StoreApi } from 'zustand/vanilla';

export interface DockState {
  /** The id of the tab shown (a `DockTab.id`). */
  readonly tab: string;
  readonly open: boolean;
  /** Counts the user's "reset layout" requests in this page load (not remembered); the panes follow it. */
  readonly layoutEpoch: number;
  show(tab: string): void;
  setOpen(open: boolean): void;
  /** Back to the default pane sizes with the dock open. */
  resetLayout(): void;
}

export const defaultDockTab = 'keyspace';

export function createDockStore(storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined): StoreApi<DockState> {
  return createStore<DockState>()(persist(
    (set) => ({
      tab: defaultDockTab,
      open: true,
      show: (tab) => set({ tab, open: true }),
      setOpen: (open) => set({ open }),
      layoutEpoch: 0,
      resetLayout: () => set((state) => ({ open: true, layoutEpoch: state.layoutEpoch + 1 })),
    }),
    {
      name: 'podflow.dock',
      version: 1,
      partialize: ({ tab, open }) => ({ tab, open }),
      ...(storage ? { storage: createJSONStorage(() => storage) } : { skipHydration: true }),
    },
  ));
}

export const dockStore = createDockStore(typeof localStorage === 'undefined' ? undefined : localStorage);

export function useDock<T>(selector: (dock: DockState) => T): T {
  return useStore(dockStore, selector);
}

import { describe, expect, it } from 'vitest';
import { createDockStore, defaultDockTab } from './dock-store.ts';

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() { return items.size; },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => { items.delete(key); },
    setItem: (key, value) => { items.set(key, value); },
  };
}

describe('the dock store', () => {
  it('opens on the keyspace, and showing a tab opens the dock', () => {
    const dock = createDockStore(memoryStorage());
    expect(dock.getState()).toMatchObject({ tab: defaultDockTab, open: true });
    dock.getState().setOpen(false);
    dock.getState().show('console');
    expect(dock.getState()).toMatchObject({ tab: 'console', open: true });
  });

  it('remembers the tab and whether the dock is open, not the layout resets', () => {
    const storage = memoryStorage();
    const first = createDockStore(storage);
    first.getState().show('logs');
    first.getState().setOpen(false);
    first.getState().resetLayout();
    expect(first.getState()).toMatchObject({ open: true, layoutEpoch: 1 });
    first.getState().setOpen(false);
    const second = createDockStore(storage);
    expect(second.getState()).toMatchObject({ tab: 'logs', open: false, layoutEpoch: 0 });
  });
});

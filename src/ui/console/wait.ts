// Waits for a console command's last output: resolves with its entry once the worker reports it done.

import type { SimStore } from '../store/sim-store.ts';
import type { ConsoleEntry } from './activity.ts';

export function commandDone(store: SimStore, id: number): Promise<ConsoleEntry> {
  return new Promise((resolve) => {
    const done = (): ConsoleEntry | undefined => store.getState().activity.entries.find((e) => e.id === id && e.done);
    const now = done();
    if (now) {
      resolve(now);
      return;
    }
    const unsubscribe = store.subscribe(() => {
      const entry = done();
      if (!entry) return;
      unsubscribe();
      resolve(entry);
    });
  });
}

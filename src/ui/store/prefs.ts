// UI preferences that outlive a page load: the caption language. A vanilla store persisted in
// localStorage (zustand's persist middleware); English until the user picks another language.

import { useStore } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Language } from '../captions/captions.ts';

export interface Prefs {
  readonly language: Language;
  setLanguage(language: Language): void;
}

export function createPrefsStore(storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined): StoreApi<Prefs> {
  return createStore<Prefs>()(persist(
    (set) => ({ language: 'en', setLanguage: (language) => set({ language }) }),
    {
      name: 'podflow.prefs',
      version: 1,
      partialize: ({ language }) => ({ language }),
      ...(storage ? { storage: createJSONStorage(() => storage) } : { skipHydration: true }),
    },
  ));
}

export const prefsStore = createPrefsStore(typeof localStorage === 'undefined' ? undefined : localStorage);

export function usePrefs<T>(selector: (prefs: Prefs) => T): T {
  return useStore(prefsStore, selector);
}

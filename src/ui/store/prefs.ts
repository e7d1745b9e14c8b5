// UI preferences that outlive a page load: the caption language and the colour theme. A vanilla store
// persisted in localStorage (zustand's persist middleware); English until the user picks another language.

import { useStore } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Language } from '../captions/captions.ts';

export type Theme = 'system' | 'light' | 'dark';

export interface Prefs {
  readonly language: Language;
  /** Colours: as the system prefers, or forced light or dark. */
  readonly theme: Theme;
  setLanguage(language: Language): void;
  setTheme(theme: Theme): void;
}

export function createPrefsStore(storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined): StoreApi<Prefs> {
  return createStore<Prefs>()(persist(
    (set) => ({ language: 'en', theme: 'system', setLanguage: (language) => set({ language }), setTheme: (theme) => set({ theme }) }),
    {
      name: 'podflow.prefs',
      version: 1,
      partialize: ({ language, theme }) => ({ language, theme }),
      ...(storage ? { storage: createJSONStorage(() => storage) } : { skipHydration: true }),
    },
  ));
}

export const prefsStore = createPrefsStore(typeof localStorage === 'undefined' ? undefined : localStorage);

export function usePrefs<T>(selector: (prefs: Prefs) => T): T {
  return useStore(prefsStore, selector);
}

// UI preferences that outlive a page load: the caption language, the colour theme and the level of detail
// Step works at. A vanilla store persisted in localStorage (zustand's persist middleware). The first
// language is the browser's: 中文 when Chinese comes before English in its preferred languages, else English;
// once the user picks one, that one.

import { useStore } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Language } from '../captions/captions.ts';
import { stepLevels, type StepLevel } from '../../protocol/index.ts';

export type Theme = 'system' | 'light' | 'dark';

export interface Prefs {
  readonly language: Language;
  /** Colours: as the system prefers, or forced light or dark. */
  readonly theme: Theme;
  /**
   * What Step, Step back and Play move by: every delivery ('internal', "All"), each request and reply
   * ('request'), or each milestone ('milestone', "Story"). "All" until the user picks another, so Step
   * delivers one message as it always did.
   */
  readonly level: StepLevel;
  setLanguage(language: Language): void;
  setTheme(theme: Theme): void;
  setLevel(level: StepLevel): void;
}

/** A learner starts with the story: Step and Play move milestone by milestone (UX.md). */
export const defaultLevel: StepLevel = 'milestone';

/** The page's language for a browser preferring `languages` (`navigator.languages`, most preferred first). */
export function languageFor(languages: readonly string[]): Language {
  for (const tag of languages) {
    const primary = tag.toLowerCase().split('-')[0];
    if (primary === 'zh') return 'zh';
    if (primary === 'en') return 'en';
  }
  return 'en';
}

export function createPrefsStore(
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined,
  preferred: readonly string[] = [],
): StoreApi<Prefs> {
  return createStore<Prefs>()(persist(
    (set) => ({
      language: languageFor(preferred), theme: 'system', level: defaultLevel,
      setLanguage: (language) => set({ language }),
      setTheme: (theme) => set({ theme }),
      setLevel: (level) => set({ level: stepLevels.includes(level) ? level : defaultLevel }),
    }),
    {
      name: 'podflow.prefs',
      version: 1,
      partialize: ({ language, theme, level }) => ({ language, theme, level }),
      // A stored level this version does not know (hand-edited, or from a later version) falls back.
      merge: (persisted, current) => {
        const stored = (persisted ?? {}) as Partial<Prefs>;
        const level = stored.level !== undefined && stepLevels.includes(stored.level) ? stored.level : current.level;
        return { ...current, ...stored, level };
      },
      ...(storage ? { storage: createJSONStorage(() => storage) } : { skipHydration: true }),
    },
  ));
}

export const prefsStore = createPrefsStore(
  typeof localStorage === 'undefined' ? undefined : localStorage,
  typeof navigator === 'undefined' ? [] : navigator.languages,
);

export function usePrefs<T>(selector: (prefs: Prefs) => T): T {
  return useStore(prefsStore, selector);
}

// The page's words in English and 中文 (i18next + react-i18next). Each feature keeps its texts in its own
// namespace, one JSON file per language: `locales/en/<namespace>.json` and `locales/zh/<namespace>.json`,
// gathered per language by `locales/en.ts` and `locales/zh.ts` (Vite's glob import, so adding a namespace
// needs no edit here). Each language is a chunk of its own: the page fetches the active language's before
// it renders (this module's top-level await) and the other one when the learner first switches to it. The
// language is the user's preference (prefs.ts): one choice for captions, controls and panels alike,
// remembered across loads; `<html lang>` follows it so CJK fonts and screen readers switch too.
//
// Use: `const { t } = useTranslation('story'); t('nextMilestone')`, or `t('common:step')`. To change the
// language, `showLanguage` (it sets the preference once the texts are in, so every part switches at once).

import i18next, { type ResourceLanguage } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { prefsStore } from '../store/prefs.ts';
import type { Language } from '../captions/captions.ts';

const chunks: Record<Language, () => Promise<{ readonly texts: ResourceLanguage }>> = {
  en: () => import('./locales/en.ts'),
  zh: () => import('./locales/zh.ts'),
};

/** Every namespace's texts in `language`: namespace → keys (fetches the language's chunk the first time). */
export async function languageTexts(language: Language): Promise<ResourceLanguage> {
  return (await chunks[language]()).texts;
}

const first = prefsStore.getState().language;
const firstTexts = await languageTexts(first);

export const namespaces: readonly string[] = Object.keys(firstTexts);

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: { [first]: firstTexts },
  lng: first,
  fallbackLng: 'en',
  ns: [...namespaces],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

const loaded = (language: Language) => i18n.hasResourceBundle(language, 'common');

/** Makes `language`'s texts available to `t` (and `getFixedT(language)`); resolves once they are. */
export async function loadLanguage(language: Language): Promise<void> {
  if (loaded(language)) return;
  const texts = await languageTexts(language);
  for (const [namespace, keys] of Object.entries(texts)) i18n.addResourceBundle(language, namespace, keys, true, true);
}

/** Switches the page to `language` once its texts are in: the preference and the words change together. */
export async function showLanguage(language: Language): Promise<void> {
  await loadLanguage(language);
  prefsStore.getState().setLanguage(language);
}

function show(language: Language): void {
  if (i18n.language !== language) void i18n.changeLanguage(language);
  if (typeof document !== 'undefined') document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
}

/** The preference changed: show it at once when its texts are in, else as soon as they arrive. */
function follow(language: Language): void {
  if (loaded(language)) show(language);
  else void loadLanguage(language).then(() => { if (prefsStore.getState().language === language) show(language); });
}

follow(first);
prefsStore.subscribe((prefs) => follow(prefs.language));

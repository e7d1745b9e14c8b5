// The page's words in English and 中文 (i18next + react-i18next). Each feature keeps its texts in its own
// namespace, one JSON file per language: `locales/en/<namespace>.json` and `locales/zh/<namespace>.json`,
// picked up here by Vite's glob import, so adding a namespace needs no edit to this file. The language is
// the user's preference (prefs.ts): one choice for captions, controls and panels alike, remembered across
// loads; `<html lang>` follows it so CJK fonts and screen readers switch too.
//
// Use: `const { t } = useTranslation('story'); t('nextMilestone')`, or `t('common:step')`.

import i18next, { type Resource, type ResourceLanguage } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { prefsStore } from '../store/prefs.ts';
import type { Language } from '../captions/captions.ts';

const files = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/*.json', { eager: true });

/** The bundled texts: language → namespace → keys. */
export function bundledResources(): Resource {
  const resources: Record<string, Record<string, ResourceLanguage[string]>> = {};
  for (const [path, module] of Object.entries(files)) {
    const match = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (!match) continue;
    const [, language, namespace] = match as unknown as [string, string, string];
    (resources[language] ??= {})[namespace] = module.default as ResourceLanguage[string];
  }
  return resources as Resource;
}

export const namespaces: readonly string[] = [...new Set(Object.keys(files).map((path) => path.replace(/^.*\/([^/]+)\.json$/, '$1')))];

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: bundledResources(),
  lng: prefsStore.getState().language,
  fallbackLng: 'en',
  ns: [...namespaces],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

function follow(language: Language): void {
  if (i18n.language !== language) void i18n.changeLanguage(language);
  if (typeof document !== 'undefined') document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
}

follow(prefsStore.getState().language);
prefsStore.subscribe((prefs) => follow(prefs.language));

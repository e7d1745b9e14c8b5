// The page's one language control (中文 | EN): captions, controls and panels all follow it, and the choice
// is remembered (prefs.ts). Each choice is labelled in its own language. A language shown for the first time
// is fetched first (its texts are a chunk of their own, i18n/index.ts); the page switches when it is in.

import { useTranslation } from 'react-i18next';
import type { Language } from '../captions/captions.ts';
import { showLanguage } from '../i18n/index.ts';
import { usePrefs } from '../store/prefs.ts';

const choices: ReadonlyArray<{ readonly language: Language; readonly label: string; readonly name: string; readonly lang: string }> = [
  { language: 'zh', label: '中文', name: '中文', lang: 'zh-Hans' },
  { language: 'en', label: 'EN', name: 'English', lang: 'en' },
];

export function LanguageSwitch() {
  const { t } = useTranslation('layout');
  const language = usePrefs((prefs) => prefs.language);
  return (
    <div className="language-switch" role="group" aria-label={t('language')}>
      {choices.map((c) => (
        <button key={c.language} type="button" lang={c.lang} aria-label={c.name} aria-pressed={language === c.language} onClick={() => void showLanguage(c.language)}>
          {c.label}
        </button>
      ))}
    </div>
  );
}

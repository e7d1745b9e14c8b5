// The colour theme: as the system prefers, light or dark. The choice is a `data-theme` attribute on the
// root element, which the style sheet reads.

import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { usePrefs, type Theme } from '../store/prefs.ts';

const themes: readonly Theme[] = ['system', 'light', 'dark'];

export function ThemeSwitch() {
  const { t } = useTranslation('theme');
  const theme = usePrefs((prefs) => prefs.theme);
  const setTheme = usePrefs((prefs) => prefs.setTheme);
  useEffect(() => {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
  }, [theme]);
  return (
    <label className="theme-switch speed">
      {t('label')}
      <select value={theme} onChange={(event) => setTheme(event.target.value as Theme)}>
        {themes.map((option) => <option key={option} value={option}>{t(option)}</option>)}
      </select>
    </label>
  );
}

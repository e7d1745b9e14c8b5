// The colour theme: as the system prefers, light or dark. The choice is a `data-theme` attribute on the
// root element, which the style sheet reads.

import { useEffect } from 'react';
import { usePrefs, type Theme } from '../store/prefs.ts';

const themes: ReadonlyArray<{ readonly theme: Theme; readonly label: string }> = [
  { theme: 'system', label: 'System' },
  { theme: 'light', label: 'Light' },
  { theme: 'dark', label: 'Dark' },
];

export function ThemeSwitch() {
  const theme = usePrefs((prefs) => prefs.theme);
  const setTheme = usePrefs((prefs) => prefs.setTheme);
  useEffect(() => {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
  }, [theme]);
  return (
    <label className="theme-switch speed">
      Theme
      <select value={theme} onChange={(event) => setTheme(event.target.value as Theme)}>
        {themes.map((t) => <option key={t.theme} value={t.theme}>{t.label}</option>)}
      </select>
    </label>
  );
}

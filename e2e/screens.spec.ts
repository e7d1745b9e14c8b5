// The main screen as a learner first sees it at 1280×720, in both languages and both themes, compared
// with the pictures kept in e2e/screens.spec.ts-snapshots/ (looked at before they were accepted). The
// state is the cold page: the seeded cluster booted and paused, so every run draws the same thing; the
// storage line (saved asynchronously) is masked.

import { expect, PodflowPage, test } from './podflow.ts';

test.use({ viewport: { width: 1280, height: 720 } });

for (const theme of ['light', 'dark'] as const) {
  for (const language of ['en', 'zh'] as const) {
    test(`the main screen, ${theme}, ${language}`, async ({ page }) => {
      await page.addInitScript(([lang, colours]) => {
        localStorage.setItem('podflow.prefs', JSON.stringify({ state: { language: lang, theme: colours }, version: 1 }));
      }, [language, theme] as const);
      const podflow = new PodflowPage(page);
      await podflow.open();
      await expect(podflow.activity).toHaveAttribute('data-state', 'idle');
      await expect(page.getByTestId('saved-step')).toBeVisible();
      await page.evaluate(() => document.fonts.ready);
      await expect(page).toHaveScreenshot(`main-${theme}-${language}.png`, {
        mask: [page.getByTestId('storage-status')],
        maxDiffPixelRatio: 0.01,
        animations: 'disabled',
      });
    });
  }
}

// Accessibility of the main screens with axe-core: the cold page and each dock tab open, in both themes
// and both languages. No serious or critical violation.

import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, PodflowPage, test } from './podflow.ts';

const themes = ['light', 'dark'] as const;
const languages = ['en', 'zh'] as const;

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
}

test.use({ viewport: { width: 1280, height: 720 } });
// Ten axe scans per test: more than the default minute on a loaded machine.
test.describe.configure({ timeout: 180_000 });

for (const theme of themes) {
  for (const language of languages) {
    test(`no serious or critical violation: ${theme} theme, ${language}`, async ({ page }) => {
      await page.addInitScript(([lang, colours]) => {
        localStorage.setItem('podflow.prefs', JSON.stringify({ state: { language: lang, theme: colours }, version: 1 }));
      }, [language, theme] as const);
      await new PodflowPage(page).open();
      await test.step('the cold page', async () => {
        expect.soft(await seriousViolations(page)).toEqual([]);
      });
      const tabs = page.getByTestId('dock').getByRole('tab');
      const count = await tabs.count();
      for (let i = 0; i < count; i++) {
        const tab = tabs.nth(i);
        const name = (await tab.textContent()) ?? '';
        await test.step(`the ${name} tab`, async () => {
          await tab.click();
          await expect(tab).toHaveAttribute('aria-selected', 'true');
          expect.soft(await seriousViolations(page), name).toEqual([]);
        });
      }
    });
  }
}

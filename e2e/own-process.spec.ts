import type { Page } from '@playwright/test';
import { expect, test } from './podflow.ts';

// `?process=own`: the simulation worker runs in a renderer process of its own (a sandboxed iframe starts
// it, src/ui/sim-process.ts), so a large cluster does not share the page's heap. The page works as with its
// own worker; the cluster is not saved, and the page says so without pushing its controls off the header.
/** Picks the 150,000-Pod scenario in the Scenarios tab: its estimate says it will not fit in one tab. */
async function pickBiggest(page: Page) {
  await page.getByRole('tab', { name: 'Scenarios' }).click();
  await page.getByRole('combobox', { name: 'Scenario' }).selectOption('scale-150000-pods');
  await expect(page.getByTestId('scenario-estimate')).toHaveAttribute('data-fits', 'false');
}

test('a scenario too big for one tab names the page where the simulation has a process of its own', async ({ podflow, page }) => {
  await expect(podflow.component('user')).toBeVisible();
  await pickBiggest(page);
  await expect(page.getByTestId('own-process-hint')).toContainText('?process=own');
});

test('the simulation in a process of its own: a Pod created and Running, the cluster not saved, a lost process reported and restarted', async ({ podflow, page }) => {
  await page.goto('/?process=own');
  await expect(podflow.component('user')).toBeVisible();
  const frame = page.locator('iframe[data-sim-process]');
  await expect(frame).toHaveCount(1);
  await expect(frame).toHaveAttribute('sandbox', 'allow-scripts');

  await test.step('the cluster lives in memory only, said in the header beside intact controls', async () => {
    await expect(page.getByTestId('storage-warning')).toHaveAttribute('title', /runs in a process of its own .*lives in memory only/);
    await expect(page.getByRole('button', { name: 'Tour ▾' })).toBeInViewport();
    await expect(page.getByRole('button', { name: 'Reset layout' })).toBeInViewport();
    // Here the estimate of a scenario too big for one tab no longer points to this mode.
    await pickBiggest(page);
    await expect(page.getByTestId('own-process-hint')).toHaveCount(0);
  });

  await test.step('create the preset and run until idle: its Pod is Running', async () => {
    await page.getByRole('form', { name: 'kubectl create' }).getByRole('button', { name: 'Create' }).click();
    await page.getByRole('button', { name: 'Run until idle' }).click();
    await expect.poll(() => page.evaluate(() => {
      const pods = (globalThis as unknown as { podflow: { store: { getState(): { pods: { byKey: Map<string, { phase: string }> } } } } }).podflow.store.getState().pods.byKey;
      return [...pods.values()].map((pod) => pod.phase);
    }), { timeout: 30_000 }).toEqual(['Running']);
  });

  await test.step('its process gone (the frame removed), the page says so and restarts a fresh cluster', async () => {
    await frame.evaluate((element) => element.remove());
    await expect(page.getByTestId('worker-crashed')).toContainText('its process stopped answering', { timeout: 20_000 });
    await page.getByRole('button', { name: 'Restart with a new cluster' }).click();
    await expect(page.getByTestId('worker-crashed')).toHaveCount(0);
    await expect(page.locator('iframe[data-sim-process]')).toHaveCount(1);
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as { podflow: { store: { getState(): { pods: { byKey: Map<string, unknown> } } } } }).podflow.store.getState().pods.byKey.size), { timeout: 30_000 }).toBe(0);
    await expect(podflow.component('user')).toBeVisible();
  });
});

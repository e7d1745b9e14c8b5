import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, PodflowPage, PodflowTimeline, scenarioPrefs, test } from './podflow.ts';

// `?process=own`: the simulation worker runs in a renderer process of its own (a sandboxed iframe starts
// it, src/ui/sim-process.ts), so a large cluster does not share the page's heap. The page works as with its
// own worker, and its cluster is saved and reopened as with its own worker: a storage worker of the page's
// origin saves it over a port (src/worker/store-port.ts), since the frame's opaque origin has no IndexedDB.
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

test('the simulation in a process of its own: a Pod created and Running, the cluster saved and reopened after a reload, a lost process restarted from its last save', async ({ page }) => {
  // Opened in the mode first, as a newcomer following the hint would: nothing saved yet, so the cluster is
  // saved as a new one (its id made where crypto.randomUUID is missing: the frame is no secure context).
  await scenarioPrefs(page);
  const podflow = new PodflowPage(page);
  const timeline = new PodflowTimeline(page);
  const phases = () => page.evaluate(() => {
    const pods = (globalThis as unknown as { podflow: { store: { getState(): { pods: { byKey: Map<string, { phase: string }> } } } } }).podflow.store.getState().pods.byKey;
    return [...pods.values()].map((pod) => pod.phase);
  });
  const stepShown = async () => Number(await page.getByTestId('step-counter').textContent());
  await page.goto('/?process=own');
  await expect(podflow.component('user')).toBeVisible();
  const frame = page.locator('iframe[data-sim-process]');
  await expect(frame).toHaveCount(1);
  await expect(frame).toHaveAttribute('sandbox', 'allow-scripts');

  await test.step('the cluster is saved (through the page\'s storage worker), said in the header beside intact controls', async () => {
    await expect(page.getByTestId('saved-step')).toBeVisible();
    await expect(page.getByTestId('storage-warning')).toHaveCount(0);
    await expect(page.getByTestId('notices')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Tour ▾' })).toBeInViewport();
    await expect(page.getByRole('button', { name: 'Reset layout' })).toBeInViewport();
    // Here the estimate of a scenario too big for one tab no longer points to this mode: with the page's 3
    // etcd members it keeps more than the largest cluster measured to run to the end here (1 member).
    await pickBiggest(page);
    await expect(page.getByTestId('own-process-hint')).toHaveCount(0);
    await expect(page.getByTestId('scenario-estimate')).toContainText('kept by the simulation in its own process with 3 etcd members');
    await expect(page.getByTestId('scenario-estimate')).toContainText('more than the largest cluster measured to run to the end with the simulation in a process of its own (150,000 Pods on 5,000 nodes with 1 etcd member');
    await expect(page.getByTestId('scenario-estimate')).not.toContainText('in one tab');
  });

  let running = 0;
  await test.step('create the preset and run until idle: its Pod is Running, and saved at that step', async () => {
    await page.getByRole('form', { name: 'kubectl create' }).getByRole('button', { name: 'Create' }).click();
    await page.getByRole('button', { name: 'Run until idle' }).click();
    await expect.poll(phases, { timeout: 30_000 }).toEqual(['Running']);
    await expect(page.getByTestId('activity')).toHaveText('idle');
    running = await stepShown();
    await timeline.savedAt(running);
  });

  await test.step('a reload reopens the saved cluster in a new process, at the same step, its Pod Running', async () => {
    await page.reload();
    await expect(page.locator('iframe[data-sim-process]')).toHaveCount(1);
    await timeline.settledAt(running);
    await expect.poll(phases).toEqual(['Running']);
    await expect(page.getByTestId('saved-cluster')).toHaveCount(1);
  });

  await test.step('its process gone (the frame removed), the page says so and restarts from the last saved step', async () => {
    await page.locator('iframe[data-sim-process]').evaluate((element) => element.remove());
    await expect(page.getByTestId('worker-crashed')).toContainText('its process stopped answering', { timeout: 20_000 });
    await page.getByRole('button', { name: 'Restart from the last saved step' }).click();
    await expect(page.getByTestId('worker-crashed')).toHaveCount(0);
    await expect(page.locator('iframe[data-sim-process]')).toHaveCount(1);
    await timeline.settledAt(running);
    await expect.poll(phases).toEqual(['Running']);
    await timeline.savedAt(running);
  });
});

test('the simulation\'s process runs at the page\'s priority, not lowered as a hidden frame\'s would be', async ({ podflow, page, browser }) => {
  await page.goto('/?process=own');
  await expect(podflow.component('user')).toBeVisible();
  await expect(page.getByTestId('activity')).toHaveText('idle');
  const session = await browser.newBrowserCDPSession();
  const cpuTimes = async () => {
    const { processInfo } = (await session.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number; cpuTime: number }[] };
    return new Map(processInfo.filter((p) => p.type === 'renderer').map((p) => [p.id, p.cpuTime]));
  };
  const before = await cpuTimes();
  // Work for the simulation alone: a cluster of 200 nodes booted.
  await page.evaluate(() => (globalThis as unknown as { podflow: { actions: { reset(seed: string, nodes: number): void } } }).podflow.actions.reset('podflow', 200));
  await expect(page.locator('[data-testid="component-node"][data-component="kubelet/node-200"]')).toBeAttached({ timeout: 60_000 });
  await expect(page.getByTestId('activity')).toHaveText('idle', { timeout: 60_000 });
  const after = await cpuTimes();
  await session.detach();
  // The simulation's process is the renderer that worked most meanwhile; its nice value is the 19th field of
  // /proc/<pid>/stat (the 17th after the command's closing parenthesis).
  const [simulation] = [...after].sort((a, b) => (b[1] - (before.get(b[0]) ?? 0)) - (a[1] - (before.get(a[0]) ?? 0)))[0]!;
  const nice = Number(readFileSync(`/proc/${simulation}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
  expect(nice).toBe(0);
});

test('a storage worker that cannot start: the simulation goes on in memory and says so, its Pod Running', async ({ page }) => {
  await scenarioPrefs(page);
  // The storage worker's script cannot be loaded (the server gone, a proxy refusing it).
  await page.route(/storage\.worker[^/]*\.js/, (route) => route.abort());
  const podflow = new PodflowPage(page);
  await page.goto('/?process=own');
  await expect(podflow.component('user')).toBeVisible();
  await expect(page.getByTestId('storage-warning')).toHaveText("The page's storage worker could not start: this cluster lives in memory only and is lost on reload.");
  await page.getByRole('form', { name: 'kubectl create' }).getByRole('button', { name: 'Create' }).click();
  await page.getByRole('button', { name: 'Run until idle' }).click();
  await expect.poll(() => page.evaluate(() => {
    const pods = (globalThis as unknown as { podflow: { store: { getState(): { pods: { byKey: Map<string, { phase: string }> } } } } }).podflow.store.getState().pods.byKey;
    return [...pods.values()].map((pod) => pod.phase);
  }), { timeout: 30_000 }).toEqual(['Running']);
  await expect(page.getByTestId('worker-crashed')).toHaveCount(0);
  await expect(page.getByTestId('saved-step')).toHaveCount(0);
});

test('a page busy for 12 s (a large cluster\'s first frames) does not take the simulation in a process of its own for gone', async ({ page }) => {
  await scenarioPrefs(page);
  const podflow = new PodflowPage(page);
  await page.goto('/?process=own');
  await expect(podflow.component('user')).toBeVisible();
  await expect(page.getByTestId('saved-step')).toBeVisible();
  // The page's thread held for 12 s: no ping is sent meanwhile, and none goes unanswered.
  await page.evaluate(() => {
    const until = performance.now() + 12_000;
    while (performance.now() < until) { /* busy */ }
  });
  // Three more pings' time after it woke: an answer came to each.
  await page.waitForTimeout(6_000);
  await expect(page.getByTestId('worker-crashed')).toHaveCount(0);
  await expect(page.locator('iframe[data-sim-process]')).toHaveCount(1);
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await expect(page.getByTestId('activity')).toHaveText('idle');
});

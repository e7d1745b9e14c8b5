// The page at scale (issue 20, parts 4 and 5): nodes with more pods than chip slots draw them
// aggregated (a bar per state and the counts) and, zoomed in, a dot per pod; tokens shipped while playing
// are labelled from their payload's fields; the catalog offers "1,000 Pods on 50 nodes" in English and
// Chinese and shows its Pods' progress while it runs; the Objects panel lists 1,000 Pods with a screenful
// of rows in the DOM and scrolls to the last. Screenshots at 1280×720 and 1440×900 are attached.

import { webDeploymentYaml } from '../bench/manifests.ts';
import { ActDock } from './act.ts';
import { expect, PodflowTimeline, test } from './podflow.ts';

test('30 pods on 3 nodes: each node aggregates its pods per state; zoomed in, a dot per pod', async ({ podflow, page }, testInfo) => {
  test.setTimeout(180_000);
  const form = page.getByRole('form', { name: 'kubectl create' });
  await form.getByRole('textbox', { name: 'Manifest' }).fill(webDeploymentYaml(30));
  await form.getByRole('button', { name: 'Create' }).click();
  // settle's click gives up after 1 s: a bare click() on "Run until idle" waits forever when the run
  // reaches idle between the isEnabled check and the click (CI saw all 30 Running and the poll stuck).
  await new ActDock(podflow).settle(async () => (await page.getByTestId('pod-summary').filter({ hasText: 'running' }).count()) === 3, 100);
  await expect(podflow.activity).toHaveText('idle');

  const summaries = page.getByTestId('pod-summary');
  const names = await summaries.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? ''));
  // "11 pods: 11 running" per node, 30 in all, every one running.
  let total = 0;
  for (const name of names) {
    const match = /^(\d+) pods: (\d+) running$/.exec(name);
    expect(match, name).not.toBeNull();
    expect(match![1]).toBe(match![2]);
    total += Number(match![1]);
  }
  expect(total).toBe(30);
  await expect(page.getByTestId('pod-chip')).toHaveCount(0);
  for (const [width, height] of [[1280, 720], [1440, 900]] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: testInfo.outputPath(`nodes-aggregated-${width}x${height}.png`) });
  }

  // Zoomed in around node-2's pods (the wheel zooms about the pointer).
  const node2 = await podflow.component('kubelet/node-2').getByTestId('pod-chips').boundingBox();
  await page.mouse.move(node2!.x + node2!.width / 2, node2!.y + node2!.height / 2);
  for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -200);
  await expect(page.getByTestId('pod-dot')).toHaveCount(30);
  await expect(page.getByTestId('pod-summary')).toHaveCount(0);
  await expect(page.getByTestId('pod-dot').first()).toHaveAttribute('aria-label', /^pod web-[a-z0-9]+-[a-z0-9]{5}, Running$/);
  await page.screenshot({ path: testInfo.outputPath('nodes-zoomed-in-1440x900.png') });
});

test('300 nodes: only the boxes in the graph\'s view are drawn, and panning draws the ones it brings into view', async ({ podflow, page }, testInfo) => {
  test.setTimeout(120_000);
  await new PodflowTimeline(page).act('reset', 'podflow', 300);
  await expect(page.getByText('seed podflow · 300 nodes')).toBeVisible({ timeout: 60_000 });
  await expect(podflow.activity).toHaveText('idle', { timeout: 60_000 });
  const pane = page.locator('.react-flow');
  // The boxes in the DOM, each with whether it meets the pane.
  const drawn = () => pane.evaluate((el) => {
    const view = el.getBoundingClientRect();
    return [...el.querySelectorAll<HTMLElement>('[data-testid="component-node"]')].map((box) => {
      const r = box.getBoundingClientRect();
      return { name: box.dataset.component!, inView: r.right > view.left && r.left < view.right && r.bottom > view.top && r.top < view.bottom };
    });
  });
  await expect.poll(async () => (await drawn()).length).toBeGreaterThan(0);
  const before = await drawn();
  // 306 boxes in the cluster, a few dozen drawn: each of them in view.
  expect(before.length).toBeLessThan(60);
  expect(before.filter((box) => !box.inView)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('300-nodes-1280x720.png') });

  // A graph this large opens on its control plane (the kubelets' rows are below it). Dragged up by most of
  // the pane at a time, the view goes down to the kubelets, which are drawn as they come into view.
  expect(before.map((b) => b.name)).toContain('kube-apiserver');
  const box = (await pane.boundingBox())!;
  for (let i = 0; i < 12 && !(await drawn()).some((b) => b.name.startsWith('kubelet/')); i++) {
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.9);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.1, { steps: 5 });
    await page.mouse.up();
  }
  await expect.poll(async () => (await drawn()).filter((b) => b.inView && !before.some((old) => old.name === b.name)).length).toBeGreaterThan(0);
  const after = await drawn();
  expect(after.filter((b) => !b.inView)).toEqual([]);
  // What is drawn is a kubelet's box with its insides, as any other.
  const kubelet = after.find((b) => b.name.startsWith('kubelet/'))!;
  await expect(podflow.component(kubelet.name)).toContainText('kubelet');

  // The scheduler's attempt on 300 nodes examines more than a screenful: the rows in view are drawn, the
  // last one once scrolled to.
  await podflow.createNginxDeployment();
  await podflow.runUntilIdle();
  await podflow.openStateTab('Scheduler');
  const table = page.getByRole('table', { name: /^Filter and score per node for / });
  await expect(table).toBeVisible();
  const rows = Number(await table.getAttribute('aria-rowcount')) - 2;
  expect(rows).toBeGreaterThanOrEqual(100);
  const drawnRows = await page.getByTestId('scheduler-node').count();
  expect(drawnRows).toBeGreaterThan(0);
  expect(drawnRows).toBeLessThan(rows);
  await table.locator('xpath=..').evaluate((scroller) => { scroller.scrollTop = scroller.scrollHeight; });
  await expect(page.locator(`[data-testid="scheduler-node"][aria-rowindex="${rows + 2}"]`)).toBeAttached();
  await page.screenshot({ path: testInfo.outputPath('300-nodes-scheduler-1280x720.png') });

  // Beside the attempt's outcome, "Show node-N on the graph" centres the graph on the node chosen, outlined.
  const node = /bound to (node-\d+)/.exec((await page.getByTestId('attempt-outcome').textContent())!)![1]!;
  await page.getByRole('button', { name: `Show ${node} on the graph` }).click();
  const chosen = podflow.component(`kubelet/${node}`);
  await expect(chosen).toBeInViewport();
  await expect(chosen).toHaveAttribute('data-found', 'true');
  await expect(chosen).toContainText(node);
  await page.screenshot({ path: testInfo.outputPath('300-nodes-show-node-1280x720.png') });

  // "Go to node" (past 256 boxes): a node typed by its number is centred and outlined in its turn; a node
  // the cluster does not have is said so, with the nodes it has.
  const other = node === 'node-300' ? 'node-299' : 'node-300';
  const goTo = page.getByRole('search', { name: 'Go to node' });
  await goTo.getByRole('searchbox').fill(other.replace('node-', ''));
  await goTo.getByRole('searchbox').press('Enter');
  await expect(podflow.component(`kubelet/${other}`)).toBeInViewport();
  await expect(podflow.component(`kubelet/${other}`)).toHaveAttribute('data-found', 'true');
  // Only the box asked for last is outlined (the first may have left the view, its box no longer drawn).
  await expect(page.locator('[data-found]')).toHaveCount(1);
  await goTo.getByRole('searchbox').fill('node-999');
  await goTo.getByRole('button', { name: 'Go' }).click();
  await expect(goTo.getByRole('status')).toHaveText('The cluster has no node “node-999”: its 300 nodes are node-1 … node-300.');
  await expect(goTo.getByRole('searchbox')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('[data-found]')).toHaveCount(0);
});

test('tokens shipped while playing are labelled from their payload, not by their kind', async ({ podflow, page }) => {
  // At 0.01× the create's POST is a token for half a second (5 virtual ms on kubectl's link).
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('0.01');
  // Playing first: the create's messages are shipped while playing, without their whole payload.
  await podflow.button('Play').click();
  await podflow.createNginxDeployment();
  // The HTTP request tokens' accessible names, read every frame until one names its method and path.
  const names = await page.evaluate(() => new Promise<string[]>((resolve) => {
    const seen = new Set<string>();
    const start = performance.now();
    const look = () => {
      for (const el of document.querySelectorAll('[data-testid="token"][data-kind="http.request"]')) seen.add(el.getAttribute('aria-label') ?? '');
      if ([...seen].some((name) => /: (GET|POST|PUT|PATCH|DELETE) [/…]/.test(name)) || performance.now() - start > 20_000) resolve([...seen]);
      else requestAnimationFrame(look);
    };
    look();
  }));
  expect(names).toContainEqual(expect.stringMatching(/: (GET|POST|PUT|PATCH|DELETE) [/…]/));
  expect(await page.evaluate(() => (globalThis as unknown as { podflow: { store: { getState(): { tokens: { payloadOmitted?: boolean }[] } } } }).podflow.store.getState().tokens
    .some((t) => t.payloadOmitted))).toBe(true);
  await podflow.button('Pause').click();
});

test('"1,000 Pods on 50 nodes" is offered in both languages and shows its Pods\' progress while it runs', async ({ podflow, page }, testInfo) => {
  // Booting 50 nodes and creating the first Pods take minutes on a loaded machine.
  test.setTimeout(720_000);
  const dock = new ActDock(podflow);
  await dock.tab('Scenarios').click();
  await page.getByRole('combobox', { name: 'Scenario' }).selectOption('scale-1000-pods');
  await expect(page.getByTestId('scenario-description')).toContainText('watch cache');
  await expect(page.getByTestId('scenario-description')).toContainText('kube-scheduler filters and scores all 50 nodes');
  // The cluster has 3 nodes: reset it to the scenario's 50 first.
  await page.getByRole('button', { name: 'Reset cluster first' }).click();
  await expect(podflow.component('kubelet/node-50')).toBeAttached({ timeout: 240_000 });
  await page.getByRole('button', { name: 'Run all remaining steps', exact: true }).click();
  const progress = page.getByTestId('scenario-pods');
  await expect(progress).toContainText('of 1,000 Pods Running and Ready');
  await expect.poll(async () => Number(await progress.getAttribute('data-ready')), { timeout: 240_000 }).toBeGreaterThan(0);
  await progress.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('scale-scenario-running-1280x800.png') });
  await page.getByRole('button', { name: 'Stop', exact: true }).click();

  await page.getByRole('button', { name: '中文' }).click();
  await expect(page.getByTestId('scenario-description')).toContainText('watch cache');
  await expect(page.getByTestId('scenario-description')).toContainText('每页 500 个键');
  await expect(page.getByTestId('scenario-pods')).toContainText('个 Pod 中');
});

test('the Objects panel lists 1,000 Pods with only the rows in view in the DOM and a window of them from the worker, and scrolls to the last', async ({ podflow, page }, testInfo) => {
  // Creating 1,000 Pods takes minutes on a loaded machine.
  test.setTimeout(600_000);
  // 10 nodes of 110 Pods each: every Pod is scheduled (3 nodes would leave 670 retrying) and the run ends idle.
  await page.evaluate(() => (globalThis as unknown as { podflow: { actions: { reset(seed?: string, nodes?: number, members?: number): void } } }).podflow.actions.reset(undefined, 10, 1));
  await expect(podflow.component('kubelet/node-10')).toBeAttached({ timeout: 240_000 });
  await expect(podflow.activity).toHaveText('idle', { timeout: 240_000 });
  const form = page.getByRole('form', { name: 'kubectl create' });
  await form.getByRole('textbox', { name: 'Manifest' }).fill(webDeploymentYaml(1000));
  await form.getByRole('button', { name: 'Create' }).click();
  await podflow.openStateTab('Objects');
  const podsButton = page.getByRole('group', { name: 'Resource' }).getByRole('button', { name: /^pods\b/ });
  await podflow.button('Run until idle').click();
  // Every Pod is stored once the ReplicaSet controller's slow-start batches are through.
  await expect(podsButton).toHaveText('pods 1000', { timeout: 480_000 });
  await podsButton.click();
  const table = page.getByRole('table', { name: /^pods / });
  await expect(table).toHaveAttribute('aria-rowcount', '1001');
  const rows = table.getByTestId('object-row');
  await expect(rows.first()).toBeVisible();
  // A screenful (about 20 rows at 720 px) and the overscan either side, never the whole list.
  expect(await rows.count()).toBeLessThanOrEqual(60);
  // The page holds a window of rows, not the list: the worker sent at most a window's worth.
  const held = await page.evaluate(() => (globalThis as unknown as { podflow: { store: { getState(): { inspection: { objects: { rows: unknown[] } } } } } }).podflow
    .store.getState().inspection.objects.rows.length);
  expect(held).toBeGreaterThan(0);
  expect(held).toBeLessThanOrEqual(150);
  // The Pods' keys in etcd's order, as the keyspace mirror holds them: the last row is the last key's Pod.
  const names = await page.evaluate(() => (globalThis as unknown as { podflow: { store: { getState(): { keyspace: { live: { keys: string[] } } } } } }).podflow
    .store.getState().keyspace.live.keys.filter((k) => k.startsWith('/registry/pods/default/')).map((k) => k.slice('/registry/pods/default/'.length)));
  expect(names).toHaveLength(1000);
  // Scrolled to the bottom: the last Pod is drawn, the first is not, and still only a screenful is.
  await table.locator('xpath=ancestor::div[contains(@class, "objects-scroller")]').evaluate((el) => { el.scrollTop = el.scrollHeight; });
  await expect(table.locator(`[data-testid="object-row"][aria-rowindex="1001"]`)).toBeVisible();
  await expect(table.locator(`[data-testid="object-row"][aria-rowindex="1001"] td[data-column="Name"]`)).toHaveText(names.at(-1)!);
  await expect(table.locator(`[data-testid="object-row"][aria-rowindex="2"]`)).toHaveCount(0);
  expect(await rows.count()).toBeLessThanOrEqual(60);
  // Scrolled to the middle: the worker sends that window, and no row stays a placeholder.
  await table.locator('xpath=ancestor::div[contains(@class, "objects-scroller")]').evaluate((el) => { el.scrollTop = el.scrollHeight / 2; });
  await expect(table.locator(`[data-testid="object-row"][aria-rowindex="502"]`)).toBeVisible();
  await expect(table.locator(`[data-testid="object-row"][aria-rowindex="502"] td[data-column="Name"]`)).toHaveText(names[500]!);
  await expect(table.getByTestId('object-row-loading')).toHaveCount(0);
  for (const [width, height] of [[1280, 720], [1440, 900]] as const) {
    await page.setViewportSize({ width, height });
    await expect(table.getByTestId('object-row-loading')).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath(`objects-1000-pods-${width}x${height}.png`) });
  }
});

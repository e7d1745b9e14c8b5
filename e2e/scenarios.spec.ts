import type { Page } from '@playwright/test';
import { ActDock } from './act.ts';
import { expect, PodflowTimeline, test } from './podflow.ts';

// The Scenarios tab: a scenario of the catalog run from the page, every kubectl step through the console
// (a user action on the timeline), faults through the faults path, and the playback steps as playback.

function scenarioPanel(page: Page) {
  return {
    pick: page.getByRole('combobox', { name: 'Scenario' }),
    steps: page.getByRole('list', { name: 'Scenario steps' }).getByTestId('scenario-step'),
    runNext: page.getByRole('button', { name: 'Run next step', exact: true }),
    runAll: page.getByRole('button', { name: 'Run all remaining steps', exact: true }),
    progress: page.getByTestId('scenario-progress'),
  };
}

test('my-replicaset (seeds/004): run all steps, both pods Running, the steps on the timeline', async ({ podflow }) => {
  const page = podflow.page;
  const dock = new ActDock(podflow);
  const panel = scenarioPanel(page);
  await test.step('pick it: its description and numbered steps', async () => {
    await dock.tab('Scenarios').click();
    await panel.pick.selectOption('my-replicaset');
    await expect(page.getByTestId('scenario-description')).toContainText('a ReplicaSet of 2 pods');
    await expect(panel.steps).toHaveCount(2);
    await expect(panel.steps.nth(0)).toContainText('kubectl create -f replicaset.yaml');
    await expect(panel.steps.nth(0)).toHaveAttribute('data-status', 'next');
    await expect(panel.steps.nth(1)).toContainText('# run until idle');
  });
  await test.step('run all remaining steps', async () => {
    await panel.runAll.click();
    await expect(panel.progress).toHaveText('All 2 steps done', { timeout: 30_000 });
    await expect(panel.steps.nth(0)).toHaveAttribute('data-status', 'done');
    await expect(panel.steps.nth(1)).toHaveAttribute('data-status', 'done');
    await expect(panel.steps.nth(0).getByTestId('scenario-step-output')).toContainText('replicaset.apps/my-replicaset created');
    await expect(podflow.activity).toHaveText('idle');
  });
  await test.step('the ReplicaSet\'s 2 pods are Running', async () => {
    const pods = await dock.runToEnd('kubectl get po');
    expect(pods.match(/my-replicaset-\S+\s+1\/1\s+Running/g)).toHaveLength(2);
  });
  await test.step('the kubectl step is a user action on the timeline', async () => {
    const commands = page.getByTestId('timeline-marker').and(page.locator('[data-kind="command"]'));
    await expect(commands.first()).toHaveAttribute('aria-label', /kubectl create -f replicaset\.yaml/);
  });
  await test.step('saved and replayed: after a reload the same pods are Running', async () => {
    const before = await dock.runToEnd('kubectl get po');
    const names = before.match(/my-replicaset-\S+/g);
    const step = await podflow.step();
    const timeline = new PodflowTimeline(page);
    await timeline.savedAt(step);
    await page.reload();
    await timeline.settledAt(step);
    const after = await dock.runToEnd('kubectl get po');
    expect(after.match(/my-replicaset-\S+/g)).toEqual(names);
    expect(after.match(/my-replicaset-\S+\s+1\/1\s+Running/g)).toHaveLength(2);
  });
});

test('node down: the warning on a used cluster, then the first steps', async ({ podflow }) => {
  const page = podflow.page;
  const dock = new ActDock(podflow);
  const panel = scenarioPanel(page);
  await test.step('a cluster that already holds objects asks first', async () => {
    await dock.runToEnd('kubectl create -f replicaset.yaml');
    await dock.tab('Scenarios').click();
    await panel.pick.selectOption('node-down');
    await expect(page.getByRole('alert')).toContainText('already has');
    await expect(panel.runNext).toBeDisabled();
    await page.getByRole('button', { name: 'Reset cluster first' }).click();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(panel.runNext).toBeEnabled();
  });
  await test.step('create user-service, run until idle, take node-1 down', async () => {
    await expect(panel.steps).toHaveCount(5);
    await panel.runNext.click();
    await expect(panel.steps.nth(0)).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
    await expect(panel.steps.nth(0).getByTestId('scenario-step-output')).toContainText('deployment.apps/user-service created');
    await expect(panel.steps.nth(1)).toHaveAttribute('data-status', 'next');
    await panel.runNext.click();
    await expect(panel.steps.nth(1)).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
    await panel.runNext.click();
    await expect(panel.steps.nth(2)).toHaveAttribute('data-status', 'done');
    await expect(panel.progress).toHaveText('3 of 5 steps done');
    const faults = page.getByTestId('timeline-marker').and(page.locator('[data-kind="command"]'));
    await expect(faults.last()).toHaveAttribute('aria-label', /fault: nodeDown node-1/);
  });
  await test.step('advance 360 s: node-1 is NotReady', async () => {
    await expect(panel.steps.nth(3)).toContainText('# advance 360 s');
    await panel.runNext.click();
    await expect(panel.steps.nth(3)).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
    expect(await dock.runToEnd('kubectl get nodes')).toMatch(/node-1\s+NotReady/);
  });
});

test('the Scenarios tab in 中文 at 1280×720', async ({ podflow }) => {
  const page = podflow.page;
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: '中文' }).click();
  await page.getByRole('tab', { name: '场景' }).click();
  await page.getByRole('combobox', { name: '场景' }).selectOption('self-healing');
  await expect(page.getByTestId('scenario-description')).toContainText('ReplicaSet 控制器');
  const runNext = page.getByRole('button', { name: '运行下一步' });
  await expect(runNext).toBeInViewport();
  await expect(page.getByRole('button', { name: '运行剩余全部步骤' })).toBeInViewport();
  await runNext.click();
  await expect(page.getByTestId('scenario-step').first()).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(page.getByTestId('scenario-progress')).toHaveText('已完成 1 / 4 步');
  await page.screenshot({ path: test.info().outputPath('scenarios-zh-1280x720.png') });
});

test('a cluster with another node count is reset to the scenario\'s before it starts', async ({ podflow }) => {
  const page = podflow.page;
  await new PodflowTimeline(page).act('reset', 'podflow', 1);
  await expect(podflow.component('kubelet/node-2')).toHaveCount(0);
  await new ActDock(podflow).tab('Scenarios').click();
  await scenarioPanel(page).pick.selectOption('user-service-deployment');
  await expect(page.getByRole('alert')).toHaveText(/expects 3 worker nodes; the cluster has 1/);
  await page.getByRole('button', { name: 'Reset cluster first' }).click();
  await expect(podflow.component('kubelet/node-3')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(scenarioPanel(page).runNext).toBeEnabled();
});

// Seeking to a step whose pods the worker no longer keeps (issue 20, part 4): past the trace's retention
// the worker keeps older pod versions as chips, up to a bound (src/worker/pods.ts, agedVersionLimit);
// past that the oldest are forgotten, and where etcd has compacted that step too the graph draws no pods
// and says why, in English and in 中文. The product's bounds take a long run to reach (200,000 steps,
// 60,000 versions); a page opened with `?bounds=small` names its worker so that it keeps 3,000 steps
// and 40 aged versions (src/worker/host/bounds.ts), and three Deployments of 30 reach them. A seek to a
// compacted step the history still covers shows its pods; so does the head. A screenshot at 1280×720 of
// each language is attached.

import type { Page } from '@playwright/test';
import { webDeploymentYaml } from '../bench/manifests.ts';
import { ActDock } from './act.ts';
import { expect, PodflowPage, PodflowTimeline, test } from './podflow.ts';

/** The pods the page's store holds at the step shown. */
function heldPods(page: Page): Promise<number> {
  return page.evaluate(() => (globalThis as unknown as { podflow: { store: { getState(): { pods: { byKey: Map<string, unknown> } } } } }).podflow.store.getState().pods.byKey.size);
}

test('a seek to a step whose pods are no longer kept says so in both languages; a seek inside what is kept shows the pods', async ({ page }, testInfo) => {
  test.setTimeout(300_000);
  await page.addInitScript(() => {
    if (localStorage.getItem('podflow.prefs') === null) {
      localStorage.setItem('podflow.prefs', JSON.stringify({ state: { language: 'en', theme: 'light', level: 'internal' }, version: 1 }));
    }
  });
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?bounds=small');
  const podflow = new PodflowPage(page);
  await expect(podflow.component('user')).toBeVisible();
  const dock = new ActDock(podflow);
  const timeline = new PodflowTimeline(page);
  const runButton = page.getByRole('button', { name: 'Run until idle', exact: true });
  const idle = () => dock.settle(async () => (await runButton.isDisabled()) && (await podflow.activity.textContent()) === 'idle');

  const ends: number[] = [];
  await test.step('three Deployments of 30, each run until idle', async () => {
    const form = page.getByRole('form', { name: 'kubectl create' });
    for (const name of ['web1', 'web2', 'web3']) {
      await form.getByRole('textbox', { name: 'Manifest' }).fill(webDeploymentYaml(30).replaceAll('web', name));
      await form.getByRole('button', { name: 'Create' }).click();
      await expect(runButton).toBeEnabled();
      await idle();
      ends.push(await podflow.step());
    }
    expect(await heldPods(page)).toBe(90);
  });

  await test.step('compact etcd at its current revision', async () => {
    await dock.tab('Faults').click();
    await page.getByRole('button', { name: 'Compact etcd now' }).click();
    await idle();
  });

  const notice = page.getByTestId('pods-forgotten');
  await test.step('the end of the first rollout: no pods drawn, and the graph says why', async () => {
    await timeline.act('seek', ends[0]);
    await timeline.settledAt(ends[0]!);
    await expect(notice).toBeVisible();
    await expect(notice).toHaveText(/^The pods of this step are no longer kept: etcd has compacted it, and pod versions are kept back to revision \d+\.$/);
    expect(await heldPods(page)).toBe(0);
    await expect(page.getByTestId('pod-summary')).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath('pods-no-longer-kept-en-1280x720.png') });

    await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: '中文' }).click();
    await expect(notice).toHaveText(/^此步骤的 Pod 已不再保留：etcd 已压缩此步骤，Pod 的历史版本只保留到修订版本 \d+。$/);
    await page.screenshot({ path: testInfo.outputPath('pods-no-longer-kept-zh-1280x720.png') });
    await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'English' }).click();
    await expect(notice).toContainText('no longer kept');
  });

  await test.step('the end of the second rollout, compacted but still kept: its 60 pods, and no notice', async () => {
    await timeline.act('seek', ends[1]);
    await timeline.settledAt(ends[1]!);
    await expect(notice).toHaveCount(0);
    await expect.poll(() => heldPods(page)).toBe(60);
    await expect(page.getByTestId('pod-summary').first()).toBeVisible();
  });

  await test.step('back at the head: all 90 pods', async () => {
    await timeline.act('seek', ends[2]);
    await timeline.settledAt(ends[2]!);
    await expect(notice).toHaveCount(0);
    await expect.poll(() => heldPods(page)).toBe(90);
  });
});

// What a scenario at scale teaches, on the page (issue 20 part 5): "1,000 Pods on 50 nodes" run whole from
// the Scenarios panel ends with the lesson measured on that cluster — both lists of every Pod with their
// figures (etcd's bytes read for the list from etcd, none for the watch cache's), the Pods' watch-cache
// window, Events beside Pods and kube-scheduler's rate, each with why — and the buttons go to the lists'
// steps. Screenshots at 1280×720 and 1440×900, in English and 中文, are attached.

import type { ScaleLessonView, SimStatus } from '../src/protocol/index.ts';
import { ActDock } from './act.ts';
import { expect, test } from './podflow.ts';

interface PageStore {
  podflow: {
    actions: { reset(seed?: string, nodes?: number, members?: number): void };
    store: { getState(): { scaleLesson: ScaleLessonView | null; status: SimStatus } };
  };
}

test('"1,000 Pods on 50 nodes" ends with its lesson: lists from etcd and from the watch cache, and steps to go to', async ({ podflow, page }, testInfo) => {
  // Booting 50 nodes and running 1,000 Pods to Ready take many minutes on a loaded machine.
  test.setTimeout(1_800_000);
  // One etcd member: the scenario's own size is its nodes and Pods.
  await page.evaluate(() => (globalThis as unknown as PageStore).podflow.actions.reset(undefined, 50, 1));
  await expect(podflow.component('kubelet/node-50')).toBeAttached({ timeout: 300_000 });
  await expect(podflow.activity).toHaveText('idle', { timeout: 300_000 });
  await new ActDock(podflow).tab('Scenarios').click();
  await page.getByRole('combobox', { name: 'Scenario' }).selectOption('scale-1000-pods');
  await page.getByRole('button', { name: 'Run all remaining steps', exact: true }).click();

  const lesson = page.getByTestId('scale-lesson');
  await expect(lesson).toHaveAttribute('data-measured', 'true', { timeout: 1_500_000 });
  await expect(page.getByTestId('scenario-pods')).toHaveAttribute('data-ready', '1000');
  const measured = await page.evaluate(() => (globalThis as unknown as PageStore).podflow.store.getState().scaleLesson!);
  const [fromEtcd, fromCache] = measured.lists;
  expect(fromEtcd).toMatchObject({ source: 'etcd', status: 200, items: 1000 });
  expect(fromCache).toMatchObject({ source: 'watch cache', status: 200, items: 1000, etcdBytes: 0 });
  expect(fromEtcd!.etcdBytes).toBeGreaterThan(0);
  expect(measured.pods).toBe(1000);
  expect(measured.events).toBeGreaterThan(1000);

  const etcdFact = lesson.locator('[data-source="etcd"]');
  const cacheFact = lesson.locator('[data-source="watch cache"]');
  await expect(etcdFact.locator('p')).toHaveText(/^Listing all 1,000 Pods from etcd: [\d.,]+ (kB|MB) read from etcd, [\d.,]+ (ms|s) \(the answer: [\d.,]+ (kB|MB)\)\.$/);
  await expect(cacheFact.locator('p')).toHaveText(/^From the watch cache \(resourceVersion=0\): 0 bytes from etcd, [\d.,]+ (ms|s)/);
  await expect(page.getByTestId('scale-lesson-window')).toContainText(/The Pods' watch cache keeps the last [\d,]+ events, of a capacity of [\d,]+ \(1,000 Pods in its current state\)\./);
  await expect(page.getByTestId('scale-lesson-events')).toContainText(`${measured.events.toLocaleString('en-US')} Events stored in etcd beside 1,000 Pods.`);
  await expect(page.getByTestId('scale-lesson-scheduler')).toContainText(/kube-scheduler: [\d,]+ scheduling attempts, [\d.,]+ per second of virtual time\./);
  for (const id of ['lists', 'window', 'events', 'scheduler']) await expect(page.getByTestId(`scale-lesson-${id}`)).toContainText('Why: ');

  for (const [width, height] of [[1280, 720], [1440, 900]] as const) {
    await page.setViewportSize({ width, height });
    await lesson.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: testInfo.outputPath(`scale-lesson-en-${width}x${height}.png`) });
  }

  // The buttons go to each list's steps: the request arriving at kube-apiserver, the answer at the user.
  const step = () => page.evaluate(() => (globalThis as unknown as PageStore).podflow.store.getState().status.step);
  await etcdFact.getByTestId('scale-lesson-go-request').click();
  await expect.poll(step).toBe(fromEtcd!.requestStep);
  await cacheFact.getByTestId('scale-lesson-go-answer').click();
  await expect.poll(step).toBe(fromCache!.answerStep);
  await cacheFact.getByTestId('scale-lesson-go-request').click();
  await expect.poll(step).toBe(fromCache!.requestStep);

  await page.getByRole('button', { name: '中文' }).click();
  await expect(etcdFact.locator('p')).toHaveText(/^从 etcd 列出全部 1,000 个 Pod：从 etcd 读出 [\d.,]+ (kB|MB)/);
  await expect(cacheFact).toContainText('从 etcd 读出 0 字节');
  await expect(etcdFact.getByTestId('scale-lesson-go-request')).toHaveText(`转到它的请求（第 ${fromEtcd!.requestStep.toLocaleString('en-US')} 步）`);
  for (const [width, height] of [[1280, 720], [1440, 900]] as const) {
    await page.setViewportSize({ width, height });
    await lesson.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: testInfo.outputPath(`scale-lesson-zh-${width}x${height}.png`) });
  }
});

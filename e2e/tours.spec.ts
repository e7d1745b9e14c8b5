import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './podflow.ts';

// The seed 004 tour in 中文, from the header's picker: stops 步骤 0 … 步骤 12 in the seed's order, each with
// the components of that step lit on the graph and its exact Txn or watch event on screen — in the stop
// card and, selected, in full in the message inspector. Then leave the tour and come back to the stop.

/** What each numbered stop must light and show: components, the message kind, and a fragment of its payload. */
const seedSteps: ReadonlyArray<{ readonly n: number; readonly lit: readonly string[]; readonly kind: string; readonly payload: string }> = [
  { n: 0, lit: ['kube-controller-manager', 'kube-apiserver'], kind: 'http.request', payload: '/apis/apps/v1/replicasets' },
  { n: 1, lit: ['user', 'kube-apiserver'], kind: 'http.request', payload: '/apis/apps/v1/namespaces/default/replicasets' },
  { n: 2, lit: ['kube-apiserver', 'etcd'], kind: 'etcd.Txn', payload: '"modRevision": 0' },
  { n: 3, lit: ['etcd', 'kube-apiserver'], kind: 'etcd.WatchResponse', payload: '/registry/replicasets/default/my-replicaset' },
  { n: 4, lit: ['kube-apiserver', 'kube-controller-manager'], kind: 'http.watchEvent', payload: '"ADDED"' },
  { n: 5, lit: ['kube-controller-manager', 'kube-apiserver'], kind: 'http.request', payload: '"generateName": "my-replicaset-"' },
  { n: 6, lit: ['kube-apiserver', 'etcd'], kind: 'etcd.Txn', payload: '/registry/pods/default/my-replicaset-' },
  { n: 7, lit: ['etcd', 'kube-apiserver'], kind: 'etcd.WatchResponse', payload: '/registry/pods/default/my-replicaset-' },
  { n: 8, lit: ['kube-apiserver', 'kube-scheduler'], kind: 'http.watchEvent', payload: '"ADDED"' },
  { n: 9, lit: ['kube-scheduler', 'kube-apiserver'], kind: 'http.request', payload: '/binding' },
  // etcd holds protobuf: the bound Pod's bytes carry the node's name (spec.nodeName).
  { n: 10, lit: ['kube-apiserver', 'etcd'], kind: 'etcd.Txn', payload: '·node-' },
  { n: 11, lit: ['etcd', 'kube-apiserver'], kind: 'etcd.WatchResponse', payload: '·node-' },
  { n: 12, lit: ['kube-apiserver'], kind: 'http.watchEvent', payload: 'nodeName' },
];

test('the seed 004 tour in 中文: 步骤 0 … 步骤 12 in order, components lit, each Txn or watch event on screen', async ({ podflow }) => {
  const page = podflow.page;
  await page.evaluate(() => localStorage.setItem('podflow.prefs', JSON.stringify({ state: { language: 'zh', theme: 'system' }, version: 1 })));
  await podflow.open();
  const card = page.getByTestId('tour-card');

  await test.step('pick the tour from the header: a new cluster, then kubectl create -f replicaset.yaml until idle', async () => {
    await page.getByRole('button', { name: '导览 ▾' }).click();
    await page.getByRole('menuitem', { name: /Pod 创建流程：步骤 0–12/ }).click();
    await expect(card.getByTestId('tour-seed-step')).toHaveText('步骤 0', { timeout: 45_000 });
  });

  const lit = page.locator('[data-testid="component-node"][data-tour-highlight="true"]');
  for (const [i, expected] of seedSteps.entries()) {
    await test.step(`步骤 ${expected.n}`, async () => {
      if (i > 0) await card.getByRole('button', { name: '下一站' }).click();
      await expect(card.getByTestId('tour-seed-step')).toHaveText(`步骤 ${expected.n}`);
      await expect(card.getByText(`第 ${i + 1} 站，共 14 站`)).toBeVisible();
      // The components of this step are lit, and only components of this step.
      for (const name of expected.lit) await expect(podflow.component(name)).toHaveAttribute('data-tour-highlight', 'true');
      if (expected.n === 12) await expect(lit.and(page.locator('[data-component^="kubelet/"]'))).toHaveCount(2);
      // Its exact messages in the card (both Pods from step 5 on) …
      const lines = card.getByTestId('tour-exact-line');
      await expect(lines.first()).toHaveAttribute('data-kind', expected.kind);
      await expect(lines).toHaveCount(expected.n === 0 || expected.n >= 5 ? 2 : 1);
      // … and the newest one selected in the inspector, its payload in full, at the step the timeline shows.
      await expect(podflow.payload).toContainText(expected.payload);
      const shownStep = Number((await lines.last().locator('span').first().textContent())!.replace(/\D/g, ''));
      await expect(podflow.stepCounter).toHaveText(String(shownStep));
    });
  }

  await test.step('the picker and the card pass axe', async () => {
    const results = await new AxeBuilder({ page }).include('[data-testid="tour-card"]').include('.tour-picker').analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });

  await test.step('stepping on from a stop unlights it until the learner goes back to the stop', async () => {
    const at = await podflow.step();
    await page.evaluate(() => (globalThis as unknown as { podflow: { actions: { step(count: number): void } } }).podflow.actions.step(1));
    await expect(podflow.stepCounter).toHaveText(String(at + 1));
    await expect(lit).toHaveCount(0);
    await expect(card.getByRole('status')).toContainText(`时间轴当前在第 ${at + 1} 步；本站在第 ${at} 步。`);
    // The stop's message is let go: the caption tells the step shown, not the stop's.
    const captionStep = page.getByTestId('step-caption-plain').locator('.caption-step');
    await expect(captionStep).toHaveText(`#${at + 1}`);
    await card.getByRole('button', { name: '回到本站' }).click();
    await expect(podflow.stepCounter).toHaveText(String(at));
    await expect(captionStep).toHaveText(`#${at}`);
    await expect(podflow.component('kube-apiserver')).toHaveAttribute('data-tour-highlight', 'true');
  });

  await test.step('leave the tour to explore (step on), then come back to 步骤 12', async () => {
    const at = await podflow.step();
    await card.getByRole('button', { name: '离开导览（自由探索）' }).click();
    await expect(lit).toHaveCount(0);
    // Step on through the page's scripting handle (the playback bar's labels belong to another part).
    await page.evaluate(() => (globalThis as unknown as { podflow: { actions: { step(count: number): void } } }).podflow.actions.step(1));
    await expect(podflow.stepCounter).toHaveText(String(at + 1));
    await page.getByRole('button', { name: '回到导览' }).click();
    await expect(card.getByTestId('tour-seed-step')).toHaveText('步骤 12');
    await expect(podflow.component('kube-apiserver')).toHaveAttribute('data-tour-highlight', 'true');
    await expect(podflow.stepCounter).toHaveText(String(at));
  });

  await test.step('the last stop: both Pods Running; then end the tour', async () => {
    await card.getByRole('button', { name: '下一站' }).click();
    await expect(card.getByTestId('tour-stop-title')).toContainText('Running');
    await expect(card.getByRole('button', { name: '下一站' })).toBeDisabled();
    await card.getByRole('button', { name: '结束导览' }).click();
    await expect(card).toHaveCount(0);
    await expect(lit).toHaveCount(0);
  });
});

// The other tours in English: each prepares from the picker (its own commands, faults and waits as the
// page runs them) and every stop is found, with its exact messages on screen.
for (const [id, title, stops] of [
  ['registry-keys', 'The nginx Deployment in etcd', 8],
  ['resource-versions', 'resourceVersion: etcd or the watch cache', 13],
  ['self-healing', 'Self-healing: delete a managed Pod', 6],
  ['rolling-update', 'Rolling update: kubectl set image', 7],
] as const) {
  test(`the ${id} tour: every stop found, its messages on screen`, async ({ podflow }) => {
    const page = podflow.page;
    const card = page.getByTestId('tour-card');
    await page.getByRole('button', { name: 'Tour ▾' }).click();
    await page.getByRole('menuitem', { name: new RegExp(title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).click();
    for (let i = 0; i < stops; i++) {
      if (i > 0) await card.getByRole('button', { name: 'Next stop' }).click();
      await expect(card.getByText(`Stop ${i + 1} of ${stops}`)).toBeVisible({ timeout: i === 0 ? 60_000 : 10_000 });
      await expect(card.getByTestId('tour-exact-line').first()).toBeVisible();
      const lit = page.locator('[data-testid="component-node"][data-tour-highlight="true"]');
      await expect(lit.first()).toBeVisible();
      // The card sits in the right-hand column: it never covers a component the stop is about.
      const cardBox = (await card.boundingBox())!;
      for (const box of await lit.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect))) {
        const apart = box.right <= cardBox.x || box.left >= cardBox.x + cardBox.width || box.bottom <= cardBox.y || box.top >= cardBox.y + cardBox.height;
        expect(apart, `a lit component at ${JSON.stringify(box)} is under the tour card`).toBe(true);
      }
    }
    await expect(card.getByRole('button', { name: 'Next stop' })).toBeDisabled();
  });
}

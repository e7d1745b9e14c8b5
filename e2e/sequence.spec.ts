// The sequence view (issue 15, item 4): the nginx flow's milestones in order, clicking the binding's
// arrow moves the playhead to its step, and stepping moves the view to the step shown.

import type { Locator, Page } from '@playwright/test';
import { expect, test } from './podflow.ts';

async function openSequence(page: Page): Promise<Locator> {
  await page.getByRole('tab', { name: 'Sequence' }).click();
  const view = page.getByTestId('sequence-view');
  await expect(view).toBeVisible();
  return view;
}

/** The milestones the view shows now, top to bottom: kind and step. */
async function milestonesShown(view: Locator): Promise<Array<{ kind: string; step: number }>> {
  return view.getByTestId('sequence-milestone').evaluateAll((els) => els
    .map((el) => ({ kind: (el as HTMLElement).dataset.kind ?? '', step: Number((el as HTMLElement).dataset.step), top: el.getBoundingClientRect().top }))
    .sort((a, b) => a.top - b.top)
    .map(({ kind, step }) => ({ kind, step })));
}

test('the sequence view shows the nginx flow\'s milestones in order and follows the playhead both ways', async ({ podflow, page }) => {
  await podflow.createNginxDeployment();
  await podflow.runUntilIdle();
  const head = await podflow.step();
  const view = await openSequence(page);
  const scroller = view.getByTestId('sequence-scroller');

  let binding = 0;
  await test.step('at the milestone level: the flow from the user\'s create to the Deployment Available, in step order', async () => {
    await view.getByRole('combobox', { name: 'Show' }).selectOption('milestone');
    await scroller.evaluate((el) => { el.scrollTop = 0; });
    await view.getByRole('checkbox', { name: 'Follow the playhead' }).uncheck();
    await scroller.evaluate((el) => { el.scrollTop = 0; });
    await expect(view.getByTestId('sequence-milestone').first()).toBeVisible();
    // Scroll through: collect every milestone the view shows.
    const seen = new Map<number, string>();
    for (let i = 0; i < 20; i++) {
      await expect(view.getByTestId('sequence-row-pending')).toHaveCount(0);
      for (const m of await milestonesShown(view)) seen.set(m.step, m.kind);
      const done = await scroller.evaluate((el) => {
        const end = el.scrollTop + el.clientHeight >= el.scrollHeight - 2;
        el.scrollTop += el.clientHeight - 30;
        return end;
      });
      if (done) break;
    }
    const steps = [...seen.keys()].sort((a, b) => a - b);
    const kinds = steps.map((s) => seen.get(s)!);
    const order = ['userAction', 'objectCreated', 'podCreated', 'podBound', 'podPhase', 'deploymentAvailable'];
    const firstOf = order.map((kind) => kinds.indexOf(kind));
    expect(firstOf.every((i) => i >= 0), `milestones seen: ${kinds.join(', ')}`).toBe(true);
    expect([...firstOf].sort((a, b) => a - b)).toEqual(firstOf);
    expect(kinds).toContain('containerStep');
    binding = steps[kinds.indexOf('podBound')]!;
    expect(binding).toBeLessThan(head);
  });

  await test.step('clicking the binding\'s arrow shows its step', async () => {
    const row = view.getByTestId('sequence-row').and(page.locator(`[data-step="${binding}"]`));
    await row.scrollIntoViewIfNeeded();
    await row.getByTestId('sequence-arrow').click();
    await expect(podflow.stepCounter).toHaveText(String(binding));
    await expect(row).toHaveAttribute('data-current', 'true');
    await expect(row.getByTestId('sequence-milestone')).toHaveAttribute('data-kind', 'podBound');
  });

  await test.step('stepping moves the view to the step shown', async () => {
    await view.getByRole('combobox', { name: 'Show' }).selectOption('request');
    await view.getByRole('checkbox', { name: 'Follow the playhead' }).check();
    const current = view.locator('[data-testid="sequence-row"][data-current="true"]');
    await expect(current).toHaveAttribute('data-step', String(binding));
    const before = await scroller.evaluate((el) => el.scrollTop);
    for (let i = 0; i < 30; i++) {
      const at = await podflow.step();
      await podflow.button('Step').click();
      await expect(podflow.stepCounter).toHaveText(String(at + 1));
    }
    const shown = binding + 30;
    // The row holding the step shown is marked and in view (the view scrolled down to it).
    await expect.poll(async () => {
      const step = Number(await current.getAttribute('data-step'));
      return step <= shown && step > binding;
    }).toBe(true);
    await expect.poll(() => scroller.evaluate((el) => el.scrollTop)).toBeGreaterThan(before);
    const [box, area] = await Promise.all([current.boundingBox(), scroller.boundingBox()]);
    expect(box!.y).toBeGreaterThanOrEqual(area!.y);
    expect(box!.y + box!.height).toBeLessThanOrEqual(area!.y + area!.height);
  });
});

test('a row\'s folded stages open under it', async ({ podflow, page }) => {
  // One etcd member: with three, the Raft messages under a Txn fold into its row too.
  await podflow.etcdMembers(1);
  await podflow.createNginxDeployment();
  for (let i = 0; i < 12; i++) await podflow.button('Step').click();
  await expect(podflow.stepCounter).not.toHaveText('0');
  const view = await openSequence(page);
  const fold = view.getByTestId('sequence-fold').last();
  await expect(fold).toBeVisible();
  const count = Number((await fold.textContent())!.replace('+', ''));
  const rowsBefore = await view.getByTestId('sequence-row').count();
  await fold.click();
  await expect(fold).toHaveAttribute('aria-expanded', 'true');
  await expect(view.locator('.sequence-row--folded[data-testid="sequence-row"]')).toHaveCount(count);
  expect(await view.getByTestId('sequence-row').count()).toBeGreaterThan(rowsBefore);
  // The stages are kube-apiserver's messages to itself.
  await expect(view.locator('.sequence-row--folded [data-testid="sequence-arrow"]').first()).toHaveAttribute('data-from', 'kube-apiserver');
});

// Token labels never collide (issue 15, item 3): on each link at most one label, and no two labels' boxes
// intersect, nor a label and a component's title; only the selected message's or the step shown's label
// lies mostly over a component's body (at most a quarter of any other's area) — checked again and again
// while the nginx flow is stepped and played, and while a 1,000-replica Deployment is created. Hovering a
// token shows its own label.

import type { Page } from '@playwright/test';
import { expect, test } from './podflow.ts';

interface LabelCheck {
  readonly labels: number;
  readonly links: number;
  readonly problems: string[];
}

/** The visible token labels and component titles as the page lays them out now, and what overlaps. */
async function checkLabels(page: Page): Promise<LabelCheck> {
  return page.evaluate(() => {
    const visible = (r: DOMRect) => r.width > 0 && r.height > 0;
    const hit = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const overlap = (a: DOMRect, b: DOMRect) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
    const labels = [...document.querySelectorAll<SVGGElement>('[data-testid="token-label"]')]
      .map((el) => ({ text: el.textContent ?? '', link: el.dataset.link ?? '', important: el.dataset.important === 'true', rect: el.getBoundingClientRect() }))
      .filter((l) => visible(l.rect));
    const bodies = [...document.querySelectorAll('[data-testid="component-node"]')].map((el) => el.getBoundingClientRect()).filter(visible);
    const titles = [...document.querySelectorAll('[data-testid="component-node"] .component-title')]
      .map((el) => ({ text: el.textContent ?? '', rect: el.getBoundingClientRect() }))
      .filter((t) => visible(t.rect));
    const problems: string[] = [];
    labels.forEach((a, i) => {
      for (const b of labels.slice(i + 1)) if (hit(a.rect, b.rect)) problems.push(`label "${a.text}" overlaps label "${b.text}"`);
      for (const t of titles) if (hit(a.rect, t.rect)) problems.push(`label "${a.text}" covers the title "${t.text}"`);
      // A pixel of rounding per side allowed.
      const covered = bodies.reduce((sum, body) => sum + overlap(a.rect, body), 0);
      if (!a.important && covered > 0.25 * (a.rect.width + 2) * (a.rect.height + 2)) problems.push(`label "${a.text}" lies over component boxes (${Math.round(covered)} px²)`);
    });
    return { labels: labels.length, links: new Set(labels.map((l) => l.link)).size, problems };
  });
}

function expectClean(check: LabelCheck, when: string): void {
  expect(check.problems, when).toEqual([]);
  // At most one label per link.
  expect(check.links, when).toBe(check.labels);
}

test('during the nginx flow no token label covers another or a component title', async ({ podflow, page }) => {
  await podflow.createNginxDeployment();
  let seen = 0;
  await test.step('stepping through the first 120 steps', async () => {
    for (let i = 0; i < 40; i++) {
      const before = await podflow.step();
      await podflow.button('Step').click();
      await expect(podflow.stepCounter).not.toHaveText(String(before));
      if (i % 2 === 0) await podflow.button('Step').click();
      const check = await checkLabels(page);
      expectClean(check, `after step ${await podflow.step()}`);
      seen = Math.max(seen, check.labels);
    }
  });
  await test.step('playing', async () => {
    await page.getByRole('combobox', { name: 'Speed' }).selectOption('0.01');
    await podflow.button('Play').click();
    for (let i = 0; i < 25; i++) {
      await page.waitForTimeout(150);
      const check = await checkLabels(page);
      expectClean(check, `while playing, sample ${i}`);
      seen = Math.max(seen, check.labels);
    }
    await podflow.button('Pause').click();
  });
  // The flow keeps several links busy at once: the check saw labels on more than one link.
  expect(seen).toBeGreaterThan(1);
});

test('hovering a token shows its own label', async ({ podflow, page }) => {
  await podflow.createNginxDeployment();
  const request = podflow.token({ kind: 'http.request', from: 'user', to: 'kube-apiserver' });
  await podflow.stepUntilVisible(request);
  await request.hover();
  await expect(page.getByTestId('token-hover-label')).toHaveText(/^POST .*deployments$/);
  await page.mouse.move(2, 2);
  await expect(page.getByTestId('token-hover-label')).toHaveCount(0);
});

test('while a 1,000-replica Deployment is created no token label covers another or a component title', async ({ podflow, page }) => {
  test.setTimeout(180_000);
  const form = page.getByRole('form', { name: 'kubectl create' });
  await form.getByRole('textbox', { name: 'Manifest' }).fill(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
spec:
  replicas: 1000
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: "nginx:1.14.2"}]}
`);
  await form.getByRole('button', { name: 'Create' }).click();
  let seen = 0;
  await test.step('stepping 250 messages at a time (paused: labels with their payloads, at their widest)', async () => {
    for (let i = 0; i < 16; i++) {
      const before = await podflow.step();
      await page.evaluate(() => (globalThis as unknown as { podflow: { actions: { step(n: number): void } } }).podflow.actions.step(250));
      await expect(podflow.stepCounter).not.toHaveText(String(before));
      const check = await checkLabels(page);
      expectClean(check, `at step ${await podflow.step()}`);
      seen = Math.max(seen, check.labels);
    }
  });
  await test.step('playing at 1×', async () => {
    await page.getByRole('combobox', { name: 'Speed' }).selectOption('1');
    await podflow.button('Play').click();
    for (let i = 0; i < 12; i++) {
      await page.waitForTimeout(150);
      expectClean(await checkLabels(page), `while playing, sample ${i}`);
    }
    await podflow.button('Pause').click();
  });
  expect(seen).toBeGreaterThan(1);
  expect(await podflow.step()).toBeGreaterThan(1_000);
});

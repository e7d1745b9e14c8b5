import type { Locator, Page } from '@playwright/test';
import { expect, test, type PodflowPage } from './podflow.ts';

// The story on the page (issue 14): the nginx Deployment told milestone by milestone. Every name,
// node and revision the narrator says is read back from the Objects and keyspace tabs, never written
// here; Why? walks from the Pod's Running milestone back to the user's create in the timeline's steps.

interface Told {
  readonly kind: string;
  readonly step: number;
  readonly text: string;
}

function story(page: Page) {
  const panel = page.getByTestId('story-panel');
  return {
    panel,
    step: panel.getByTestId('story-step'),
    milestone: panel.getByTestId('story-milestone'),
    exact: panel.getByTestId('story-exact'),
    why: panel.getByRole('button', { name: 'Why?', exact: true }),
  };
}

const nextMilestone = (page: Page) => page.getByRole('toolbar', { name: 'Playback' }).getByRole('button', { name: 'Next milestone', exact: true });

/** Clicks "Next milestone" once and waits for the narrator to move; returns what it says then. */
async function clickNextMilestone(podflow: PodflowPage): Promise<Told> {
  const { page } = podflow;
  const s = story(page);
  const before = await s.step.getAttribute('data-step');
  await nextMilestone(page).click();
  await expect(s.step).not.toHaveAttribute('data-step', before ?? '');
  await expect(s.milestone).toHaveAttribute('data-step', /\d+/);
  const step = Number(await s.step.getAttribute('data-step'));
  // "Next milestone" lands on the milestone's own step: the narrator's milestone is the step shown.
  await expect(s.milestone).toHaveAttribute('data-step', String(step));
  await expect(page.getByTestId('timeline-position')).toHaveAttribute('data-step', String(step));
  return { kind: (await s.milestone.getAttribute('data-kind')) ?? '', step, text: (await s.milestone.textContent()) ?? '' };
}

/** The Objects tab's rows of `resource`, as name → cells by column. */
async function objectRows(podflow: PodflowPage, resource: string): Promise<Map<string, Record<string, string>>> {
  const { page } = podflow;
  await podflow.openStateTab('Objects');
  await page.getByRole('group', { name: 'Resource' }).getByRole('button', { name: new RegExp(`^${resource}\\b`) }).click();
  const table = page.getByRole('table', { name: new RegExp(`^${resource} `) });
  await expect(table.getByTestId('object-row').first()).toBeVisible();
  const rows = new Map<string, Record<string, string>>();
  for (const row of await table.getByTestId('object-row').all()) {
    const cells: Record<string, string> = {};
    for (const cell of await row.locator('td[data-column]').all()) cells[(await cell.getAttribute('data-column'))!] = ((await cell.textContent()) ?? '').trim();
    rows.set(cells.Name!, cells);
  }
  return rows;
}

/** The keyspace tab's create and mod revisions of `key`. */
async function keyRevisions(podflow: PodflowPage, key: string): Promise<{ create: number; mod: number }> {
  await podflow.openStateTab('etcd keyspace');
  await podflow.filterKeys(key);
  const row: Locator = podflow.keyRow(key);
  await expect(row).toBeVisible();
  return {
    create: Number(await row.getByTestId('key-create-revision').textContent()),
    mod: Number(await row.getByTestId('key-mod-revision').textContent()),
  };
}

const word = (value: string | number) => new RegExp(`(^|[^\\w-])${String(value).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w-])`);

test('nginx from a cold page, only "Next milestone": the Pod is Running within 15 clicks, every caption naming the real object, node and revision; Why? leads back to the create', async ({ podflow, page }) => {
  const s = story(page);
  const told: Told[] = [];

  await test.step('Create with the nginx preset, then only "Next milestone" until the Pod is Running', async () => {
    await podflow.createNginxDeployment();
    for (let click = 1; click <= 15; click++) {
      const said = await clickNextMilestone(podflow);
      told.push(said);
      await expect(s.exact).not.toBeEmpty();
      if (said.kind === 'podPhase' && /Running/.test(said.text)) break;
    }
    const running = told.at(-1)!;
    expect(running.kind, told.map((t) => `${t.step} ${t.kind}: ${t.text}`).join('\n')).toBe('podPhase');
    expect(running.text).toMatch(/Running/);
    expect(told.length).toBeLessThanOrEqual(15);
    // Milestones in step order, one per click.
    expect(told.map((t) => t.step)).toEqual([...told.map((t) => t.step)].sort((a, b) => a - b));
    expect(new Set(told.map((t) => t.step)).size).toBe(told.length);
  });

  await test.step('the captions name the objects, node and revisions the Objects and keyspace tabs show', async () => {
    const deployments = await objectRows(podflow, 'deployments');
    const replicasets = await objectRows(podflow, 'replicasets');
    const pods = await objectRows(podflow, 'pods');
    expect(deployments.size).toBe(1);
    expect(replicasets.size).toBe(1);
    expect(pods.size).toBe(1);
    const [deployment] = [...deployments.keys()];
    const [replicaset] = [...replicasets.keys()];
    const [[pod, podCells]] = [...pods.entries()] as [[string, Record<string, string>]];
    const node = podCells.Node!;
    expect(node).toMatch(/^node-\d+$/);
    expect(podCells.Status).toBe('Running');

    const d = await keyRevisions(podflow, `/registry/deployments/default/${deployment}`);
    const rs = await keyRevisions(podflow, `/registry/replicasets/default/${replicaset}`);
    const p = await keyRevisions(podflow, `/registry/pods/default/${pod}`);

    // Exactly one caption of the kind names the object (and node) at the revision the keyspace shows.
    const one = (kind: string, revision: number | null, ...names: string[]) => {
      const found = told.filter((t) => t.kind === kind && names.every((n) => t.text.includes(n)) && (revision === null || word(revision).test(t.text)));
      expect(found, `${kind} naming ${names.join(', ')} at ${revision} in:\n${told.map((t) => `${t.kind}: ${t.text}`).join('\n')}`).toHaveLength(1);
      return found[0]!;
    };
    one('objectCreated', d.create, deployment!);
    one('objectCreated', rs.create, replicaset!);
    one('podCreated', p.create, pod);
    one('podBound', null, pod, node);
    one('podPhase', p.mod, pod, node);
    // The user's own command opens the story.
    expect(told[0]!.kind).toBe('userAction');
  });

  await test.step('Why? from the Running milestone: the root and the milestones first, back to the user\'s create', async () => {
    const running = told.at(-1)!;
    await expect(page.getByTestId('timeline-position')).toHaveAttribute('data-step', String(running.step));
    await s.why.click();
    const chain = page.getByTestId('why-chain');
    const tops = chain.getByTestId('why-milestone');
    await expect(tops.first()).toBeVisible();
    await expect(tops.first()).toHaveAttribute('data-role', 'root');
    await expect(tops.first()).toHaveAttribute('data-from', 'user');
    await expect(chain.getByTestId('why-root')).toHaveText('It starts with the user\'s action.');
    await expect(tops.last()).toHaveAttribute('data-kind', 'podPhase');
    await expect(tops.last()).toHaveAttribute('data-step', String(running.step));
    await expect(tops.last()).toHaveAttribute('aria-current', 'step');
    // Milestones first: the requests and deliveries between them are folded away.
    await expect(chain.getByTestId('why-delivery').first()).toBeHidden();

    const steps = await tops.evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.step)));
    const labels = await tops.getByTestId('why-step').allTextContents();
    expect(labels).toEqual(steps.map((n) => `step ${n}`));
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    // Every milestone of the tree is one the narrator told, at the same step.
    const toldSteps = new Set(told.map((t) => t.step));
    const kinds = await tops.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.kind ?? ''));
    steps.forEach((step, i) => {
      if (kinds[i]) expect(toldSteps.has(step), `why entry at step ${step} (${kinds[i]})`).toBe(true);
    });
    expect(kinds.filter(Boolean)).toEqual(expect.arrayContaining(['podCreated', 'podBound', 'podPhase']));
  });

  await test.step('an entry moves the timeline to its step; the tree stays, the narrator follows', async () => {
    const chain = page.getByTestId('why-chain');
    const bound = chain.getByTestId('why-milestone').and(page.locator('[data-kind="podBound"]'));
    const step = Number(await bound.getAttribute('data-step'));
    await bound.click();
    await expect(page.getByTestId('timeline-position')).toHaveAttribute('data-step', String(step));
    await expect(podflow.stepCounter).toHaveText(String(step));
    await expect(s.milestone).toHaveAttribute('data-kind', 'podBound');
    await expect(bound).toHaveAttribute('aria-current', 'step');
    await expect(chain.getByTestId('why-milestone').last()).toHaveAttribute('data-kind', 'podPhase');
  });

  await test.step('between two milestones: the requests and deliveries, each in the timeline\'s steps', async () => {
    const chain = page.getByTestId('why-chain');
    const gap = chain.getByTestId('why-between').last();
    await gap.click();
    const deliveries = chain.locator('details[open]').getByTestId('why-delivery');
    await expect(deliveries.first()).toBeVisible();
    const tops = await chain.getByTestId('why-milestone').evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.step)));
    const between = await deliveries.evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.step)));
    expect(between.every((n) => n > tops.at(-2)! && n < tops.at(-1)!)).toBe(true);
    const first = deliveries.first();
    const step = Number(await first.getAttribute('data-step'));
    await expect(first.getByTestId('why-step')).toHaveText(`step ${step}`);
    await first.click();
    await expect(page.getByTestId('timeline-position')).toHaveAttribute('data-step', String(step));
    await expect(page.getByTestId('story-exact')).toHaveAttribute('data-step', String(step));
  });
});

test('the timeline labels the milestones; a marker seeks there; "Previous milestone" and Shift+← go back', async ({ podflow, page }) => {
  const s = story(page);
  await podflow.createNginxDeployment();
  const told: Told[] = [];
  for (let i = 0; i < 6; i++) told.push(await clickNextMilestone(podflow));
  const markers = page.getByTestId('timeline-milestone');
  // One marker per milestone, except where several share a place on the track.
  const drawn = await markers.evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.step)));
  expect(drawn.length).toBeGreaterThan(1);
  expect(drawn.length).toBeLessThanOrEqual(told.length);
  for (const step of drawn) expect(told.map((t) => t.step)).toContain(step);
  const current = markers.and(page.locator('[aria-current="step"]'));
  await expect(current).toHaveAttribute('data-step', String(told.at(-1)!.step));
  await expect(page.getByTestId('timeline-current-label')).not.toBeEmpty();
  await expect(current).toHaveAttribute('title', told.at(-1)!.text);

  const target = told.find((t) => t.step === drawn[1])!;
  await markers.and(page.locator(`[data-step="${target.step}"]`)).click();
  await expect(page.getByTestId('timeline-position')).toHaveAttribute('data-step', String(target.step));
  await expect(s.milestone).toHaveText(target.text);
  await expect(current).toHaveAttribute('data-step', String(target.step));

  await page.getByRole('button', { name: 'Next milestone', exact: true }).click();
  const k = told.indexOf(target);
  expect(k).toBeLessThan(told.length - 1);
  await expect(s.milestone).toHaveAttribute('data-step', String(told[k + 1]!.step));
  await page.getByRole('button', { name: 'Previous milestone', exact: true }).click();
  await expect(s.milestone).toHaveAttribute('data-step', String(told[k]!.step));
  await page.getByRole('button', { name: 'Previous milestone', exact: true }).click();
  await expect(s.milestone).toHaveAttribute('data-step', String(told[k - 1]!.step));
  await page.keyboard.press('Shift+ArrowRight');
  await expect(s.milestone).toHaveAttribute('data-step', String(told[k]!.step));
  await page.keyboard.press('Shift+ArrowRight');
  await expect(s.milestone).toHaveAttribute('data-step', String(told[k + 1]!.step));
  await page.keyboard.press('Shift+ArrowLeft');
  await expect(s.milestone).toHaveAttribute('data-step', String(told[k]!.step));
});

test('the level of detail: Story makes Step and → move a milestone; the choice is remembered', async ({ podflow, page }) => {
  const s = story(page);
  const levels = page.getByRole('group', { name: 'Level of detail' });
  await expect(levels.getByRole('button', { name: 'All', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await podflow.createNginxDeployment();
  await levels.getByRole('button', { name: 'Story', exact: true }).click();
  await expect(levels.getByRole('button', { name: 'Story', exact: true })).toHaveAttribute('aria-pressed', 'true');

  await podflow.button('Step').click();
  await expect(s.milestone).toHaveAttribute('data-kind', 'userAction');
  const first = Number(await s.milestone.getAttribute('data-step'));
  await expect(page.getByTestId('timeline-position')).toHaveAttribute('data-step', String(first));
  await page.keyboard.press('ArrowRight');
  await expect(s.milestone).not.toHaveAttribute('data-step', String(first));
  const second = Number(await s.milestone.getAttribute('data-step'));
  await expect(page.getByTestId('timeline-position')).toHaveAttribute('data-step', String(second));
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('timeline-position')).toHaveAttribute('data-step', String(first));

  await levels.getByRole('button', { name: 'Requests', exact: true }).click();
  await page.reload();
  await expect(page.getByRole('group', { name: 'Level of detail' }).getByRole('button', { name: 'Requests', exact: true })).toHaveAttribute('aria-pressed', 'true');
});

test('the story in 中文: the controls and the narrator speak Chinese', async ({ podflow, page }) => {
  await podflow.createNginxDeployment();
  await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: '中文' }).click();
  await expect(page.getByRole('group', { name: '详细程度' }).getByRole('button', { name: '故事', exact: true })).toBeVisible();
  await page.getByRole('button', { name: '下一个里程碑', exact: true }).click();
  await page.getByRole('button', { name: '下一个里程碑', exact: true }).click();
  await expect(story(page).milestone).toHaveText(/[\u4e00-\u9fff]/);
  await expect(story(page).panel.getByRole('heading', { name: '故事' })).toBeVisible();
});

test('the my-replicaset scenario milestone by milestone: the command first, then one milestone per click, then the next step', async ({ podflow, page }) => {
  const s = story(page);
  await page.getByRole('tab', { name: 'Scenarios' }).click();
  await page.getByRole('combobox', { name: 'Scenario' }).selectOption('my-replicaset');
  const steps = page.getByRole('list', { name: 'Scenario steps' }).getByTestId('scenario-step');
  const next = page.getByRole('button', { name: 'Next milestone in the scenario', exact: true });
  const runAll = page.getByRole('button', { name: 'Run all remaining steps', exact: true });

  await next.click();
  await expect(steps.nth(0)).toHaveAttribute('data-stepping', 'true');
  await expect(steps.nth(0)).toHaveAttribute('data-status', 'running');
  await expect(s.milestone).toHaveAttribute('data-kind', 'userAction');
  await expect(steps.nth(0).getByTestId('scenario-milestone')).toContainText('kubectl');

  const kinds: string[] = ['userAction'];
  for (let click = 0; click < 40 && (await steps.nth(0).getAttribute('data-status')) === 'running'; click++) {
    const before = await s.step.getAttribute('data-step');
    await next.click();
    await expect(next).toBeEnabled();
    if ((await steps.nth(0).getAttribute('data-status')) === 'running') {
      await expect(s.step).not.toHaveAttribute('data-step', before ?? '');
      kinds.push((await s.milestone.getAttribute('data-kind')) ?? '');
    }
  }
  await expect(steps.nth(0)).toHaveAttribute('data-status', 'done');
  await expect(steps.nth(0).getByTestId('scenario-step-output')).toContainText('replicaset.apps/my-replicaset created');
  // Both pods were created, bound and Running on the way, one milestone per click.
  expect(kinds.filter((k) => k === 'podCreated')).toHaveLength(2);
  expect(kinds.filter((k) => k === 'podBound')).toHaveLength(2);
  expect(kinds.filter((k) => k === 'podPhase').length).toBeGreaterThanOrEqual(2);
  await expect(podflow.activity).toHaveText('idle');

  // The last step (run until idle) has nothing left: Run all remaining finishes the scenario.
  await runAll.click();
  await expect(page.getByTestId('scenario-progress')).toHaveText('All 2 steps done');
});

test('"Next milestone" on an idle cluster says why nothing new is shown, and the note goes with the next step', async ({ podflow, page }) => {
  const before = await podflow.step();
  await podflow.button('Next milestone').click();
  const note = page.getByTestId('story-nothing-ahead');
  await expect(note).toHaveAttribute('data-level', 'milestone', { timeout: 30_000 });
  // It says how far the model looked, in the steps the counter shows.
  const after = await podflow.step();
  expect(after).toBeGreaterThan(before);
  await expect(note).toContainText(`No further milestone: Podflow delivered the next ${(after - before).toLocaleString('en')} steps`);
  await expect(note).toContainText('background work');
  await podflow.button('Step').click();
  await expect(note).toHaveCount(0);
});

test.describe('at 1280×720, where the dock shares the right-hand column', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  /** The exact line is inside the narrator's box as drawn, and the page itself does not scroll. */
  async function expectExactInView(page: Page, where: string) {
    const s = story(page);
    await expect(s.exact).not.toBeEmpty();
    const exact = (await s.exact.boundingBox())!;
    const panel = (await s.panel.boundingBox())!;
    expect(exact.y, where).toBeGreaterThanOrEqual(panel.y);
    expect(exact.y + exact.height, where).toBeLessThanOrEqual(panel.y + panel.height);
    expect(panel.y + panel.height, where).toBeLessThanOrEqual(720);
    expect(await page.evaluate(() => document.scrollingElement!.scrollHeight), where).toBeLessThanOrEqual(720);
  }

  test('the story of the nginx create shows every milestone\'s exact line without scrolling, in English and 中文', async ({ podflow, page }) => {
    await podflow.createNginxDeployment();
    const told: Told[] = [];
    for (let click = 1; click <= 15; click++) {
      const said = await clickNextMilestone(podflow);
      told.push(said);
      await expectExactInView(page, `${said.kind} at step ${said.step}`);
      if (said.kind === 'podPhase' && /Running/.test(said.text)) break;
    }
    expect(told.at(-1)!.text).toMatch(/Running/);
    await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: '中文' }).click();
    await expect(story(page).milestone).toHaveText(/[\u4e00-\u9fff]/);
    const previous = page.getByRole('toolbar').getByRole('button', { name: '上一个里程碑', exact: true });
    for (const said of told.slice(0, -1).reverse()) {
      await previous.click();
      await expect(story(page).milestone).toHaveAttribute('data-step', String(said.step));
      await expectExactInView(page, `中文: ${said.kind} at step ${said.step}`);
    }
  });
});

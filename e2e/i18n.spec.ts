// In 中文, no control or heading of the main screens is English-only: the test walks every visible
// button, tab, heading, label, legend and the accessible names of form fields, region by region, and
// flags a text with English words left once the product's and the wire's own words are taken out. The
// choice is remembered across a reload.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from '@playwright/test';
import { expect, test } from './podflow.ts';

/**
 * Words that stay as they are in 中文: product, component and command names, Kubernetes and etcd wire
 * vocabulary (kinds, resources, fields, RPCs), and the English choice of the language switch itself.
 */
const allowed = new Set([
  'Podflow', 'EN', 'English',
  'kubectl', 'etcdctl', 'etcd', 'kube-apiserver', 'kube-scheduler', 'kube-controller-manager', 'kubelet', 'informer',
  'Kubernetes', 'Pod', 'Pods', 'Deployment', 'ReplicaSet', 'YAML', 'JSON', 'RBAC', 'RPC', 'Watch', 'watch', 'list', 'Txn',
  'resourceVersion', 'mod_revision', 'create_revision', 'Conditions', 'Generation', 'generation', 'Ctrl-C', 'put', 'protobuf', 'ID',
  'pods', 'replicasets', 'deployments', 'nodes', 'events', 'namespaces', 'leases', 'clusterroles', 'clusterrolebindings',
  'roles', 'rolebindings', 'serviceaccounts', 'services', 'configmaps', 'secrets', 'priorityclasses', 'minions',
  'nginx', 'yml', 'seeds', 'seed', 'podflow',
]);

/** The column headers of `kubectl get`, which kubectl prints in English whatever the locale. */
const kubectlColumns = new Set(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'NODE', 'UP-TO-DATE', 'AVAILABLE', 'DESIRED', 'CURRENT',
  'ROLES', 'VERSION', 'LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);

/** The English words of `text` that are not allowed, or none when the text has any CJK (it was translated). */
function englishOnly(text: string): string[] {
  if (/[\u3400-\u9fff]/.test(text) || kubectlColumns.has(text.toUpperCase())) return [];
  // An object reference as kubectl takes it (e.g. the live-edit field's example, deployment/nginx-deployment).
  if (/^[a-z]+\/[a-z0-9.-]+$/.test(text)) return [];
  const words = text.match(/[A-Za-z][A-Za-z_.-]*[A-Za-z]/g) ?? [];
  return words.filter((w) => !allowed.has(w) && !allowed.has(w.replace(/[.-]+$/, '')) && !/^node-\d+$/.test(w) && !w.startsWith('/'));
}

/** What a reader meets in `region`: texts of visible controls and headings, and form fields' names. */
async function visibleTexts(region: Locator): Promise<string[]> {
  return (await region.evaluateAll((roots) => roots.flatMap((root) => {
    const selector = 'button, [role="tab"], h1, h2, h3, h4, label, legend, caption, th, input, select, textarea, [role="separator"]';
    const out: string[] = [];
    for (const el of root.querySelectorAll<HTMLElement>(selector)) {
      if (el.getClientRects().length === 0 || el.closest('[hidden], [aria-hidden="true"]')) continue;
      // Keys, object and saved-cluster names are data, not words of the page; the graph's boxes and tokens are drawn by their own
      // parts; the sequence diagram's arrows carry the wire's own words (GET /api/v1/pods, Txn …), as the tokens do.
      if (el.closest('[data-testid="key-row"], .key-group, [data-testid="object-row"], [data-testid="saved-cluster"] .cluster-open, [data-testid="component-node"], [data-testid="token"], [data-testid="sequence-arrow"]')) continue;
      const own = el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement
        ? [el.getAttribute('aria-label'), el.getAttribute('placeholder'), el.getAttribute('title')]
        : [el.textContent, el.getAttribute('aria-label'), el.getAttribute('title')];
      for (const text of own) if (text && text.trim() !== '') out.push(text.trim());
    }
    return out;
  })));
}

async function expectNoEnglishOnly(region: Locator, where: string) {
  await expect(region.first()).toBeVisible();
  const flagged = (await visibleTexts(region)).map((text) => ({ text, words: englishOnly(text) })).filter((f) => f.words.length > 0);
  expect(flagged, `English-only texts in ${where}`).toEqual([]);
}

test.describe('the page in 中文', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test.beforeEach(async ({ podflow: { page } }) => {
    await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: '中文' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  });

  test('the header and the right-hand column', async ({ podflow: { page } }) => {
    await expectNoEnglishOnly(page.locator('header'), 'the header');
    await expectNoEnglishOnly(page.getByTestId('side-pane'), 'the right-hand column');
  });

  // The playback bar and timeline are the story-ui branch's (its controls speak 中文 there); the caption is the captions branch's.
  test('the playback bar, timeline and caption', async ({ podflow: { page } }) => {
    const regions = page.locator('.playback-bar, .timeline, .step-caption-bar');
    await expectNoEnglishOnly(regions, 'the playback bar, timeline and caption');
  });

  test('the graph pane\'s controls', async ({ podflow: { page } }) => {
    await expectNoEnglishOnly(page.getByTestId('graph-pane'), 'the graph pane');
  });

  test('every dock tab', async ({ podflow: { page } }) => {
    const tabs = page.getByRole('tablist', { name: '工作台' }).getByRole('tab');
    const count = await tabs.count();
    expect(count).toBeGreaterThanOrEqual(9);
    for (let i = 0; i < count; i++) {
      const tab = tabs.nth(i);
      const name = (await tab.textContent()) ?? '';
      await test.step(name, async () => {
        await tab.click();
        await expect(tab).toHaveAttribute('aria-selected', 'true');
        await expectNoEnglishOnly(page.getByTestId('dock'), `the ${name} tab`);
      });
    }
  });

  test('the choice is remembered', async ({ podflow: { page } }) => {
    await page.reload();
    await expect(page.getByRole('group', { name: 'Language' }).getByRole('button', { name: '中文' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: '重置布局' })).toBeVisible();
  });
});

test('a browser that prefers Chinese opens the page in 中文; English stays one click away', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'zh-CN' });
  const page = await context.newPage();
  await page.goto('/');
  const language = page.getByRole('group', { name: 'Language' });
  await expect(language.getByRole('button', { name: '中文' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByRole('toolbar').getByRole('button', { name: /下一个里程碑/ }).first()).toBeVisible();
  await language.getByRole('button', { name: 'English' }).click();
  // English is fetched on this first switch; the page (and the remembered choice) changes once it is in.
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.reload();
  await expect(language.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');
  await context.close();
});

/** The English texts' key paths that could not pass for words (`nextMilestone`, `status.next`): what i18next shows for a missing text. */
function keyPaths(): string[] {
  const dir = join(import.meta.dirname, '../src/ui/i18n/locales/en');
  const paths: string[] = [];
  const walk = (tree: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(tree)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (typeof value === 'string') paths.push(path);
      else walk(value as Record<string, unknown>, path);
    }
  };
  for (const file of readdirSync(dir)) walk(JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>, '');
  return paths.filter((path) => /[A-Z.]/.test(path));
}

test('the other language is fetched on the first switch, and the page changes without showing keys or empty words', async ({ podflow: { page } }) => {
  const scripts = () => page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.endsWith('.js')));
  expect((await scripts()).filter((path) => /\/en-[\w-]+\.js$/.test(path))).toHaveLength(1);
  expect((await scripts()).filter((path) => /\/zh-[\w-]+\.js$/.test(path))).toEqual([]);
  // Every text the page writes from the click on, and whether a labelled control lost its words.
  await page.evaluate((keys) => {
    const known = new Set(keys);
    const flagged: string[] = [];
    (globalThis as unknown as { flagged: string[] }).flagged = flagged;
    const unlabelled = () => [...document.querySelectorAll('button, [role="tab"], h1, h2')].filter((el) => el.getClientRects().length > 0
      && (el.textContent ?? '').trim() === '' && (el.getAttribute('aria-label') ?? '').trim() === '').length;
    const before = unlabelled();
    new MutationObserver((records) => {
      for (const record of records) {
        const roots = record.type === 'characterData' ? [record.target] : [...record.addedNodes];
        for (const root of roots) {
          const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
          for (let node: Node | null = root.nodeType === Node.TEXT_NODE ? root : walker.nextNode(); node; node = walker.nextNode()) {
            const text = (node.textContent ?? '').trim();
            if (known.has(text)) flagged.push(`key: ${text}`);
          }
        }
      }
      const now = unlabelled();
      if (now > before) flagged.push(`${now - before} control(s) without words`);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, keyPaths());
  await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: '中文' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByRole('button', { name: '重置布局' })).toBeVisible();
  expect((await scripts()).filter((path) => /\/zh-[\w-]+\.js$/.test(path))).toHaveLength(1);
  await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('button', { name: 'Reset layout' })).toBeVisible();
  expect(await page.evaluate(() => (globalThis as unknown as { flagged: string[] }).flagged)).toEqual([]);
});

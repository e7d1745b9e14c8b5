// The panes as a learner meets them on a laptop (1280×720) and a desktop (1440×900): whatever dock tab is
// open, the graph pane keeps at least 720 × 400 CSS px, every component box lies wholly inside it, and
// its text stays readable (font size × zoom ≥ 11 px) after every fit: the first, the fit button, the
// zoom-out button, a cluster reset; the zoom buttons cover no box. The first screen runs 3 etcd members.
// Pane sizes are remembered across loads until "Reset layout".
// The boxes fit only when the graph at its readable zoom is no larger than the pane: the graph's own
// design (layout.ts, ComponentNode.tsx) aims at 720 × 400 at zoom 1 with every text ≥ 11 px.

import type { Page } from '@playwright/test';
import { expect, test } from './podflow.ts';

const viewports = [{ width: 1280, height: 720 }, { width: 1440, height: 900 }] as const;

interface GraphGeometry {
  readonly pane: { x: number; y: number; width: number; height: number };
  /** The zoom buttons' panel. */
  readonly controls: { x: number; y: number; width: number; height: number };
  readonly zoom: number;
  readonly nodes: ReadonlyArray<{ name: string; x: number; y: number; width: number; height: number; titlePx: number; smallestPx: number }>;
}

/** The graph pane's box, the flow's zoom, and each component box with its title's and its smallest text's on-screen size. */
async function geometry(page: Page): Promise<GraphGeometry> {
  return page.getByTestId('graph-pane').evaluate((pane) => {
    const viewport = pane.querySelector<HTMLElement>('.react-flow__viewport')!;
    const zoom = new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a;
    const box = (el: Element) => {
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    };
    const textPx = (el: Element) => Number.parseFloat(getComputedStyle(el).fontSize) * zoom;
    const nodes = [...pane.querySelectorAll<HTMLElement>('[data-testid="component-node"]')].map((node) => {
      const texts = [...node.querySelectorAll('*')].filter((el) => [...el.childNodes].some((c) => c.nodeType === Node.TEXT_NODE && c.textContent!.trim() !== '') && el.getClientRects().length > 0);
      return {
        name: node.dataset.component!,
        ...box(node),
        titlePx: textPx(node.querySelector('.component-title')!),
        smallestPx: Math.min(...texts.map(textPx)),
      };
    });
    return { pane: box(pane.querySelector('.react-flow')!), controls: box(pane.querySelector('.react-flow__controls')!), zoom, nodes };
  });
}

/** Waits until the flow stops moving (a fit follows a pane resize by a frame). */
async function settled(page: Page): Promise<GraphGeometry> {
  let last = '';
  await expect.poll(async () => {
    const now = JSON.stringify(await geometry(page));
    const same = now === last;
    last = now;
    return same;
  }, { intervals: [150] }).toBe(true);
  return JSON.parse(last) as GraphGeometry;
}

/** How many boxes the first screen's cluster has: 3 nodes' kubelets, 4 other components and the etcd members the switch shows. */
async function boxCount(page: Page): Promise<number> {
  const members = Number(await page.getByTestId('etcd-members-switch').locator('button[aria-pressed="true"]').textContent());
  return 7 + members;
}

function expectReadableAndInside(g: GraphGeometry, boxes: number, where: string) {
  expect(g.pane.width, `graph pane width (${where})`).toBeGreaterThanOrEqual(720);
  expect(g.pane.height, `graph pane height (${where})`).toBeGreaterThanOrEqual(400);
  expect(g.nodes).toHaveLength(boxes);
  for (const n of g.nodes) {
    expect(n.titlePx, `${n.name}'s title on screen (${where})`).toBeGreaterThanOrEqual(11);
    expect(n.smallestPx, `${n.name}'s smallest text on screen (${where})`).toBeGreaterThanOrEqual(11 - 0.01);
    const inside = n.x >= g.pane.x - 0.5 && n.y >= g.pane.y - 0.5
      && n.x + n.width <= g.pane.x + g.pane.width + 0.5 && n.y + n.height <= g.pane.y + g.pane.height + 0.5;
    expect(inside, `${n.name} ${JSON.stringify(n)} inside the graph pane ${JSON.stringify(g.pane)} (${where})`).toBe(true);
    const c = g.controls;
    const covered = c.x < n.x + n.width && n.x < c.x + c.width && c.y < n.y + n.height && n.y < c.y + c.height;
    expect(covered, `the zoom buttons ${JSON.stringify(c)} over ${n.name} ${JSON.stringify(n)} (${where})`).toBe(false);
  }
}

for (const viewport of viewports) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('every component stays in view and readable with any dock tab open', async ({ podflow: { page } }) => {
      const boxes = await boxCount(page);
      expect(boxes, 'the first screen runs 3 etcd members').toBe(10);
      const tabs = page.getByRole('tablist', { name: 'Dock' }).getByRole('tab');
      const names = await tabs.allTextContents();
      expect(names.length).toBeGreaterThanOrEqual(9);
      for (const name of names) {
        await test.step(`the ${name} tab`, async () => {
          await tabs.filter({ hasText: name }).first().click();
          await expect(tabs.filter({ hasText: name }).first()).toHaveAttribute('aria-selected', 'true');
          expectReadableAndInside(await settled(page), boxes, name);
        });
      }
      await test.step("the Send pane's Create button is in view without scrolling", async () => {
        const create = page.getByRole('form', { name: 'kubectl create' }).getByRole('button', { name: 'Create' });
        const side = await page.getByTestId('side-pane').boundingBox();
        const button = await create.boundingBox();
        expect(side && button, 'side pane and Create button boxes').toBeTruthy();
        expect(button!.y + button!.height, 'Create button bottom within the side pane').toBeLessThanOrEqual(side!.y + side!.height + 0.5);
        expect(button!.y + button!.height, 'Create button bottom within the window').toBeLessThanOrEqual(viewport.height);
      });
      await test.step('the dock hidden', async () => {
        await page.getByRole('button', { name: 'Hide dock' }).click();
        await expect(page.getByTestId('dock')).toHaveAttribute('data-open', 'false');
        expectReadableAndInside(await settled(page), boxes, 'dock hidden');
      });
    });
  });
}

test.describe('fitting never shrinks text below 11 px', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('zooming out, the fit button and a reset keep the text readable', async ({ podflow, page }) => {
    const readable = (g: GraphGeometry) => Math.min(...g.nodes.map((n) => n.smallestPx));
    await test.step('zoom out as far as the button goes', async () => {
      const zoomOut = page.getByRole('button', { name: 'Zoom out' });
      for (let i = 0; i < 8 && await zoomOut.isEnabled(); i++) await zoomOut.click();
      await expect(zoomOut).toBeDisabled();
      expect(readable(await settled(page))).toBeGreaterThanOrEqual(11 - 0.01);
    });
    await test.step('the fit button', async () => {
      await page.getByRole('button', { name: 'Fit the graph to the view' }).click();
      expect(readable(await settled(page))).toBeGreaterThanOrEqual(11 - 0.01);
    });
    await test.step('a cluster reset, with the console open', async () => {
      await page.getByRole('tab', { name: 'Console' }).click();
      await podflow.button('Reset').click();
      await expect(podflow.component('kubelet/node-3')).toBeAttached();
      expectReadableAndInside(await settled(page), await boxCount(page), 'after reset');
    });
  });
});

test.describe('the layout is remembered', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('a resized dock keeps its size and tab across a reload until "Reset layout"', async ({ podflow: { page } }) => {
    const dock = page.getByTestId('dock');
    const workspace = page.locator('.workspace').first();
    // The panes remember proportions: the dock's share of the workspace (the rows above it, such as the
    // two-line caption, may differ by a few pixels after a reload).
    const height = async () => Math.round(1000 * (await dock.boundingBox())!.height / (await workspace.boundingBox())!.height);
    const before = await height();
    await test.step('show the logs and grow the dock from the keyboard, on the handle between graph and dock', async () => {
      await page.getByRole('tab', { name: 'Logs' }).click();
      const handle = page.getByRole('separator', { name: 'Resize the dock' });
      await handle.focus();
      await page.keyboard.press('ArrowUp');
      await expect.poll(height).toBeGreaterThan(before + 20); // ‰ of the workspace
    });
    const resized = await height();
    await test.step('reload: the same size, the same tab', async () => {
      await page.reload();
      await expect(page.getByRole('tab', { name: 'Logs' })).toHaveAttribute('aria-selected', 'true');
      await expect.poll(height).toBeCloseTo(resized, 0);
    });
    await test.step('"Reset layout" restores the default size, now and after a reload', async () => {
      await page.getByRole('button', { name: 'Reset layout' }).click();
      await expect.poll(height).toBeCloseTo(before, 0);
      await page.reload();
      await expect.poll(height).toBeCloseTo(before, 0);
    });
  });
});

// A small window, and each column of the side-by-side page (1280×720 and 1440×900 halved): the panes are
// stacked (layout/placement.ts), nothing runs off the window's right edge, the whole graph is fitted to
// its pane clear of the zoom buttons and the etcd members switch, and the dock's tabs are on screen.
for (const viewport of [{ width: 640, height: 700 }, { width: 720, height: 870 }] as const) {
  test.describe(`in a narrow window, ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('the header, the playback controls, every component box and the dock tabs are on screen', async ({ podflow: { page } }) => {
      await expect(page.locator('.workspace')).toHaveAttribute('data-placement', 'narrow');
      const within = async (name: string, locator: ReturnType<Page['locator']>) => {
        await expect(locator, name).toBeVisible();
        const b = (await locator.boundingBox())!;
        const inside = b.x >= -0.5 && b.y >= -0.5 && b.x + b.width <= viewport.width + 0.5 && b.y + b.height <= viewport.height + 0.5;
        expect(inside, `${name} ${JSON.stringify(b)} inside the ${viewport.width}×${viewport.height} window`).toBe(true);
      };
      await test.step('no sideways scrolling', async () => {
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      });
      await test.step('the header and the playback controls', async () => {
        await within('the server control', page.getByRole('button', { name: 'Connect to a server…' }));
        await within('Reset layout', page.getByRole('button', { name: 'Reset layout' }));
        await within('Next milestone', page.getByTestId('next-milestone-button'));
        await within('Play', page.getByTestId('play-button'));
        await within('the step counter', page.getByTestId('step-counter'));
      });
      await test.step('every component box, clear of the zoom buttons and the etcd members switch', async () => {
        const g = await settled(page);
        const boxes = await boxCount(page);
        expect(g.nodes).toHaveLength(boxes);
        const members = (await page.getByTestId('etcd-members-switch').boundingBox())!;
        const overlaps = (a: GraphGeometry['pane'], b: GraphGeometry['pane']) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
        for (const n of g.nodes) {
          const inside = n.x >= g.pane.x - 0.5 && n.y >= g.pane.y - 0.5
            && n.x + n.width <= g.pane.x + g.pane.width + 0.5 && n.y + n.height <= g.pane.y + g.pane.height + 0.5;
          expect(inside, `${n.name} ${JSON.stringify(n)} inside the graph pane ${JSON.stringify(g.pane)}`).toBe(true);
          expect(overlaps(g.controls, n), `the zoom buttons over ${n.name}`).toBe(false);
          expect(overlaps(members, n), `the etcd members switch over ${n.name}`).toBe(false);
        }
        expect(g.pane.x + g.pane.width).toBeLessThanOrEqual(viewport.width + 0.5);
        expect(g.pane.y + g.pane.height).toBeLessThanOrEqual(viewport.height + 0.5);
      });
      await test.step('the dock tabs, and a tab opens its view on screen', async () => {
        const tabs = page.getByRole('tablist', { name: 'Dock' });
        await within('the dock tab list', tabs);
        await within('the Hide dock button', page.getByRole('button', { name: 'Hide dock' }));
        await tabs.getByRole('tab', { name: 'Objects' }).click();
        await within('the Objects tab', tabs.getByRole('tab', { name: 'Objects' }));
        await expect(page.locator('#dock-panel-objects')).toBeVisible();
        const panel = (await page.locator('#dock-panel-objects').boundingBox())!;
        expect(panel.height, 'the Objects view has room').toBeGreaterThanOrEqual(100);
      });
      await test.step('the dock hidden, the graph takes its room and still fits', async () => {
        await page.getByRole('button', { name: 'Hide dock' }).click();
        await expect(page.getByTestId('dock')).toHaveAttribute('data-open', 'false');
        await within('the dock tab list, dock hidden', page.getByRole('tablist', { name: 'Dock' }));
        const g = await settled(page);
        for (const n of g.nodes) {
          expect(n.x + n.width <= g.pane.x + g.pane.width + 0.5 && n.y + n.height <= g.pane.y + g.pane.height + 0.5, `${n.name} inside, dock hidden`).toBe(true);
        }
      });
    });
  });
}

/// <reference lib="dom" />
// What the page benches share: the production build served by `vite preview` in headless Chromium
// (Debian's /usr/bin/chromium when present), and the measures they take of the page as a user drives it.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { build, preview } from 'vite';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const dist = join(root, 'dist');
const systemChromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

/** The built page served on a free port and a headless browser; `close` stops both. */
export async function servePage(): Promise<{ url: string; browser: Browser; close(): Promise<void> }> {
  if (!existsSync(join(dist, 'index.html'))) await build({ root, logLevel: 'warn' });
  const server = await preview({ root, preview: { port: 0, host: '127.0.0.1', strictPort: false }, logLevel: 'silent' });
  const url = server.resolvedUrls?.local[0] ?? 'http://127.0.0.1:4173/';
  const browser = await chromium.launch({ headless: true, ...(systemChromium ? { executablePath: systemChromium } : {}) });
  return {
    url,
    browser,
    close: async () => {
      await browser.close();
      await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
    },
  };
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}


/** Records requestAnimationFrame intervals in the page until `stop` resolves; returns them. */
export async function frameIntervals(page: Page, during: () => Promise<void>): Promise<number[]> {
  await page.evaluate(() => {
    const w = window as unknown as { frames_: number[]; recording_: boolean };
    w.frames_ = [];
    w.recording_ = true;
    let last = performance.now();
    const tick = (t: number) => {
      w.frames_.push(t - last);
      last = t;
      if (w.recording_) requestAnimationFrame(tick);
    };
    requestAnimationFrame((t) => {
      last = t;
      requestAnimationFrame(tick);
    });
  });
  await during();
  return page.evaluate(() => {
    const w = window as unknown as { frames_: number[]; recording_: boolean };
    w.recording_ = false;
    return w.frames_;
  });
}

/** Tokens drawn (in flight or resting) and in flight, sampled every 100 ms while `during` runs. */
export async function sampleTokens(page: Page, during: () => Promise<void>): Promise<{ drawn: number[]; inFlight: number[] }> {
  const drawn: number[] = [];
  const inFlight: number[] = [];
  let running = true;
  const sampler = (async () => {
    while (running) {
      const [d, f] = await page.evaluate(() => [
        document.querySelectorAll('[data-testid="token"][data-phase="in-flight"], [data-testid="token"][data-phase="arrived"]').length,
        document.querySelectorAll('[data-testid="token"][data-phase="in-flight"]').length,
      ]);
      drawn.push(d!);
      inFlight.push(f!);
      await page.waitForTimeout(100);
    }
  })();
  await during();
  running = false;
  await sampler;
  return { drawn, inFlight };
}

/** Calls a store action through the page's scripting handle (`window.podflow`). */
export async function act(page: Page, name: string, ...args: unknown[]): Promise<void> {
  await page.evaluate(([action, rest]) => {
    const handle = (globalThis as unknown as { podflow: { actions: Record<string, (...a: unknown[]) => void> } }).podflow;
    handle.actions[action as string]!(...(rest as unknown[]));
  }, [name, args] as const);
}

/** Pods the graph holds now. */
export async function podsHeld(page: Page): Promise<number> {
  return page.evaluate(() => (globalThis as unknown as { podflow: { store: { getState(): { pods: { byKey: Map<string, unknown> } } } } }).podflow.store.getState().pods.byKey.size);
}

export async function open(page: Page, url: string): Promise<number> {
  await page.goto(url);
  await page.locator('[data-testid="component-node"][data-component="user"]').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="step-counter"]')?.textContent !== '0');
  return page.evaluate(() => performance.now());
}

export async function createManifest(page: Page, yaml?: string): Promise<void> {
  const form = page.getByRole('form', { name: 'kubectl create' });
  if (yaml !== undefined) await form.getByRole('textbox', { name: 'Manifest' }).fill(yaml);
  await form.getByRole('button', { name: 'Create' }).click();
}


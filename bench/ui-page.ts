/// <reference lib="dom" />
// What the page benches share: the production build served by `vite preview` in headless Chromium
// (Debian's /usr/bin/chromium when present), and the measures they take of the page as a user drives it.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';
import { build, preview } from 'vite';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const dist = join(root, 'dist');
const systemChromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

/** The built page served on a free port and a headless browser (with `launchArgs`); `close` stops both. */
export async function servePage(launchArgs: readonly string[] = []): Promise<{ url: string; browser: Browser; close(): Promise<void> }> {
  if (!existsSync(join(dist, 'index.html'))) await build({ root, logLevel: 'warn' });
  const server = await preview({ root, preview: { port: 0, host: '127.0.0.1', strictPort: false }, logLevel: 'silent' });
  const url = server.resolvedUrls?.local[0] ?? 'http://127.0.0.1:4173/';
  const browser = await chromium.launch({ headless: true, args: [...launchArgs], ...(systemChromium ? { executablePath: systemChromium } : {}) });
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

/**
 * Waits until the cluster reset to `nodes` nodes has its last kubelet (in the page's store: past
 * ClusterGraph's `drawAllUpTo` boxes, one out of view is not drawn) and the simulation is idle.
 */
export async function booted(page: Page, nodes: number, timeout = 600_000): Promise<void> {
  await page.waitForFunction(
    (name) => (globalThis as unknown as { podflow: { store: { getState(): { cluster: { topology: { components: { name: string }[] } } | null } } } })
      .podflow.store.getState().cluster?.topology.components.some((c) => c.name === name) === true,
    `kubelet/node-${nodes}`,
    { timeout, polling: 500 },
  );
  await page.waitForFunction(() => document.querySelector('[data-testid="activity"]')?.textContent === 'idle', undefined, { timeout });
}

export async function createManifest(page: Page, yaml?: string): Promise<void> {
  const form = page.getByRole('form', { name: 'kubectl create' });
  if (yaml !== undefined) await form.getByRole('textbox', { name: 'Manifest' }).fill(yaml);
  await form.getByRole('button', { name: 'Create' }).click();
}


/**
 * `trigger` (this bench's own code: a click or a store action) run as the page's → the step counter
 * changes → the next frame, in ms; NaN when the counter has not changed after `timeoutMs`.
 */
export async function answered(page: Page, trigger: string, timeoutMs = 30_000): Promise<number> {
  return page.evaluate(([code, limit]) => new Promise<number>((resolve) => {
    const counter = document.querySelector('[data-testid="step-counter"]')!;
    const before = counter.textContent;
    const start = performance.now();
    const check = () => {
      if (counter.textContent !== before) requestAnimationFrame(() => resolve(performance.now() - start));
      else if (performance.now() - start > limit) resolve(Number.NaN);
      else requestAnimationFrame(check);
    };
    new Function(code)();
    requestAnimationFrame(check);
  }), [trigger, timeoutMs] as const);
}

/** Page code that clicks the element with this test id, for `answered`. */
export const clickScript = (testId: string): string => `document.querySelector('[data-testid="${testId}"]').click()`;

/** A V8 CPU profile as CDP's `Profiler.stop` returns it. */
export interface CpuProfile {
  readonly nodes: ReadonlyArray<{
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number; readonly columnNumber: number };
    readonly children?: readonly number[];
  }>;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Names a profiled position in the built page by its source file and line, through `dist`'s source maps. */
export function sourcePositions(): (file: string, line: number, column: number) => string | null {
  const maps = new Map<string, SourceMapConsumer | null>();
  return (file, line, column) => {
    const name = file.split('/').pop()!;
    if (!maps.has(name)) {
      const path = join(dist, 'assets', `${name}.map`);
      maps.set(name, existsSync(path) ? new SourceMapConsumer(JSON.parse(readFileSync(path, 'utf8')) as RawSourceMap) : null);
    }
    const at = maps.get(name)?.originalPositionFor({ line: line + 1, column });
    return at?.source ? `${at.source.replace(/^.*?(src|node_modules)\//, '$1/')}:${at.line}` : null;
  };
}

/** Waits until the page holds `replicas` Ready pods and the simulation is idle. */
export async function readyAndIdle(page: Page, replicas: number): Promise<void> {
  await page.waitForFunction((n) => {
    const pods = (globalThis as unknown as { podflow: { store: { getState(): { pods: { byKey: Map<string, { ready: boolean }> } } } } }).podflow.store.getState().pods.byKey;
    let ready = 0;
    for (const pod of pods.values()) if (pod.ready) ready++;
    return ready >= n && document.querySelector('[data-testid="activity"]')?.textContent === 'idle';
  }, replicas, { timeout: 3_600_000, polling: 1_000 });
}

/** A 1280×720 context for the profilers, at the 'All' level (the page opens at Story, where Play is paced by milestone). */
export async function profilingContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  await context.addInitScript({ content: 'window.__name = (f) => f;' });
  await context.addInitScript({ content: "if (localStorage.getItem('podflow.prefs') === null) localStorage.setItem('podflow.prefs', JSON.stringify({ state: { language: 'en', theme: 'system', level: 'internal' }, version: 1 }));" });
  return context;
}

/**
 * While `window.measuring_` is set, counts the worker's events by type into `window.workerEvents_`: how
 * many, their JSON size, and the time to read (deserialise) and to handle their messages.
 */
export async function countWorkerEvents(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: `
  window.workerEvents_ = {};
  const add = Worker.prototype.addEventListener;
  Worker.prototype.addEventListener = function (type, listener, options) {
    if (type !== 'message') return add.call(this, type, listener, options);
    return add.call(this, type, (event) => {
      const start = performance.now();
      const data = event.data;
      const ms = performance.now() - start;
      if (window.measuring_) {
        // A message is an event or a turn's events (WorkerMessage): counted per event type, the time
        // to read and handle the message shared among its events.
        const events = Array.isArray(data) ? data : [data];
        const entries = events.map((e) => {
          const entry = (window.workerEvents_[e.type] ??= { count: 0, bytes: 0, readMs: 0, handleMs: 0 });
          entry.count++;
          entry.bytes += JSON.stringify(e).length;
          entry.readMs += ms / events.length;
          return entry;
        });
        const before = performance.now();
        listener(event);
        const handled = (performance.now() - before) / events.length;
        for (const entry of entries) entry.handleMs += handled;
        return;
      }
      listener(event);
    }, options);
  };
  ` });
}

/// <reference lib="dom" />
// The page at scale (`npm run bench -- pagescale`): a Deployment of N replicas (1,000 by default;
// PODFLOW_BENCH_UI_REPLICAS=1000,3000 for more sizes) created on the page, on N/20 nodes (at most 50, the
// sizes every session's figures were taken at; PODFLOW_BENCH_UI_NODES sets the nodes instead, e.g. 100 for
// 10,000 replicas, since a node takes at most 110 Pods), in headless Chromium at 1280×720, at the 'All'
// level. Figures, never assertions:
//   while created   frame intervals (requestAnimationFrame) for 10 s of play at 1× from the create;
//   to Available    wall time of "Run until idle" from there until every replica is Ready;
//   while playing   frame intervals for 5 s of play at 1× with the N pods drawn (leases, status);
//   steps           Step, Step back (each: click → step counter changed → next frame) and a seek to a
//                   past step (podflow.actions.seek → counter → frame) once it is Available;
//   memory          the tab's renderer process RSS (the simulation worker included) and the page's JS
//                   heap (CDP Performance.getMetrics JSHeapUsedSize).
// PODFLOW_BENCH_SHOTS=<dir> also saves the page at 1280×720 and 1440×900 once the pods are Available.

import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import type { Benchmark, BenchFigure } from './harness.ts';
import { webDeploymentYaml } from './manifests.ts';
import { act, booted, answered, clickScript, createManifest, frameIntervals, open, percentile, readyAndIdle, sampleTokens, servePage } from './ui-page.ts';

const sizes = (process.env.PODFLOW_BENCH_UI_REPLICAS ?? '1000').split(',').map(Number).filter((n) => n > 0);
const shots = process.env.PODFLOW_BENCH_SHOTS;
const nodesOverride = Number(process.env.PODFLOW_BENCH_UI_NODES ?? 0);
const load = () => `load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`;

/** Pods held by the page, and how many of them are Ready. */
async function readyPods(page: Page): Promise<{ held: number; ready: number }> {
  return page.evaluate(() => {
    const pods = (globalThis as unknown as { podflow: { store: { getState(): { pods: { byKey: Map<string, { ready: boolean }> } } } } }).podflow.store.getState().pods.byKey;
    let ready = 0;
    for (const pod of pods.values()) if (pod.ready) ready++;
    return { held: pods.size, ready };
  });
}

/**
 * The page's JS heap and the tab's renderer process resident memory (the simulation worker runs in that
 * process: Chromium offers no heap figure inside a worker without cross-origin isolation), in MiB.
 */
async function memory(browser: Browser, page: Page): Promise<{ page: number; rss: number }> {
  const session = await page.context().newCDPSession(page);
  const { metrics } = await session.send('Performance.enable').then(() => session.send('Performance.getMetrics'));
  const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? Number.NaN;
  await session.detach();
  const browserSession = await browser.newBrowserCDPSession();
  const info = (await browserSession.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number }[] };
  await browserSession.detach();
  let rss = 0;
  for (const process of info.processInfo.filter((p) => p.type === 'renderer')) {
    const status = readFileSync(`/proc/${process.id}/status`, 'utf8');
    rss = Math.max(rss, Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024);
  }
  const mib = 1024 * 1024;
  return { page: heap / mib, rss };
}

async function measureSize(browser: Browser, url: string, replicas: number): Promise<BenchFigure[]> {
  // 20 pods a node, at most 50 nodes: the sizes every session's figures were taken at (the page now
  // offers up to 5,000 nodes, but more nodes at the same replicas would not compare).
  const benchMaxNodes = 50;
  const nodes = nodesOverride > 0 ? nodesOverride : Math.min(benchMaxNodes, Math.max(3, Math.ceil(replicas / 20)));
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  await context.addInitScript({ content: 'window.__name = (f) => f;' });
  await context.addInitScript({ content: "if (localStorage.getItem('podflow.prefs') === null) localStorage.setItem('podflow.prefs', JSON.stringify({ state: { language: 'en', theme: 'system', level: 'internal' }, version: 1 }));" });
  const page = await context.newPage();
  try {
    await open(page, url);
    await act(page, 'reset', 'podflow', nodes);
    await booted(page, nodes, 600_000);
    await page.getByRole('combobox', { name: 'Speed' }).selectOption('1');
    await createManifest(page, webDeploymentYaml(replicas));
    let created: number[] = [];
    const tokens = await sampleTokens(page, async () => {
      created = await frameIntervals(page, async () => {
        await page.getByTestId('play-button').click();
        await page.waitForTimeout(10_000);
        await page.getByTestId('play-button').click();
      });
    });
    const afterPlay = await readyPods(page);

    const start = Date.now();
    const runUntilIdle = page.getByRole('button', { name: 'Run until idle', exact: true });
    // Disabled when the play already reached idle.
    if (await runUntilIdle.isEnabled()) await runUntilIdle.click();
    await readyAndIdle(page, replicas);
    const toAvailable = (Date.now() - start) / 1000;
    const head = Number(await page.getByTestId('step-counter').textContent());
    const held = await readyPods(page);
    const mem = await memory(browser, page);
    if (shots) {
      for (const [width, height] of [[1280, 720], [1440, 900]] as const) {
        await page.setViewportSize({ width, height });
        await page.waitForTimeout(500);
        await page.screenshot({ path: join(shots, `scale-${replicas}-${width}x${height}.png`) });
      }
      await page.setViewportSize({ width: 1280, height: 720 });
    }

    const playing = await frameIntervals(page, async () => {
      await page.getByTestId('play-button').click();
      await page.waitForTimeout(5_000);
      await page.getByTestId('play-button').click();
    });
    await page.waitForFunction(() => document.querySelector('[data-testid="play-button"]')?.textContent === 'Play');

    const forward: number[] = [];
    for (let i = 0; i < 10; i++) forward.push(await answered(page, clickScript('step-button')));
    const back: number[] = [];
    for (let i = 0; i < 10; i++) back.push(await answered(page, clickScript('step-back-button')));
    const seek: number[] = [];
    for (const fraction of [0.9, 0.5, 0.7, 0.3, 0.95]) {
      seek.push(await answered(page, `podflow.actions.seek(${Math.round(head * fraction)})`));
    }
    const memAfter = await memory(browser, page);

    const size = `${replicas.toLocaleString('en-US')} replicas on ${nodes} nodes`;
    const ms = (values: number[]) => values.filter((x) => Number.isFinite(x));
    const stepFigure = (label: string, values: number[], note: string): BenchFigure => ({
      name: `${size}: ${label}, median`, value: percentile(ms(values), 50), unit: 'ms', goal: { value: 100, better: 'lower' },
      note: `p95 ${percentile(ms(values), 95).toFixed(0)} ms, ${ms(values).length} of ${values.length} answered; ${note}; ${load()}`,
    });
    return [
      {
        name: `${size}: frame time while the Deployment is created at 1×, p95`, value: percentile(created, 95), unit: 'ms', goal: { value: 33, better: 'lower' },
        note: `p50 ${percentile(created, 50).toFixed(1)} ms, ${created.length} frames in 10 s; tokens in flight at most ${Math.max(0, ...tokens.inFlight)} (median ${percentile(tokens.inFlight, 50)}); ${afterPlay.held} pods held after it, ${afterPlay.ready} Ready; ${load()}`,
      },
      { name: `${size}: Run until idle → every replica Ready`, value: toAvailable, unit: 's', note: `step ${head.toLocaleString('en-US')}; ${held.held} pods held, ${held.ready} Ready; ${load()}` },
      {
        name: `${size}: frame time playing at 1× with the pods Available, p95`, value: percentile(playing, 95), unit: 'ms', goal: { value: 33, better: 'lower' },
        note: `p50 ${percentile(playing, 50).toFixed(1)} ms, ${playing.length} frames in 5 s; ${load()}`,
      },
      stepFigure('Step at the head', forward, 'click → counter → frame'),
      stepFigure('Step back', back, 'click → counter → frame'),
      stepFigure('seek to a past step', seek, `to 90, 50, 70, 30 and 95 % of step ${head.toLocaleString('en-US')}`),
      {
        name: `${size}: tab memory once Available (renderer RSS)`, value: mem.rss, unit: 'MiB',
        note: `the simulation worker included; page JS heap ${mem.page.toFixed(0)} MiB; after the steps and seeks: RSS ${memAfter.rss.toFixed(0)} MiB, page JS heap ${memAfter.page.toFixed(0)} MiB`,
      },
    ];
  } finally {
    await context.close();
  }
}

async function measure(): Promise<BenchFigure[]> {
  const { url, browser, close } = await servePage();
  try {
    const figures: BenchFigure[] = [];
    for (const replicas of sizes) figures.push(...await measureSize(browser, url, replicas));
    return figures;
  } finally {
    await close();
  }
}

export const benchmarks: Benchmark[] = [
  { group: 'pagescale', name: 'a large Deployment on the page in headless Chromium', run: measure },
];

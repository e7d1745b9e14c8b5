/// <reference lib="dom" />
// The visualizer in headless Chromium (Debian's /usr/bin/chromium when present): the production build
// served by `vite preview`, driven as a user drives it. Figures, never assertions:
//   initial JavaScript   gzip size of the scripts index.html loads (entry + preloads), the worker apart;
//   time to interactive  navigation start → the graph drawn and the booted cluster's step counter shown;
//   step latency         Step clicked → the step counter (same store update as the graph), then the next frame;
//   frame times at 1×    requestAnimationFrame intervals while the nginx flow plays at 1 virtual ms/ms;
//   at scale             the same while a 1,000-replica Deployment's pods are created and scheduled at 1×,
//                        with the most tokens drawn and in flight at once;
//   1,000 pods in flight  on a 10-node cluster holding the 1,000 pods (run until idle first), the frames while
//                        the Deployment is scaled to 0 at 0.001× (a 2 ms hop takes two seconds, so the burst
//                        of DELETEs stays in flight on screen; at 1× a hop lasts a third of a frame):
//                        500 DELETEs leave at once and the pods terminate, with how many tokens were in
//                        flight (sampled every 100 ms) and how many pods were drawn;
//   milestone steps      (a benchmark of its own) "Next milestone" clicked → the narrator shows the next
//                        milestone, then the next frame; at the head, through recorded steps, and back;
//   sequence view scroll  on that cluster's trace (over 100,000 steps), the Sequence tab at level "every
//                        step" scrolled 400 px a frame for 3 s from the top: frame intervals, and how many
//                        frames showed rows still waiting for the worker's answer.
// Builds `dist/` first when it is missing. Frame figures depend on the machine's load; the note says it.

import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { webDeploymentYaml } from './manifests.ts';
import type { Benchmark, BenchFigure } from './harness.ts';
import { act, booted, createManifest, dist, frameIntervals, open, percentile, podsHeld, sampleTokens, servePage } from './ui-page.ts';

/** Gzipped bytes of the scripts index.html loads at once, and of the worker chunks. */
function initialJavaScript(): { initial: number; worker: number; files: number } {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const srcs = [...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="([^"]+\.js)"/g)].map((m) => m[1]!);
  const gz = (path: string) => gzipSync(readFileSync(join(dist, path.replace(/^\//, '')))).length;
  const initial = srcs.reduce((sum, src) => sum + gz(src), 0);
  const entry = readFileSync(join(dist, srcs[0]!.replace(/^\//, '')), 'utf8');
  const workers = [...entry.matchAll(/assets\/(sim\.worker[^"'`]*\.js)/g)].map((m) => `assets/${m[1]!}`);
  const worker = [...new Set(workers)].reduce((sum, path) => sum + gz(path), 0);
  return { initial, worker, files: srcs.length };
}

/** Step click → step counter and graph updated → next frame, for each of `count` steps. */
async function stepLatencies(page: Page, count: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    latencies.push(await page.evaluate(() => new Promise<number>((resolve) => {
      const counter = document.querySelector('[data-testid="step-counter"]')!;
      const before = counter.textContent;
      const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Step')!;
      const start = performance.now();
      const check = () => {
        // The counter and the graph render from the same store update: once the counter shows the new
        // step, the frame after it has painted the graph too.
        if (counter.textContent !== before) requestAnimationFrame(() => resolve(performance.now() - start));
        else if (performance.now() - start > 5_000) resolve(Number.NaN);
        else requestAnimationFrame(check);
      };
      button.click();
      requestAnimationFrame(check);
    })));
  }
  return latencies.filter((x) => Number.isFinite(x));
}


async function measure(): Promise<BenchFigure[]> {
  const { url, browser, close } = await servePage();
  const js = initialJavaScript();
  const load = `load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`;
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    // tsx compiles with keepNames, so functions handed to page.evaluate call esbuild's __name helper.
    await context.addInitScript({ content: 'window.__name = (f) => f;' });
    // Step latency and the frame figures are for single deliveries and real-time play: the 'All' level.
    await context.addInitScript({ content: "if (localStorage.getItem('podflow.prefs') === null) localStorage.setItem('podflow.prefs', JSON.stringify({ state: { language: 'en', theme: 'system', level: 'internal' }, version: 1 }));" });
    const page = await context.newPage();
    const ttis: number[] = [];
    for (let i = 0; i < 3; i++) ttis.push(await open(page, url));

    await createManifest(page);
    const steps = await stepLatencies(page, 20);

    await open(page, url);
    await page.getByRole('combobox', { name: 'Speed' }).selectOption('1');
    await createManifest(page);
    const flow = await frameIntervals(page, async () => {
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      await page.waitForTimeout(4_000);
      await page.getByRole('button', { name: 'Pause', exact: true }).click();
    });

    await open(page, url);
    await page.getByRole('combobox', { name: 'Speed' }).selectOption('1');
    await createManifest(page, webDeploymentYaml(1000));
    let scale: number[] = [];
    const scaleTokens = await sampleTokens(page, async () => {
      scale = await frameIntervals(page, async () => {
        await page.getByRole('button', { name: 'Play', exact: true }).click();
        await page.waitForTimeout(8_000);
        await page.getByRole('button', { name: 'Pause', exact: true }).click();
      });
    });
    const podsMade = await page.evaluate(() => Number(document.querySelector('[data-testid="step-counter"]')?.textContent ?? 0));

    // 1,000 pods on 10 nodes (110 pods fit a node), all created first; then scaled to 0 while playing.
    await open(page, url);
    await act(page, 'reset', 'podflow', 10);
    await booted(page, 10);
    await createManifest(page, webDeploymentYaml(1000));
    await page.getByRole('button', { name: 'Run until idle', exact: true }).click();
    const fillStart = Date.now();
    await page.waitForFunction(() => document.querySelector('[data-testid="activity"]')?.textContent === 'idle', undefined, { timeout: 600_000, polling: 500 });
    const fillSeconds = (Date.now() - fillStart) / 1000;
    const podsBefore = await podsHeld(page);
    await page.getByRole('combobox', { name: 'Speed' }).selectOption('0.001');
    // Play until the scale-down has at least 200 tokens in flight, then measure 2 s of frames.
    await act(page, 'runCommand', 'kubectl scale deployment web --replicas=0');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    const reached = await page.waitForFunction((n) => document.querySelectorAll('[data-testid="token"][data-phase="in-flight"]').length >= n, 200, { timeout: 60_000, polling: 20 })
      .then(() => true, () => false);
    let busy: number[] = [];
    const busyTokens = await sampleTokens(page, async () => {
      busy = await frameIntervals(page, async () => {
        await page.waitForTimeout(2_000);
      });
    });
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    const podsAfter = await podsHeld(page);
    const busyFrames = busy.length;

    // The sequence view over the whole retained trace, one row per step.
    await page.getByRole('tab', { name: 'Sequence' }).click();
    await page.getByTestId('sequence-view').waitFor();
    await page.getByRole('combobox', { name: 'Show' }).selectOption('internal');
    await page.getByRole('checkbox', { name: 'Follow the playhead' }).uncheck();
    await page.waitForFunction(() => (document.querySelector('[data-testid="sequence-scroller"]')?.scrollHeight ?? 0) > 26 * 1000);
    const sequenceRows = await page.evaluate(() => Math.round(document.querySelector('[data-testid="sequence-scroller"]')!.scrollHeight / 26));
    let waitingFrames = 0;
    const sequence = await frameIntervals(page, async () => {
      waitingFrames = await page.evaluate(() => new Promise<number>((resolve) => {
        const scroller = document.querySelector('[data-testid="sequence-scroller"]')!;
        scroller.scrollTop = 0;
        let waiting = 0;
        const start = performance.now();
        const tick = () => {
          if (scroller.querySelector('[data-testid="sequence-row-pending"]')) waiting++;
          scroller.scrollTop += 400;
          if (performance.now() - start < 3_000) requestAnimationFrame(tick);
          else resolve(waiting);
        };
        requestAnimationFrame(tick);
      }));
    });

    return [
      { name: 'initial JavaScript, gzipped', value: js.initial / 1024, unit: 'KiB', goal: { value: 250, better: 'lower' }, note: `${js.files} scripts from index.html; the simulation worker adds ${(js.worker / 1024).toFixed(0)} KiB gz, fetched in parallel` },
      { name: 'time to interactive (graph drawn, booted cluster shown), median of 3', value: percentile(ttis, 50), unit: 'ms', goal: { value: 1000, better: 'lower' }, note: `${load}; 1280×720` },
      { name: 'step latency, Step click → counter and graph updated (+1 frame), median', value: percentile(steps, 50), unit: 'ms', goal: { value: 50, better: 'lower' }, note: `p95 ${percentile(steps, 95).toFixed(1)} ms over ${steps.length} steps` },
      { name: 'frame time playing the nginx flow at 1×, p95', value: percentile(flow, 95), unit: 'ms', goal: { value: 16.7, better: 'lower' }, note: `p50 ${percentile(flow, 50).toFixed(1)} ms, ${flow.length} frames in 4 s; ${load}` },
      { name: 'frame time at 1× while a 1,000-replica Deployment is created, p95', value: percentile(scale, 95), unit: 'ms', goal: { value: 33, better: 'lower' }, note: `p50 ${percentile(scale, 50).toFixed(1)} ms, ${scale.length} frames in 8 s; tokens drawn at most ${Math.max(0, ...scaleTokens.drawn)}, in flight at most ${Math.max(0, ...scaleTokens.inFlight)} (median ${percentile(scaleTokens.inFlight, 50)}); step ${podsMade} reached; ${load}` },
      { name: 'sequence view scroll frame time at 100,000+ messages, p95', value: percentile(sequence, 95), unit: 'ms', goal: { value: 16.7, better: 'lower' }, note: `p50 ${percentile(sequence, 50).toFixed(1)} ms, ${sequence.length} frames in 3 s scrolling 400 px a frame over ${sequenceRows.toLocaleString('en-US')} rows (one per step); ${waitingFrames} frames showed rows still waiting for the worker; ${load}` },
      { name: 'frame time with 1,000 pods drawn and the Deployment scaled to 0 at 0.001× (tokens in flight), p95', value: percentile(busy, 95), unit: 'ms', goal: { value: 33, better: 'lower' }, note: `p50 ${percentile(busy, 50).toFixed(1)} ms, ${busyFrames} frames in 2 s from when ${reached ? '200 tokens were' : '(never reached in 60 s) 200 tokens would be'} in flight; pods held ${podsBefore} before, ${podsAfter} after; tokens in flight sampled every 100 ms: max ${Math.max(0, ...busyTokens.inFlight)}, median ${percentile(busyTokens.inFlight, 50)}, ≥ 200 in ${busyTokens.inFlight.filter((n) => n >= 200).length} of ${busyTokens.inFlight.length} samples; the 1,000 pods took ${fillSeconds.toFixed(0)} s to create (run until idle); ${load}` },
    ];
  } finally {
    await close();
  }
}

/**
 * One click of a milestone button (by its accessible name) → the narrator shows another milestone, then
 * the next frame: the worker's stepLevel (at the head it runs the simulation to the next milestone) and
 * the page's render of the story panel, the caption and the graph. NaN when nothing changed in 10 s.
 */
async function milestoneLatency(page: Page, name: string): Promise<number> {
  return page.evaluate((label) => new Promise<number>((resolve) => {
    // The narrator's step (its position) and milestone: either changing means the click was answered.
    const shown = () => {
      const step = document.querySelector('[data-testid="story-step"]')?.getAttribute('data-step') ?? '';
      const milestone = document.querySelector('[data-testid="story-milestone"]');
      return `${step}|${milestone?.getAttribute('data-step') ?? ''}|${milestone?.textContent ?? ''}`;
    };
    const before = shown();
    const button = [...document.querySelectorAll('button')].find((b) => b.getAttribute('aria-label') === label || b.textContent?.replace(/[▶◀]/g, '').trim() === label)!;
    const start = performance.now();
    const check = () => {
      if (shown() !== before) requestAnimationFrame(() => resolve(performance.now() - start));
      else if (performance.now() - start > 10_000) resolve(Number.NaN);
      else requestAnimationFrame(check);
    };
    button.click();
    requestAnimationFrame(check);
  }), name);
}

/** "Next milestone" and "Previous milestone" on the nginx flow: create, then every milestone to the end. */
async function measureMilestones(): Promise<BenchFigure[]> {
  const { url, browser, close } = await servePage();
  const load = `load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`;
  try {
    const forward: number[] = [];
    const replayed: number[] = [];
    const back: number[] = [];
    const rounds = 3;
    for (let round = 0; round < rounds; round++) {
      // A fresh context each round: a new saved cluster, not the one the last round left.
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      await context.addInitScript({ content: 'window.__name = (f) => f;' });
      const page = await context.newPage();
      await open(page, url);
      await createManifest(page);
      // At the head: each click runs the simulation to the next milestone (the nginx flow has 15).
      for (let i = 0; i < 20; i++) {
        const ms = await milestoneLatency(page, 'Next milestone');
        if (Number.isNaN(ms)) break;
        forward.push(ms);
      }
      // In the past: back through recorded steps, then forward again.
      for (let i = 0; i < 8; i++) back.push(await milestoneLatency(page, 'Previous milestone'));
      for (let i = 0; i < 8; i++) replayed.push(await milestoneLatency(page, 'Next milestone'));
      await context.close();
    }
    const figure = (label: string, values: number[], note: string): BenchFigure => {
      const ok = values.filter((x) => Number.isFinite(x));
      return {
        name: `${label}, click → narrator updated (+1 frame), median`, value: percentile(ok, 50), unit: 'ms', goal: { value: 50, better: 'lower' },
        note: `p95 ${percentile(ok, 95).toFixed(1)} ms over ${ok.length} clicks (${values.length - ok.length} without a change); ${note}; ${load}; 1280×720`,
      };
    };
    return [
      figure('Next milestone at the head (the simulation runs to it)', forward, `the nginx Deployment's milestones, ${rounds} fresh pages`),
      figure('Previous milestone (a seek to a recorded step)', back, 'back from the end of the flow'),
      figure('Next milestone through recorded steps', replayed, 'forward again after going back'),
    ];
  } finally {
    await close();
  }
}

export const benchmarks: Benchmark[] = [
  { group: 'ui', name: 'visualizer in headless Chromium', run: measure },
  { group: 'ui', name: 'milestone steps in headless Chromium', run: measureMilestones },
];

/// <reference lib="dom" />
// Where the page's main thread spends its time while the visualizer plays: a CPU profile of headless
// Chromium (CDP Profiler) over the production build, summarised as self time per function and the long
// tasks (CDP Performance timeline). Not a benchmark (no figure is kept): a tool for finding what to fix.
//   npx tsx bench/ui-profile.ts [nginx|scale|available] [seconds]
// nginx: the seed's Deployment being created; scale: a 1,000-replica one being created (on 3 nodes);
// available: playing once 1,000 replicas on 50 nodes are all Ready (reaching that takes minutes).
// Builds `dist/` first when it is missing; with `npx vite build --sourcemap`, functions are named by their
// source file and line.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';
import { build, preview } from 'vite';
import { webDeploymentYaml } from './manifests.ts';
import { act } from './ui-page.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const systemChromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const scenario = process.argv[2] ?? 'nginx';
const seconds = Number(process.argv[3] ?? 6);

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number; readonly columnNumber: number };
  readonly children?: readonly number[];
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}


async function main(): Promise<void> {
  if (!existsSync(join(root, 'dist', 'index.html'))) await build({ root, logLevel: 'warn' });
  const server = await preview({ root, preview: { port: 0, host: '127.0.0.1', strictPort: false }, logLevel: 'silent' });
  const url = server.resolvedUrls?.local[0] ?? 'http://127.0.0.1:4173/';
  const browser = await chromium.launch({ headless: true, ...(systemChromium ? { executablePath: systemChromium } : {}) });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    await context.addInitScript({ content: 'window.__name = (f) => f;' });
    // Real-time play, as the ui bench measures it: the 'All' level (the page opens at Story, where Play is paced by milestone).
    await context.addInitScript({ content: "if (localStorage.getItem('podflow.prefs') === null) localStorage.setItem('podflow.prefs', JSON.stringify({ state: { language: 'en', theme: 'system', level: 'internal' }, version: 1 }));" });
    // Per worker event type: how many, their JSON size, and the time to read (deserialise) their data.
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
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => document.querySelector('[data-testid="activity"]')?.textContent === 'idle');
    await page.getByRole('combobox', { name: 'Speed' }).selectOption('1');
    const form = page.getByRole('form', { name: 'kubectl create' });
    if (scenario === 'available') {
      await act(page, 'reset', 'podflow', 50);
      await page.locator('[data-testid="component-node"][data-component="kubelet/node-50"]').waitFor({ state: 'attached', timeout: 600_000 });
      await page.waitForFunction(() => document.querySelector('[data-testid="activity"]')?.textContent === 'idle', undefined, { timeout: 600_000 });
    }
    if (scenario !== 'nginx') await form.getByRole('textbox', { name: 'Manifest' }).fill(webDeploymentYaml(1000));
    await form.getByRole('button', { name: 'Create' }).click();
    if (scenario === 'available') {
      await page.getByRole('button', { name: 'Run until idle', exact: true }).click();
      await page.waitForFunction(() => {
        const pods = (globalThis as unknown as { podflow: { store: { getState(): { pods: { byKey: Map<string, { ready: boolean }> } } } } }).podflow.store.getState().pods.byKey;
        let ready = 0;
        for (const pod of pods.values()) if (pod.ready) ready++;
        return ready >= 1000 && document.querySelector('[data-testid="activity"]')?.textContent === 'idle';
      }, undefined, { timeout: 3_600_000, polling: 1_000 });
    }

    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await page.evaluate(() => {
      const w = window as unknown as { longTasks_: number[] };
      w.longTasks_ = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.longTasks_.push(entry.duration);
      }).observe({ type: 'longtask', buffered: false });
    });
    await page.evaluate(() => {
      (window as unknown as { measuring_: boolean }).measuring_ = true;
    });
    await cdp.send('Performance.enable');
    const metricsBefore = new Map((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    await cdp.send('Profiler.start');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.waitForTimeout(seconds * 1000);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
    const metricsAfter = (await cdp.send('Performance.getMetrics')).metrics;
    const longTasks = await page.evaluate(() => (window as unknown as { longTasks_: number[] }).longTasks_);
    const workerEvents = await page.evaluate(() => (window as unknown as { workerEvents_: Record<string, { count: number; bytes: number; readMs: number; handleMs: number }> }).workerEvents_);
    // The renderer's own accounting over the run: script, style, layout, task time (s) and counts.
    const delta = (name: string) => (metricsAfter.find((m) => m.name === name)?.value ?? 0) - (metricsBefore.get(name) ?? 0);
    console.log(`main thread: tasks ${delta('TaskDuration').toFixed(2)} s, script ${delta('ScriptDuration').toFixed(2)} s, style ${delta('RecalcStyleDuration').toFixed(2)} s (${delta('RecalcStyleCount')}×), layout ${delta('LayoutDuration').toFixed(2)} s (${delta('LayoutCount')}×); DOM nodes now ${metricsAfter.find((m) => m.name === 'Nodes')?.value}`);
    console.log('worker events (count, JSON KiB, ms to read data, ms in the store):');
    for (const [type, e] of Object.entries(workerEvents).sort((a, b) => b[1].bytes - a[1].bytes)) {
      console.log(`  ${type.padEnd(18)} ${String(e.count).padStart(6)} ${(e.bytes / 1024).toFixed(0).padStart(8)} KiB ${e.readMs.toFixed(0).padStart(6)} ms ${e.handleMs.toFixed(0).padStart(6)} ms`);
    }

    const selfMs = new Map<number, number>();
    profile.samples.forEach((id, i) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
    const maps = new Map<string, SourceMapConsumer | null>();
    const original = (file: string, line: number, column: number): string | null => {
      const name = file.split('/').pop()!;
      if (!maps.has(name)) {
        const path = join(root, 'dist', 'assets', `${name}.map`);
        maps.set(name, existsSync(path) ? new SourceMapConsumer(JSON.parse(readFileSync(path, 'utf8')) as RawSourceMap) : null);
      }
      const at = maps.get(name)?.originalPositionFor({ line: line + 1, column });
      return at?.source ? `${at.source.replace(/^.*?(src|node_modules)\//, '$1/')}:${at.line}` : null;
    };
    const byFunction = new Map<string, number>();
    for (const node of profile.nodes) {
      const ms = selfMs.get(node.id) ?? 0;
      if (ms === 0) continue;
      const { functionName, url: file, lineNumber, columnNumber } = node.callFrame;
      // Named by its source (the page's or a library's) where the build has a source map.
      const source = file ? original(file, lineNumber, columnNumber) : null;
      const key = `${functionName || '(anonymous)'} ${source ?? `${file.split('/').pop()}:${lineNumber + 1}:${columnNumber + 1}`}`;
      byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
    }
    // Inclusive time: a node's self time plus its descendants', summed per function (recursion counted once per frame).
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const inclusive = new Map<number, number>();
    const totalOf = (id: number): number => {
      const known = inclusive.get(id);
      if (known !== undefined) return known;
      const node = byId.get(id)!;
      const sum = (selfMs.get(id) ?? 0) + (node.children ?? []).reduce((acc, child) => acc + totalOf(child), 0);
      inclusive.set(id, sum);
      return sum;
    };
    const inclusiveByFunction = new Map<string, number>();
    for (const node of profile.nodes) {
      const { functionName, url: file, lineNumber, columnNumber } = node.callFrame;
      if (!file) continue;
      const source = original(file, lineNumber, columnNumber);
      if (source?.startsWith('node_modules/')) continue;
      const key = `${functionName || '(anonymous)'} ${source ?? `${file.split('/').pop()}:${lineNumber + 1}:${columnNumber + 1}`}`;
      inclusiveByFunction.set(key, (inclusiveByFunction.get(key) ?? 0) + totalOf(node.id));
    }
    const total = [...byFunction.values()].reduce((a, b) => a + b, 0);
    console.log(`${scenario}: ${seconds} s played at 1×; ${total.toFixed(0)} ms sampled on the main thread`);
    console.log(`long tasks: ${longTasks.length}, total ${longTasks.reduce((a, b) => a + b, 0).toFixed(0)} ms, longest ${Math.max(0, ...longTasks).toFixed(0)} ms`);
    console.log('self time:');
    for (const [key, ms] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${ms.toFixed(1).padStart(8)} ms  ${key}`);
    console.log('inclusive time (page scripts):');
    for (const [key, ms] of [...inclusiveByFunction].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${ms.toFixed(1).padStart(8)} ms  ${key}`);
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  }
}

await main();

/// <reference lib="dom" />
// Where the page's main thread spends its time while the visualizer plays: a CPU profile of headless
// Chromium (CDP Profiler) over the production build, summarised as self time per function and the long
// tasks (CDP Performance timeline). Not a benchmark (no figure is kept): a tool for finding what to fix.
//   npx tsx bench/ui-profile.ts [nginx|scale|available] [seconds]
// nginx: the seed's Deployment being created; scale: a 1,000-replica one being created (on 3 nodes);
// pagescale: the same on 50 nodes, as `npm run bench -- pagescale` measures it (3 etcd members both);
// available: playing once 1,000 replicas on 50 nodes are all Ready (reaching that takes minutes).
// Besides the CPU profile: a Chromium trace of the main thread summarised as self time per trace event
// (script, style, layout, paint, GC, message deserialisation), the frames drawn, and the page's
// elements counted by data-testid at the end, and the token elements and milestone markers inserted while measured.
// Builds `dist/` first when it is missing; with `npx vite build --sourcemap`, functions are named by their
// source file and line.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { webDeploymentYaml } from './manifests.ts';
import { act, booted, frameIntervals, percentile, sourcePositions, countWorkerEvents, profilingContext, servePage, type CpuProfile } from './ui-page.ts';

const scenario = process.argv[2] ?? 'nginx';
const seconds = Number(process.argv[3] ?? 6);

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly pid: number;
  readonly tid: number;
  readonly ts: number;
  readonly dur?: number;
  readonly args?: { readonly name?: string };
}

/** Self time (ms) and count per event name on the renderer's main thread, largest first. */
function mainThreadSelfTime(events: readonly TraceEvent[]): Array<[string, { ms: number; count: number }]> {
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const spans = events
    .filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const totals = new Map<string, { ms: number; count: number }>();
  const stack: Array<{ name: string; end: number; self: number }> = [];
  const close = (upTo: number) => {
    while (stack.length > 0 && stack[stack.length - 1]!.end <= upTo) {
      const done = stack.pop()!;
      const total = totals.get(done.name) ?? { ms: 0, count: 0 };
      total.ms += done.self / 1000;
      total.count++;
      totals.set(done.name, total);
    }
  };
  for (const span of spans) {
    close(span.ts);
    const parent = stack[stack.length - 1];
    if (parent) parent.self -= span.dur!;
    stack.push({ name: span.name, end: span.ts + span.dur!, self: span.dur! });
  }
  close(Number.POSITIVE_INFINITY);
  return [...totals].sort((a, b) => b[1].ms - a[1].ms);
}

async function main(): Promise<void> {
  const { url, browser, close } = await servePage();
  try {
    const context = await profilingContext(browser);
    await countWorkerEvents(context);
    // React commits and the components each rendered (a stand-in for React DevTools' hook: a fiber
    // worked on in a commit, a subtree React reused untouched skipped); names read with `--minify false`.
    await context.addInitScript({ content: `
      window.commits_ = 0;
      window.resizes_ = {};
      const Observer = window.ResizeObserver;
      window.ResizeObserver = class extends Observer {
        constructor(callback) { super((entries, observer) => { if (window.measuring_) for (const e of entries) { const key = (e.target.getAttribute('data-testid') || e.target.className || e.target.tagName) + ' ' + Math.round(e.contentRect.width) + 'x' + Math.round(e.contentRect.height); window.resizes_[key] = (window.resizes_[key] ?? 0) + 1; } callback(entries, observer); }); }
      };
      window.renders_ = {};
      window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
        supportsFiber: true, renderers: new Map(), inject() { return 1; }, checkDCE() {}, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {},
        onCommitFiberRoot(id, root) {
          if (!window.measuring_) return;
          window.commits_++;
          const visit = (fiber) => {
            for (let f = fiber; f; f = f.sibling) {
              const prev = f.alternate;
              if ([0, 1, 11, 14, 15].includes(f.tag) && (prev === null || (f.flags & 1))) {
                const type = f.type && (f.type.type ?? f.type.render ?? f.type);
                const name = (type && (type.displayName || type.name)) || '(anonymous)';
                window.renders_[name] = (window.renders_[name] ?? 0) + 1;
              }
              if (f.child && (!prev || prev.child !== f.child)) visit(f.child);
            }
          };
          visit(root.current.child);
        },
      };
    ` });
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => document.querySelector('[data-testid="activity"]')?.textContent === 'idle');
    await page.getByRole('combobox', { name: 'Speed' }).selectOption('1');
    const form = page.getByRole('form', { name: 'kubectl create' });
    if (scenario === 'available' || scenario === 'pagescale') {
      await act(page, 'reset', 'podflow', 50);
      await booted(page, 50, 600_000);
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
      // Token elements inserted (new or moved), and timeline milestone markers inserted or re-labelled, while measured.
      const w = window as unknown as { domChanges_: { tokens: number; milestones: number } };
      w.domChanges_ = { tokens: 0, milestones: 0 };
      new MutationObserver((records) => {
        for (const record of records) {
          for (const node of record.addedNodes) {
            if (!(node instanceof Element)) continue;
            const id = node.getAttribute('data-testid');
            if (id === 'token') w.domChanges_.tokens++;
            else if (id === 'timeline-milestone' || id === 'timeline-current-label') w.domChanges_.milestones++;
          }
          if (record.type === 'characterData' && record.target.parentElement?.closest('[data-testid="timeline-milestones"]')) w.domChanges_.milestones++;
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await cdp.send('Performance.enable');
    const metricsBefore = new Map((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    await cdp.send('Profiler.start');
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink', ...(process.env.PODFLOW_UI_PROFILE_CATEGORIES ?? '').split(',').filter(Boolean)] });
    const frames = await frameIntervals(page, async () => {
      await page.getByTestId('play-button').click();
      await page.waitForTimeout(seconds * 1000);
      await page.getByTestId('play-button').click();
    });
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
    // PODFLOW_UI_PROFILE_SAVE=<dir>: the trace, the CPU profile and the frame intervals kept for a closer look.
    const save = process.env.PODFLOW_UI_PROFILE_SAVE;
    if (save) {
      writeFileSync(join(save, 'trace.json'), JSON.stringify(trace));
      writeFileSync(join(save, 'profile.cpuprofile'), JSON.stringify(profile));
      writeFileSync(join(save, 'frames.json'), JSON.stringify(frames));
    }
    console.log(`frames: ${frames.length} in ${seconds} s, p50 ${percentile(frames, 50).toFixed(1)} ms, p95 ${percentile(frames, 95).toFixed(1)} ms, longest ${Math.max(...frames).toFixed(0)} ms`);
    console.log('main thread trace, self time per event (ms, count):');
    for (const [name, { ms, count }] of mainThreadSelfTime(trace.traceEvents).slice(0, 25)) console.log(`${ms.toFixed(0).padStart(8)} ms ${String(count).padStart(6)}×  ${name}`);
    const elements = await page.evaluate(() => {
      const counts: Record<string, number> = {};
      for (const element of document.querySelectorAll('[data-testid]')) {
        const id = element.getAttribute('data-testid')!;
        counts[id] = (counts[id] ?? 0) + element.querySelectorAll('*').length + 1;
      }
      return { all: document.querySelectorAll('*').length, counts };
    });
    const renders = await page.evaluate(() => { const w = window as unknown as { commits_: number; resizes_: Record<string, number>; renders_: Record<string, number> }; return { commits: w.commits_, resizes: w.resizes_, renders: w.renders_ }; });
    console.log(`ResizeObserver entries: ${Object.entries(renders.resizes).sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, n]) => `${k} ${n}`).join(', ')}; React commits: ${renders.commits}; renders per component: ${Object.entries(renders.renders).sort((a, b) => b[1] - a[1]).slice(0, 30).map(([name, n]) => `${name} ${n}`).join(', ')}`);
    const domChanges = await page.evaluate(() => (window as unknown as { domChanges_: { tokens: number; milestones: number } }).domChanges_);
    console.log(`inserted while measured (new or moved): ${domChanges.tokens} token elements, ${domChanges.milestones} milestone markers, labels or label texts`);
    console.log(`elements: ${elements.all}; the largest data-testid subtrees: ${Object.entries(elements.counts).sort((a, b) => b[1] - a[1]).slice(0, 8).map(([id, n]) => `${id} ${n}`).join(', ')}`);
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
    const original = sourcePositions();
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
    // Each sample charged to the innermost page function on its stack (the libraries and the browser's
    // work it called included): a partition of the main thread's time by the page's code, and by file.
    const parentOf = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
    const pageFrame = new Map<number, string | null>();
    const innermost = (id: number): string | null => {
      if (pageFrame.has(id)) return pageFrame.get(id)!;
      const { functionName, url: file, lineNumber, columnNumber } = byId.get(id)!.callFrame;
      const source = file ? original(file, lineNumber, columnNumber) : null;
      const parent = parentOf.get(id);
      const found = source?.startsWith('src/') ? `${functionName || '(anonymous)'} ${source}` : parent === undefined ? null : innermost(parent);
      pageFrame.set(id, found);
      return found;
    };
    const underPage = new Map<string, number>();
    const underFile = new Map<string, number>();
    for (const node of profile.nodes) {
      const ms = selfMs.get(node.id) ?? 0;
      const key = ms === 0 ? null : innermost(node.id);
      if (key === null) continue;
      underPage.set(key, (underPage.get(key) ?? 0) + ms);
      const file = key.split(' ').pop()!.replace(/:\d+$/, '');
      underFile.set(file, (underFile.get(file) ?? 0) + ms);
    }
    console.log('charged to the innermost page function (what it called included):');
    for (const [key, ms] of [...underPage].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${ms.toFixed(1).padStart(8)} ms  ${key}`);
    console.log('the same per file:');
    for (const [key, ms] of [...underFile].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${ms.toFixed(1).padStart(8)} ms  ${key}`);
    // The browser's own functions with the most self time, split by the page or library function that called them.
    const callers = new Map<string, Map<string, number>>();
    for (const node of profile.nodes) {
      const ms = selfMs.get(node.id) ?? 0;
      if (ms === 0 || node.callFrame.url || node.callFrame.functionName.startsWith('(')) continue;
      const parent = parentOf.get(node.id);
      const from = parent === undefined ? '(root)' : (() => {
        const { functionName, url: file, lineNumber, columnNumber } = byId.get(parent)!.callFrame;
        return `${functionName || '(anonymous)'} ${(file && original(file, lineNumber, columnNumber)) ?? file.split('/').pop()}`;
      })();
      const byCaller = callers.get(node.callFrame.functionName) ?? new Map<string, number>();
      byCaller.set(from, (byCaller.get(from) ?? 0) + ms);
      callers.set(node.callFrame.functionName, byCaller);
    }
    console.log('the browser functions with the most self time, by caller:');
    const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    for (const [name, byCaller] of [...callers].sort((a, b) => sum(b[1]) - sum(a[1])).slice(0, 6)) {
      console.log(`${sum(byCaller).toFixed(0).padStart(8)} ms  ${name}: ${[...byCaller].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([from, ms]) => `${from} ${ms.toFixed(0)}`).join('; ')}`);
    }
    // React's phases: rendering components, and committing what changed to the DOM.
    const phases = new Map<string, number>();
    for (const node of profile.nodes) {
      const name = node.callFrame.functionName;
      if (!['renderRootSync', 'renderRootConcurrent', 'commitRoot', 'flushPassiveEffects', 'commitMutationEffects', 'commitLayoutEffects', 'recursivelyTraverseLayoutEffects', 'processBatch', 'flushSyncWorkAcrossRoots_impl'].includes(name)) continue;
      let nested = false;
      for (let p = parentOf.get(node.id); p !== undefined; p = parentOf.get(p)) if (byId.get(p)!.callFrame.functionName === name) nested = true;
      if (!nested) phases.set(name, (phases.get(name) ?? 0) + totalOf(node.id));
    }
    console.log(`React and motion phases (inclusive ms): ${[...phases].map(([name, ms]) => `${name} ${ms.toFixed(0)}`).join(', ')}`);
    const total = [...byFunction.values()].reduce((a, b) => a + b, 0);
    console.log(`${scenario}: ${seconds} s played at 1×; ${total.toFixed(0)} ms sampled on the main thread`);
    console.log(`long tasks: ${longTasks.length}, total ${longTasks.reduce((a, b) => a + b, 0).toFixed(0)} ms, longest ${Math.max(0, ...longTasks).toFixed(0)} ms`);
    console.log('self time:');
    for (const [key, ms] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${ms.toFixed(1).padStart(8)} ms  ${key}`);
    console.log('inclusive time (page scripts):');
    for (const [key, ms] of [...inclusiveByFunction].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${ms.toFixed(1).padStart(8)} ms  ${key}`);
  } finally {
    await close();
  }
}

await main();

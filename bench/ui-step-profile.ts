/// <reference lib="dom" />
// Where a Step, a Step back and a seek go at scale, in the page and in the simulation worker: a
// Deployment of N replicas on M nodes (3 etcd members, as `npm run bench -- pagescale`) brought to
// Ready with "Run until idle", then 10 Steps at the head, 10 Steps back, 5 s of playing, 5 seeks and 10 Steps
// back with the Objects tab open, each phase with a
// CPU profile of the *worker* (CDP over a debugging port: the worker is a target of its own), the
// worker's events the page received (count and JSON size per type), and each action's latency
// (click → step counter changed → next frame). Not a benchmark (no figure is kept): a tool for finding
// what to fix.
//   npx tsx bench/ui-step-profile.ts [replicas=3000] [nodes=50]
// PODFLOW_PROFILE_PAGE=1 profiles the page's main thread over the same phases too; PODFLOW_PROFILE_TRACE=1
// records Chromium's trace as well and names the native work the profiles call "(program)" (layout,
// style, paint, messages, GC) per thread (bench/trace-summary.ts). PODFLOW_PROFILE_ALLOC=1 samples the
// worker's allocations in each phase too, the garbage collected meanwhile included, by allocating function.
// PODFLOW_TAB_PROCESS=own runs the simulation in a process of its own. PODFLOW_PROFILE_TAB=<tab> plays with that dock tab in front. PODFLOW_PROFILE_DIR=<dir> also writes
// each phase's CPU profiles there (`<phase>.<thread>.cpuprofile`, for DevTools or bench/flow-cpu.ts).
// PODFLOW_JS_FLAGS passes V8 flags to Chromium (`--trace-gc`: each collection and its reason, printed with
// DEBUG=pw:browser).
// Builds `dist/` first when it is missing; with `npx vite build --sourcemap`, functions are named by their
// source file and line.

import { mkdirSync, writeFileSync } from 'node:fs';
import { Cdp, freePort } from './cdp.ts';
import { webDeploymentYaml } from './manifests.ts';
import { TraceRecorder } from './trace-summary.ts';
import { act, booted, answered, frameIntervals, clickScript, createManifest, open, percentile, readyAndIdle, sourcePositions, countWorkerEvents, profilingContext, servePage, type CpuProfile } from './ui-page.ts';

const replicas = Number(process.argv[2] ?? 3000);
const nodes = Number(process.argv[3] ?? 50);
/** PODFLOW_TAB_MEMBERS: the cluster's etcd members (default 3, as the page starts one). */
const members = Number(process.env.PODFLOW_TAB_MEMBERS ?? 3);
/** PODFLOW_TAB_PROCESS=own: the simulation in a renderer process of its own (`?process=own`, src/ui/sim-process.ts), as the tab bench can run it. */
const ownProcess = process.env.PODFLOW_TAB_PROCESS === 'own';

function summarize(profile: CpuProfile, top: number, thread = 'worker'): string[] {
  const original = sourcePositions();
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const name = (node: CpuProfile['nodes'][number]) => {
    const { functionName, url: file, lineNumber, columnNumber } = node.callFrame;
    return `${functionName || '(anonymous)'} ${(file && original(file, lineNumber, columnNumber)) ?? (file ? `${file.split('/').pop()}:${lineNumber + 1}` : '')}`;
  };
  let idle = 0;
  let busy = 0;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const node of profile.nodes) {
    const ms = selfMs.get(node.id) ?? 0;
    if (ms === 0) continue;
    if (node.callFrame.functionName === '(idle)') {
      idle += ms;
      continue;
    }
    busy += ms;
    self.set(name(node), (self.get(name(node)) ?? 0) + ms);
    // Charged once to every distinct src/ function on the stack.
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parentOf.get(id)) {
      const key = name(byId.get(id)!);
      if (!key.includes(' src/') || seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
    }
  }
  const lines = [`  ${thread} busy ${busy.toFixed(0)} ms, idle ${idle.toFixed(0)} ms`, '  self:'];
  for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${ms.toFixed(1).padStart(8)} ms  ${key}`);
  lines.push('  inclusive (src/):');
  for (const [key, ms] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${ms.toFixed(1).padStart(8)} ms  ${key}`);
  return lines;
}

/** A node of a sampling heap profile (CDP's HeapProfiler.SamplingHeapProfileNode). */
interface AllocationNode {
  readonly callFrame: CpuProfile['nodes'][number]['callFrame'];
  readonly selfSize: number;
  readonly children: readonly AllocationNode[];
}

/** The worker's sampled allocations: by allocating function, and charged to each src/ function on the stack. */
function summarizeAllocations(head: AllocationNode, top: number): string[] {
  const original = sourcePositions();
  const name = ({ functionName, url: file, lineNumber, columnNumber }: AllocationNode['callFrame']) =>
    `${functionName || '(anonymous)'} ${(file && original(file, lineNumber, columnNumber)) ?? (file ? `${file.split('/').pop()}:${lineNumber + 1}` : '')}`;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  const walk = (node: AllocationNode, stack: readonly string[]) => {
    const key = name(node.callFrame);
    const here = key.includes(' src/') && !stack.includes(key) ? [...stack, key] : stack;
    if (node.selfSize > 0) {
      total += node.selfSize;
      self.set(key, (self.get(key) ?? 0) + node.selfSize);
      for (const frame of here) inclusive.set(frame, (inclusive.get(frame) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, here);
  };
  walk(head, []);
  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1).padStart(8)} MiB`;
  const lines = [`  worker allocated ${mib(total).trim()} (sampled)`, '  allocated, self:'];
  for (const [key, bytes] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${mib(bytes)}  ${key}`);
  lines.push('  allocated, inclusive (src/):');
  for (const [key, bytes] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${mib(bytes)}  ${key}`);
  return lines;
}

async function main(): Promise<void> {
  const port = await freePort();
  const { url, browser, close } = await servePage([`--remote-debugging-port=${port}`, ...(process.env.PODFLOW_JS_FLAGS ? [`--js-flags=${process.env.PODFLOW_JS_FLAGS}`] : [])]);
  try {
    const context = await profilingContext(browser);
    await countWorkerEvents(context);
    const page = await context.newPage();
    await open(page, ownProcess ? `${url}?process=own` : url);
    await act(page, 'reset', 'podflow', nodes, members);
    await booted(page, nodes, 600_000);
    await createManifest(page, webDeploymentYaml(replicas));
    const started = Date.now();
    await page.getByRole('button', { name: 'Run until idle', exact: true }).click();
    await readyAndIdle(page, replicas);
    const head = Number(await page.getByTestId('step-counter').textContent());
    console.log(`${replicas} replicas on ${nodes} nodes Ready after ${((Date.now() - started) / 1000).toFixed(0)} s, step ${head}`);
    // The run's saves finish first: the profiles are of the steps, not of saving the run.
    await page.waitForFunction((step) => (globalThis as unknown as { podflow: { store: { getState(): { persistence: { lastPersistedStep: number | null } | null } } } }).podflow.store.getState().persistence?.lastPersistedStep === step, head, { timeout: 600_000, polling: 500 });
    console.log(`saved at step ${head} after ${((Date.now() - started) / 1000).toFixed(0)} s`);

    const cdp = await Cdp.connect(port);
    const { targetInfos } = await cdp.send<{ targetInfos: { targetId: string; type: string; title: string; url: string }[] }>('Target.getTargets');
    // In a process of its own the worker is the sandboxed frame's, started from a blob of an opaque origin.
    const worker = targetInfos.find((t) => t.type === 'worker' && (t.url.includes('sim.worker') || t.url.startsWith('blob:null/')));
    if (!worker) throw new Error(`no simulation worker among ${targetInfos.map((t) => `${t.type} ${t.url}`).join(', ')}`);
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId: worker.targetId, flatten: true });
    await cdp.send('Profiler.enable', {}, sessionId);
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 }, sessionId);
    // The page's main thread too (what it does with what it receives), with PODFLOW_PROFILE_PAGE=1.
    const pageTarget = process.env.PODFLOW_PROFILE_PAGE ? targetInfos.find((t) => t.type === 'page' && t.url.startsWith(url)) : undefined;
    const pageSession = pageTarget ? (await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId: pageTarget.targetId, flatten: true })).sessionId : null;
    if (pageSession) {
      await cdp.send('Profiler.enable', {}, pageSession);
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 }, pageSession);
    }

    const trace = process.env.PODFLOW_PROFILE_TRACE ? new TraceRecorder(cdp) : null;
    const allocations = Boolean(process.env.PODFLOW_PROFILE_ALLOC);
    const tracingGc = Boolean(process.env.PODFLOW_JS_FLAGS?.includes('--trace-gc'));
    if (allocations || tracingGc) await cdp.send('HeapProfiler.enable', {}, sessionId);
    const phase = async (label: string, actions: string[] | (() => Promise<number[]>)) => {
      await page.evaluate(() => {
        const w = window as unknown as { measuring_: boolean; workerEvents_: object };
        w.workerEvents_ = {};
        w.measuring_ = true;
      });
      // With --trace-gc a forced collection marks where each phase starts in the log.
      if (tracingGc) await cdp.send('HeapProfiler.collectGarbage', {}, sessionId);
      await cdp.send('Profiler.start', {}, sessionId);
      if (allocations) await cdp.send('HeapProfiler.startSampling', { samplingInterval: 16_384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true }, sessionId);
      if (pageSession) await cdp.send('Profiler.start', {}, pageSession);
      await trace?.start();
      const times: number[] = [];
      if (typeof actions === 'function') times.push(...(await actions()));
      else for (const action of actions) times.push(await answered(page, action, 60_000));
      // Let the worker finish what it does after the last answer (saving), inside the profile.
      await page.waitForTimeout(1_000);
      const { profile } = await cdp.send<{ profile: CpuProfile }>('Profiler.stop', {}, sessionId);
      const allocated = allocations ? (await cdp.send<{ profile: { head: AllocationNode } }>('HeapProfiler.stopSampling', {}, sessionId)).profile : null;
      const pageProfile = pageSession ? (await cdp.send<{ profile: CpuProfile }>('Profiler.stop', {}, pageSession)).profile : null;
      const dir = process.env.PODFLOW_PROFILE_DIR;
      if (dir) {
        mkdirSync(dir, { recursive: true });
        const base = label.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '');
        writeFileSync(`${dir}/${base}.worker.cpuprofile`, JSON.stringify(profile));
        if (pageProfile) writeFileSync(`${dir}/${base}.page.cpuprofile`, JSON.stringify(pageProfile));
      }
      const traced = trace ? await trace.stop(20) : [];
      const events = await page.evaluate(() => {
        const w = window as unknown as { measuring_: boolean; workerEvents_: Record<string, { count: number; bytes: number; handleMs: number }> };
        w.measuring_ = false;
        return w.workerEvents_;
      });
      console.log(`${label}: median ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms, each ${times.map((t) => t.toFixed(0)).join(" ")} ms`);
      console.log('  events (count, JSON KiB, ms the page spent on their messages):');
      for (const [type, e] of Object.entries(events).sort((a, b) => b[1].bytes - a[1].bytes)) {
        console.log(`    ${type.padEnd(18)} ${String(e.count).padStart(5)} ${(e.bytes / 1024).toFixed(0).padStart(8)} KiB ${e.handleMs.toFixed(0).padStart(6)} ms`);
      }
      for (const line of summarize(profile, 25)) console.log(line);
      if (allocated) for (const line of summarizeAllocations(allocated.head, 25)) console.log(line);
      if (pageProfile) for (const line of summarize(pageProfile, 25, 'page')) console.log(line);
      for (const line of traced) console.log(line);
    };
    await phase('Step at the head ×10', Array.from({ length: 10 }, () => clickScript('step-button')));
    await phase('Step back ×10', Array.from({ length: 10 }, () => clickScript('step-back-button')));
    await page.getByRole('combobox', { name: 'Speed' }).selectOption('1');
    // Play at the 'All' level runs the live head, jumping there first: the view goes there before the phase
    // (the Steps back left it 10 steps behind), so the phase profiles playing, not a seek.
    await answered(page, 'podflow.actions.seek(podflow.store.getState().timeline.head)', 60_000);
    // PODFLOW_PROFILE_TAB=<dock tab>: that tab in front while playing (e.g. Scheduler, which the tab bench plays with).
    const playTab = process.env.PODFLOW_PROFILE_TAB;
    if (playTab) await page.getByRole('tablist', { name: 'Dock' }).getByRole('tab', { name: playTab, exact: true }).click();
    await phase(`playing 5 s at 1× (frame intervals)${playTab ? `, the ${playTab} tab in front` : ''}`, () =>
      frameIntervals(page, async () => {
        await page.getByTestId('play-button').click();
        await page.waitForTimeout(5_000);
        await page.getByTestId('play-button').click();
      }),
    );
    await phase('seek ×5', [0.9, 0.5, 0.7, 0.3, 0.95].map((f) => `podflow.actions.seek(${Math.round(head * f)})`));
    // The Objects tab open: it asks the worker for its lists and window again at every step.
    await page.getByRole('tablist', { name: 'Dock' }).getByRole('tab', { name: 'Objects', exact: true }).click();
    await page.locator('[data-testid="object-row"]').first().waitFor({ timeout: 300_000 });
    await phase('Step back ×10 with the Objects tab open', Array.from({ length: 10 }, () => clickScript('step-back-button')));
    // Chromium's stdout is a pipe, written in blocks: collections at the end push the last lines out.
    if (tracingGc) for (let i = 0; i < 64; i++) await cdp.send('HeapProfiler.collectGarbage', {}, sessionId);
    cdp.close();
  } finally {
    await close();
  }
}

await main();

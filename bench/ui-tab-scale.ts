/// <reference lib="dom" />
// A large cluster in one tab (issue 20, part 4): a Deployment of N replicas on M nodes (3 etcd members) in
// headless Chromium at 1280×720, brought to Available with "Run until idle" as a user would, with the
// tab's memory logged every 30 s on the way (the renderer's RSS, the simulation worker's JS heap over CDP,
// the page's JS heap) and a crash of the tab or the worker reported as such. Once every replica is Ready:
// Step, Step back and seeks (click → step counter → next frame), the Objects and Scheduler tabs opened and
// stepped back with, and two plays at the live head at 1× (frame intervals; PODFLOW_TAB_PLAY_S, default 10 s
// each), with the Scheduler tab in front and with the etcd keyspace tab.
//   npx tsx bench/ui-tab-scale.ts [replicas=150000] [nodes=5000]
// Writes bench/results/tab-<replicas>x<nodes>[-own][-<members>m].json (the log and the figures). Not part of `npm run bench`:
// at 150,000 on 5,000 it runs for about an hour of one core. PODFLOW_TAB_MAX_S bounds the wall time
// (default 4 h). PODFLOW_TAB_MEMBERS sets the cluster's etcd members (default 3, as the page starts one).

import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { Cdp, freePort } from './cdp.ts';
import { webDeploymentYaml } from './manifests.ts';
import { act, booted, answered, clickScript, createManifest, frameIntervals, open, percentile, servePage } from './ui-page.ts';

const replicas = Number(process.argv[2] ?? 150_000);
const nodes = Number(process.argv[3] ?? 5_000);
const maxSeconds = Number(process.env.PODFLOW_TAB_MAX_S ?? 4 * 3600);
const mib = 1024 * 1024;
const etcdMembers = Number(process.env.PODFLOW_TAB_MEMBERS ?? 3);
const ownProcess = process.env.PODFLOW_TAB_PROCESS === 'own';
/** PODFLOW_TAB_PLAY_S: how long each play lasts (default 10 s; 5 s before session 29). */
const playSeconds = Number(process.env.PODFLOW_TAB_PLAY_S ?? 10);
/** The results' name: `tab-150000x5000`, with `-own` and `-1m` for a process of its own and 1 etcd member. */
const runName = `tab-${replicas}x${nodes}${ownProcess ? '-own' : ''}${etcdMembers === 3 ? '' : `-${etcdMembers}m`}`;

interface Sample {
  readonly wallS: number;
  readonly step: number;
  readonly held: number;
  readonly ready: number;
  readonly rssMiB: number;
  readonly workerHeapMiB: number | null;
  readonly pageHeapMiB: number;
  readonly load: number;
}

/** The largest renderer process's resident memory, in MiB (the page and its worker share it). */
async function rendererRss(browser: Browser): Promise<number> {
  const session = await browser.newBrowserCDPSession();
  const info = (await session.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number }[] };
  await session.detach();
  let rss = 0;
  for (const process of info.processInfo.filter((p) => p.type === 'renderer')) {
    try {
      rss = Math.max(rss, Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${process.id}/status`, 'utf8'))?.[1] ?? 0) / 1024);
    } catch {
      // The process is gone (a crash): reported by the page's crash event.
    }
  }
  return rss;
}

async function pageState(page: Page): Promise<{ step: number; held: number; ready: number; idle: boolean; crashed: boolean; pageHeap: number }> {
  return page.evaluate(() => {
    const state = (globalThis as unknown as { podflow: { store: { getState(): { pods: { byKey: Map<string, { ready: boolean }> }; workerCrashed: unknown } } } }).podflow.store.getState();
    let ready = 0;
    for (const pod of state.pods.byKey.values()) if (pod.ready) ready++;
    const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
    return {
      step: Number(document.querySelector('[data-testid="step-counter"]')?.textContent ?? 0),
      held: state.pods.byKey.size,
      ready,
      idle: document.querySelector('[data-testid="activity"]')?.textContent === 'idle',
      crashed: Boolean(state.workerCrashed),
      pageHeap: memory?.usedJSHeapSize ?? Number.NaN,
    };
  });
}

async function main(): Promise<void> {
  const port = await freePort();
  // PODFLOW_TAB_CHROMIUM_ARGS adds Chromium flags, e.g. `--enable-logging=stderr` (with DEBUG=pw:browser to
  // see its log: why a tab crashed).
  const extra = (process.env.PODFLOW_TAB_CHROMIUM_ARGS ?? '').split(' ').filter(Boolean);
  const { url, browser, close } = await servePage([`--remote-debugging-port=${port}`, ...extra]);
  const log: Sample[] = [];
  const out = join(import.meta.dirname, 'results', `${runName}.json`);
  const figures: Record<string, unknown> = { replicas, nodes, etcdMembers, process: ownProcess ? 'own' : 'page', startedAt: new Date().toISOString() };
  const save = () => writeFileSync(out, `${JSON.stringify({ ...figures, log }, null, 1)}\n`);
  let crashed = '';
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    await context.addInitScript({ content: 'window.__name = (f) => f;' });
    await context.addInitScript({ content: "if (localStorage.getItem('podflow.prefs') === null) localStorage.setItem('podflow.prefs', JSON.stringify({ state: { language: 'en', theme: 'system', level: 'internal' }, version: 1 }));" });
    const page = await context.newPage();
    page.on('crash', () => { crashed = 'the tab crashed'; });
    // PODFLOW_TAB_PROCESS=own: the simulation in a process of its own (src/ui/sim-process.ts).
    await open(page, ownProcess ? `${url}?process=own` : url);
    const start = Date.now();
    const wall = () => (Date.now() - start) / 1000;
    await act(page, 'reset', 'podflow', nodes, etcdMembers);
    await booted(page, nodes, 3_600_000);
    figures.bootS = wall();

    const cdp = await Cdp.connect(port);
    const { targetInfos } = await cdp.send<{ targetInfos: { targetId: string; type: string; url: string }[] }>('Target.getTargets');
    const worker = targetInfos.find((t) => t.type === 'worker' && (t.url.includes('sim.worker') || t.url.startsWith('blob:null/')));
    const workerSession = worker ? (await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId: worker.targetId, flatten: true })).sessionId : null;
    const workerHeap = async () => {
      if (!workerSession) return null;
      const usage = await Promise.race([
        cdp.send<{ usedSize: number }>('Runtime.getHeapUsage', {}, workerSession),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 20_000)),
      ]);
      return usage ? usage.usedSize / mib : null;
    };
    let peakWorkerHeap = 0;
    let peakRss = 0;
    const sample = async (): Promise<Sample & { idle: boolean }> => {
      const state = await pageState(page);
      if (state.crashed) crashed = 'the simulation worker crashed';
      const heap = await workerHeap();
      const rss = await rendererRss(browser);
      peakWorkerHeap = Math.max(peakWorkerHeap, heap ?? 0);
      peakRss = Math.max(peakRss, rss);
      const entry = { wallS: Math.round(wall()), step: state.step, held: state.held, ready: state.ready, rssMiB: Math.round(rss), workerHeapMiB: heap === null ? null : Math.round(heap), pageHeapMiB: Math.round(state.pageHeap / mib), load: Number(loadavg()[0]!.toFixed(1)) };
      log.push(entry);
      console.log(JSON.stringify(entry));
      save();
      return { ...entry, idle: state.idle };
    };
    figures.booted = await sample();

    await createManifest(page, webDeploymentYaml(replicas));
    const created = wall();
    await page.getByRole('button', { name: 'Run until idle', exact: true }).click();
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, Number(process.env.PODFLOW_TAB_SAMPLE_S ?? 30) * 1000));
      if (crashed) break;
      const now = await sample();
      if (crashed) break;
      if (now.ready >= replicas && now.idle) break;
      if (wall() > maxSeconds) {
        crashed = `not Available after ${maxSeconds} s`;
        break;
      }
    }
    figures.peakRssMiB = Math.round(peakRss);
    figures.peakWorkerHeapMiB = Math.round(peakWorkerHeap);
    if (crashed) {
      figures.failed = crashed;
      return;
    }
    figures.toAvailableS = Math.round(wall() - created);
    const head = (await pageState(page)).step;
    figures.head = head;
    // What the page keeps once every Pod is Running: its heap after a full collection, and its keyspace mirror
    // (keys, those holding a value, the values' characters with their previous versions').
    const pageTarget = targetInfos.find((t) => t.type === 'page');
    const pageSession = pageTarget ? (await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId: pageTarget.targetId, flatten: true })).sessionId : null;
    if (pageSession) {
      await cdp.send('HeapProfiler.collectGarbage', {}, pageSession);
      figures.pageHeapAfterGcMiB = Math.round((await cdp.send<{ usedSize: number }>('Runtime.getHeapUsage', {}, pageSession)).usedSize / mib);
    }
    figures.pageKeyspace = await page.evaluate(() => {
      // The live mirror's table (src/ui/store/key-table.ts): its keys, and those holding their values.
      type Table = { size: number; heldValues(): { keys: number; chars: number } };
      const { entries } = (globalThis as unknown as { podflow: { store: { getState(): { keyspace: { live: { entries: Table } } } } } }).podflow.store.getState().keyspace.live;
      const held = entries.heldValues();
      return { keys: entries.size, valued: held.keys, valueChars: held.chars };
    });
    console.log(JSON.stringify({ pageHeapAfterGcMiB: figures.pageHeapAfterGcMiB, pageKeyspace: figures.pageKeyspace }));

    const forward: number[] = [];
    for (let i = 0; i < 10; i++) forward.push(await answered(page, clickScript('step-button'), 120_000));
    const back: number[] = [];
    for (let i = 0; i < 10; i++) back.push(await answered(page, clickScript('step-back-button'), 120_000));
    const seek: number[] = [];
    for (const fraction of [0.9, 0.5, 0.7, 0.3, 0.95]) seek.push(await answered(page, `podflow.actions.seek(${Math.round(head * fraction)})`, 300_000));
    // The state tabs at this size: opened (click → the first row or attempt drawn), then Step back with each open
    // (the tab asks the worker again at every step).
    const openTab = async (name: string, drawn: string) => {
      const started = Date.now();
      await page.getByRole('tablist', { name: 'Dock' }).getByRole('tab', { name, exact: true }).click();
      await page.locator(drawn).first().waitFor({ timeout: 300_000 });
      return Date.now() - started;
    };
    const withTab: Record<string, { openMs: number; stepBack: number[] }> = {};
    for (const [name, drawn] of [['Objects', '[data-testid="object-row"]'], ['Scheduler', '[data-testid="attempt-outcome"]']] as const) {
      const openMs = await openTab(name, drawn);
      const stepBack: number[] = [];
      for (let i = 0; i < 10; i++) stepBack.push(await answered(page, clickScript('step-back-button'), 120_000));
      withTab[name] = { openMs, stepBack };
    }
    await page.getByRole('combobox', { name: 'Speed' }).selectOption('1');
    // Play at 1× for `playSeconds` with a tab in front: the frame intervals. At the 'All' level Play runs the
    // live head, jumping there first from a past step; the Steps back above left the view in the past, so the
    // view goes to the head before the plays, not inside the first one (until session 29 that jump, a seek of
    // ~2 s at 150,000 Pods, was part of the first play's frames).
    await answered(page, 'podflow.actions.seek(podflow.store.getState().timeline.head)', 300_000);
    // That jump's garbage (at 150,000 Pods a keyspace move of most of 800,000 keys) is collected before the
    // plays, on the page and in the worker, so that its collection is not counted as playing's (session 30's
    // run played the Scheduler tab right after the jump: 50 ms p95, the keyspace tab after it 16.8 ms).
    for (const session of [pageSession, workerSession]) if (session) await cdp.send('HeapProfiler.collectGarbage', {}, session);
    await page.waitForTimeout(2_000);
    const play = async (tab: string) => {
      await page.getByRole('tablist', { name: 'Dock' }).getByRole('tab', { name: tab, exact: true }).click();
      const frames = await frameIntervals(page, async () => {
        await page.getByTestId('play-button').click();
        await page.waitForTimeout(playSeconds * 1000);
        await page.getByTestId('play-button').click();
      });
      // Where the long frames fell (seconds into the play, and how long each was): at the start (what came
      // before) or throughout (playing itself).
      let at = 0;
      const long: { atS: number; ms: number }[] = [];
      for (const ms of frames) {
        at += ms;
        if (ms > 33.4 && long.length < 60) long.push({ atS: Number((at / 1000).toFixed(2)), ms: Math.round(ms) });
      }
      return { p50: percentile(frames, 50), p95: percentile(frames, 95), frames: frames.length, seconds: playSeconds, tab, long };
    };
    // With the Scheduler tab (which asks the worker for the step's attempts while the step moves) in front,
    // then with the dock's default tab, the etcd keyspace.
    const playing = await play('Scheduler');
    const playingKeyspace = await play('etcd keyspace');
    const summary = (values: number[]) => ({ median: percentile(values.filter(Number.isFinite), 50), p95: percentile(values.filter(Number.isFinite), 95), answered: values.filter(Number.isFinite).length, of: values.length });
    figures.stepMs = summary(forward);
    figures.stepBackMs = summary(back);
    figures.seekMs = { ...summary(seek), each: seek.map((v) => Math.round(v)) };
    figures.playingFrameMs = playing;
    figures.playingKeyspaceTabFrameMs = playingKeyspace;
    figures.stateTabs = Object.fromEntries(Object.entries(withTab).map(([name, { openMs, stepBack }]) => [name, { openMs, stepBackMs: summary(stepBack) }]));
    figures.after = await sample();
    await page.screenshot({ path: join(import.meta.dirname, 'results', `${runName}-1280x720.png`) });
  } catch (error) {
    figures.failed = crashed || String(error);
  } finally {
    figures.endedAt = new Date().toISOString();
    save();
    console.log(JSON.stringify({ ...figures, log: undefined }, null, 1));
    await close();
  }
}

await main();

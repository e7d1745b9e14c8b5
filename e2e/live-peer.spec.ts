// Two kube-apiservers on one real etcd, side by side: the test starts Debian's etcd, `npm run apiserver`
// A on it, and B on it with `--peer-apiserver=<A's page>`, and opens the side-by-side page B prints. Real
// kubectl creates a ConfigMap through A: A's column has kubectl's request and the Txn that writes the key;
// B's column has no request for it, only etcd's watch event, labelled as another etcd client's write; A's
// identity Lease arrives on B's side named after A. Screenshots at 1440×900 and 1280×720 (each column then
// 720 and 640 px wide). Skipped, with a message, without kubectl or etcd on PATH.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { expect, test, type Frame, type Page } from '@playwright/test';
import { findEtcd, RealEtcd } from '../test/etcd/real-etcd.ts';

const kubectl = (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'kubectl')).find((path) => existsSync(path)) ?? null;
const etcdBinary = findEtcd();
if (!kubectl || !etcdBinary) console.warn('e2e/live-peer: kubectl or etcd is not on PATH; SKIPPED');

interface Started {
  readonly process: ChildProcess;
  /** Everything the server printed so far. */
  readonly output: () => string;
  readonly kubeconfig: string;
}

/** Starts `npm run apiserver` with `flags` and waits until it prints a line `pattern` matches. */
async function startServer(dir: string, name: string, flags: readonly string[], pattern: RegExp): Promise<{ started: Started; match: RegExpExecArray }> {
  const kubeconfig = join(dir, `${name}.kubeconfig`);
  // Its own process group: npx, tsx and the server's node stop together (stopServer).
  const child = spawn('npx', ['tsx', 'src/server/main.ts', '--port', '0', '--nodes', '1', '--kubeconfig', kubeconfig, ...flags], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += String(chunk);
      const found = pattern.exec(output);
      if (found) resolve(found);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      output += String(chunk);
    });
    child.once('exit', (code) => reject(new Error(`server ${name} exited (${code}) before printing ${pattern}:\n${output}`)));
  });
  return { started: { process: child, output: () => output, kubeconfig }, match };
}

function stopServer(started: Started | undefined): void {
  if (started?.process.pid !== undefined) process.kill(-started.process.pid, 'SIGTERM');
}

function run(args: readonly string[], kubeconfig: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(kubectl!, ['--kubeconfig', kubeconfig, ...args], (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)));
  });
}

/** What one column's page received about `key`: the steps of the requests, Txns and watch events naming it. */
interface Seen {
  readonly requests: number[];
  readonly txns: number[];
  readonly watchEvents: number[];
}

/** Starts recording, in a column's page, the records that name `path` (a request's) or `key` (etcd's). */
function record(frame: Frame, path: string, key: string): Promise<void> {
  return frame.evaluate(({ path, key }) => {
    interface Rec { step: number; kind: string; from: string; to: string; payload: unknown }
    const handle = (globalThis as unknown as { podflow: { store: { getState(): { recent: readonly Rec[] }; subscribe(f: (s: { recent: readonly Rec[] }) => void): void } } }).podflow;
    const seen = { requests: [] as number[], txns: [] as number[], watchEvents: [] as number[] };
    (globalThis as unknown as { seen: typeof seen }).seen = seen;
    // Each record once: the newest step looked at so far.
    let last = -1;
    const look = (state: { recent: readonly Rec[] }) => {
      for (const r of state.recent) {
        if (r.step <= last) continue;
        last = r.step;
        if (r.kind !== 'http.request' && r.kind !== 'etcd.Txn' && r.kind !== 'etcd.WatchResponse') continue;
        const text = JSON.stringify(r.payload);
        if (r.kind === 'http.request' && r.from === 'user' && text.includes(path) && text.includes('"POST"')) seen.requests.push(r.step);
        else if (r.kind === 'etcd.Txn' && r.to === 'etcd' && text.includes(key)) seen.txns.push(r.step);
        else if (r.kind === 'etcd.WatchResponse' && r.to === 'kube-apiserver' && text.includes(key)) seen.watchEvents.push(r.step);
      }
    };
    look(handle.store.getState());
    handle.store.subscribe(look);
  }, { path, key });
}

const seen = (frame: Frame): Promise<Seen> => frame.evaluate(() => (globalThis as unknown as { seen: Seen }).seen);

/** Pauses a column and shows `step` in it (over the server's recorded trace). */
async function show(frame: Frame, step: number): Promise<void> {
  if ((await frame.getByTestId('live-state').textContent()) === 'Live') await frame.getByTestId('play-button').click();
  await expect(frame.getByTestId('live-state')).toHaveText('Paused');
  await frame.evaluate((s) => (globalThis as unknown as { podflow: { actions: { seek(step: number): void } } }).podflow.actions.seek(s), step);
  await expect(frame.getByTestId('step-counter')).toHaveText(String(step));
}

/** A column's page: its frame, by the name the side-by-side page gives it. */
async function frameOf(page: Page, side: 'a' | 'b'): Promise<Frame> {
  await expect(page.getByTestId(`side-${side}-frame`)).toBeAttached();
  await expect.poll(() => page.frame(`side-${side}`) !== null).toBe(true);
  return page.frame(`side-${side}`)!;
}

test.describe('two kube-apiservers on one real etcd, side by side', () => {
  test.skip(!kubectl || !etcdBinary, 'kubectl or etcd is not on PATH');
  test.use({ viewport: { width: 1440, height: 900 } });
  let dir: string;
  let etcd: RealEtcd;
  let a: Started;
  let b: Started;
  let aPage: string;
  let sideBySide: string;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    dir = mkdtempSync(join(tmpdir(), 'podflow-live-peer-'));
    etcd = await RealEtcd.start(etcdBinary!);
    const first = await startServer(dir, 'a', [`--etcd-servers=${etcd.url}`, '--hostname=server-a'], /watch it live at (\S+)/);
    a = first.started;
    aPage = first.match[1]!;
    const second = await startServer(dir, 'b', [`--etcd-servers=${etcd.url}`, '--hostname=server-b', `--peer-apiserver=${aPage}`], /side by side at (\S+)/);
    b = second.started;
    sideBySide = second.match[1]!;
  });
  test.afterAll(() => {
    stopServer(b);
    stopServer(a);
    etcd?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a ConfigMap created through A: a request and a Txn in A\'s column, a watch event from another etcd client in B\'s', async ({ page }) => {
    // Both servers boot against etcd in real time (no fast-forward), and one renderer draws two live pages:
    // slower than the model's runs on this shared machine.
    test.setTimeout(480_000);
    expect(b.output()).toContain('kube-apiserver identity kube-apiserver-');
    await page.addInitScript(() => {
      if (localStorage.getItem('podflow.prefs') === null) {
        localStorage.setItem('podflow.prefs', JSON.stringify({ state: { language: 'en', theme: 'light', level: 'milestone' }, version: 1 }));
      }
    });
    await page.goto(sideBySide);
    await expect(page.getByTestId('side-a')).toContainText(new URL(aPage).host);
    await expect(page.getByTestId('side-a-open')).toHaveAttribute('href', aPage);
    await expect(page.getByTestId('side-b-open')).toHaveText('Open in a new tab');
    const [columnA, columnB] = [await frameOf(page, 'a'), await frameOf(page, 'b')];
    await expect(columnA.getByTestId('live-state')).toHaveText('Live', { timeout: 60_000 });
    await expect(columnB.getByTestId('live-state')).toHaveText('Live', { timeout: 60_000 });
    await expect(columnA.getByTestId('live-badge')).toContainText(new URL(aPage).host);
    await expect.poll(async () => (await run(['get', 'namespace', 'default', '-o', 'name'], a.kubeconfig).catch(() => '')), { timeout: 120_000 }).toBe('namespace/default\n');

    // Two kube-apiservers, two identity Leases.
    const leases = await run(['get', 'leases', '-n', 'kube-system', '-l', 'apiserver.kubernetes.io/identity=kube-apiserver', '-o', 'jsonpath={range .items[*]}{.metadata.labels.kubernetes\\.io/hostname}{"\\n"}{end}'], a.kubeconfig);
    expect(leases.trim().split('\n').sort()).toEqual(['server-a', 'server-b']);

    const key = '/registry/configmaps/default/peer-demo';
    await record(columnA, '/api/v1/namespaces/default/configmaps', key);
    await record(columnB, '/api/v1/namespaces/default/configmaps', key);
    expect(await run(['create', 'configmap', 'peer-demo', '--from-literal=from=a'], a.kubeconfig)).toBe('configmap/peer-demo created\n');

    await expect.poll(async () => {
      const [inA, inB] = [await seen(columnA), await seen(columnB)];
      const result = { a: [inA.requests.length > 0, inA.txns.length > 0], b: inB.watchEvents.length > 0 };
      // What each column has received so far, in the failure message.
      const newest = (f: Frame) => f.evaluate(() => {
        const { recent, status } = (globalThis as unknown as { podflow: { store: { getState(): { recent: ReadonlyArray<{ step: number; kind: string }>; status: { step: number; mode: string } } } } }).podflow.store.getState();
        return `${recent.length} recent, last ${recent.at(-1)?.step} ${recent.at(-1)?.kind}, at step ${status.step} ${status.mode}`;
      });
      return result.a.every(Boolean) && result.b ? result : { ...result, columns: [await newest(columnA), await newest(columnB)] };
    }, { timeout: 120_000 }).toEqual({ a: [true, true], b: true });
    const [inA, inB] = [await seen(columnA), await seen(columnB)];
    // B handled no request for it and wrote nothing: it learned of the ConfigMap from etcd's watch.
    expect(inB.requests).toEqual([]);
    expect(inB.txns).toEqual([]);
    await page.screenshot({ path: test.info().outputPath('side-by-side-live-1440x900.png') });

    await show(columnA, inA.txns[0]!);
    await expect(columnA.getByTestId('step-caption')).toContainText(key);
    await show(columnB, inB.watchEvents[0]!);
    await expect(columnB.getByTestId('step-caption')).toContainText('written by another etcd client, not through this kube-apiserver');
    await page.screenshot({ path: test.info().outputPath('side-by-side-1440x900.png') });
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: test.info().outputPath('side-by-side-1280x720.png') });
  });
});

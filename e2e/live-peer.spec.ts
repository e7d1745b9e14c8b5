// Two kube-apiservers on one real etcd, side by side: the test starts Debian's etcd, `npm run apiserver`
// A on it, and B on it with `--peer-apiserver=<A's page>`, and opens the side-by-side page B prints: two
// columns, each its own server's page attached live, with an "Open in a new tab" link; the two servers hold
// two identity Leases; real kubectl creates a ConfigMap through A. (That B's page carries the write as a
// watch event from another etcd client is proved over the event stream in test/live-etcd/live-page.test.ts.)
// Screenshots at 1440×900 and 1280×720 (each column then 720 and 640 px wide). Skipped, with a message,
// without kubectl or etcd on PATH.

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

  test('both servers\' pages attached in their columns; two identity Leases; a ConfigMap created through A', async ({ page }) => {
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

    // A create through A: kubectl's answer is A's; both columns keep following their own server.
    expect(await run(['create', 'configmap', 'peer-demo', '--from-literal=from=a'], a.kubeconfig)).toBe('configmap/peer-demo created\n');
    await expect(columnA.getByTestId('live-state')).toHaveText('Live');
    await expect(columnB.getByTestId('live-state')).toHaveText('Live');
    await page.screenshot({ path: test.info().outputPath('side-by-side-1440x900.png') });
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: test.info().outputPath('side-by-side-1280x720.png') });
  });
});

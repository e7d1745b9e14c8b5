// The page attached to `npm run apiserver`: the test starts the server (its own free port, fast-forward,
// the built dist/), opens the one URL it prints, and runs the real kubectl from a terminal (a child
// process). Following the head, the page draws every request kubectl sends as it happens (a hop shorter
// than a frame resting at its arrival). Paused, it shows kubectl's request, etcd's Txn with its compare and
// the watch events in order, the Pod reaching Running on the graph; pausing holds the view while kubectl is served; step back
// shows the earlier state. A server started with --token refuses a wrong token with a clear message. A
// server on a real etcd (Debian's, started by the test) fills the keyspace and etcd's box from that etcd
// and says what cannot be known from outside, in English and 中文; paused and stepped back, etcd's box
// shows what was read of etcd by the step shown. Skipped, with a message, without kubectl
// on PATH (and the real-etcd test without etcd).

import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { existsSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { findEtcd, RealEtcd } from '../test/etcd/real-etcd.ts';

const kubectl = (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'kubectl')).find((path) => existsSync(path)) ?? null;
if (!kubectl) console.warn('e2e/live: kubectl is not on PATH; SKIPPED');

interface Started {
  readonly process: ChildProcess;
  /** The URL the server printed for the page. */
  readonly url: string;
  readonly kubeconfig: string;
}

/** Starts `npm run apiserver` (as its script runs it, with `flags` after the port, node count and kubeconfig) and waits for the one URL it prints. */
async function startServer(dir: string, flags: readonly string[]): Promise<Started> {
  const kubeconfig = join(dir, `kubeconfig-${flags.length}`);
  // Its own process group: npx, tsx and the server's node stop together (stopServer).
  const child = spawn('npx', ['tsx', 'src/server/main.ts', '--port', '0', '--nodes', '2', '--kubeconfig', kubeconfig, ...flags], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += String(chunk);
      const match = /watch it live at (\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      output += String(chunk);
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before printing its URL:\n${output}`)));
  });
  return { process: child, url, kubeconfig };
}

/** Stops the server and the processes npx started for it. */
function stopServer(started: Started | undefined): void {
  if (started?.process.pid !== undefined) process.kill(-started.process.pid, 'SIGTERM');
}

function run(args: readonly string[], kubeconfig: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(kubectl!, ['--kubeconfig', kubeconfig, ...args], (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)));
  });
}

const podYaml = `apiVersion: v1
kind: Pod
metadata:
  name: web
  labels:
    app: web
spec:
  containers:
  - name: nginx
    image: nginx:1.25
    ports:
    - containerPort: 80
`;

/** The delivered token of `kind` still drawn (an earlier request's token that is gone may linger in the window). */
function token(page: Page, kind: string, from: string, to: string) {
  return page.getByTestId('token').and(page.locator(`[data-kind="${kind}"][data-from="${from}"][data-to="${to}"][data-delivered="true"]:not([data-phase="gone"])`));
}

test.describe('the page attached to npm run apiserver', () => {
  test.skip(!kubectl, 'kubectl is not on PATH');
  test.use({ ignoreHTTPSErrors: true, viewport: { width: 1440, height: 900 } });
  let dir: string;
  let server: Started;

  test.beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'podflow-live-e2e-'));
    server = await startServer(dir, ['--fast-forward']);
  });
  test.afterAll(() => {
    stopServer(server);
    rmSync(dir, { recursive: true, force: true });
  });

  test('real kubectl create: the request, the Txn with its compare, the watch events in order; the Pod Running; step back', async ({ page }) => {
    await page.addInitScript(() => {
      if (localStorage.getItem('podflow.prefs') === null) {
        localStorage.setItem('podflow.prefs', JSON.stringify({ state: { language: 'en', theme: 'light', level: 'milestone' }, version: 1 }));
      }
    });
    await page.goto(server.url);
    const state = page.getByTestId('live-state');
    await expect(state).toHaveText('Live');
    await expect(page.getByTestId('live-badge')).toContainText(`Attached to ${new URL(server.url).host}`);
    // What would rebuild the server's cluster is not offered.
    await expect(page.getByRole('button', { name: 'Reset', exact: true })).toHaveCount(0);
    await page.getByRole('tab', { name: 'Scenarios' }).click();
    await expect(page.getByTestId('scenarios-off')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('attached-1440x900.png') });

    await test.step('following the head: each request kubectl sends is drawn as it happens', async () => {
      // The user requests' tokens the page received, and those drawn (in flight, or resting at their
      // arrival; at 1× a hop lasts less than a frame, so a token may be drawn for a moment only).
      await page.evaluate(() => {
        const seen = { received: new Set<string>(), drawn: new Set<string>() };
        (globalThis as unknown as { requests: typeof seen }).requests = seen;
        new MutationObserver(() => {
          for (const token of document.querySelectorAll<SVGGElement>('[data-testid="token"][data-kind="http.request"][data-from="user"][data-to="kube-apiserver"]')) {
            const id = token.dataset.messageId!;
            seen.received.add(id);
            if ((token.dataset.phase === 'in-flight' || token.dataset.phase === 'arrived') && token.style.visibility === 'visible') seen.drawn.add(id);
          }
        }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-phase', 'style'] });
      });
      expect(await run(['create', 'configmap', 'followed', '--from-literal=seen=live'], server.kubeconfig)).toBe('configmap/followed created\n');
      const requests = () => page.evaluate(() => {
        const { received, drawn } = (globalThis as unknown as { requests: { received: Set<string>; drawn: Set<string> } }).requests;
        return { received: received.size, undrawn: [...received].filter((id) => !drawn.has(id)) };
      });
      // kubectl's requests (discovery, then the POST) all reached the page, and every one of them was drawn.
      await expect.poll(async () => {
        const { received, undrawn } = await requests();
        return received > 0 ? undrawn : 'no request received yet';
      }).toEqual([]);
    });

    /** The steps of the request, its Txn and the scheduler's watch event. */
    const steps: number[] = [];
    await test.step('pause: the view holds while the server serves kubectl', async () => {
      await page.getByTestId('play-button').click();
      await expect(state).toHaveText('Paused');
      const held = await page.getByTestId('step-counter').textContent();
      writeFileSync(join(dir, 'web.yaml'), podYaml);
      expect(await run(['create', '-f', join(dir, 'web.yaml')], server.kubeconfig)).toBe('pod/web created\n');
      await expect.poll(async () => (await run(['get', 'pod', 'web', '-o', 'jsonpath={.status.phase}'], server.kubeconfig))).toBe('Running');
      await expect(page.getByTestId('step-counter')).toHaveText(held!);
      await expect(page.getByTestId('pod-chip').and(page.locator('[data-pod="web"]'))).toHaveCount(0);
    });

    await test.step('next milestone, one by one: the request reaches kube-apiserver, the Txn creates the Pod, a watch event tells the scheduler', async () => {
      const next = page.getByTestId('next-milestone-button');
      const caption = page.getByTestId('step-caption');
      await next.click();
      await expect(caption).toContainText('POST /api/v1/namespaces/default/pods');
      await expect(token(page, 'http.request', 'user', 'kube-apiserver')).toBeVisible();
      steps.push(Number(await page.getByTestId('step-counter').textContent()));

      await next.click();
      await expect(caption).toContainText('/registry/pods/default/web');
      const write = page.getByTestId('etcd-write').and(page.locator('[data-key="/registry/pods/default/web"]'));
      await expect(write).toContainText('mod_revision == 0');
      await expect(token(page, 'etcd.Txn', 'kube-apiserver', 'etcd')).toBeVisible();
      steps.push(Number(await page.getByTestId('step-counter').textContent()));

      await next.click();
      await expect(caption).toContainText('kube-scheduler');
      await expect(token(page, 'http.watchEvent', 'kube-apiserver', 'kube-scheduler')).toBeVisible();
      steps.push(Number(await page.getByTestId('step-counter').textContent()));
      expect(steps).toEqual([...steps].sort((a, b) => a - b));
      expect(new Set(steps).size).toBe(3);
    });

    await test.step('play: live again, the Pod is Running on node\'s kubelet; step back shows the earlier state', async () => {
      await page.getByTestId('play-button').click();
      await expect(state).toHaveText('Live');
      const chip = page.getByTestId('pod-chip').and(page.locator('[data-pod="web"]'));
      await expect(chip).toHaveAttribute('data-status', 'Running');
      await page.screenshot({ path: test.info().outputPath('running-1440x900.png') });
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.screenshot({ path: test.info().outputPath('running-1280x720.png') });
      // Back to the Txn that created the Pod (through the page's scripting handle), then one step back:
      // the step before it, when etcd did not hold the Pod yet.
      await page.getByTestId('play-button').click();
      await expect(state).toHaveText('Paused');
      await page.evaluate((step) => (globalThis as unknown as { podflow: { actions: { seek(step: number): void } } }).podflow.actions.seek(step), steps[1]!);
      await expect(page.getByTestId('step-counter')).toHaveText(String(steps[1]));
      await expect(chip).toHaveAttribute('data-status', 'Pending');
      await page.getByTestId('level-switch').getByRole('button', { name: 'All' }).click();
      await page.getByTestId('step-back-button').click();
      await expect(page.getByTestId('step-counter')).toHaveText(String(steps[1]! - 1));
      await expect(chip).toHaveCount(0);
    });
  });
});

test.describe('a server started with --token', () => {
  test.skip(!kubectl, 'kubectl is not on PATH');
  test.use({ ignoreHTTPSErrors: true });
  let dir: string;
  let server: Started;

  test.beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'podflow-live-e2e-'));
    server = await startServer(dir, ['--fast-forward', '--token', 'open-sesame']);
  });
  test.afterAll(() => {
    stopServer(server);
    rmSync(dir, { recursive: true, force: true });
  });

  test('a wrong token is refused with a clear message; the right one attaches', async ({ page }) => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/podflow\/#token=open-sesame$/);
    await page.goto(server.url.replace('open-sesame', 'wrong'));
    await expect(page.getByTestId('live-state')).toHaveText('Refused');
    await expect(page.getByTestId('live-refusal')).toHaveText('The server refused the token: it is not the one the server was started with.');
    await page.getByTestId('refused-token').fill('open-sesame');
    await page.getByTestId('refused-form').getByRole('button', { name: 'Attach' }).click();
    await expect(page.getByTestId('live-state')).toHaveText('Live');
  });
});

const etcdBinary = findEtcd();
if (!etcdBinary) console.warn('e2e/live: etcd is not on PATH; the real-etcd test is SKIPPED');

test.describe('a server on a real etcd (--etcd-servers)', () => {
  test.skip(!kubectl || !etcdBinary, 'kubectl or etcd is not on PATH');
  test.use({ viewport: { width: 1440, height: 900 } });
  let dir: string;
  let etcd: RealEtcd;
  let server: Started;

  test.beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'podflow-live-e2e-'));
    etcd = await RealEtcd.start(etcdBinary!);
    server = await startServer(dir, ['--etcd-servers', etcd.url]);
  });
  test.afterAll(() => {
    stopServer(server);
    etcd?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the keyspace and etcd\'s box come from the real etcd; the panel says what cannot be known from outside', async ({ page }) => {
    // The server boots against etcd in real time (no fast-forward): slower than the model's runs.
    test.setTimeout(240_000);
    await page.addInitScript(() => {
      if (localStorage.getItem('podflow.prefs') === null) {
        localStorage.setItem('podflow.prefs', JSON.stringify({ state: { language: 'en', theme: 'light', level: 'milestone' }, version: 1 }));
      }
    });
    await page.goto(server.url);
    await expect(page.getByTestId('live-state')).toHaveText('Live');
    await expect.poll(async () => (await run(['get', 'namespace', 'default', '-o', 'name'], server.kubeconfig).catch(() => ''))).toBe('namespace/default\n');
    writeFileSync(join(dir, 'web.yaml'), podYaml);
    expect(await run(['create', '-f', join(dir, 'web.yaml')], server.kubeconfig)).toBe('pod/web created\n');
    const stored = JSON.parse(await run(['get', 'pod', 'web', '-o', 'json'], server.kubeconfig)) as { metadata: { resourceVersion: string } };

    await page.getByRole('tab', { name: 'etcd keyspace' }).click();
    // Its chunk loads on first use; on this shared machine that can take a while.
    await expect(page.getByTestId('keyspace')).toBeVisible({ timeout: 60_000 });
    await page.getByRole('searchbox', { name: 'Filter keys' }).fill('pods/default/web');
    const row = page.getByTestId('key-row').and(page.locator('[data-key="/registry/pods/default/web"]'));
    await expect(row).toBeVisible();
    // The key's create_revision is etcd's: the Pod's first resourceVersion (it may have been updated since).
    expect(Number(await row.getByTestId('key-create-revision').textContent())).toBeLessThanOrEqual(Number(stored.metadata.resourceVersion));
    const real = page.getByTestId('real-etcd');
    await expect(real).toContainText('Real etcd 3.4.23 at 127.0.0.1:');
    await expect(real.getByTestId('real-etcd-raft')).toContainText('raft term ');
    await expect(page.getByTestId('real-etcd-unknown')).toContainText('MVCC tree index');
    await expect.poll(async () => Number(await page.getByTestId('etcd-revision').getAttribute('data-value'))).toBeGreaterThanOrEqual(Number(stored.metadata.resourceVersion));
    await page.screenshot({ path: test.info().outputPath('real-etcd-1440x900.png') });
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: test.info().outputPath('real-etcd-1280x720.png') });

    await page.getByRole('button', { name: '中文' }).click();
    await expect(real).toContainText('真实 etcd 3.4.23');
    await expect(page.getByTestId('real-etcd-unknown')).toContainText('MVCC 树索引');
    await page.screenshot({ path: test.info().outputPath('real-etcd-zh-1280x720.png') });
  });

  test('paused after a create and stepped back, etcd\'s box shows the step\'s revision, as last read from etcd', async ({ page }) => {
    // The server boots against etcd in real time, and the attached page follows it: generous waits on this shared machine.
    test.setTimeout(300_000);
    await page.addInitScript(() => {
      if (localStorage.getItem('podflow.prefs') === null) {
        localStorage.setItem('podflow.prefs', JSON.stringify({ state: { language: 'en', theme: 'light', level: 'milestone' }, version: 1 }));
      }
    });
    await page.goto(server.url);
    await expect(page.getByTestId('live-state')).toHaveText('Live');
    await expect.poll(async () => (await run(['get', 'namespace', 'default', '-o', 'name'], server.kubeconfig).catch(() => ''))).toBe('namespace/default\n');
    expect(await run(['create', 'configmap', 'held', '--from-literal=at=create'], server.kubeconfig)).toBe('configmap/held created\n');
    const created = Number(await run(['get', 'configmap', 'held', '-o', 'jsonpath={.metadata.resourceVersion}'], server.kubeconfig));
    const revision = page.getByTestId('etcd-revision');
    const shown = async () => Number(await revision.getAttribute('data-value'));
    await expect.poll(shown, { timeout: 60_000 }).toBeGreaterThanOrEqual(created);

    await page.getByRole('tab', { name: 'etcd keyspace' }).click();
    await expect(page.getByTestId('keyspace')).toBeVisible({ timeout: 60_000 });
    await page.getByRole('searchbox', { name: 'Filter keys' }).fill('configmaps/default/held');
    const row = page.getByTestId('key-row').and(page.locator('[data-key="/registry/configmaps/default/held"]'));
    await expect(row).toBeVisible({ timeout: 60_000 });

    // Paused, then back to the step at which this server saw etcd reach the create's revision (the cluster
    // delivers many messages a second, so that step is behind the one paused at).
    await page.getByTestId('play-button').click();
    await expect(page.getByTestId('live-state')).toHaveText('Paused');
    const counter = page.getByTestId('step-counter');
    const paused = await counter.textContent();
    await page.evaluate((r) => (globalThis as unknown as { podflow: { actions: { seekRevision(revision: number): void } } }).podflow.actions.seekRevision(r), created);
    await expect(counter).not.toHaveText(paused!, { timeout: 60_000 });
    await expect(row).toBeVisible({ timeout: 60_000 });
    await expect.poll(shown, { timeout: 60_000 }).toBeGreaterThanOrEqual(created);
    const atCreate = Number(await counter.textContent());
    const boxAtCreate = await shown();
    const readAt = page.getByTestId('real-etcd-read-at');
    await expect(readAt).toHaveText(/^as last read from etcd at \d\d:\d\d:\d\d$/);
    expect(Number(await readAt.getAttribute('data-read-at'))).toBeLessThanOrEqual(Date.now());

    // One step back: the keyspace before the create; etcd's box is still there, as read by that step.
    await page.getByTestId('level-switch').getByRole('button', { name: 'All' }).click();
    await page.getByTestId('step-back-button').click();
    await expect(counter).toHaveText(String(atCreate - 1), { timeout: 60_000 });
    await expect(row).toHaveCount(0);
    await expect(revision).toBeVisible();
    const before = await shown();
    expect(before).toBeGreaterThan(1);
    expect(before).toBeLessThanOrEqual(boxAtCreate);
    await expect(readAt).toHaveText(/^as last read from etcd at /);
    await page.screenshot({ path: test.info().outputPath('real-etcd-stepped-back-1440x900.png') });
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: test.info().outputPath('real-etcd-stepped-back-1280x720.png') });
  });
});

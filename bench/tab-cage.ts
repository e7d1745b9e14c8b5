/// <reference lib="dom" />
// How much JavaScript heap a worker gets in one Chromium tab, and whether the page's own heap takes from it
// (issue 20's "150,000 Pods in one tab": the simulation worker died at ~1.95 GB live beside a ~0.7 GB page).
// A worker fills its heap with small objects, 2.5 MB a unit, until it stops answering (out of memory) while
// the page holds `pageUnits` units of its own, for three hosts of the worker:
//   - dedicated: `new Worker` from the page (as src/ui/sim-worker.ts starts the simulation);
//   - sandboxed: a worker started from a blob by an `<iframe sandbox="allow-scripts">` of the same server
//     (an opaque origin, which Chromium runs in a renderer process of its own);
//   - cross-site: a worker of an iframe served from another site (127.0.0.1 under a localhost page).
// Not a benchmark: a tool for docs/performance.md. `npx tsx bench/tab-cage.ts [pageUnits=400]` (0: the worker
// alone). A unit's size is measured on the page's own units (CDP heap usage after a full GC).

import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from '@playwright/test';

const pageUnits = Number(process.argv[2] ?? 400);
const systemChromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

/** One unit: an array of 131,072 small objects (~2.5 MB with pointer compression). */
const unit = 'const a = new Array(131072); for (let j = 0; j < a.length; j++) a[j] = { j }; hold.push(a);';
const workerCode = `const hold = []; onmessage = () => { let units = 0; const step = () => { for (let k = 0; k < 25; k++) { ${unit} units++; } postMessage(units); setTimeout(step, 0); }; step(); };`;

/** The page: holds `growPage(n)` units itself, and hears the worker's count (directly or from its iframe). */
const pageHtml = (host: string) => `<!doctype html><body><script>
window.progress = { page: 0, worker: 0 };
const hold = [];
window.growPage = (n) => { for (let i = 0; i < n; i++) { ${unit} window.progress.page++; } };
window.addEventListener('message', (e) => { window.progress.worker = e.data; });
${host}
</script></body>`;

const hosts: Record<string, (crossSite: string) => string> = {
  dedicated: () => `const w = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(workerCode)}])));
    w.onmessage = (e) => { window.progress.worker = e.data; };
    window.start = () => w.postMessage('go');`,
  sandboxed: () => `const f = document.createElement('iframe'); f.setAttribute('sandbox', 'allow-scripts'); f.src = '/inner'; document.body.append(f);
    window.start = () => f.contentWindow.postMessage('go', '*');`,
  'cross-site': (crossSite) => `const f = document.createElement('iframe'); f.src = '${crossSite}/inner'; document.body.append(f);
    window.start = () => f.contentWindow.postMessage('go', '*');`,
};

const innerHtml = `<!doctype html><body><script>
const w = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(workerCode)}])));
w.onmessage = (e) => parent.postMessage(e.data, '*');
addEventListener('message', () => w.postMessage('go'));
</script></body>`;

const server = createServer((req, res) => {
  res.setHeader('content-type', 'text/html');
  const host = /^\/page\/(.+)$/.exec(req.url ?? '')?.[1];
  if (req.url === '/inner') res.end(innerHtml);
  else if (host && hosts[host]) res.end(pageHtml(hosts[host](`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
  else res.writeHead(404).end();
}).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const port = (server.address() as AddressInfo).port;

const browser = await chromium.launch({ headless: true, ...(systemChromium ? { executablePath: systemChromium } : {}) });
/** A unit's size, measured on the page's own units (2.5 MB until then). */
let unitBytes = 2.5 * 2 ** 20;
const gib = (units: number) => (units * unitBytes / 2 ** 30).toFixed(2);
for (const host of Object.keys(hosts)) {
  const page = await browser.newPage();
  let crashed = false;
  page.on('crash', () => { crashed = true; });
  await page.goto(`http://localhost:${port}/page/${host}`);
  const cdp = await page.context().newCDPSession(page);
  const heap = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    return ((await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }).usedSize;
  };
  const before = await heap();
  await page.evaluate((n) => (globalThis as unknown as { growPage(n: number): void }).growPage(n), pageUnits);
  if (pageUnits > 0) unitBytes = ((await heap()) - before) / pageUnits;
  await page.waitForTimeout(1000);
  await page.evaluate(() => (globalThis as unknown as { start(): void }).start());
  // Done when the count has not moved for 15 s (the worker is out of memory, or its process is gone).
  let last = -1;
  let still = 0;
  let progress = { page: 0, worker: 0 };
  while (still < 15 && !crashed) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    try {
      progress = await page.evaluate(() => (globalThis as unknown as { progress: { page: number; worker: number } }).progress);
    } catch {
      break; // The page's process is gone with the worker's.
    }
    still = progress.worker === last ? still + 1 : 0;
    last = progress.worker;
  }
  console.log(`${host}: the page held ${progress.page} units (${gib(progress.page)} GiB); the worker reached ${progress.worker} (${gib(progress.worker)} GiB) before it stopped`);
  await page.close().catch(() => undefined);
}
await browser.close();
server.close();

/// <reference lib="dom" />
// The page attached to the server (`npm run apiserver`, src/server/live.ts), in headless Chromium: the
// latency from a kubectl-like request reaching the server (an HTTP POST from this process, over loopback)
// to the page drawing its token (the `http.request` from the user component to kube-apiserver drawn in the
// token layer: in flight, or resting at its arrival), p50 and p99 over sequential creates. Both ends read the same wall clock
// (performance.timeOrigin + performance.now()). The server paces in real time (speed 1); the page gets
// the host's reports every `livePulseMs`. Builds `dist/` first when it is missing. Figures depend on the
// machine's load; the note says it.

import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { build } from 'vite';
import { livePulseMs } from '../src/server/cluster-host.ts';
import { defaultServerOptions, startPodflowServer } from '../src/server/server.ts';
import { httpKinds, type HttpRequest } from '../src/sim/wire/http.ts';
import type { Benchmark } from './harness.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const systemChromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const requests = 40;

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const wallNow = (): number => performance.timeOrigin + performance.now();

async function requestToToken(): Promise<number[]> {
  if (!existsSync(join(dist, 'index.html'))) await build({ root, logLevel: 'warn' });
  const server = await startPodflowServer({ ...defaultServerOptions, port: 0, nodes: 1, live: true, distDir: dist });
  // The ids of the POSTs of configmaps, in the order they entered the simulation.
  const ids: number[] = [];
  server.host.onDelivery((message) => {
    const request = message.payload as Partial<HttpRequest> | null;
    if (message.kind === httpKinds.request && message.from === 'user' && request?.method === 'POST' && request.path?.endsWith('/configmaps')) ids.push(message.id);
  });
  const browser = await chromium.launch({ ...(systemChromium ? { executablePath: systemChromium } : {}), args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(server.pageUrl!);
    await page.getByTestId('live-state').filter({ hasText: 'Live' }).waitFor();
    // The wall-clock instant each request token was first drawn (in flight, or resting at its arrival), by
    // message id (a script as text: tsx's helpers do not exist in the page).
    await page.evaluate(`(() => {
      const seen = {};
      globalThis.tokenSeen = seen;
      new MutationObserver(() => {
        for (const token of document.querySelectorAll('[data-testid="token"][data-kind="http.request"][data-from="user"]:is([data-phase="in-flight"], [data-phase="arrived"])')) {
          seen[token.getAttribute('data-message-id')] ??= performance.timeOrigin + performance.now();
        }
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-message-id', 'data-phase'] });
    })()`);
    const latencies: number[] = [];
    for (let i = 0; i < requests; i++) {
      const sent = wallNow();
      const response = await fetch(`${server.url}/api/v1/namespaces/default/configmaps`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `bench-${i}` }, data: { i: String(i) } }),
      });
      if (response.status !== 201) throw new Error(`create bench-${i}: ${response.status} ${await response.text()}`);
      const id = ids[i];
      if (id === undefined) throw new Error(`create bench-${i} was not seen entering the simulation`);
      const handle = await page.waitForFunction((wanted) => (globalThis as unknown as { tokenSeen: Record<string, number> }).tokenSeen[String(wanted)] ?? 0, id, { timeout: 30_000 });
      latencies.push((await handle.jsonValue()) - sent);
    }
    return latencies;
  } finally {
    await browser.close();
    await server.close();
  }
}

export const benchmarks: Benchmark[] = [
  {
    group: 'live',
    name: 'request reaching the server → the attached page drawing its token',
    async run() {
      const latencies = await requestToToken();
      const note = `${requests} sequential POSTs over loopback, real-time pacing, reports every ${livePulseMs} ms; load ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`;
      return [
        { name: 'request → token drawn, p50', value: percentile(latencies, 50), unit: 'ms', note },
        { name: 'request → token drawn, p99', value: percentile(latencies, 99), unit: 'ms', note },
      ];
    },
  },
];

// Load on the HTTP front of `npm run apiserver`: 50 clients watch ConfigMaps in `default` while 200
// ConfigMaps are created over HTTP, 20 requests in flight at a time. Measures creates per second, the
// latency of each create as the client sees it (p50, p99), and whether every watcher received every
// ADDED event in resourceVersion order (events lost or out of order, summed over the watchers).
// The server runs in fast-forward in this process, as in the kubectl tests, after 20 warm-up creates.

import { Agent } from 'node:http';
import { defaultServerOptions, startPodflowServer, type PodflowServer } from '../src/server/server.ts';
import type { Benchmark, BenchFigure } from './harness.ts';
import { call, percentile, watchLines } from './http-client.ts';

const watchers = 50;
const creates = 200;
const inFlight = 20;

interface Watcher {
  readonly names: string[];
  readonly versions: number[];
  close(): void;
}

async function watch(server: PodflowServer, agent: Agent, resourceVersion: string): Promise<Watcher> {
  const names: string[] = [];
  const versions: number[] = [];
  const stream = await watchLines(server, agent, `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${resourceVersion}`, (event) => {
    if (event.type !== 'ADDED') return;
    names.push(event.object.metadata.name);
    versions.push(Number(event.object.metadata.resourceVersion));
  });
  return { names, versions, close: stream.close };
}

async function run(): Promise<BenchFigure[]> {
  const server = await startPodflowServer({ ...defaultServerOptions, seed: 'bench-server', fastForward: true, port: 0 });
  const agent = new Agent({ keepAlive: true, maxSockets: watchers + inFlight + 5 });
  try {
    // Warm-up (JIT, sockets): creates in another namespace, not counted and not watched.
    for (let i = 0; i < 20; i++) await call(server, agent, 'POST', '/api/v1/namespaces/kube-public/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `warm-${i}` } });
    const list = JSON.parse((await call(server, agent, 'GET', '/api/v1/namespaces/default/configmaps')).body) as { metadata: { resourceVersion: string } };
    const open = await Promise.all(Array.from({ length: watchers }, () => watch(server, agent, list.metadata.resourceVersion)));
    const latencies: number[] = [];
    let next = 0;
    let failed = 0;
    const start = performance.now();
    await Promise.all(Array.from({ length: inFlight }, async () => {
      while (next < creates) {
        const i = next++;
        const t0 = performance.now();
        const reply = await call(server, agent, 'POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `load-${String(i).padStart(3, '0')}` }, data: { i: String(i) } });
        latencies.push(performance.now() - t0);
        if (reply.status !== 201) failed++;
      }
    }));
    const createMs = performance.now() - start;
    const deadline = performance.now() + 30_000;
    while (open.some((w) => w.names.length < creates) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    const allDeliveredMs = performance.now() - start;
    for (const w of open) w.close();
    let lost = 0;
    let outOfOrder = 0;
    for (const w of open) {
      lost += creates - new Set(w.names).size;
      for (let i = 1; i < w.versions.length; i++) if (w.versions[i]! <= w.versions[i - 1]!) outOfOrder++;
    }
    latencies.sort((a, b) => a - b);
    const note = `${watchers} watchers, ${creates} ConfigMap creates, ${inFlight} in flight, fast-forward; ${failed} creates failed`;
    return [
      { name: 'HTTP creates/s with 50 watchers open', value: creates / (createMs / 1000), unit: 'req/s', note },
      { name: 'create latency p50', value: percentile(latencies, 50), unit: 'ms', note },
      { name: 'create latency p99', value: percentile(latencies, 99), unit: 'ms', note },
      { name: 'watch events delivered/s (all watchers)', value: (watchers * creates) / (allDeliveredMs / 1000), unit: 'events/s', note: `until every watcher had all ${creates} events` },
      { name: 'watch events lost or out of order', value: lost + outOfOrder, unit: 'events', goal: { value: 0, better: 'lower' }, note: `${lost} lost, ${outOfOrder} out of order over ${watchers * creates}` },
    ];
  } finally {
    agent.destroy();
    await server.close();
  }
}

export const benchmarks: Benchmark[] = [{ group: 'server', name: 'HTTP load: 50 watchers, 200 creates', run }];

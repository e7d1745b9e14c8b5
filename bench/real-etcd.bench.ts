// Creates per second through `npm run apiserver`'s HTTP front with the model's etcd and with a real etcd
// 3.4 under the same server (`--etcd-servers`): 200 ConfigMap creates, 20 in flight, after 20 warm-up
// creates. Both servers are paced by the wall clock (the real-etcd mode has no fast-forward), in this
// process. The real etcd is Debian's, started on loopback with its own data dir (fsync on this disk);
// without an etcd binary only the model's figure is measured.

import { Agent, request } from 'node:http';
import { defaultServerOptions, startPodflowServer, type PodflowServer, type ServerOptions } from '../src/server/server.ts';
import { findEtcd, RealEtcd } from '../test/etcd/real-etcd.ts';
import type { Benchmark, BenchFigure } from './harness.ts';

const creates = 200;
const inFlight = 20;

function post(server: PodflowServer, agent: Agent, path: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method: 'POST', agent, headers: { accept: 'application/json', 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function measure(options: Partial<ServerOptions>): Promise<{ perSecond: number; p50: number; failed: number }> {
  const server = await startPodflowServer({ ...defaultServerOptions, seed: 'bench-real-etcd', fastForward: false, port: 0, ...options });
  const agent = new Agent({ keepAlive: true, maxSockets: inFlight + 2 });
  try {
    for (let i = 0; i < 20; i++) await post(server, agent, '/api/v1/namespaces/kube-public/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `warm-${i}` } });
    const latencies: number[] = [];
    let next = 0;
    let failed = 0;
    const start = performance.now();
    await Promise.all(Array.from({ length: inFlight }, async () => {
      while (next < creates) {
        const i = next++;
        const t0 = performance.now();
        const status = await post(server, agent, '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `load-${i}` }, data: { i: String(i) } });
        latencies.push(performance.now() - t0);
        if (status !== 201) failed++;
      }
    }));
    const elapsed = performance.now() - start;
    latencies.sort((a, b) => a - b);
    return { perSecond: creates / (elapsed / 1000), p50: percentile(latencies, 50), failed };
  } finally {
    agent.destroy();
    await server.close();
  }
}

async function run(): Promise<BenchFigure[]> {
  const note = `${creates} ConfigMap creates over HTTP, ${inFlight} in flight, paced by the wall clock`;
  const model = await measure({});
  const figures: BenchFigure[] = [
    { name: 'creates/s, model etcd', value: model.perSecond, unit: 'req/s', note: `${note}; ${model.failed} failed` },
    { name: 'create latency p50, model etcd', value: model.p50, unit: 'ms', note },
  ];
  const binary = findEtcd();
  if (binary === null) return [...figures.map((f) => ({ ...f, note: `${f.note ?? ''}; no etcd binary: real etcd not measured` }))];
  const etcd = await RealEtcd.start(binary);
  try {
    const real = await measure({ etcdServers: [etcd.url] });
    figures.push(
      { name: 'creates/s, real etcd 3.4', value: real.perSecond, unit: 'req/s', note: `${note}; ${real.failed} failed` },
      { name: 'create latency p50, real etcd 3.4', value: real.p50, unit: 'ms', note },
    );
  } finally {
    etcd.stop();
  }
  return figures;
}

export const benchmarks: Benchmark[] = [{ group: 'real-etcd', name: 'creates/s: model etcd vs real etcd behind the same server', run }];

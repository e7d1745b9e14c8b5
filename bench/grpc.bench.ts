// The model's etcd over gRPC (`--etcd-listen`) beside a real etcd 3.4.23 on the same machine: Put/s and
// Range/s through each endpoint with the same client (the `etcd3` npm package, one connection, `concurrency`
// calls in flight). Each server is its own process: `npm run apiserver -- --fast-forward --etcd-listen`, so
// modelled link latencies and etcd's modelled apply time do not pace the calls and the figure is the cost of
// the endpoint, the host and the simulation.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { findEtcd, RealEtcd } from '../test/etcd/real-etcd.ts';
import type { Benchmark, BenchFigure } from './harness.ts';

const calls = Number(process.env.PODFLOW_BENCH_GRPC_CALLS ?? 2_000);
const concurrency = 16;

async function rates(endpoint: string): Promise<{ put: number; range: number }> {
  const client = new Etcd3({ hosts: `http://${endpoint}` });
  try {
    await client.put('bench/warm').value('x').exec();
    const timed = async (call: (i: number) => Promise<unknown>): Promise<number> => {
      let next = 0;
      const start = performance.now();
      await Promise.all(Array.from({ length: concurrency }, async () => {
        while (next < calls) await call(next++);
      }));
      return calls / ((performance.now() - start) / 1000);
    };
    const value = 'v'.repeat(256);
    const put = await timed((i) => client.put(`bench/key-${i % 500}`).value(value).exec());
    const range = await timed((i) => client.get(`bench/key-${i % 500}`).exec());
    return { put, range };
  } finally {
    client.close();
  }
}

/** `npm run apiserver` in a child process; resolves with its etcd address and a stop function. */
async function podflowServer(): Promise<{ address: string; stop: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'podflow-bench-grpc-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts', '--port', '0', '--nodes', '1', '--fast-forward',
    '--etcd-listen', '127.0.0.1:0', '--kubeconfig', join(dir, 'kubeconfig')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const stop = (): void => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  let out = '';
  const address = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const found = /Podflow etcd at (\S+)/.exec(out);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`npm run apiserver exited with ${code}: ${out}`)));
  });
  return { address, stop };
}

export const benchmarks: Benchmark[] = [
  {
    group: 'grpc',
    name: `Put/s and Range/s through the model's gRPC endpoint and a real etcd (${calls} calls each, ${concurrency} in flight)`,
    async run() {
      const figures: BenchFigure[] = [];
      const server = await podflowServer();
      try {
        const model = await rates(server.address);
        figures.push({ name: 'model etcd over gRPC: Put/s', value: model.put, unit: 'calls/s' });
        figures.push({ name: 'model etcd over gRPC: Range/s', value: model.range, unit: 'calls/s' });
      } finally {
        server.stop();
      }
      const binary = findEtcd();
      if (binary === null) return [...figures, { name: 'real etcd', value: 0, unit: 'calls/s', note: 'skipped: etcd absent' }];
      const real = await RealEtcd.start(binary);
      try {
        const r = await rates(`127.0.0.1:${real.port}`);
        figures.push({ name: 'real etcd 3.4.23: Put/s', value: r.put, unit: 'calls/s' });
        figures.push({ name: 'real etcd 3.4.23: Range/s', value: r.range, unit: 'calls/s' });
      } finally {
        real.stop();
      }
      return figures;
    },
  },
];

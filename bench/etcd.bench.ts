// etcd store throughput: the simulated store in-process beside a real etcd 3.4 over its JSON gateway,
// in the same run. Txn create-if-absent (compare MOD == 0, then put a 1 KB value) and Range over a
// 10k-key prefix. The real etcd runs with default flags (fsync on), 16 concurrent clients over a
// node:http keep-alive agent, like the figures in etcd-real.md §5. Without an etcd binary the
// simulated figures are printed and the comparison is reported as skipped.

import { randomBytes } from 'node:crypto';
import { request, type Agent } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { Component, Engine, type Message } from '../src/sim/engine/index.ts';
import { base64Encode, prefixEnd } from '../src/sim/etcd/bytes.ts';
import { KVServer } from '../src/sim/etcd/kv-server.ts';
import type { RangeRequest, TxnRequest } from '../src/sim/etcd/rpc.ts';
import { EtcdServer } from '../src/sim/etcd/server.ts';
import { WatchableStore } from '../src/sim/etcd/watchable-store.ts';
import { findEtcd, RealEtcd } from '../test/etcd/real-etcd.ts';
import type { BenchFigure, Benchmark } from './harness.ts';

const valueSize = 1024;
const simValues = Array.from({ length: 64 }, (_, i) => randomBytes(valueSize / 2).toString('hex').slice(0, valueSize - 1) + String(i % 10));

function createIfAbsent(key: string, value: string): TxnRequest {
  return { compare: [{ key, target: 'MOD', result: 'EQUAL', modRevision: 0 }], success: [{ requestPut: { key, value } }] };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

/**
 * Simulated Txn/s: best of `runs` runs of `n` create-if-absent txns on a fresh store, by wall clock and
 * by this process's CPU time (which other processes on a shared machine do not inflate).
 */
function simTxnRate(n: number, runs: number): { wall: number; cpu: number } {
  let wall = 0;
  let cpu = 0;
  for (let run = 0; run < runs; run++) {
    const kv = new KVServer(new WatchableStore());
    const reqs = Array.from({ length: n }, (_, i) => createIfAbsent(`/registry/pods/bench/pod-${String(i).padStart(6, '0')}`, simValues[i % 64]!));
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    for (let i = 0; i < n; i++) {
      if (!kv.txn(reqs[i]!).response.succeeded) throw new Error('create-if-absent failed');
    }
    const used = process.cpuUsage(cpuStart);
    wall = Math.max(wall, n / ((performance.now() - start) / 1000));
    cpu = Math.max(cpu, n / ((used.user + used.system) / 1e6));
  }
  return { wall, cpu };
}

class Client extends Component {
  replies = 0;
  receive(_m: Message): void {
    this.replies++;
  }
}

/** Txn/s through the EtcdServer component: one engine message per request and per reply. */
function simServerTxnRate(n: number): number {
  const engine = new Engine({ seed: 'bench', traceLimit: 1000 });
  engine.add(new EtcdServer('etcd'));
  const client = engine.add(new Client('client'));
  engine.link('etcd', 'client', { latency: 1 });
  for (let i = 0; i < n; i++) engine.send('client', 'etcd', 'etcd.Txn', createIfAbsent(`/registry/pods/bench/pod-${i}`, simValues[i % 64]!));
  const start = performance.now();
  engine.runUntilIdle();
  const rate = n / ((performance.now() - start) / 1000);
  if (client.replies !== n) throw new Error(`expected ${n} replies, got ${client.replies}`);
  return rate;
}

/** Median ms per range variant over a 10k-key prefix in a store that also holds 20k other keys. */
function simRanges(iterations: number): Record<string, number> {
  const kv = new KVServer(new WatchableStore());
  for (let i = 0; i < 10_000; i++) kv.put({ key: `/bench/range/${String(i).padStart(6, '0')}`, value: simValues[i % 64]! });
  for (let i = 0; i < 20_000; i++) kv.put({ key: `/other/${i}`, value: simValues[i % 64]! });
  const out: Record<string, number> = {};
  for (const [name, req] of rangeVariants('/bench/range/')) {
    const times: number[] = [];
    for (let i = 0; i < iterations; i++) {
      const start = performance.now();
      const resp = kv.range(req);
      times.push(performance.now() - start);
      if (resp.count !== 10_000) throw new Error(`range ${name}: count ${resp.count}`);
    }
    out[name] = median(times);
  }
  return out;
}

function rangeVariants(prefix: string): Array<[string, RangeRequest]> {
  const base = { key: prefix, rangeEnd: prefixEnd(prefix) };
  return [
    ['full', base],
    ['keys_only', { ...base, keysOnly: true }],
    ['count_only', { ...base, countOnly: true }],
    ['limit 100', { ...base, limit: 100 }],
  ];
}

// The real etcd, over its gateway.

function post(agent: Agent, url: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function concurrently(clients: number, n: number, op: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(Array.from({ length: clients }, async () => {
    for (let i = next++; i < n; i = next++) await op(i);
  }));
  return n / ((performance.now() - start) / 1000);
}

async function realTxnRate(etcd: RealEtcd, run: number, n: number): Promise<number> {
  const value = () => randomBytes(valueSize).toString('base64');
  const bodies = Array.from({ length: n }, (_, i) => {
    const key = Buffer.from(`bench/txn/r${run}/${String(i).padStart(6, '0')}`).toString('base64');
    return JSON.stringify({ compare: [{ key, target: 'MOD', result: 'EQUAL', mod_revision: '0' }], success: [{ request_put: { key, value: value() } }] });
  });
  return concurrently(16, n, async (i) => {
    const r = await post(etcd.agent, `${etcd.url}/v3/kv/txn`, bodies[i]!);
    if (r.status !== 200 || !r.text.includes('"succeeded":true')) throw new Error(`real txn failed: ${r.status} ${r.text.slice(0, 200)}`);
  });
}

async function realRanges(etcd: RealEtcd, iterations: number): Promise<Record<string, number>> {
  const prefix = '/bench/range/';
  await concurrently(64, 10_000, async (i) => {
    const body = JSON.stringify({ key: base64Encode(`${prefix}${String(i).padStart(6, '0')}`), value: randomBytes(valueSize).toString('base64') });
    const r = await post(etcd.agent, `${etcd.url}/v3/kv/put`, body);
    if (r.status !== 200) throw new Error(`real put failed: ${r.text}`);
  });
  const out: Record<string, number> = {};
  for (const [name, req] of rangeVariants(prefix)) {
    const body = JSON.stringify({
      key: base64Encode(req.key), range_end: base64Encode(req.rangeEnd!),
      ...(req.keysOnly ? { keys_only: true } : {}), ...(req.countOnly ? { count_only: true } : {}), ...(req.limit ? { limit: req.limit } : {}),
    });
    const times: number[] = [];
    for (let i = 0; i < iterations; i++) {
      const start = performance.now();
      const r = await post(etcd.agent, `${etcd.url}/v3/kv/range`, body);
      times.push(performance.now() - start);
      if (!r.text.includes('"count":"10000"')) throw new Error(`real range ${name}: ${r.text.slice(0, 200)}`);
    }
    out[name] = median(times);
  }
  return out;
}

/** A fresh real etcd for one benchmark (stopped by the caller), or null without a binary. */
function realEtcd(): Promise<RealEtcd | null> {
  const binary = findEtcd();
  return binary === null ? Promise.resolve(null) : RealEtcd.start(binary);
}

export const benchmarks: Benchmark[] = [
  {
    group: 'etcd',
    name: 'txn create-if-absent',
    async run(): Promise<BenchFigure[]> {
      const load = loadavg()[0]!.toFixed(1);
      const sim = simTxnRate(100_000, 7);
      const simRate = sim.wall;
      const serverRate = simServerTxnRate(20_000);
      const figures: BenchFigure[] = [
        { name: 'sim Txn/s (create-if-absent, 1 KB values, in-process store)', value: simRate, unit: 'txn/s', goal: { value: 300_000, better: 'higher' }, note: `100k txns on a fresh store, best of 7, wall clock; load average ${load} on ${cpus().length} CPUs` },
        { name: 'sim Txn/s by process CPU time (same runs)', value: sim.cpu, unit: 'txn/s', note: 'not inflated by other processes sharing the machine' },
        { name: 'sim Txn/s through EtcdServer (engine messages, request stats, write record)', value: serverRate, unit: 'txn/s', note: '20k txns queued at once' },
      ];
      const etcd = await realEtcd();
      if (etcd === null) {
        console.warn('etcd bench: no etcd binary, comparison with the real etcd SKIPPED');
        return [...figures, { name: 'real etcd Txn/s', value: Number.NaN, unit: 'txn/s', note: 'SKIPPED: no etcd binary' }];
      }
      const rates: number[] = [];
      try {
        for (let run = 0; run < 3; run++) rates.push(await realTxnRate(etcd, run, 10_000));
      } finally {
        etcd.stop();
      }
      const realRate = median(rates);
      return [
        ...figures,
        { name: 'real etcd 3.4 Txn/s (gateway, 16 clients, keep-alive)', value: realRate, unit: 'txn/s', note: `10k txns × 3 runs: ${rates.map((r) => Math.round(r)).join(', ')}` },
        { name: 'sim / real Txn throughput', value: simRate / realRate, unit: '×', goal: { value: 100, better: 'higher' } },
      ];
    },
  },
  {
    group: 'etcd',
    name: 'range over a 10k-key prefix',
    async run(): Promise<BenchFigure[]> {
      const sim = simRanges(15);
      const figures: BenchFigure[] = Object.entries(sim).map(([name, ms]) => ({
        name: `sim Range ${name} (10k keys, 1 KB values)`, value: ms, unit: 'ms', note: 'median of 15, in-process',
      }));
      const etcd = await realEtcd();
      if (etcd === null) {
        console.warn('etcd bench: no etcd binary, comparison with the real etcd SKIPPED');
        return figures;
      }
      let realMs: Record<string, number>;
      try {
        realMs = await realRanges(etcd, 15);
      } finally {
        etcd.stop();
      }
      for (const [name, ms] of Object.entries(realMs)) {
        figures.push({ name: `real etcd Range ${name} (gateway JSON)`, value: ms, unit: 'ms', note: `median of 15; sim is ${(ms / sim[name]!).toFixed(0)}× faster` });
      }
      return figures;
    },
  },
];

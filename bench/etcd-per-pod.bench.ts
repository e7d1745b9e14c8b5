// What a real etcd 3.4 spends per Pod under the model's control plane (issue 20's anchor for "Pods per
// CPU second"): `npm run apiserver`'s server in this process, on a real etcd (`--etcd-servers`: Debian's
// etcd on loopback, its data dir on this disk, fsync on), with `PODFLOW_BENCH_NODES` nodes (default 50).
// After the nodes are Ready, the etcd process's CPU time (user and system, from /proc/<pid>/stat) is read
// over an idle stretch (leases and heartbeats only), then over a Deployment of `PODFLOW_BENCH_REPLICAS`
// replicas (default 1,000) from its POST to all Available; the idle rate is taken off the rollout's. The
// Txn and Range counts are etcd's own (grpc_server_handled_total). What it measures is etcd's work alone:
// the Txns, Ranges and watch events kube-apiserver sends and receives for those Pods, through gRPC, the
// WAL and bbolt, as a real cluster's etcd would do them. The server is paced by the wall clock (no
// fast-forward on a real etcd). Linux only (/proc); without an etcd binary nothing is measured.

import { readFileSync } from 'node:fs';
import { get as httpGet, request, Agent } from 'node:http';
import { defaultServerOptions, startPodflowServer, type PodflowServer } from '../src/server/server.ts';
import { findEtcd, RealEtcd } from '../test/etcd/real-etcd.ts';
import type { Benchmark, BenchFigure } from './harness.ts';

const replicas = Number(process.env.PODFLOW_BENCH_REPLICAS ?? 1000);
const nodes = Number(process.env.PODFLOW_BENCH_NODES ?? 50);
const idleMs = 10_000;
/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100;

interface CpuTime {
  readonly user: number;
  readonly system: number;
}

/** A process's CPU seconds so far (fields 14 and 15 of /proc/<pid>/stat, after the command's parenthesis). */
function cpuOf(pid: number): CpuTime {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is the state (field 3): utime is field 14, stime field 15.
  return { user: Number(fields[11]) / ticksPerSecond, system: Number(fields[12]) / ticksPerSecond };
}

function json(server: PodflowServer, agent: Agent, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method, agent, headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${server.token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) as unknown }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** etcd's grpc_server_handled_total summed by method, from its /metrics. */
function grpcHandled(etcd: RealEtcd): Promise<Map<string, number>> {
  return new Promise((resolve, reject) => {
    httpGet(`${etcd.url}/metrics`, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        const byMethod = new Map<string, number>();
        for (const line of text.split('\n')) {
          if (!line.startsWith('grpc_server_handled_total{')) continue;
          const method = /grpc_method="([^"]+)"/.exec(line)?.[1] ?? '';
          byMethod.set(method, (byMethod.get(method) ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1)));
        }
        resolve(byMethod);
      });
      res.on('error', reject);
    }).on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, deadlineMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + deadlineMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`${what}: not within ${deadlineMs / 1000} s`);
    await sleep(250);
  }
}

interface NodeList {
  readonly items: readonly { readonly status?: { readonly conditions?: readonly { readonly type: string; readonly status: string }[] } }[];
}

async function run(): Promise<BenchFigure[]> {
  const binary = findEtcd();
  if (binary === null) return [];
  const etcd = await RealEtcd.start(binary);
  const pid = etcd.pid;
  if (pid === undefined) throw new Error('etcd has no pid');
  const server = await startPodflowServer({ ...defaultServerOptions, seed: 'bench-etcd-per-pod', nodes, port: 0, etcdServers: [etcd.url] });
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  try {
    await until(`${nodes} nodes Ready`, 120_000, async () => {
      const list = (await json(server, agent, 'GET', '/api/v1/nodes')).body as NodeList;
      return list.items.length === nodes && list.items.every((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
    });
    const idle0 = cpuOf(pid);
    await sleep(idleMs);
    const idle1 = cpuOf(pid);
    const idlePerSecond = (idle1.user + idle1.system - idle0.user - idle0.system) / (idleMs / 1000);

    const calls0 = await grpcHandled(etcd);
    const cpu0 = cpuOf(pid);
    const start = performance.now();
    const name = 'web';
    const created = await json(server, agent, 'POST', '/apis/apps/v1/namespaces/default/deployments', {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
      spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image: 'nginx:1.14.2' }] } } },
    });
    if (created.status !== 201) throw new Error(`POST Deployment: ${created.status} ${JSON.stringify(created.body)}`);
    await until(`${replicas} replicas Available`, 30 * 60_000, async () => {
      const d = (await json(server, agent, 'GET', `/apis/apps/v1/namespaces/default/deployments/${name}`)).body as { status?: { availableReplicas?: number } };
      return d.status?.availableReplicas === replicas;
    });
    const wallS = (performance.now() - start) / 1000;
    const cpu1 = cpuOf(pid);
    const calls1 = await grpcHandled(etcd);
    const user = cpu1.user - cpu0.user;
    const system = cpu1.system - cpu0.system;
    const idleShare = idlePerSecond * wallS;
    const perPodMs = ((user + system - idleShare) / replicas) * 1000;
    const delta = (method: string) => ((calls1.get(method) ?? 0) - (calls0.get(method) ?? 0)) / replicas;
    const size = `${replicas} replicas on ${nodes} nodes, real etcd 3.4 under the model's kube-apiserver and controllers (--etcd-servers)`;
    return [
      { name: 'real etcd CPU per Pod', value: perPodMs, unit: 'ms', note: `${size}; user ${user.toFixed(2)} s + system ${system.toFixed(2)} s over ${wallS.toFixed(1)} s wall, less ${idleShare.toFixed(2)} s at the idle rate (${idlePerSecond.toFixed(3)} CPU s/s)` },
      { name: 'real etcd Pods per CPU second', value: 1000 / perPodMs, unit: 'Pods/s', note: `${size}: etcd's CPU alone` },
      { name: 'etcd Txns per Pod', value: delta('Txn'), unit: 'Txn', note: size },
      { name: 'etcd Ranges per Pod', value: delta('Range'), unit: 'Range', note: size },
    ];
  } finally {
    agent.destroy();
    await server.close();
    etcd.stop();
  }
}

export const benchmarks: Benchmark[] = [{ group: 'etcd-per-pod', name: 'real etcd 3.4 CPU per Pod under the model', run }];

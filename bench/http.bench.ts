// `npm run bench -- HTTP`: load on the hardened HTTP front. 100 clients watch ConfigMaps (then Pods) in
// `default` while 20 writers create them over HTTP; every watcher must see every created object's ADDED
// exactly once and every event in resourceVersion order. Reports creates/s and the create latency (p50,
// p99) as the writers see it, for ConfigMaps and for Pods, and the server process's heap after each of
// three repeated rounds (each round creates and then deletes everything it made, so a flat heap means
// nothing is kept per request beyond the trace's bounded record). The server runs in fast-forward in this
// process, as in the kubectl tests.

import { Agent } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { defaultServerOptions, startPodflowServer, type PodflowServer } from '../src/server/server.ts';
import type { Benchmark, BenchFigure } from './harness.ts';
import { call, percentile, watchLines } from './http-client.ts';

const writers = 20;
const watchers = 100;
const configMaps = 400;
const pods = 100;
const rounds = 3;
// The server's default; PODFLOW_BENCH_TRACE_LIMIT=10000 shows the heap without the trace's share.
const traceLimit = Number(process.env.PODFLOW_BENCH_TRACE_LIMIT ?? 200_000);

interface Watcher {
  /** ADDED events per name. */
  readonly added: Map<string, number>;
  /** Events whose resourceVersion was not above the previous one. */
  outOfOrder: number;
  events: number;
  close(): void;
}

async function watch(server: PodflowServer, agent: Agent, resource: string, resourceVersion: string, prefix: string): Promise<Watcher> {
  let last = 0;
  const w: Watcher = { added: new Map(), outOfOrder: 0, events: 0, close: () => undefined };
  const stream = await watchLines(server, agent, `/api/v1/namespaces/default/${resource}?watch=true&resourceVersion=${resourceVersion}`, (event) => {
    if (!event.object.metadata.name.startsWith(prefix)) return;
    w.events++;
    const rv = Number(event.object.metadata.resourceVersion);
    if (rv <= last) w.outOfOrder++;
    last = rv;
    if (event.type === 'ADDED') w.added.set(event.object.metadata.name, (w.added.get(event.object.metadata.name) ?? 0) + 1);
  });
  w.close = stream.close;
  return w;
}

const configMap = (name: string, i: number) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { i: String(i) } });
const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'bench' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } });

interface Phase {
  readonly createsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly failed: number;
  readonly lost: number;
  readonly duplicated: number;
  readonly outOfOrder: number;
  readonly events: number;
}

/** One resource under load: open the watchers, create `count` objects with 20 writers, wait for delivery. */
async function phase(server: PodflowServer, agent: Agent, resource: 'configmaps' | 'pods', prefix: string, count: number): Promise<Phase> {
  const list = JSON.parse((await call(server, agent, 'GET', `/api/v1/namespaces/default/${resource}`)).body) as { metadata: { resourceVersion: string } };
  const open = await Promise.all(Array.from({ length: watchers }, () => watch(server, agent, resource, list.metadata.resourceVersion, prefix)));
  const names = Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`);
  const latencies: number[] = [];
  let next = 0;
  let failed = 0;
  const start = performance.now();
  await Promise.all(Array.from({ length: writers }, async () => {
    while (next < count) {
      const i = next++;
      const t0 = performance.now();
      const reply = await call(server, agent, 'POST', `/api/v1/namespaces/default/${resource}`, resource === 'pods' ? pod(names[i]!) : configMap(names[i]!, i));
      latencies.push(performance.now() - t0);
      if (reply.status !== 201) failed++;
    }
  }));
  const elapsed = performance.now() - start;
  const deadline = performance.now() + 60_000;
  while (open.some((w) => w.added.size < count) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  for (const w of open) w.close();
  let lost = 0;
  let duplicated = 0;
  let outOfOrder = 0;
  let events = 0;
  for (const w of open) {
    for (const name of names) {
      const n = w.added.get(name) ?? 0;
      if (n === 0) lost++;
      if (n > 1) duplicated += n - 1;
    }
    outOfOrder += w.outOfOrder;
    events += w.events;
  }
  latencies.sort((a, b) => a - b);
  return { createsPerSecond: count / (elapsed / 1000), p50: percentile(latencies, 50), p99: percentile(latencies, 99), failed, lost, duplicated, outOfOrder, events };
}

async function deleteAll(server: PodflowServer, agent: Agent, resource: string, prefix: string, count: number): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: writers }, async () => {
    while (next < count) {
      const i = next++;
      await call(server, agent, 'DELETE', `/api/v1/namespaces/default/${resource}/${prefix}${String(i).padStart(4, '0')}${resource === 'pods' ? '?gracePeriodSeconds=0' : ''}`);
    }
  }));
  // Until the objects are gone from the server.
  for (let i = 0; i < 2_000; i++) {
    const list = JSON.parse((await call(server, agent, 'GET', `/api/v1/namespaces/default/${resource}`)).body) as { items: Array<{ metadata: { name: string } }> };
    if (!list.items.some((o) => o.metadata.name.startsWith(prefix))) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

function heapAfterGc(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

async function run(): Promise<BenchFigure[]> {
  const server = await startPodflowServer({ ...defaultServerOptions, seed: 'bench-http', fastForward: true, port: 0, log: () => undefined, traceLimit });
  const agent = new Agent({ keepAlive: true, maxSockets: watchers + writers + 5 });
  const figures: BenchFigure[] = [];
  const heaps: number[] = [];
  const traced: number[] = [];
  const buffered: number[] = [];
  try {
    // Warm-up (JIT, sockets): not counted and not watched.
    for (let i = 0; i < 20; i++) await call(server, agent, 'POST', '/api/v1/namespaces/kube-public/configmaps', configMap(`warm-${i}`, i));
    for (let round = 1; round <= rounds; round++) {
      const cm = await phase(server, agent, 'configmaps', `cm-${round}-`, configMaps);
      const po = await phase(server, agent, 'pods', `pod-${round}-`, pods);
      await deleteAll(server, agent, 'configmaps', `cm-${round}-`, configMaps);
      await deleteAll(server, agent, 'pods', `pod-${round}-`, pods);
      // What kube-apiserver's compactor does every 5 minutes: etcd drops the history of deleted objects.
      server.host.cluster.faults.compactNow();
      await call(server, agent, 'GET', '/version');
      heaps.push(heapAfterGc());
      const engine = server.host.cluster.engine;
      traced.push(engine.step - engine.trace.firstStep + 1);
      buffered.push(server.host.cluster.apiserver.watchCacheWindows().reduce((n, w) => n + w.bufferedEvents, 0));
      if (round !== 1) continue;
      for (const [what, p, n] of [['ConfigMaps', cm, configMaps], ['Pods', po, pods]] as const) {
        const note = `${watchers} watchers, ${writers} writers, ${n} creates, fast-forward; ${p.failed} failed`;
        figures.push(
          { name: `${what}: creates/s`, value: p.createsPerSecond, unit: 'req/s', note },
          { name: `${what}: create latency p50`, value: p.p50, unit: 'ms', note },
          { name: `${what}: create latency p99`, value: p.p99, unit: 'ms', note },
          { name: `${what}: events lost, duplicated or out of order`, value: p.lost + p.duplicated + p.outOfOrder, unit: 'events', goal: { value: 0, better: 'lower' }, note: `${p.lost} lost, ${p.duplicated} duplicated, ${p.outOfOrder} out of order; ${p.events} events seen by ${watchers} watchers` },
        );
      }
    }
    const mib = (b: number) => b / (1 << 20);
    figures.push({ name: 'heap after rounds 1, 2, 3', value: mib(heaps.at(-1)!), unit: 'MiB', note: `after gc: ${heaps.map((h) => mib(h).toFixed(1)).join(' → ')} MiB (each round creates and deletes ${configMaps} ConfigMaps and ${pods} Pods, then etcd is compacted; trace records kept: ${traced.map((n) => n.toLocaleString('en-US')).join(' → ')} of at most ${traceLimit.toLocaleString("en-US")}; events buffered in the watch caches (bounded by upstream's 100 × 1,024 per resource): ${buffered.map((n) => n.toLocaleString('en-US')).join(' → ')}; growth round 2→3 ${(mib(heaps[2]! - heaps[1]!)).toFixed(1)} MiB)` });
    return figures;
  } finally {
    agent.destroy();
    await server.close();
  }
}

export const benchmarks: Benchmark[] = [{ group: 'HTTP', name: `load: ${watchers} watchers, ${writers} writers, ConfigMaps and Pods, ${rounds} rounds`, run }];

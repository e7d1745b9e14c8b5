// What the page's simulation worker keeps beyond the cluster: a SimHost (the worker's host, the product's
// bounds) runs a Deployment of N replicas on M nodes to idle, driven as the page's "Run until idle" drives
// it (chunk after chunk), and its live heap after a full GC is compared with the booted host's. The bare
// cluster's own figure is `npm run bench -- flow` (bench/flow-setup.ts keeps a smaller trace). Not a
// benchmark: a tool for issue 20's "150,000 in a tab", where the worker's heap is what runs out.
//   node --expose-gc --import tsx bench/host-heap.ts [replicas=10000] [nodes=500]
// with 3 etcd members, as the page starts a cluster; PODFLOW_BENCH_ETCD_MEMBERS=1 for one;
// PODFLOW_BENCH_BOUNDS=small for the test bounds (3,000 steps of trace, 40 aged pod versions): what the
// product's bounded holders add is the difference. PODFLOW_PROFILE_SNAPSHOT=<file> writes a heap snapshot
// at the end, for bench/flow-heap.ts to attribute.

import { writeHeapSnapshot } from 'node:v8';
import type { WorkerEvent } from '../src/protocol/index.ts';
import { SimHost, type HostClock } from '../src/worker/host.ts';
import { productBounds, smallBounds } from '../src/worker/host/bounds.ts';
import { webDeploymentYaml } from './manifests.ts';

const replicas = Number(process.argv[2] ?? 10_000);
const nodes = Number(process.argv[3] ?? 500);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const stillClock: HostClock = { now: () => 0, setTimeout: () => 0, clearTimeout: () => undefined };

let events = 0;
const members = Number(process.env.PODFLOW_BENCH_ETCD_MEMBERS ?? 3) === 1 ? {} : { etcdMembers: 3 as const };
const bounds = process.env.PODFLOW_BENCH_BOUNDS === 'small' ? smallBounds : productBounds;
const host = new SimHost({ post: (_event: WorkerEvent) => { events++; }, clock: stillClock, bounds, initial: { seed: 'bench-host', nodes, ...members } });
gc();
const booted = process.memoryUsage();
const cpu = process.cpuUsage();
host.handle({ type: 'applyManifest', yaml: webDeploymentYaml(replicas) });
// A paused host runs one chunk per runUntilIdle and would schedule the next on its clock: drive it here.
while (!host.engine.idle) host.handle({ type: 'runUntilIdle' });
const used = process.cpuUsage(cpu);
gc();
const done = process.memoryUsage();
const grown = done.heapUsed - booted.heapUsed;
console.log(JSON.stringify({
  replicas, nodes, bounds: bounds === smallBounds ? 'small' : 'product', steps: host.timeline.head, events,
  cpuS: Number(((used.user + used.system) / 1e6).toFixed(1)),
  bootedHeapMiB: Number(mib(booted.heapUsed)), heapGrowthMiB: Number(mib(grown)), kibPerPod: Number((grown / 1024 / replicas).toFixed(1)),
  arrayBuffersMiB: Number(mib(done.arrayBuffers)),
}));
const snapshot = process.env.PODFLOW_PROFILE_SNAPSHOT;
if (snapshot) writeHeapSnapshot(snapshot);


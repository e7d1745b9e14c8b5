// The cost of sampling the components' insides (src/worker/insides.ts): the same Deployment rollout is
// fast-forwarded twice on the same seed, without and with an InsidesRecorder attached, and the difference
// in this process's CPU time is divided by the deliveries. Also the entries kept, and the cost of looking
// up a past step's insides (what a seek or step back costs the worker). `PODFLOW_BENCH_REPLICAS` and
// `PODFLOW_BENCH_NODES` pick the size (default 1,000 replicas on 50 nodes, as the flow bench).

import { builtinTokens } from '../src/sim/wire/credentials.ts';
import { httpKinds } from '../src/sim/wire/http.ts';
import { createCluster } from '../src/sim/cluster.ts';
import { InsidesRecorder } from '../src/worker/insides.ts';
import type { Benchmark } from './harness.ts';

const replicas = Number(process.env.PODFLOW_BENCH_REPLICAS ?? 1000);
const nodes = Number(process.env.PODFLOW_BENCH_NODES ?? 50);

function rollout(withRecorder: boolean): { cpuMs: number; samplingMs: number; steps: number; recorder: InsidesRecorder | null; head: number } {
  const cluster = createCluster({ seed: 'bench-insides', nodes, traceLimit: 100_000, schedulerAttemptLimit: 1_000 });
  const recorder = withRecorder ? new InsidesRecorder() : null;
  // The recorder's own time: listeners run in the order they were added, so these two bracket it.
  let started = 0;
  let samplingMs = 0;
  if (recorder) cluster.engine.onDelivery(() => { started = performance.now(); });
  recorder?.begin(cluster);
  if (recorder) cluster.engine.onDelivery(() => { samplingMs += performance.now() - started; });
  cluster.boot();
  cluster.user.request('kube-apiserver', httpKinds.request, {
    method: 'POST', path: '/apis/apps/v1/namespaces/default/deployments', query: '',
    headers: { authorization: `Bearer ${builtinTokens.admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
      spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.14.2' }] } } },
    }),
  });
  const before = cluster.engine.step;
  const cpu = process.cpuUsage();
  cluster.engine.runUntilIdle();
  const used = process.cpuUsage(cpu);
  return { cpuMs: (used.user + used.system) / 1000, samplingMs, steps: cluster.engine.step - before, recorder, head: cluster.engine.step };
}

export const benchmarks: Benchmark[] = [
  {
    group: 'insides',
    name: `sampling insides during a deployment of ${replicas} replicas on ${nodes} nodes`,
    run() {
      // Warm up the JIT on a first pair, then measure a second one.
      rollout(false);
      rollout(true);
      const without = rollout(false);
      const withRecorder = rollout(true);
      const recorder = withRecorder.recorder!;
      const perStepUs = ((withRecorder.cpuMs - without.cpuMs) / withRecorder.steps) * 1000;
      const lookups = 10_000;
      const start = performance.now();
      for (let i = 0; i < lookups; i++) recorder.eventIfChanged(Math.floor(((i * 7919) % lookups) / lookups * withRecorder.head));
      const lookupUs = ((performance.now() - start) / lookups) * 1000;
      return [
        { name: 'rollout CPU time without sampling', value: without.cpuMs, unit: 'ms', note: `${without.steps.toLocaleString('en-US')} deliveries` },
        { name: 'rollout CPU time with sampling', value: withRecorder.cpuMs, unit: 'ms', note: `${withRecorder.steps.toLocaleString('en-US')} deliveries` },
        { name: 'sampling cost per delivery (CPU time difference)', value: perStepUs, unit: 'µs', note: `${((withRecorder.cpuMs / without.cpuMs - 1) * 100).toFixed(1)} % of the rollout's CPU time` },
        { name: 'sampling wall time per delivery (timed in the listener)', value: (withRecorder.samplingMs / withRecorder.steps) * 1000, unit: 'µs', note: 'wall clock: an upper bound on a shared machine, where it includes time descheduled' },
        { name: 'insides event for a past step (lookup + build)', value: lookupUs, unit: 'µs', note: `retained from step ${recorder.retainedFrom} of ${withRecorder.head}` },
      ];
    },
  },
];

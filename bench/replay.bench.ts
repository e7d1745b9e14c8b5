// Determinism at size: the flow bench's Deployment (`PODFLOW_BENCH_REPLICAS` on `PODFLOW_BENCH_NODES`,
// default 1,000 on 50) run live as the page runs it, then replayed from its command log as a reload does
// (src/worker/replay-proof.ts); the figure is 1 when both runs' trace, etcd and scheduler hashes are equal.
// `PODFLOW_BENCH_MAX_SECONDS` caps the live run's wall time (the replay then goes to the step it reached).

import { benchNodes as nodes, benchReplicas as replicas } from './flow-setup.ts';
import { liveRun, replayedRun } from '../src/worker/replay-proof.ts';
import type { Benchmark, BenchFigure } from './harness.ts';

const maxSeconds = Number(process.env.PODFLOW_BENCH_MAX_SECONDS ?? 600);
const progress = process.env.PODFLOW_BENCH_PROGRESS === '1';

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
}

function run(): BenchFigure[] {
  const size = { nodes, pods: replicas };
  const wallStart = performance.now();
  const liveCpu = process.cpuUsage();
  let overTime = false;
  const live = liveRun(size, {
    afterChunk: (available, step) => {
      if (progress) process.stderr.write(`live ${((performance.now() - wallStart) / 1000).toFixed(0)} s: ${available} available, step ${step}\n`);
      overTime = performance.now() - wallStart > maxSeconds * 1000;
    },
    stop: () => overTime,
  });
  const liveSeconds = cpuSeconds(liveCpu);
  const replayCpu = process.cpuUsage();
  const replayed = replayedRun(size, live.log, live.digest.step);
  const replaySeconds = cpuSeconds(replayCpu);
  const equal = JSON.stringify(replayed) === JSON.stringify(live.digest);
  const label = `${replicas} replicas, ${nodes} nodes`;
  return [{
    name: `replay after reload equals the live run (${label})`, value: equal ? 1 : 0, unit: 'equal', goal: { value: 1, better: 'higher' },
    note: `${live.digest.available} available${live.converged ? '' : ` (stopped after ${maxSeconds} s)`}, ${live.digest.step.toLocaleString('en-US')} steps, ${live.log.length} commands; `
      + `live ${liveSeconds.toFixed(1)} s CPU, replay ${replaySeconds.toFixed(1)} s CPU; trace ${live.digest.trace}${equal ? '' : ` ≠ ${replayed.trace}`}, etcd ${live.digest.etcd}${equal ? '' : ` ≠ ${replayed.etcd}`}`,
  }];
}

export const benchmarks: Benchmark[] = [{ group: 'replay', name: `replay of a ${replicas}-replica Deployment on ${nodes} nodes after reload`, run }];

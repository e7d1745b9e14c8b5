// Which message kinds a rollout's steps are: runs the flow bench's Deployment (PODFLOW_BENCH_REPLICAS on
// PODFLOW_BENCH_NODES) to idle and prints the delivered kinds by count, per Pod. Not a benchmark: a tool
// for issue 20's steps per Pod.   npx tsx bench/flow-kinds.ts
import { benchReplicas, createBenchCluster, postDeployment } from './flow-setup.ts';

const cluster = createBenchCluster();
cluster.boot();
const counts = new Map<string, number>();
cluster.engine.onDelivery((m) => {
  const key = `${m.kind} ${m.from}→${m.to.replace(/node-\d+/, 'node-N').replace(/kubelet-\d+/, 'kubelet-N')}`.replace(/node-\d+/, 'node-N');
  counts.set(key, (counts.get(key) ?? 0) + 1);
});
const before = cluster.engine.step;
postDeployment(cluster);
cluster.engine.runUntilIdle();
const steps = cluster.engine.step - before;
console.log(`${steps} steps, ${(steps / benchReplicas).toFixed(1)} per Pod`);
for (const [k, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log(`${(n / benchReplicas).toFixed(2).padStart(7)}  ${k}`);

// What an inspector loses past the trace's whole payloads (issue 20): runs the flow bench's rollout
// (bench/flow-setup.ts: `PODFLOW_BENCH_REPLICAS` on `PODFLOW_BENCH_NODES`, the newest
// `PODFLOW_BENCH_TRACE_PAYLOADS` steps whole) twice with the same seed, once keeping every payload, and
// compares each summarized step of the light run with the whole run's: given back (rebuilt from etcd's
// history or kept whole, byte for byte), a summary equal to the payload, or a summary that drops JSON.
// A step's dropped JSON is its payload's length minus its summary's. Not a benchmark: a tool for
// docs/performance.md. Run with `npx tsx bench/trace-dropped.ts`.

import { createBenchCluster, postDeployment, availableReplicas, benchNodes, benchReplicas } from './flow-setup.ts';
import { slimPayload } from '../src/sim/engine/trace-summary.ts';
import type { Cluster } from '../src/sim/cluster.ts';

function rollout(tracePayloads?: number): Cluster {
  const cluster = createBenchCluster(tracePayloads);
  cluster.boot();
  postDeployment(cluster);
  while (availableReplicas(cluster) < benchReplicas) cluster.engine.runFor(1000, 200_000);
  return cluster;
}

const whole = rollout(100_000);
const light = rollout();
const { trace } = light.engine;
if (whole.engine.step !== light.engine.step || whole.engine.trace.firstStep !== 1) throw new Error('the two runs differ, or the whole run dropped records');
const counts = { rebuilt: 0, whole: 0, equal: 0, dropping: 0 };
let droppedAll = 0;
let givenBack = 0;
/** What the summaries left still drop, by kind (and by sender for requests). */
const left = new Map<string, { records: number; chars: number }>();
for (let step = trace.firstStep; step < trace.payloadsFrom; step++) {
  const expected = whole.engine.trace.at(step)!;
  const json = JSON.stringify(expected.payload);
  const dropped = json.length - JSON.stringify(slimPayload(expected.payload)).length;
  droppedAll += dropped;
  const got = trace.payloadAt(step)!;
  if (got.kept !== 'summary') {
    if (JSON.stringify(got.payload) !== json) throw new Error(`step ${step} (${expected.kind}) is not given back byte for byte`);
    counts[got.kept]++;
    givenBack += dropped;
  } else if (dropped === 0) {
    counts.equal++;
  } else {
    counts.dropping++;
    const kind = expected.kind === 'http.request' ? `http.request from ${expected.from.replace(/node-\d+$/, 'node-N')}` : expected.kind;
    const entry = left.get(kind) ?? { records: 0, chars: 0 };
    entry.records++;
    entry.chars += dropped;
    left.set(kind, entry);
  }
}
const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(2)} MiB`;
console.log(`${benchReplicas} replicas on ${benchNodes} nodes: ${light.engine.step} steps, ${trace.payloadsFrom - trace.firstStep} summarized`);
console.log(`given back: ${counts.rebuilt} rebuilt, ${counts.whole} kept whole; summaries: ${counts.equal} equal to the payload, ${counts.dropping} dropping JSON`);
console.log(`JSON the summaries drop: ${mib(droppedAll)}, given back ${mib(givenBack)} (${((100 * givenBack) / droppedAll).toFixed(1)} %)`);
for (const [kind, e] of [...left].sort((a, b) => b[1].chars - a[1].chars).slice(0, 12)) {
  console.log(`  still dropped: ${kind.padEnd(40)} ${String(e.records).padStart(6)} records  ${mib(e.chars)} (${((100 * e.chars) / (droppedAll - givenBack)).toFixed(1)} %)`);
}

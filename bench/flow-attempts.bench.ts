// The memory of kube-scheduler's attempt records as the flow bench keeps them (1,000), at 50 and 500
// nodes: the compact records (src/sim/scheduler/attempt-record.ts) against the plain per-node records
// they replace (same JSON, checked), each measured as heap plus array buffers after a full GC. Every node
// passes the 6 default Filter plugins and gets the 5 default Score plugins' scores.

import { AttemptLog, AttemptRecord, filterDecision, scoredDecision } from '../src/sim/scheduler/attempt-record.ts';
import { forcedGc } from './flow-setup.ts';
import type { Benchmark, BenchFigure } from './harness.ts';

const filters = Object.freeze(['NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeAffinity', 'NodePorts', 'NodeResourcesFit']);
const scorePlugins = ['TaintToleration', 'NodeAffinity', 'NodeResourcesFit', 'NodeResourcesBalancedAllocation', 'ImageLocality'];
const attempts = 1000;

function scores(nodes: number, a: number) {
  return scorePlugins.map((name, k) => ({
    plugin: { name }, weight: k + 1,
    raw: Array.from({ length: nodes }, (_, i) => (i * 7 + a) % 100),
    normalized: Array.from({ length: nodes }, (_, i) => (i * 13 + a) % 101),
  }));
}

/** The record as it was kept before: every node's filter and score records as objects. */
function plainRecord(names: readonly string[], a: number): unknown {
  const s = scores(names.length, a);
  const passed = Object.freeze(filters.map((plugin) => Object.freeze({ plugin, pass: true, reasons: Object.freeze([]) })));
  const nodes = names.map((node, i) => {
    let finalScore = 0;
    const nodeScores = s.map((x) => {
      finalScore = finalScore + x.normalized[i]! * x.weight;
      return { plugin: x.plugin.name, weight: x.weight, raw: x.raw[i]!, normalized: x.normalized[i]! };
    });
    return { node, filters: passed, feasible: true, scores: nodeScores, finalScore };
  });
  return { pod: `default/p${a}`, uid: `u${a}`, attempt: 1, time: a, nodes, selected: names[0]!, message: '', bound: true };
}

function compactRecord(log: AttemptLog, names: readonly string[], a: number): AttemptRecord {
  const filtered = filterDecision(log.sharedNodes([...names]), filters, new Int16Array(names.length).fill(-1), []);
  return new AttemptRecord(`default/p${a}`, `u${a}`, 1, a, scoredDecision(filtered, scores(names.length, a), names.length), names[0]!, '', true);
}

function measure<T>(build: () => T[]): { records: T[]; bytes: number } {
  const gc = forcedGc();
  const used = (): number => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  gc();
  const start = used();
  const records = build();
  gc();
  return { records, bytes: used() - start };
}

function recordsAt(nodes: number): () => BenchFigure[] {
  return () => {
    const names = Array.from({ length: nodes }, (_, i) => `node-${i + 1}`);
    const plain = measure(() => Array.from({ length: attempts }, (_, a) => plainRecord(names, a)));
    const log = new AttemptLog(attempts);
    const compact = measure(() => Array.from({ length: attempts }, (_, a) => compactRecord(log, names, a)));
    const same = compact.records.every((r, a) => JSON.stringify(r) === JSON.stringify(plain.records[a]));
    if (!same) throw new Error('the compact records do not serialize as the plain ones');
    return [
      { name: `kube-scheduler attempt record at ${nodes} nodes, compact`, value: compact.bytes / attempts / 1024, unit: 'KiB',
        note: `${(compact.bytes / 2 ** 20).toFixed(1)} MiB for ${attempts.toLocaleString('en-US')} attempts; same JSON as the plain records` },
      { name: `kube-scheduler attempt record at ${nodes} nodes, plain per-node records (before)`, value: plain.bytes / attempts / 1024, unit: 'KiB',
        note: `${(plain.bytes / 2 ** 20).toFixed(1)} MiB for ${attempts.toLocaleString('en-US')} attempts` },
    ];
  };
}

export const benchmarks: Benchmark[] = [50, 500].map((nodes) => ({
  group: 'flow-attempts', name: `kube-scheduler's attempt records at ${nodes} nodes`, run: recordsAt(nodes),
}));

// `npm run bench [-- filter…]`: runs every benchmark whose group or name contains one of the filters.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { meetsGoal, type BenchFigure, type Benchmark } from './harness.ts';

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2).filter((a) => !a.startsWith('-'));

const modules = readdirSync(here).filter((f) => f.endsWith('.bench.ts')).sort();
const benchmarks: Benchmark[] = [];
for (const file of modules) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { benchmarks: Benchmark[] };
  benchmarks.push(...mod.benchmarks);
}

const selected = benchmarks.filter((b) => filters.length === 0 || filters.some((f) => b.group.includes(f) || b.name.includes(f)));
const results: Array<BenchFigure & { group: string; benchmark: string; met?: boolean }> = [];
for (const benchmark of selected) {
  process.stderr.write(`running ${benchmark.group} / ${benchmark.name} …\n`);
  for (const figure of await benchmark.run()) {
    const met = meetsGoal(figure);
    results.push({ ...figure, group: benchmark.group, benchmark: benchmark.name, ...(met !== undefined ? { met } : {}) });
  }
}

const format = (n: number): string => (Math.abs(n) >= 100 ? Math.round(n).toLocaleString('en-US') : n.toPrecision(3));
const rows = results.map((r) => [
  r.group,
  r.name,
  `${format(r.value)} ${r.unit}`,
  r.goal ? `${r.goal.better === 'higher' ? '≥' : '≤'} ${format(r.goal.value)}` : '',
  r.met === undefined ? '' : r.met ? 'met' : 'MISSED',
  r.note ?? '',
]);
const header = ['group', 'figure', 'measured', 'goal', '', 'note'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const row of rows) console.log(line(row));

const out = join(here, 'results', 'latest.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ node: process.version, results }, null, 2) + '\n');
console.log(`\nwritten to ${out}`);

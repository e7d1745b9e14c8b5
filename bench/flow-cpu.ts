// Summarises a V8 CPU profile (`node --cpu-prof`, e.g. of bench/flow-profile.ts): self time per function
// and per source file, largest first. Not a benchmark: a tool for docs/performance.md.
// `npx tsx bench/flow-cpu.ts <file.cpuprofile> [rows]`.

import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const file = process.argv[2];
if (!file) throw new Error('usage: flow-cpu.ts <file.cpuprofile> [rows]');
const rows = Number(process.argv[3] ?? 30);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfTime = new Map<number, number>();
profile.samples.forEach((id, i) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...selfTime.values()].reduce((a, b) => a + b, 0);

function table(title: string, key: (n: ProfileNode) => string): void {
  const sums = new Map<string, number>();
  for (const [id, us] of selfTime) {
    const k = key(byId.get(id)!);
    sums.set(k, (sums.get(k) ?? 0) + us);
  }
  console.log(`\n${title}`);
  for (const [k, us] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    console.log(`${(100 * us / total).toFixed(1).padStart(5)} %  ${(us / 1e6).toFixed(2).padStart(7)} s  ${k}`);
  }
}

const shortUrl = (url: string): string => url.replace(/^.*\/(src|node_modules)\//, '$1/') || '(native)';
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled`);
table('self time by function', (n) => `${n.callFrame.functionName || '(anonymous)'}  ${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`);
table('self time by file', (n) => shortUrl(n.callFrame.url));

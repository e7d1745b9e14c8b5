// Summarises a sampling heap profile (bench/flow-profile.ts with PODFLOW_PROFILE_ALLOC, which counts the
// allocations collected since too): bytes allocated per allocating function (self), per source file,
// and per function with everything it calls (inclusive), largest first, as shares of all sampled bytes.
// Not a benchmark: a tool for docs/performance.md. `npx tsx bench/flow-alloc.ts <file.heapprofile> [rows]`.

import { readFileSync } from 'node:fs';

interface AllocNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly AllocNode[];
}

const file = process.argv[2];
if (!file) throw new Error('usage: flow-alloc.ts <file.heapprofile> [rows]');
const rows = Number(process.argv[3] ?? 30);
const { head } = JSON.parse(readFileSync(file, 'utf8')) as { head: AllocNode };

const short = (url: string): string => url.replace(/^.*\/(src|bench|node_modules)\//, '$1/') || '(native)';
const label = (node: AllocNode): string => `${node.callFrame.functionName || '(anonymous)'} ${short(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;

const self = new Map<string, number>();
const byFile = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;

/** Sums the subtree's bytes; a function counts once per path however often it recurses. */
function walk(node: AllocNode, onPath: Set<string>): number {
  const name = label(node);
  self.set(name, (self.get(name) ?? 0) + node.selfSize);
  const fileName = short(node.callFrame.url);
  byFile.set(fileName, (byFile.get(fileName) ?? 0) + node.selfSize);
  total += node.selfSize;
  const fresh = !onPath.has(name);
  if (fresh) onPath.add(name);
  let sum = node.selfSize;
  for (const child of node.children) sum += walk(child, onPath);
  if (fresh) {
    onPath.delete(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + sum);
  }
  return sum;
}
walk(head, new Set());

const print = (title: string, table: Map<string, number>): void => {
  console.log(`\n${title}`);
  for (const [name, bytes] of [...table].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    console.log(`${(bytes / 1024 / 1024).toFixed(1).padStart(9)} MiB ${((100 * bytes) / total).toFixed(1).padStart(5)} %  ${name}`);
  }
};
console.log(`${(total / 1024 / 1024).toFixed(0)} MiB sampled`);
print('allocated by function (self)', self);
print('allocated by file (self)', byFile);
print('allocated under function (inclusive)', inclusive);

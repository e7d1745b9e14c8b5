// Summarises a V8 CPU profile (`node --cpu-prof`, or bench/flow-profile.ts with PODFLOW_PROFILE_CPU): self time per function
// and per source file, and inclusive (total) time per function and per file, largest first. Not a
// benchmark: a tool for docs/performance.md.
// `npx tsx bench/flow-cpu.ts <file.cpuprofile | directory> [rows]`. `--cpu-prof` under `--import tsx`
// writes one profile per thread (the main thread and tsx's loader worker); given a directory, the
// profile with the most busy time is summarised. Percentages are of busy time: `(idle)` is left out.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
}
interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const IDLE = '(idle)';

/** Microseconds sampled per node id, idle samples dropped. */
function selfTimes(profile: Profile): Map<number, number> {
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === IDLE).map((n) => n.id));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    if (!idle.has(id)) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return self;
}

const busy = (self: Map<number, number>): number => [...self.values()].reduce((a, b) => a + b, 0);

function load(path: string): { file: string; profile: Profile } {
  if (!statSync(path).isDirectory()) return { file: path, profile: JSON.parse(readFileSync(path, 'utf8')) as Profile };
  const files = readdirSync(path).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(path, f));
  if (files.length === 0) throw new Error(`no .cpuprofile in ${path}`);
  const loaded = files.map((file) => ({ file, profile: JSON.parse(readFileSync(file, 'utf8')) as Profile }));
  return loaded.sort((a, b) => busy(selfTimes(b.profile)) - busy(selfTimes(a.profile)))[0]!;
}

const path = process.argv[2];
if (!path) throw new Error('usage: flow-cpu.ts <file.cpuprofile | directory> [rows]');
const rows = Number(process.argv[3] ?? 30);
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
});
const { file, profile } = load(path);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = selfTimes(profile);
const total = busy(self);

const shortUrl = (url: string): string => url.replace(/^.*\/(src|node_modules|bench)\//, '$1/') || '(native)';
const byFunction = (f: CallFrame): string => `${f.functionName || '(anonymous)'}  ${shortUrl(f.url)}`;
const byFile = (f: CallFrame): string => shortUrl(f.url);

/** Self time: each sample counts for the function on top of the stack. */
function selfSums(key: (f: CallFrame) => string): Map<string, number> {
  const sums = new Map<string, number>();
  for (const [id, us] of self) {
    const k = key(byId.get(id)!.callFrame);
    sums.set(k, (sums.get(k) ?? 0) + us);
  }
  return sums;
}

/** Inclusive time: each sample counts once for every distinct key on its stack (recursion counted once). */
function inclusiveSums(key: (f: CallFrame) => string): Map<string, number> {
  const sums = new Map<string, number>();
  for (const [id, us] of self) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) seen.add(key(byId.get(at)!.callFrame));
    for (const k of seen) sums.set(k, (sums.get(k) ?? 0) + us);
  }
  return sums;
}

function table(title: string, sums: Map<string, number>, skip: (k: string) => boolean = () => false): void {
  console.log(`\n${title}`);
  for (const [k, us] of [...sums].filter(([k]) => !skip(k)).sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    console.log(`${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1e6).toFixed(2).padStart(7)} s  ${k}`);
  }
}

// Frames every stack passes through (the root, the bench's loop, the engine's run loop) are left out of
// the inclusive tables: they say 100 % and nothing else.
const everywhere = (k: string): boolean => /^\(root\)|^\(program\)|(bench\/)|(^|\s)node:/.test(k);
console.log(`${file}: ${(total / 1e6).toFixed(1)} s busy (idle left out)`);
table('self time by function', selfSums(byFunction));
table('self time by file', selfSums(byFile));
table('inclusive time by function', inclusiveSums(byFunction), everywhere);
table('inclusive time by file', inclusiveSums(byFile), everywhere);

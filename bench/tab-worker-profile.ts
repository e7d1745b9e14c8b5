// Where a running tab's simulation spends its time: attaches over CDP to a Chromium started with
// `--remote-debugging-port` (as bench/ui-tab-scale.ts starts it), profiles the simulation worker (the page's
// worker, or a process of its own: `blob:null/…`) for a few seconds, writes the profile, and prints its
// functions by samples, each mapped through the build's source map to its source file and line. Not a
// benchmark: a tool for docs/performance.md, to be run beside a long page bench.
//   npx tsx bench/tab-worker-profile.ts <port> [seconds=20] [dist=dist] [out=/tmp/tab-worker.cpuprofile]
// Samples, not sampled time: on a busy machine a sample's time delta can span a pause of the whole thread.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SourceMapConsumer } from 'source-map-js';
import { Cdp } from './cdp.ts';

interface ProfileNode {
  readonly callFrame: { readonly functionName: string; readonly lineNumber: number; readonly columnNumber: number; readonly url: string };
  readonly hitCount: number;
}

const port = Number(process.argv[2]);
const seconds = Number(process.argv[3] ?? 20);
const dist = process.argv[4] ?? 'dist';
const out = process.argv[5] ?? '/tmp/tab-worker.cpuprofile';
if (!Number.isFinite(port)) throw new Error('usage: npx tsx bench/tab-worker-profile.ts <port> [seconds] [dist] [out]');

const cdp = await Cdp.connect(port);
const { targetInfos } = await cdp.send<{ targetInfos: { targetId: string; type: string; url: string }[] }>('Target.getTargets');
const worker = targetInfos.find((t) => t.type === 'worker' && (t.url.startsWith('blob:null/') || t.url.includes('sim.worker')));
if (!worker) throw new Error(`no simulation worker among ${targetInfos.map((t) => `${t.type} ${t.url}`).join(', ')}`);
const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId: worker.targetId, flatten: true });
await cdp.send('Profiler.enable', {}, sessionId);
await cdp.send('Profiler.start', {}, sessionId);
await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
const { profile } = await cdp.send<{ profile: { nodes: ProfileNode[] } }>('Profiler.stop', {}, sessionId);
await cdp.send('Target.detachFromTarget', { sessionId });
cdp.close();
writeFileSync(out, JSON.stringify(profile));

const mapFile = readdirSync(join(dist, 'assets')).find((f) => /^sim\.worker-.*\.js\.map$/.test(f));
const map = mapFile ? new SourceMapConsumer(JSON.parse(readFileSync(join(dist, 'assets', mapFile), 'utf8'))) : null;
const where = ({ lineNumber, columnNumber, url }: ProfileNode['callFrame']): string => {
  if (lineNumber < 0 || !map || !(url.startsWith('blob:') || url.includes('sim.worker'))) return '';
  const original = map.originalPositionFor({ line: lineNumber + 1, column: columnNumber });
  return original.source ? `${original.source.replace(/^(\.\.\/)+/, '')}:${original.line}` : '';
};
const total = profile.nodes.reduce((sum, node) => sum + node.hitCount, 0);
const byFunction = new Map<string, number>();
for (const node of profile.nodes) {
  const key = `${node.callFrame.functionName || '(anonymous)'}  ${where(node.callFrame)}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + node.hitCount);
}
console.log(`${out}: ${total} samples in ${seconds} s`);
for (const [key, hits] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${((100 * hits) / total).toFixed(1).padStart(5)} %  ${key}`);

// The page's keyspace mirror at 150,000 Pods' size (issue 20, part 4): its heap after a full collection,
// how long a full collection takes with it held, how long a seek's move of every key and a played diff take.
// The page's long frames at that size were its own mark-compacts (docs/performance.md, session 30).
//   node --expose-gc --import tsx bench/keyspace-mirror.ts [keys=800000]
// Not part of `npm run bench` (it needs --expose-gc); the figures are in docs/performance.md.

import { KeyMetaColumnsBuilder, type KeyspaceDiffEvent } from '../src/protocol/index.ts';
import { applyDiff, applyMove, emptyKeyspace, type KeyspaceState } from '../src/ui/store/keyspace.ts';

const count = Number(process.argv[2] ?? 800_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const mib = 1024 * 1024;

// Keys shaped as at 150,000 Pods: pods, events, endpointslices, leases; sorted as etcd's index is.
const kinds = ['pods', 'events', 'events', 'events', 'leases'];
const keys = Array.from({ length: count }, (_, i) => `/registry/${kinds[i % 5]}/default/web-7d9f8c6b5-${(i * 7919 % count).toString(36).padStart(5, 'x')}${i % 5 === 1 ? '.17a8b9c0d1e2f3a4' : ''}`).sort();

gc();
gc();
const base = process.memoryUsage().heapUsed;
const columns = new KeyMetaColumnsBuilder();
keys.forEach((key, i) => columns.add({ key, createRevision: i + 1, modRevision: 2 * count + i, version: 3, lease: i % 5 === 1 ? '7587862153545718293' : '0', size: 3_400 }, 5 * count + i));
const move = { type: 'keyspaceMove' as const, revision: 3 * count, compactRevision: count, set: columns.build(), removed: [] };
let started = performance.now();
let state: KeyspaceState = applyMove(emptyKeyspace, move);
const moveMs = performance.now() - started;

// A second of play at the head: 60 diffs, each a Pod's status, its Event and a node's lease.
const value = 'x'.repeat(3_400);
let revision = 3 * count;
started = performance.now();
for (let d = 0; d < 600; d++) {
  const changes: KeyspaceDiffEvent['changes'][number][] = [];
  for (let c = 0; c < 3; c++) {
    const key = keys[(d * 3 + c) * 997 % count]!;
    changes.push({ key, createRevision: ((d * 3 + c) * 997 % count) + 1, modRevision: ++revision, version: 4, lease: '0', value, deleted: false, step: 6 * count + d });
  }
  state = applyDiff(state, { type: 'keyspaceDiff', revision, compactRevision: count, changes });
}
const diffMs = (performance.now() - started) / 600;
gc();
gc();
const heap = (process.memoryUsage().heapUsed - base) / mib;
const collections: number[] = [];
for (let i = 0; i < 5; i++) {
  started = performance.now();
  gc();
  collections.push(performance.now() - started);
}
collections.sort((a, b) => a - b);
console.log(JSON.stringify({
  keys: state.live.keys.length, heldRecords: state.live.entries.size,
  heapMiB: Math.round(heap), fullGcMedianMs: Math.round(collections[2]!), moveMs: Math.round(moveMs), diffMs: Number(diffMs.toFixed(3)),
}));

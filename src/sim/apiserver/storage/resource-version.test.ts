// The resourceVersion semantics of the reference's table D.1, cell by cell, on both paths: the etcd
// store alone (what an uncached resource gets) and the watch cache in front of it.
//
// Every case starts from the same history, then asks its question at once:
//   rev 2  create a {v:1}      rev 3  create b      rev 4  update a {v:2}      (seen by both paths)
//   rev 5  create c, written by someone else: etcd has it, the watch cache learns of it 1 ms later.
// So "Most Recent" sees c@5; "Any" from the cache does not; "Not older than 3" may answer at 4;
// "Exact 3" is a@2 b@3.
// Cells marked invalid are rejected by ValidateListOptions in the handler before storage is asked; the
// rows check only that the cacher sends them to etcd rather than answering from the cache.

import { describe, expect, it } from 'vitest';
import type { Status } from '../../api/types/meta.ts';
import type { ListOptions, ListResult, ResourceVersionMatch, Storage } from './interface.ts';
import {
  listOptions, pod, podKey, podResource, predicate, setLabels, watchOptions, WatchRecorder,
} from './contract-fixtures.ts';
import { StorageBench } from './testing.ts';

type Path = 'etcd' | 'cache';

function history(path: Path): { bench: StorageBench; store: Storage } {
  const bench = new StorageBench();
  const store = path === 'etcd' ? bench.etcd3Store(podResource) : bench.cacher(podResource);
  bench.settle();
  bench.run(store.create(podKey('a'), pod('a', { v: '1' }), 0));
  bench.run(store.create(podKey('b'), pod('b'), 0));
  bench.run(store.guaranteedUpdate(podKey('a'), { ignoreNotFound: false }, setLabels({ v: '2' })));
  bench.etcdServer.kv.put({ key: podKey('c'), value: JSON.stringify(pod('c')) });
  return { bench, store };
}

/** `a@4 b@3 c@5 | rv 5 [continue]`, or `<code> <message>` for a failure; `+Nms` when it had to wait. */
function outcome(bench: StorageBench, run: () => ListResult): string {
  const start = bench.sim.now;
  let text: string;
  try {
    const list = run();
    text = `${list.items.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).join(' ')} | rv ${list.resourceVersion}${list.continueToken ? ' continue' : ''}`;
  } catch (err) {
    const status = (err as { status?: Status }).status;
    if (!status) throw err;
    text = `${status.code} ${status.message}${status.details?.retryAfterSeconds ? ` retry ${status.details.retryAfterSeconds}` : ''}`;
  }
  const waited = bench.sim.now - start;
  return waited >= 1_000 ? `${text} +${waited}ms` : text;
}

/** A continue token pinned at revision 3, from the first page of an Exact list at 3. */
function continueAt3(bench: StorageBench, store: Storage): string {
  const first = bench.run(store.getList('/registry/pods/', listOptions({ resourceVersion: '3', resourceVersionMatch: 'Exact', predicate: predicate(undefined, 1) })));
  return first.continueToken!;
}

interface ListCell {
  readonly match: ResourceVersionMatch;
  readonly paging: 'none' | 'limit' | 'limit+continue';
  readonly rv: string;
  /** The documented semantics. */
  readonly semantics: string;
  readonly etcd: string;
  readonly cache: string;
  /** The cache answers from its own state (no etcd request). */
  readonly fromCache?: true;
}

const mostRecent = 'a@4 b@3 c@5 | rv 5';
const cachedState = 'a@4 b@3 | rv 4';

const listCells: ListCell[] = [
  { match: '', paging: 'none', rv: '', semantics: 'Most Recent', etcd: mostRecent, cache: mostRecent },
  { match: '', paging: 'none', rv: '0', semantics: 'Any', etcd: mostRecent, cache: cachedState, fromCache: true },
  { match: '', paging: 'none', rv: '3', semantics: 'Not older than', etcd: mostRecent, cache: cachedState, fromCache: true },
  { match: '', paging: 'none', rv: '5', semantics: 'Not older than (the cache waits for it)', etcd: mostRecent, cache: mostRecent, fromCache: true },
  { match: '', paging: 'limit', rv: '', semantics: 'Most Recent', etcd: 'a@4 | rv 5 continue', cache: 'a@4 | rv 5 continue' },
  { match: '', paging: 'limit', rv: '0', semantics: 'Any (the cache ignores limit)', etcd: 'a@4 | rv 5 continue', cache: cachedState, fromCache: true },
  { match: '', paging: 'limit', rv: '3', semantics: 'Exact', etcd: 'a@2 | rv 3 continue', cache: 'a@2 | rv 3 continue' },
  { match: '', paging: 'limit+continue', rv: '', semantics: 'Continue Token, Exact', etcd: 'b@3 | rv 3', cache: 'b@3 | rv 3' },
  { match: '', paging: 'limit+continue', rv: '0', semantics: 'Invalid, treated as Continue Token, Exact', etcd: 'b@3 | rv 3', cache: 'b@3 | rv 3' },
  {
    match: '', paging: 'limit+continue', rv: '3', semantics: 'Invalid, HTTP 400',
    etcd: '400 specifying resource version is not allowed when using continue', cache: '400 specifying resource version is not allowed when using continue',
  },
  { match: 'Exact', paging: 'none', rv: '', semantics: 'Invalid', etcd: mostRecent, cache: mostRecent },
  { match: 'Exact', paging: 'none', rv: '0', semantics: 'Invalid', etcd: mostRecent, cache: mostRecent },
  { match: 'Exact', paging: 'none', rv: '3', semantics: 'Exact', etcd: 'a@2 b@3 | rv 3', cache: 'a@2 b@3 | rv 3' },
  { match: 'Exact', paging: 'limit', rv: '3', semantics: 'Exact', etcd: 'a@2 | rv 3 continue', cache: 'a@2 | rv 3 continue' },
  { match: 'NotOlderThan', paging: 'none', rv: '', semantics: 'Invalid', etcd: mostRecent, cache: mostRecent },
  { match: 'NotOlderThan', paging: 'none', rv: '0', semantics: 'Any', etcd: mostRecent, cache: cachedState, fromCache: true },
  { match: 'NotOlderThan', paging: 'none', rv: '3', semantics: 'Not older than', etcd: mostRecent, cache: cachedState, fromCache: true },
  { match: 'NotOlderThan', paging: 'limit', rv: '0', semantics: 'Any (the cache ignores limit)', etcd: 'a@4 | rv 5 continue', cache: cachedState, fromCache: true },
  { match: 'NotOlderThan', paging: 'limit', rv: '3', semantics: 'Not older than (etcd, latest)', etcd: 'a@4 | rv 5 continue', cache: 'a@4 | rv 5 continue' },
];

describe('resourceVersion semantics of LIST (D.1), on both paths', () => {
  for (const cell of listCells) {
    for (const path of ['etcd', 'cache'] as const) {
      it(`${path}: match ${cell.match || 'unset'}, ${cell.paging}, RV ${JSON.stringify(cell.rv)} → ${cell.semantics}`, () => {
        const { bench, store } = history(path);
        const token = cell.paging === 'limit+continue' ? continueAt3(bench, store) : '';
        const limit = cell.paging === 'none' ? 0 : 1;
        const opts: ListOptions = listOptions({ resourceVersion: cell.rv, resourceVersionMatch: cell.match, predicate: predicate(undefined, limit, token) });
        const mark = bench.etcdLog().length;
        const answer = outcome(bench, () => bench.run(store.getList('/registry/pods/', opts)));
        expect(answer).toBe(cell[path]);
        // Whatever the cache does not answer itself costs etcd requests (a 400 is answered before any).
        const asksEtcd = !(path === 'cache' && cell.fromCache) && !answer.startsWith('400');
        expect(bench.etcdLog().length > mark).toBe(asksEtcd);
      });
    }
  }

  it('a resourceVersion neither has reached: etcd answers 504 at once, the cache after waiting 3 s, with Retry-After', () => {
    for (const [path, expected] of [
      ['etcd', '504 Timeout: Too large resource version: 9, current: 5'],
      ['cache', '504 Timeout: Too large resource version: 9, current: 5 retry 1 +3000ms'],
    ] as const) {
      const { bench, store } = history(path);
      expect(outcome(bench, () => bench.run(store.getList('/registry/pods/', listOptions({ resourceVersion: '9' }))))).toBe(expected);
    }
  });
});

describe('resourceVersion semantics of GET (D.1), on both paths', () => {
  const cells = [
    { rv: '', semantics: 'Most Recent', etcd: 'c@5', cache: 'c@5' },
    { rv: '0', semantics: 'Any', etcd: 'c@5', cache: 'not found' },
    { rv: '5', semantics: 'Not older than (the cache waits for it)', etcd: 'c@5', cache: 'c@5' },
    { rv: '9', semantics: 'Not older than, never reached', etcd: '504 current 5', cache: '504 current 5 after 3000ms' },
  ];
  for (const cell of cells) {
    for (const path of ['etcd', 'cache'] as const) {
      it(`${path}: RV ${JSON.stringify(cell.rv)} → ${cell.semantics}`, () => {
        const { bench, store } = history(path);
        const start = bench.sim.now;
        let text: string;
        try {
          const got = bench.run(store.get(podKey('c'), { resourceVersion: cell.rv, ignoreNotFound: true }));
          text = got === null ? 'not found' : `${got.metadata.name}@${got.metadata.resourceVersion}`;
        } catch (err) {
          text = `${(err as { status: Status }).status.code} current 5`;
          if (bench.sim.now - start >= 1_000) text += ` after ${bench.sim.now - start}ms`;
        }
        expect(text).toBe(cell[path]);
      });
    }
  }
});

describe('resourceVersion semantics of WATCH (D.1), on both paths', () => {
  const cells = [
    // The cache's "state" is its own: c arrives as a live ADDED after the synthetic ones.
    { rv: '', semantics: 'Get State and Start at Most Recent', etcd: ['ADDED a@4', 'ADDED b@3', 'ADDED c@5'], cache: ['ADDED a@4', 'ADDED b@3', 'ADDED c@5'] },
    { rv: '0', semantics: 'Get State and Start at Any', etcd: ['ADDED a@4', 'ADDED b@3', 'ADDED c@5'], cache: ['ADDED a@4', 'ADDED b@3', 'ADDED c@5'] },
    { rv: '3', semantics: 'Start at Exact', etcd: ['MODIFIED a@4', 'ADDED c@5'], cache: ['MODIFIED a@4', 'ADDED c@5'] },
  ];
  for (const cell of cells) {
    for (const path of ['etcd', 'cache'] as const) {
      it(`${path}: RV ${JSON.stringify(cell.rv)} → ${cell.semantics}`, () => {
        const { bench, store } = history(path);
        const rec = new WatchRecorder(bench);
        const initial = bench.begin(store.watch('/registry/pods', watchOptions({ resourceVersion: cell.rv }), rec));
        if (path === 'cache') {
          // Served from the cache at once, before c reached it.
          expect(initial.result()).toBeDefined();
          expect(rec.summary()).toEqual(cell.rv === '3' ? ['MODIFIED a@4'] : ['ADDED a@4', 'ADDED b@3']);
        }
        bench.settle();
        expect(rec.summary()).toEqual(cell[path]);
      });
    }
  }
});

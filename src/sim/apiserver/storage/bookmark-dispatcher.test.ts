import { describe, expect, it } from 'vitest';
import { pod, podKey, settledCacher, watchOptions, WatchRecorder } from './contract-fixtures.ts';

describe('Cacher: bookmarks', () => {
  function bookmarks(rec: WatchRecorder): Array<{ at: number; rv: string | undefined }> {
    return rec.events.filter((e) => e.type === 'BOOKMARK').map((e) => ({ at: e.at, rv: e.object.metadata.resourceVersion }));
  }

  it('every minute or so, carrying the RV of the last change, once something newer than the watch start happened', () => {
    const { bench, cacher } = settledCacher();
    bench.run(cacher.create(podKey('a'), pod('a'), 0));
    const rec = new WatchRecorder(bench);
    const start = bench.sim.now;
    bench.run(cacher.watch('/registry/pods', watchOptions({ allowWatchBookmarks: true }), rec));
    bench.sim.runFor(70_000);
    // The only bookmark due so far would carry RV 2, the watch's own start: not sent.
    expect(bookmarks(rec)).toEqual([]);
    bench.run(cacher.create(podKey('b'), pod('b'), 0));
    bench.sim.runFor(300_000);
    const got = bookmarks(rec);
    expect(got.map((b) => b.rv)).toEqual(['3', '3', '3', '3', '3']);
    // Due at X, a bookmark comes within (X − 1 s, X + 1.25 s): one-second buckets, popped by a jittered tick.
    expect(got[0]!.at - start).toBeGreaterThan(118_000);
    expect(got[0]!.at - start).toBeLessThan(122_500);
    for (let i = 1; i < got.length; i++) {
      expect(got[i]!.at - got[i - 1]!.at).toBeGreaterThan(59_000);
      expect(got[i]!.at - got[i - 1]!.at).toBeLessThan(61_250);
    }
    expect(rec.events.find((e) => e.type === 'BOOKMARK')!.object).toEqual({ kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: '3' } });
  });

  it('none from a cacher that has not seen a change yet, none without allowWatchBookmarks', () => {
    const { bench, cacher } = settledCacher();
    const rec = new WatchRecorder(bench);
    bench.run(cacher.watch('/registry/pods', watchOptions({ allowWatchBookmarks: true }), rec));
    bench.sim.runFor(300_000);
    expect(rec.events).toEqual([]);
    const without = new WatchRecorder(bench);
    bench.run(cacher.watch('/registry/pods', watchOptions({ allowWatchBookmarks: false }), without));
    bench.run(cacher.create(podKey('a'), pod('a'), 0));
    bench.sim.runFor(300_000);
    expect(without.summary()).toEqual(['ADDED a@2']);
    expect(bookmarks(rec).length).toBeGreaterThan(0);
  });

  it('one 2 s before the watch deadline, and none after it', () => {
    const { bench, cacher } = settledCacher();
    const start = bench.sim.now;
    const rec = new WatchRecorder(bench);
    bench.run(cacher.watch('/registry/pods', watchOptions({ allowWatchBookmarks: true, deadline: start + 30_000 }), rec));
    bench.run(cacher.create(podKey('a'), pod('a'), 0));
    bench.sim.runFor(300_000);
    const got = bookmarks(rec);
    expect(got).toHaveLength(1);
    expect(got[0]!.at - start).toBeGreaterThan(27_000);
    expect(got[0]!.at - start).toBeLessThan(28_000 + 1_250);
  });

  it('are background work: an idle cluster with bookmark watchers still settles', () => {
    const { bench, cacher } = settledCacher();
    bench.run(cacher.create(podKey('a'), pod('a'), 0));
    bench.run(cacher.watch('/registry/pods', watchOptions({ allowWatchBookmarks: true, resourceVersion: '1' }), new WatchRecorder(bench)));
    expect(bench.sim.runUntilIdle().reason).toBe('idle');
    expect(bench.sim.pending).toBeGreaterThan(0);
  });
});

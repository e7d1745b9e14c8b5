import { describe, expect, it } from 'vitest';
import type { WatchResponse } from '../../etcd/index.ts';
import { StorageBench } from './testing.ts';

/** A bench with one watch on `/a/` and a way to write keys. */
function benchWithWatch() {
  const bench = new StorageBench('watch-client');
  const responses: WatchResponse[] = [];
  const put = (key: string, value: string) => bench.run(bench.etcd.txn({ success: [{ requestPut: { key, value } }] }));
  const watch = bench.run(bench.watches.watch({ key: '/a/', rangeEnd: '/a0', prevKv: true }, (r) => responses.push(r)));
  const events = () => responses.flatMap((r) => r.events.map((e) => `${e.kv.key}@${e.kv.modRevision}`));
  return { bench, responses, put, watch, events };
}

describe('EtcdWatchRouter: clientv3 resume after a broken stream', () => {
  it('creates the watch again from the revision after its last event: no event is lost or repeated', () => {
    const { bench, put, events } = benchWithWatch();
    put('/a/1', 'x');
    put('/b/1', 'y');
    bench.settle();
    expect(events()).toEqual(['/a/1@2']);
    expect(bench.etcdServer.breakWatchStreams('kube-apiserver')).toBe(1);
    put('/a/2', 'x'); // written while the stream is down
    bench.settle();
    put('/a/3', 'x');
    bench.settle();
    expect(events()).toEqual(['/a/1@2', '/a/2@4', '/a/3@5']);
    const creates = bench.sim.trace.all().filter((m) => m.kind === 'etcd.Watch')
      .map((m) => (m.payload as { request: { createRequest?: { startRevision?: number } } }).request.createRequest);
    // The first create had no start revision (from now); the resume starts after the last event seen.
    expect(creates.map((c) => c?.startRevision)).toEqual([undefined, 3]);
    expect(bench.watches.size).toBe(1);
  });

  it('a resume from a compacted revision gets the compaction notice, and the watch is gone', () => {
    const { bench, put, responses } = benchWithWatch();
    put('/a/1', 'x');
    put('/b/1', 'y');
    put('/b/2', 'y');
    bench.settle();
    bench.run(bench.etcd.compact({ revision: 4 }));
    bench.etcdServer.breakWatchStreams('kube-apiserver');
    bench.settle();
    const last = responses.at(-1)!;
    expect(last).toMatchObject({ canceled: true, compactRevision: 4 });
    expect(bench.watches.size).toBe(0);
  });

  it('a watch canceled while it is being created again is canceled on etcd once created', () => {
    const { bench, put, watch, events } = benchWithWatch();
    bench.etcdServer.breakWatchStreams('kube-apiserver');
    watch.cancel();
    bench.settle();
    put('/a/1', 'x');
    bench.settle();
    expect(events()).toEqual([]);
    expect(bench.watches.size).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { Compactor, compactRevKey } from './compactor.ts';
import { StorageBench } from './testing.ts';

describe('Compactor', () => {
  it('claims the first turn without compacting, then compacts to the revision seen on the previous turn', () => {
    const bench = new StorageBench();
    const compactor = new Compactor(bench.etcd);
    bench.etcdServer.kv.put({ key: 'a', value: '1' });
    expect(bench.run(compactor.compactOnce())).toBeNull();
    const afterFirst = bench.etcdServer.kv.range({ key: compactRevKey }).kvs[0]!;
    expect(afterFirst).toMatchObject({ value: '0', version: 1 });
    const seen = afterFirst.modRevision;
    bench.etcdServer.kv.put({ key: 'a', value: '2' });
    expect(bench.run(compactor.compactOnce())).toBe(seen);
    const line = bench.etcdLog().find((l) => l.includes('compact_rev_key'));
    // VERSION is the enum's zero value, so the text format leaves the target out.
    expect(line).toBe('compare:<key:"compact_rev_key" version:0 > success:<request_put:<key:"compact_rev_key" value_size:1 >> failure:<request_range:<key:"compact_rev_key" > >');
  });

  it('loses the race to another apiserver, adopts its compact time, and wins the next turn', () => {
    const bench = new StorageBench();
    const mine = new Compactor(bench.etcd);
    const other = new Compactor(bench.etcd);
    expect(bench.run(other.compactOnce())).toBeNull();
    expect(bench.run(mine.compactOnce())).toBeNull();
    expect(bench.run(mine.compactOnce())).not.toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { Backend } from './backend.ts';
import { noLease, type KeyValue } from './kv.ts';
import { revisionId, type Revision } from './revision.ts';

const kv = (key: string, main: number): KeyValue => ({ key, createRevision: main, modRevision: main, version: 1, value: `v${main}`, lease: noLease });

function all(b: Backend, min = 0, max = Number.MAX_SAFE_INTEGER): string[] {
  const seen: string[] = [];
  b.rangeRevisions(min, max, (x: KeyValue, rev: Revision) => seen.push(`${rev.main}.${rev.sub}:${x.key}`));
  return seen;
}

describe('etcd backend', () => {
  it('keeps what compaction keeps across compactions, in revision order, and reads it by revision and by range', () => {
    const b = new Backend();
    for (let main = 1; main <= 10; main++) b.put(main, 0, kv(`k${main % 3}`, main));
    b.put(10, 1, kv('k9', 10));
    expect(b.compact(6, new Set([revisionId(2, 0), revisionId(6, 0)]))).toBe(4);
    expect(all(b)).toEqual(['2.0:k2', '6.0:k0', '7.0:k1', '8.0:k2', '9.0:k0', '10.0:k1', '10.1:k9']);
    expect(b.get({ main: 6, sub: 0 }).value).toBe('v6');
    expect(() => b.get({ main: 5, sub: 0 })).toThrow('no key-value at revision 5.0');
    expect(all(b, 3, 9)).toEqual(['6.0:k0', '7.0:k1', '8.0:k2']);
    expect(all(b, 6, 7)).toEqual(['6.0:k0']);
    // A second compaction drops from both parts: the kept revision 2 and the tail's 7 and 10.0.
    expect(b.compact(10, new Set([revisionId(6, 0), revisionId(8, 0), revisionId(9, 0), revisionId(10, 1)]))).toBe(3);
    expect(all(b)).toEqual(['6.0:k0', '8.0:k2', '9.0:k0', '10.1:k9']);
    expect(b.size).toBe(4);
    b.put(11, 0, kv('k2', 11));
    expect(all(b, 9)).toEqual(['9.0:k0', '10.1:k9', '11.0:k2']);
    expect(() => b.put(10, 2, kv('late', 10))).toThrow('at or below the compacted revision 10');
  });
});

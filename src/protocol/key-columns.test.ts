import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forEachKeyMeta, keysUnder, packKeyMetas } from './key-columns.ts';
import type { KeyMeta } from './keyspace.ts';
import { decodeWire, encodeWire } from './wire.ts';

/** A key's meta and step: keys are byte strings (any char 0–255, '\n' and '' included), leases int64 decimals. */
const metaArb = fc.record({
  key: fc.string({ unit: fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c)), maxLength: 40 }),
  createRevision: fc.integer({ min: 1, max: 2 ** 40 }),
  modRevision: fc.integer({ min: 1, max: 2 ** 40 }),
  version: fc.integer({ min: 1, max: 1e6 }),
  lease: fc.oneof(fc.constant('0'), fc.bigInt({ min: 1n, max: 2n ** 63n - 1n }).map(String)),
  size: fc.integer({ min: 0, max: 1.5 * 2 ** 20 }),
  step: fc.integer({ min: 0, max: 2 ** 40 }),
});

function unpacked(columns: ReturnType<typeof packKeyMetas>): (KeyMeta & { step: number })[] {
  const metas: (KeyMeta & { step: number })[] = [];
  forEachKeyMeta(columns, (meta, step) => metas.push({ ...meta, step }));
  return metas;
}

describe('keys without values in columns', () => {
  it('give back every meta, step and key as packed, in order', () => {
    fc.assert(fc.property(fc.array(metaArb, { maxLength: 300 }), (metas) => {
      const columns = packKeyMetas(metas);
      expect(columns.count).toBe(metas.length);
      expect(unpacked(columns)).toEqual(metas);
      for (const prefix of ['', 'a', '/registry/pods/', metas[0]?.key.slice(0, 2) ?? 'x']) {
        expect(keysUnder(columns, prefix)).toEqual(metas.map((m) => m.key).filter((key) => key.startsWith(prefix)));
      }
      // Leases are kept once each.
      expect(columns.leases.length).toBe(new Set(metas.map((m) => m.lease)).size);
    }));
  });

  it('name the keys under a prefix, not a short key that the next one continues', () => {
    const meta = (key: string): KeyMeta => ({ key, createRevision: 1, modRevision: 1, version: 1, lease: '0', size: 1 });
    const columns = packKeyMetas(['/registry/pod', 's/x', '/registry/pods/a', '/registry/podsx'].map(meta));
    expect(keysUnder(columns, '/registry/pods/')).toEqual(['/registry/pods/a']);
    expect(keysUnder(columns, '/registry/pods')).toEqual(['/registry/pods/a', '/registry/podsx']);
  });

  it('cross the live server\'s WebSocket as they cross postMessage', () => {
    fc.assert(fc.property(fc.array(metaArb, { maxLength: 30 }), (metas) => {
      const event = { type: 'keyspaceMove', revision: 9, compactRevision: -1, set: packKeyMetas(metas), removed: [] };
      const back = decodeWire(encodeWire(event)) as typeof event;
      expect(back.set.numbers).toBeInstanceOf(Float64Array);
      expect(back.set.keyEnds).toBeInstanceOf(Uint32Array);
      expect(unpacked(back.set)).toEqual(metas);
    }));
  });
});

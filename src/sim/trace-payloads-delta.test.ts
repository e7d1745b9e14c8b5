import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyDelta, delta } from './trace-payloads-delta.ts';

const key = fc.constantFrom('type', 'name', 'status', 'metadata', 'uid', '$k', '$v', '$n', '$f', '$setElementOrder/conditions', 'a', 'b', 'c', '0');
/** What JSON writes otherwise than its fields: bytes, a value with toJSON. */
class Stamp {
  constructor(readonly at: number) {}
  toJSON(): string {
    return `t${this.at}`;
  }
}
const odd = fc.oneof(fc.constant(new Uint8Array([1, 2])), fc.integer().map((at) => new Stamp(at)), fc.constant({ toJSON: () => 7 }), fc.constant(() => 1));
const leaf = fc.oneof(fc.constantFrom('Ready', 'True', 'False', 'web', ''), fc.integer({ min: -3, max: 3 }), fc.boolean(), fc.constant(null), fc.double(), fc.constant(undefined), odd);
/** JSON-like values as components build them: small objects (any key order, some undefined fields), arrays of items with merge keys. */
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('object'), tie('array')),
  object: fc.dictionary(key, tie('node'), { maxKeys: 5 }),
  array: fc.array(fc.oneof(tie('node'), fc.record({ type: fc.constantFrom('Ready', 'Initialized', 'PodScheduled'), status: tie('node') })), { maxLength: 4 }),
})).node.filter((v) => JSON.stringify(v) !== undefined);

/** `base` changed as a client changes an object: fields set, dropped or reordered, list items moved or dropped. */
function edited(base: unknown, seed: number): unknown {
  if (Array.isArray(base)) {
    const items = base.map((item, i) => edited(item, seed * 7 + i));
    if (seed % 3 === 0) items.reverse();
    if (seed % 5 === 1) items.pop();
    return items;
  }
  if (base === null || typeof base !== 'object') return seed % 4 === 0 ? `${String(base)}!` : base;
  const entries = Object.entries(base).map(([k, v], i) => [k, edited(v, seed * 3 + i)] as const);
  if (seed % 2 === 0) entries.reverse();
  if (seed % 7 === 3) entries.shift();
  if (seed % 11 === 5) entries.push(['added', { nested: [1, 'x'] }]);
  return Object.fromEntries(entries);
}

/** A copy with the same JSON text (what etcd's history gives back: equal bytes, other objects). */
const reread = (v: unknown): unknown => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

describe('a body as an edit of a stored object', () => {
  it('gives back the same JSON text over any base with the base\'s JSON text', () => {
    fc.assert(fc.property(value, value, fc.nat(1000), (v, other, seed) => {
      for (const [body, base] of [[edited(v, seed), v], [v, edited(v, seed)], [v, other], [v, v]] as const) {
        const d = delta(body, base);
        expect(JSON.stringify(applyDelta(d, reread(base)))).toBe(JSON.stringify(body));
        // The edit is data: kept once as JSON text and read back, it gives the same.
        expect(JSON.stringify(applyDelta(d === undefined ? undefined : JSON.parse(JSON.stringify(d)), reread(base)))).toBe(JSON.stringify(body));
      }
    }), { numRuns: 1000 });
  });

  it('keeps only what differs: nothing for an equal value, key order alone for reordered fields, moved list items by index', () => {
    const stored = { kind: 'Pod', metadata: { name: 'p', uid: 'u', resourceVersion: '7' }, status: { conditions: [{ type: 'Initialized', status: 'True' }, { type: 'Ready', status: 'False' }] } };
    expect(delta(reread(stored), stored)).toBeUndefined();
    expect(delta({ metadata: { uid: 'u' }, status: { conditions: [{ status: 'False', type: 'Ready' }] } }, stored)).toEqual({
      $k: ['metadata', 'status'], metadata: { $k: ['uid'] }, status: { conditions: { $n: 1, 0: { $k: ['status', 'type'], $f: 1 } } },
    });
    expect(delta({ ...stored, metadata: { ...stored.metadata, resourceVersion: '6' } }, stored)).toEqual({ metadata: { resourceVersion: '6' } });
  });
});

import fc from 'fast-check';
import { applyDelta, createDelta, getDeltaTargetSize } from 'fossil-delta';
import { describe, expect, it } from 'vitest';
import { bytesToByteString } from './bytes.ts';
import { applyFossilDelta, fossilTargetSize } from './delta-apply.ts';

/** A target made of the source by edits (so the delta copies runs of it) or of other bytes altogether. */
const pair = fc.tuple(fc.uint8Array({ maxLength: 3000 }), fc.array(fc.tuple(fc.nat(3000), fc.nat(40), fc.uint8Array({ maxLength: 30 })), { maxLength: 12 }), fc.boolean())
  .map(([source, edits, unrelated]) => {
    if (unrelated) return { source, target: Uint8Array.from(source, (b) => b ^ 0x5a).reverse() };
    let target = Array.from(source);
    for (const [at, cut, insert] of edits) target = [...target.slice(0, at), ...insert, ...target.slice(at + cut)];
    return { source, target: Uint8Array.from(target) };
  });

describe('applyFossilDelta', () => {
  it('rebuilds what fossil-delta rebuilds, from bytes or a byte string', () => {
    fc.assert(fc.property(pair, ({ source, target }) => {
      const delta = createDelta(source, target);
      const text = bytesToByteString(delta);
      const rebuilt = applyFossilDelta(source, text);
      expect(rebuilt).toEqual(target);
      expect(rebuilt).toEqual(applyDelta(source, delta));
      expect(applyFossilDelta(bytesToByteString(source), text)).toEqual(target);
      expect(fossilTargetSize(text)).toBe(target.length);
      expect(fossilTargetSize(text)).toBe(getDeltaTargetSize(delta));
    }), { numRuns: 300 });
  });

  it('rejects a delta that is cut short or copies past its source, as fossil-delta does', () => {
    const source = Uint8Array.from({ length: 200 }, (_, i) => i % 7);
    const target = Uint8Array.from([...source.slice(0, 150), 1, 2, 3, ...source.slice(10, 120)]);
    const delta = bytesToByteString(createDelta(source, target));
    const bytes = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
    // Cut short, longer than it says, an unknown command: both refuse.
    for (const bad of [delta.slice(0, -2), delta.slice(0, delta.indexOf('\n') + 1), `1${delta}`, '3\n3?x;']) {
      expect(() => applyDelta(source, bytes(bad), { verifyChecksum: false }), bad).toThrow();
      expect(() => applyFossilDelta(source, bad), bad).toThrow();
    }
    expect(() => applyFossilDelta(source.subarray(0, 100), delta)).toThrow('copy extends past end of input');
    expect(() => applyFossilDelta(source, '3\n3?x;')).toThrow('unknown delta operator');
  });
});

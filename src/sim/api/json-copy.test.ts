import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copyJson } from './json-copy.ts';

const viaJson = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
/** The copy and the JSON round trip agree byte for byte, key order included, and share nothing. */
function same(v: unknown): void {
  const copy = copyJson(v);
  expect(JSON.stringify(copy)).toBe(JSON.stringify(viaJson(v)));
  expect(copy).toStrictEqual(viaJson(v));
}

describe('copyJson', () => {
  it('equals the JSON round trip on any JSON value, and is a new object', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => {
      same(v);
      if (typeof v === 'object' && v !== null) expect(copyJson(v)).not.toBe(v);
    }), { seed: 1, numRuns: 500 });
  });

  it('drops what JSON drops and converts what JSON converts', () => {
    const fn = () => 1;
    const input = {
      b: 1, a: undefined, f: fn, s: Symbol('x'), 2: 'two', 1: 'one', neg: -0, nan: Number.NaN, inf: -Infinity,
      list: [undefined, fn, Number.NaN, -0, { x: undefined }], nested: Object.freeze({ deep: Object.freeze([1, 2]) }),
      when: { toJSON: () => 'custom' }, map: new Map([[1, 2]]),
    };
    same(input);
    const copy = copyJson(input) as unknown as { nested: { deep: number[] }; neg: number };
    expect(Object.isFrozen(copy.nested)).toBe(false);
    expect(Object.is(copy.neg, 0)).toBe(true);
    same(JSON.parse('{"__proto__":{"polluted":true},"x":1}'));
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(() => copyJson({ n: 1n })).toThrow(TypeError);
  });

  it('copies own keys only when something enumerable was added to Object.prototype', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto['polluted'] = 1;
    try {
      same({ a: 1, b: { c: [{ d: 2 }] } });
      expect(Object.keys(copyJson({ a: { b: 1 } }).a)).toStrictEqual(['b']);
    } finally {
      delete proto['polluted'];
    }
  });
});

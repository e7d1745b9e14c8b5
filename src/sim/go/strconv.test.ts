import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { goQuote, utf8Length } from './strconv.ts';

describe('goQuote (strconv.Quote)', () => {
  it.each([
    ['x', '"x"'],
    ['', '""'],
    ['say "hi"', '"say \\"hi\\""'],
    ['back\\slash', '"back\\\\slash"'],
    ['a\nb\tc', '"a\\nb\\tc"'],
    ['\x00\x7f', '"\\x00\\x7f"'],
    ['ünïcødé 日本', '"ünïcødé 日本"'],
    ['\u00a0', '"\\u00a0"'],
    ['\u{1F600}', '"\u{1F600}"'],
  ])('quotes %j as %s', (input, expected) => {
    expect(goQuote(input)).toBe(expected);
  });

  it('round-trips through JSON for printable ASCII (Go and JSON agree there)', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom(...' !#$%&()*+,-./09:;<=>?@AZ[]^_`az{|}~'.split('')) }), (s) => {
      expect(goQuote(s)).toBe(JSON.stringify(s));
    }));
  });
});

describe('utf8Length', () => {
  it('counts UTF-8 bytes as Go len() does', () => {
    expect(utf8Length('abc')).toBe(3);
    expect(utf8Length('é')).toBe(2);
    expect(utf8Length('日')).toBe(3);
    expect(utf8Length('\u{1F600}')).toBe(4);
  });
});

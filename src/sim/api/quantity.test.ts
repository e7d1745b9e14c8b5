import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalQuantity, compareQuantities, parseQuantity, quantityMilliValue, quantityString, quantityValue, roundUpQuantity, type Quantity } from './quantity.ts';

function q(s: string): Quantity {
  const r = parseQuantity(s);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

describe('Quantity', () => {
  // Canonical forms from apimachinery api/resource/quantity_test.go TestQuantityParse / TestQuantityString.
  it.each([
    ['0', '0'], ['0n', '0'], ['0u', '0'], ['0m', '0'], ['0Ki', '0'], ['0k', '0'], ['0Mi', '0'], ['0M', '0'],
    ['1', '1'], ['1m', '1m'], ['500m', '500m'], ['0.5', '500m'], ['0.1', '100m'], ['1.5', '1500m'],
    ['1000m', '1'], ['1000', '1k'], ['1k', '1k'], ['100M', '100M'], ['1e3', '1e3'], ['1E6', '1E6'], ['1.5e3', '1500'],
    ['128Mi', '128Mi'], ['1024Mi', '1Gi'], ['1Ki', '1Ki'], ['1.5Gi', '1536Mi'], ['0.5Gi', '512Mi'], ['100Mi', '100Mi'],
    ['0.5Ki', '512'], ['1023', '1023'], ['5Gi', '5Gi'], ['2048Ki', '2Mi'], ['0.0001', '100u'], ['1n', '1n'],
    ['0.1n', '1n'], ['-1', '-1'], ['-500m', '-500m'], ['+1', '+1'], ['12E', '12E'], ['1.1Ki', '1126400m'],
    ['1Ei', '1Ei'], ['8Ei', '9223372036854775807'],
  ])('%s → %s', (input, canonical) => {
    expect(canonicalQuantity(input)).toBe(canonical);
  });

  it.each([['', "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    ['1.1.1', "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    ['abc', "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    ['1Zi', "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    ['1mi', "unable to parse quantity's suffix"], ['1KiB', "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
  ])('rejects %j', (input, error) => {
    expect(parseQuantity(input)).toEqual({ ok: false, error });
  });

  it('computes values for the scheduler', () => {
    expect(quantityMilliValue(q('500m'))).toBe(500n);
    expect(quantityMilliValue(q('2'))).toBe(2000n);
    expect(quantityMilliValue(q('1n'))).toBe(1n);
    expect(quantityValue(q('128Mi'))).toBe(134217728n);
    expect(quantityValue(q('1.5'))).toBe(2n);
    expect(compareQuantities(q('1'), q('1000m'))).toBe(0);
    expect(compareQuantities(q('1Gi'), q('1G'))).toBe(1);
  });

  it('rounds up to milli scale as resource defaulting does', () => {
    expect(quantityString(roundUpQuantity(q('0.0001'), -3))).toBe('1m');
    expect(quantityString(roundUpQuantity(q('100m'), -3))).toBe('100m');
  });

  it('canonical forms are fixed points', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10 ** 6 }), fc.constantFrom('', 'm', 'k', 'Mi', 'Gi', 'Ki', 'n', 'M'), (n, suffix) => {
      const c = canonicalQuantity(`${n}${suffix}`)!;
      expect(canonicalQuantity(c)).toBe(c);
      expect(compareQuantities(q(c), q(`${n}${suffix}`))).toBe(0);
    }));
  });
});

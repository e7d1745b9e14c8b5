import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultEpochMs } from '../engine/time.ts';
import { canonicalTimeText, canonicalTimestamp, formatMicroTimestamp, formatTimestamp, parseTimestamp } from './time.ts';

describe('timestamps', () => {
  it('formats the engine epoch as the 1.28 release day', () => {
    expect(formatTimestamp(defaultEpochMs)).toBe('2023-08-15T00:00:00Z');
    expect(formatTimestamp(defaultEpochMs + 5_999)).toBe('2023-08-15T00:00:05Z');
    expect(formatMicroTimestamp(defaultEpochMs + 5_123.456)).toBe('2023-08-15T00:00:05.123456Z');
    expect(formatMicroTimestamp(defaultEpochMs)).toBe('2023-08-15T00:00:00.000000Z');
  });

  it('handles leap days, year ends and pre-epoch instants', () => {
    expect(formatTimestamp(951_782_400_000)).toBe('2000-02-29T00:00:00Z');
    expect(formatTimestamp(1_704_067_199_000)).toBe('2023-12-31T23:59:59Z');
    expect(formatTimestamp(0)).toBe('1970-01-01T00:00:00Z');
    expect(formatTimestamp(-1000)).toBe('1969-12-31T23:59:59Z');
  });

  it('parses RFC 3339 with fractions and offsets', () => {
    expect(parseTimestamp('2023-08-15T00:00:00Z')).toBe(defaultEpochMs);
    expect(parseTimestamp('2023-08-15T02:00:00.5+02:00')).toBe(defaultEpochMs + 500);
    expect(canonicalTimestamp('2023-08-14T19:00:00-05:00')).toBe('2023-08-15T00:00:00Z');
    for (const bad of ['2023-08-15', '2023-02-30T00:00:00Z', '2023-08-15T24:00:00Z', 'yesterday', '2023-08-15 00:00:00Z']) {
      expect(parseTimestamp(bad)).toBeUndefined();
    }
  });

  it('re-serializes as Time or MicroTime exactly, to year 9999 (no float milliseconds: near it they are coarser than a microsecond)', () => {
    expect(canonicalTimeText('9999-12-31T23:59:59.999999Z', true)).toBe('9999-12-31T23:59:59.999999Z');
    expect(canonicalTimeText('9999-12-31T23:59:59.999999Z', false)).toBe('9999-12-31T23:59:59Z');
    // Go's RFC3339Micro truncates: eleven nines stay in their second.
    expect(canonicalTimeText('2023-08-15T00:00:05.99999999999Z', true)).toBe('2023-08-15T00:00:05.999999Z');
    expect(canonicalTimeText('2023-08-15T02:00:05.5+02:00', true)).toBe('2023-08-15T00:00:05.500000Z');
    expect(canonicalTimeText('2023-02-30T00:00:00Z', true)).toBeUndefined();
  });

  it('round-trips every second between 1900 and 2200', () => {
    fc.assert(fc.property(fc.integer({ min: -2_208_988_800, max: 7_258_118_400 }), (secs) => {
      expect(parseTimestamp(formatTimestamp(secs * 1000))).toBe(secs * 1000);
    }));
  });
});
